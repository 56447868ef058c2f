/*
 * parse.h - the public header of the parse layer: logs, documents and
 * NDJSON in, typed records out. It is everything another layer may use:
 *
 *   record.h   the record schema (types, fields, roles, the has bits)
 *   emit.h     the NDJSON, CSV and table writers
 *   config.h   configuration keys read from logs (sizes for replay)
 *   below      reading an input (tp_read_input, run options, --follow),
 *              the rule set (built from --rules files and format packs,
 *              opaque, queried for --list-formats), the candidate search
 *              (opaque), --explain and --discover, a rules file's samples
 *
 * The parser, the recognizers, the rules engine, the packs' gate, the
 * scanners and the template miner stay inside parse/: their headers sit
 * beside their code, and scripts/check-layers.sh fails on any other layer
 * that includes them. Structures another layer only passes along are
 * opaque here (struct tp_rules, struct tp_scanner).
 */
#ifndef TPROF_PARSE_PARSE_H
#define TPROF_PARSE_PARSE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "parse/emit.h"
#include "parse/lines/config.h"
#include "parse/record.h"

/* ---- records out ---- */

/* A line longer than this is counted in tp_stats.long_lines and parsed
 * segment by segment ('\r' parts: a progress bar's redraws), each on its
 * first TP_MAX_LINE bytes. */
#define TP_MAX_LINE (64 * 1024)

struct tp_sink {
	/* Called for every record; return non-zero to ask the caller to stop. */
	int (*emit)(void *ctx, const struct tp_record *r);
	/* Called for every malformed marker line; msg has no file:line prefix. */
	void (*warn)(void *ctx, const char *file, uint64_t line, const char *msg);
	void *ctx;
};

/* Rules counted in tp_stats.rule_hits (later ones are not counted). */
#define TP_RULE_STATS 512

struct tp_stats {
	uint64_t lines;
	uint64_t records[TP_NTYPES];
	uint64_t unrecognized; /* lines that produced nothing */
	uint64_t malformed;    /* warnings issued */
	uint64_t long_lines;
	uint64_t bytes;
	uint64_t rule_hits[TP_RULE_STATS]; /* lines each rule (tp_rules_info) matched */
	/* template discovery */
	uint64_t disc_lines;     /* lines clustered into templates */
	uint64_t disc_templates; /* templates made */
	uint64_t disc_series;    /* templates that became series */
	uint64_t disc_evicted;   /* templates evicted, least recently used */
};

/* ---- the rule set: --rules files, the rules directory, format packs ---- */

struct tp_rules;   /* immutable once built; shared by threads */
struct tp_scanner; /* the candidate search; immutable, shared by threads */

/* Most --rules options one command takes. */
#define TP_MAX_RULES_FILES 64

struct tp_rules_opts {
	const char *const *files; /* --rules FILE, in order */
	size_t nfiles;
	const char *formats;      /* comma-separated pack names; NULL: all; "": none */
	int rules_dir;            /* read $XDG_CONFIG_HOME/tprof/rules.d/NAME.rules */
};

/*
 * Builds the rule set every tool uses: the --rules files in order, then
 * the user's rules directory, then the selected packs; *out is NULL when
 * there are no rules at all. Returns 0, or -1 with a message in err (a bad
 * rules file, an unknown pack name).
 */
int tp_rules_setup(const struct tp_rules_opts *o, struct tp_rules **out, struct strbuf *err);
void tp_rules_free(struct tp_rules *rules);

/* Number of rules loaded (0 for a file of comments only). */
size_t tp_rules_count(const struct tp_rules *rules);

/* About rule i (0 <= i < tp_rules_count): its origin "FILE:LINE", what it
 * makes ("timing", or "start"/"end"/"skip"/"header"/"context"), and
 * whether it comes from a format pack. */
struct tp_rule_info {
	const char *origin;
	const char *makes;
	const char *group; /* the file's or pack's name */
	int pack;
};
void tp_rules_info(const struct tp_rules *rules, size_t i, struct tp_rule_info *out);

/* Groups (one per file or pack): name, description, markers. */
size_t tp_rules_groups(const struct tp_rules *rules);
const char *tp_rules_group_name(const struct tp_rules *rules, size_t g);
const char *tp_rules_group_desc(const struct tp_rules *rules, size_t g);

/* A literal that gates a group: a line without one never reaches the
 * group's regular expressions. */
struct tp_rmarker {
	const char *lit; /* borrowed: owned by whoever built the table */
	size_t len;
	unsigned group; /* the pack (rules group) the marker gates */
};
/* The marker table of every group, in one array. */
const struct tp_rmarker *tp_rules_markers(const struct tp_rules *rules, size_t *n);

/*
 * A rules file's proof (lnav's format files carry theirs the same way):
 * parses every "@sample" piece of rules (of the users' files only, unless
 * packs is set) with the whole set, as a log, and compares its records with
 * its "@expect" lines. Appends "SOURCE:LINE: the @sample ..." to err for
 * each piece that differs (lines apart); returns how many differ.
 */
size_t tp_rules_check_samples(const struct tp_rules *rules, int packs, struct strbuf *err);

/*
 * The scanner for a run of the tools: the built-in markers on the backend
 * named by $TPROF_SCAN ("teddy", "teddy-avx2", "vectorscan", "portable";
 * default: the best that runs here), or NULL, which means the plain per-line
 * path, when $TPROF_PLAIN is set to anything but "" or "0", or when rules are
 * loaded whose groups do not all declare markers (a rule may match any
 * line); the markers of the rules' groups (format packs) join the built-in
 * ones. A scanner that cannot be built also gives NULL: the plain path reads
 * the same records, only slower.
 */
