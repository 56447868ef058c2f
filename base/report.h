/*
 * report.h - the result of an analysis, independent of how it is shown:
 * a list of sections, each with tables (named, unit-carrying columns and
 * typed cells) and findings (a severity, a kind, a message, advice and the
 * file:line it is about). Renderers (render/) turn a report into a
 * terminal table, JSON, CSV, Markdown, XLSX or HTML without knowing what
 * the analyses were.
 *
 * Strings are owned by the report; report_free releases everything.
 */
#ifndef TPROF_REPORT_H
#define TPROF_REPORT_H

#include <stddef.h>
#include <stdint.h>

enum rcell_kind { RC_EMPTY, RC_TEXT, RC_NUM };

struct rcell {
	enum rcell_kind kind;
	double v;
	int prec;  /* decimals to show (-1: shortest exact form) */
	char *s;
};

struct rcol {
	char *name;
	char *unit; /* "s", "ms", "MB", "%", "x", "" */
	int key;    /* what the column holds, as the producer's typed id (0: none) */
};

/*
 * What a row is about, as the producer's typed ids (for tprof-analyze, the
 * enums of analyses.h), so that consumers join and select rows by meaning,
 * never by the text shown to people: the kind of series, its launcher rank
 * (-1: none), the index of its run (-1: none or all runs) and a group that
 * ties rows of different tables together (e.g. one fit and its points; 0:
 * none), and the run a comparison row is against.
 */
struct rkey {
	int series, rank, run, group;
	int base; /* the run this row compares against (-1: none) */
};
#define RKEY_NONE ((struct rkey){ 0, -1, -1, 0, -1 })

/* A column declared with its key: {key, "name", "unit"}. */
struct rcol_spec {
	int key;
	const char *name, *unit;
};

struct rtable {
	char *id;    /* stable machine name, e.g. "breakdown" */
	char *title; /* for people */
	size_t ncols;
	struct rcol *cols;
	size_t nrows, alloc; /* cells holds nrows * ncols */
	struct rcell *cells;
	size_t cur;          /* cells written in the current row */
	int bar_col;         /* column drawn as a bar in the terminal, -1 none */
	int data_only;       /* chart data: for machine formats and charts, not for people */
	int kind;            /* the producer's typed id of the table (0: none) */
	struct rkey *keys;   /* per row, or NULL: every row RKEY_NONE */
	size_t kalloc;
};

enum severity { SEV_INFO, SEV_NOTICE, SEV_WARNING, SEV_CRITICAL };

struct finding {
	enum severity sev;
	char *section; /* id of the section it belongs to */
	char *kind;    /* "bottleneck", "outlier", "clock", ... */
	char *run;     /* run label or NULL */
	char *message;
	char *advice;  /* or NULL */
	char *file;    /* or NULL */
	uint64_t line; /* 0 if none */
	double at_stake; /* seconds a fix could save over the run; NAN: not a matter of time */
	int merged;    /* folded into another finding about the same fact: not shown on its own */
	struct rkey key; /* the series it is about, as the producer's ids (RKEY_NONE: none) */
};

struct rsection {
	char *id;
	char *title;
	int kind; /* the producer's typed id of the section (0: none) */
	size_t ntables;
	struct rtable **tables;
};

struct report {
	size_t nsections, salloc;
	struct rsection *sections;
	size_t nfindings, falloc;
	struct finding *findings;
	char *headline; /* the answer in one line (several runs: which is faster, by how much), or NULL */
};

void report_init(struct report *r);
void report_free(struct report *r);

/* Sections are created on first use, in order. */
struct rsection *report_section(struct report *r, const char *id, const char *title);

/* A new table; cols is "name:unit,name:unit,..." ("name" alone: no unit). */
struct rtable *report_table(struct report *r, const char *section, const char *id,
			    const char *title, const char *cols);
/* The same with columns that carry keys (ncols entries) and a table kind. */
struct rtable *report_table_spec(struct report *r, const char *section, const char *id, int kind,
				 const char *title, const struct rcol_spec *cols, size_t ncols);
/* The first table of that kind (nth: 0-based among them), or NULL. */
const struct rtable *report_find(const struct report *r, int kind, size_t nth);
/* The column with that key, or -1. */
int rt_col(const struct rtable *t, int key);
/* Keys the row being written (call before or while writing its cells). */
void rt_key(struct rtable *t, struct rkey k);
/* The key of a row: RKEY_NONE when none was set. */
struct rkey rt_row_key(const struct rtable *t, size_t row);
void rt_text(struct rtable *t, const char *s);
void rt_textn(struct rtable *t, const char *s, size_t n);
void rt_num(struct rtable *t, double v, int prec); /* NAN -> empty cell */
void rt_empty(struct rtable *t);
const struct rcell *rt_cell(const struct rtable *t, size_t row, size_t col);

void report_finding(struct report *r, enum severity sev, const char *section, const char *kind,
		    const char *run, const char *file, uint64_t line, const char *advice,
		    const char *fmt, ...) __attribute__((format(printf, 9, 10)));

/* Sets the time at stake, or the series key, of the latest finding. */
void report_stake(struct report *r, double seconds);
void report_fkey(struct report *r, struct rkey key);

const char *severity_name(enum severity s);

#endif
