/*
 * rules_int.h - what the rules loader (rules.c) and the rules matcher
 * (rules_match.c) share: the compiled form of a rules file. Not public.
 */
#ifndef TPROF_RULES_INT_H
#define TPROF_RULES_INT_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <pthread.h>
#include <stdatomic.h>

#include "base/base.h"
#include "gate.h"
#include "rules.h"

/* How a field's text becomes a value. */
enum conv {
	CV_NAME,  /* rec->name */
	CV_TEXT,  /* rec->text */
	CV_VALUE, /* meta value: a number if the whole text is one, else text */
	CV_NUM,   /* plain number, optionally followed by the field's unit */
	CV_INT,   /* integral number */
	CV_SEC,   /* duration, bare number = seconds, stored in seconds */
	CV_MS,    /* duration, bare number = ms, stored in ms */
	CV_MB,    /* memory size, bare number = MB, stored in MB */
	CV_TS,    /* timestamp, normalised to ISO 8601 */
	CV_RANK,  /* launcher rank, a non-negative int */
	CV_RATE,  /* a rate: number with an optional SI prefix (k M G T) */
	CV_CTX,   /* context text (context rules) */
	CV_ROLE,  /* a role's name (record.h), stored in rec->role */
	CV_PARENT /* what the value belongs to, rec->parent (a template like a name) */
};

/* Ids of the fields every type has besides its schema's. Schema fields
 * use their index, so an id is a bit in a "field already set" mask. */
enum {
	FID_TS = TP_NUM_SLOTS + 2, FID_RANK = TP_NUM_SLOTS + 3, FID_CTX = TP_NUM_SLOTS + 4,
	FID_ROLE = TP_NUM_SLOTS + 5, FID_PARENT = TP_NUM_SLOTS + 6
};


/* Longest excerpt of a value quoted in a message. */
#define EXCERPT_MAX 40

/* Longest context text kept from a context rule. */
#define CTX_MAX 128

/* Units a block header may set for its rows. */
#define MAX_HEADER_UNITS 8

/* One assignable field of a rule's record type. */
struct fspec {
	const char *name; /* public name (static storage) */
	const char *unit; /* for CV_NUM: unit text accepted after the number */
	enum conv conv;
	int slot; /* num[] slot for numeric kinds */
	int id;   /* FID_* or schema index */
};

/* A value read from text, ready to be stored in a record. */
struct value {
	double num;
	const char *str;
	size_t len;
	int is_num; /* CV_VALUE: which of num / str */
};

/* A named group and the field it fills. */
struct capture {
	uint32_t group;
	struct fspec f;
	double bare;   /* seconds per bare number from a __UNIT suffix; 0: the field's own */
	int unit_of;   /* header rules: this group is the unit of field unit_name */
	const char *unit_name;
};

/* A FIELD__u group: the unit text of a field's duration on the same line. */
struct ucap {
	uint32_t group;
	int id;
};

/* A FIELD="..." default from the rules file; str points into owned. */
struct constant {
	struct fspec f;
	struct value v;
	char *owned;
	int tmpl; /* a name template with {N}, {ctx} or {name} */
};

enum rule_kind { RK_RECORD, RK_CONTEXT, RK_START, RK_END, RK_SKIP, RK_HEADER };

enum {
	RF_EACH = 1,  /* every match along the line makes a record */
	RF_MORE = 2,  /* later rules are tried too */
	RF_RAW = 4,   /* match the line before prefix stripping */
	RF_BAR = 8,   /* match the last progress bar of a line */
	RF_SNAKE = 16, /* name lower-cased, non-alphanumerics to '_' */
	RF_COLUMNS = 32, /* header: names the block's columns; row: fields from them */
	RF_ADD = 64      /* in a hold block: adds its fields to the last held record */
};

/* A FIELD=@"Column" of a @columns row: the field takes that column's cell. */
struct colref {
	struct fspec f;
	char *col;  /* the column's heading, or several separated by '|' ("" a blank one) */
	int each;   /* FIELD=@*: every column no other field names, a record each */
};

/* Columns a @columns header may name, and the longest name kept. */
#define MAX_COLUMNS 32
#define COLUMN_NAME_MAX 48

/* Longest @need="..." literal. */
#define NEED_MAX 64

struct rule {
	enum rule_kind kind;
	enum tp_type type;
	unsigned lineno; /* in the rules file, for messages */
	int name_id;     /* schema index of the type's name field, -1 if none */
	pcre2_code *code;
	uint32_t npairs; /* its groups + 1: the ovector pairs its matches set */
	atomic_int jitted; /* JIT-compiled, on its first match (rules_match.c) */
	struct capture *caps;
	size_t ncaps;
	struct ucap *ucaps;
	size_t nucaps;
	struct constant *consts;
	size_t nconsts, consts_alloc;
	struct colref *colrefs;
	size_t ncolrefs, colrefs_alloc;
	unsigned flags;
	int group;    /* rules group (one per file or pack) */
	int block;    /* block index or -1 */
	char *origin; /* "FILE:LINE" */
	char *need;   /* @need="...": a literal the line must hold, or NULL */
	size_t need_len;
};