struct tp_scanner *tp_scanner_for_run(const struct tp_rules *rules);
/* The same for a run with (progress != 0) or without progress records:
 * without them, the lines of progress bars need not be read. */
struct tp_scanner *tp_scanner_for(const struct tp_rules *rules, int progress);
void tp_scanner_free(struct tp_scanner *sc);

/* ---- reading inputs ---- */

struct tp_run_opts {
	int threads;               /* <= 1: one thread */
	int fmt;                   /* enum tp_out_format, or -1 for records to sink */
	int count_only;            /* no output at all, statistics only */
	unsigned type_mask;        /* bit t set: type t is wanted; 0 means all */
	const struct tp_rules *rules;
	/* the candidate search (tp_scanner_for_run); NULL: every line goes
	 * through the recognizers. Used on regular files. */
	const struct tp_scanner *scanner;
	size_t chunk;              /* bytes per thread per round; 0: default */
	int no_progress;           /* no progress records (every bar redraw) */
	int no_discovery;          /* no template discovery */
	unsigned discover_min;     /* times a template is seen before it is a series; 0: 3 */
	/* text output; return non-zero to stop (a write error) */
	int (*write)(void *ctx, const char *buf, size_t n);
	/* records (when fmt < 0); sink.warn also receives the warnings */
	struct tp_sink sink;
	void *ctx;                 /* for write */
	/* called now and then with the bytes read so far and the input's size
	 * (0 if unknown), from the calling thread; NULL: none */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
};

/*
 * The one input reader of every tool: a path ("-": standard input) becomes
 * records, whatever it holds:
 *
 *   a document   the JSON report of the Graph Transformer profiling package,
 *                the CSV/JSON timing exports, by content
 *   NDJSON       what tprof-parse writes, told apart by its first line, read
 *                back record for record (tprof-parse run.log | tool -)
 *   a log        anything else, plain or gzip; a large regular file is
 *                split across o->threads parser threads
 *
 * Records go where o says: formatted through o->write when o->fmt >= 0,
 * else to o->sink; warnings to o->sink.warn; counts into *st. With any
 * thread count the records, their order, the warnings and the statistics
 * are exactly those of one thread. Returns 0, 1 when o->write asked to
 * stop, or -1 with err set (the input could not be opened or read, or a
 * document is broken; the records read before the error were delivered).
 */
enum tp_input_kind { TP_IN_LOG, TP_IN_NDJSON, TP_IN_DOCUMENT };

/* Called once per input, before its first record (an empty log too). */
struct tp_read_cb {
	void (*begin)(void *ctx, const char *name, enum tp_input_kind kind);
	void *ctx;
};

int tp_read_input(const char *path, const struct tp_run_opts *o, const struct tp_read_cb *cb,
		  struct tp_stats *st, struct strbuf *err);

/*
 * Whether one of the n paths ("-": standard input; n == 0: standard input)
 * is read in chunks, where the candidate search serves: a regular,
 * uncompressed file of at least twice chunk bytes (0: the default, 4 MiB).
 * The search's matcher takes milliseconds to build; a run of small logs
 * does without it.
 */
int tp_inputs_want_scanner(char *const *paths, int n, size_t chunk);

/* Whether a run makes progress records (not turned off, and wanted by
 * type_mask): the candidate search must then list bars (tp_scanner_for). */
int tp_run_wants_progress(const struct tp_run_opts *o);

/* A progress line on a terminal's stderr ("\r file  42%  950.0 MB/s"),
 * erased by tp_progress_clear; ctx is a struct tp_progress. Callers use it
 * only when stderr is a terminal. */
struct tp_progress {
	const char *name;
	uint64_t start_ms;
	int shown;
};
void tp_progress_bar(void *ctx, uint64_t done, uint64_t total);
void tp_progress_clear(struct tp_progress *pg);

/*
 * --follow: parses path as it grows (a rotated or truncated log is read
 * again from its start), delivering records as they arrive, until *stop
 * becomes non-zero (a signal handler sets it); then the last partial line
 * and open blocks are parsed too. tick (if any) runs at most every tick_ms
 * when new records arrived, and once at the end. note receives one-line
 * notices ("the log was rotated"). Returns 0, 1 if write() asked to stop,
 * -1 on an input error (err set).
 */
struct tp_follow_opts {
	int poll_ms;                     /* sleep between polls when idle (200) */
	int tick_ms;                     /* at most one tick per this many ms */
	volatile sig_atomic_t *stop;
	void (*tick)(void *ctx, int final);
	void (*note)(void *ctx, const char *path, const char *msg);
	void *ctx;
};

int tp_follow_run(const char *path, const struct tp_run_opts *o, const struct tp_follow_opts *fo,
		  struct tp_stats *stats, struct strbuf *err);

/* ---- tprof-parse --explain and --discover ---- */

/* Shows, line by line, which built-in reader, rule or discovered template
 * read each line of files[0..nfiles) ("-" or none: standard input) and the
 * records it made (NDJSON), and the text of lines that made nothing, to
 * standard output, progress records and discovery as o says; returns the
 * tool's exit status. */
int tp_explain(int nfiles, char **files, const struct tp_rules *rules, const struct tp_run_opts *o,
	       struct strbuf *err);

/* tprof-parse --discover: the timing templates of each input with their
 * counts, a sample line and rules that read their lines, as one rules
 * file on standard output; the tool's exit status. */
int tp_discover_report(int nfiles, char **files, const struct tp_rules *rules, const struct tp_run_opts *o,
		       struct strbuf *err);

#endif