/* One rules file or pack. */
struct rgroup {
	char *name; /* @format NAME, else the file's base name */
	char *desc; /* @describe "..." */
	char *source;
	int pack;   /* a format pack (not a user's file) */
	int early;  /* @first: tried before the built-in readers, like user rules */
	size_t nmarkers;
	size_t first, end; /* its rules: rules[first..end) */
};

struct rblock {
	char *name;
	int group;
	unsigned lines; /* lines without a row that close it */
	int has_start;
	int hold;       /* its records wait for the block's end (@block ... hold) */
	int one;        /* it makes one record, which @add rules fill (@block ... one) */
	int end_units;  /* an end rule gives the unit of the held bare numbers */
};

/* Records a hold block keeps at most; the rows past them are dropped, with a warning. */
#define MAX_HELD 1024

/* A record a hold block keeps until its end: strings as offsets into the
 * scratch's held text (SIZE_MAX: none), and which slots hold a bare number
 * that the block's end may give a unit. */
struct held {
	struct tp_record r;
	size_t name, text, ts, parent;
	unsigned bare;
};

struct tp_rules {
	char *name; /* first rules file name, for messages */
	pthread_mutex_t *jit_lock; /* one compiler at a time for the lazy JIT */
	struct rule *rules;
	size_t n, alloc;
	struct rgroup *groups;
	size_t ngroups, galloc;
	struct rblock *blocks;
	size_t nblocks, balloc;
	struct tp_rmarker *markers; /* lit owned (xmemdup) */
	size_t nmarkers, malloc_n;
	struct tp_gate *mset;
	int deferred; /* tp_rules_defer: build mset once, after the last add */
	int has_pass[2];
	int has_bar[2];   /* a pass has @bar rules */
	size_t *bar_rules; /* indices of the @bar rules, in order */
	size_t nbar;
	int gated[2];     /* a pass has groups with markers */
	int ungated[2];   /* a pass has groups without markers */
	size_t min_marker; /* the shortest marker's length */
	struct tp_marker *scan_m; /* the candidate search's view of the markers */
	struct tp_marker_set scan_set;
	uint32_t max_pairs; /* ovector pairs the largest pattern needs */
	struct tp_rsample *samples; /* @sample pieces with their @expect records */
	size_t nsamples, salloc;
	pcre2_general_context *gctx;
};

struct tp_rules_scratch {
	const struct tp_rules *rules; /* the rules it was sized for */
	pcre2_match_data *md;
	pcre2_match_context *mctx;
	pcre2_jit_stack *jit;
	struct strbuf msg;  /* warning text, reused */
	struct strbuf name; /* expanded name templates */
	struct strbuf text; /* expanded text templates (section="torch.profiler {1}") */
	struct strbuf parent; /* expanded parent templates */
	char ts[TP_TS_MAX];    /* the record's normalised timestamp */
	char unit[64];      /* a rate unit rewritten from s/X to X/s */
	uint64_t *gate;     /* groups whose markers are on the current line */
	size_t gate_words;
	int gate_fresh;     /* gate_any just scanned this line */
	/* the last line whose markers opened groups that read nothing of it,
	 * and the first four of those groups (note_missed) */
	uint64_t missed_line;
	int missed_group[4];
	int nmissed;
	/* block state: one open block at a time */
	int open_block;
	unsigned misses;
	struct hunit {
		const char *field; /* the FIELD of a FIELD__u group (not NUL-terminated) */
		size_t len;
		double unit;
	} hunits[MAX_HEADER_UNITS];
	int nhunits;
	/* the open block's columns, named by its @columns header */
	struct hcol {
		char name[COLUMN_NAME_MAX + 1];
		double unit; /* seconds per bare number, from "(ms)" in the name; 0: none */
	} hcols[MAX_COLUMNS];
	int nhcols;
	/* the records of an open hold block */
	struct held *held;
	size_t nheld, held_alloc, held_dropped;
	struct strbuf held_text;
	/* context from a previous line */
	char ctx[CTX_MAX];
	size_t ctx_len;
	uint64_t ctx_line;
};

/* Lines a context stays valid for after the line that set it. */
#define CTX_LINES 16

/* 0: tried before the built-in readers, 1: after (packs without @first). */
static inline int group_pass(const struct rgroup *g)
{
	return g->pack && !g->early;
}

/* Shared helpers (rules.c). */
/* v, read as a number of bare seconds-per-unit, in target seconds-per-unit
 * (exact when the units agree). */
double tp_rules_rescale(double v, double bare, double target);
/* Is field name[0,n) of type t a duration? Its slot and seconds per unit. */
int tp_rules_duration_field(enum tp_type t, const char *name, size_t n, int *slot, double *unit);
int tp_rules_read_value(const struct fspec *f, const char *p, size_t n, double bare,
			struct value *v, char *tsbuf);
void tp_rules_add_excerpt(struct strbuf *sb, const char *p, size_t n);
const char *tp_rules_expectation(enum conv c);

#endif
