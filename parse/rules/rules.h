/*
 * rules.h - user-defined log formats (tprof-parse --rules FILE).
 *
 * A rules file maps lines that tprof does not know to typed records with
 * PCRE2 regular expressions whose named groups are the record's fields:
 *
 *     # TYPE  [FIELD="CONSTANT"]...  PATTERN
 *     timing     \[TIME\] (?<name>\w+)=(?<seconds>\S+)
 *     aggregate  ^(?<name>\S+) total=\s*(?<total_s>.+?) mean=\s*(?<mean_s>\S+) calls=\s*(?<count>\d+)
 *
 * Version 2 adds options (@each @more @raw @bar @snake), units per capture
 * (FIELD__ms, FIELD__u), clock forms, the rate type, blocks (@block with
 * start / header / skip / end rules), context from a previous line, name
 * templates, and groups gated by literal markers (@format, @marker): the
 * format packs in formats/ are rules files too.
 *
 * The full syntax is in man/tprof-parse.1 (section RULES FILES).
 *
 * Threads: a loaded struct tp_rules is immutable and may be shared by any
 * number of threads; each thread matches with its own tp_rules_scratch,
 * which owns everything that changes during a match (PCRE2 match data,
 * match context, JIT stack, message buffer), so matching a line allocates
 * nothing.
 */
#ifndef TPROF_RULES_H
#define TPROF_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "gate.h"
#include "parse/scan/markers.h"
#include "parse/lines/parser.h"
#include "base/base.h"

/* Largest rules file tp_rules_load reads (a guard against reading a device). */
#define TP_RULES_MAX_FILE (1024 * 1024)

/*
 * Per-line cost bound: the PCRE2 match limit (backtracking steps for one
 * whole tp_rules_match attempt of one rule) and heap limit (KiB). A
 * catastrophic pattern such as (a+)+$ gives up after this many steps and
 * the line gets a warning instead of hanging the parser.
 */
#define TP_RULES_MATCH_LIMIT 1000000u
#define TP_RULES_HEAP_LIMIT_KIB (64u * 1024u)

struct tp_rules;
struct tp_rules_scratch;

/* An empty rule set, to add files and packs to (tp_rules_add*). */
struct tp_rules *tp_rules_new(void);

/*
 * Adds one rules file's text (a group: a user file, or a format pack when
 * pack is non-zero: packs are tried after the built-in readers, user rules
 * before). name is used in messages and origins (copied). Rules keep their
 * order: earlier files first. Returns 0, or -1 with one message appended
 * to err: "NAME:LINE:COL: message" (COL counts UTF-8 characters from 1; for
 * a regex error it is the column of PCRE2's error offset). On error the set
 * is unchanged.
 */
int tp_rules_add(struct tp_rules *rules, const char *text, size_t n, const char *name, int pack,
		 struct strbuf *err);
/* While defer is set, adds do not rebuild the marker scanner; clearing it
 * builds it once (for loading many files). Match only with it cleared. */
void tp_rules_defer(struct tp_rules *rules, int defer);

/* The same from a file; "PATH: message" for an I/O error. */
int tp_rules_add_file(struct tp_rules *rules, const char *path, struct strbuf *err);

/* Loads one rules file into a new set; NULL on error (message in err). */
struct tp_rules *tp_rules_load(const char *path, struct strbuf *err);

/* The same from memory; name is used in messages (copied). text need not
 * be NUL-terminated and may contain NUL bytes. */
struct tp_rules *tp_rules_compile(const char *text, size_t n, const char *name,
				  struct strbuf *err);

/*
 * A rules file's proof, as lnav's format files carry it: "@sample LINE"
 * lines (consecutive ones are one piece of log), each piece followed by
 * the "@expect TYPE FIELD=VALUE ..." records it must give, in order
 * ("@expect nothing": none). Only the fields named are compared. The
 * loader checks the syntax and the field names; tp_rules_check_samples
 * (parse.h) parses each piece with the whole set and compares.
 */
struct tp_rexpect {
	unsigned lineno;
	int type;           /* enum tp_type; -1: "nothing" */
	size_t nkv;
	char **keys, **vals;
};
struct tp_rsample {
	const char *source; /* the file's or pack's name, for messages */
	size_t group;
	int pack;
	unsigned lineno;    /* of its first @sample line */
	char *text;         /* its lines, each ending with '\n' */
	size_t len;
	struct tp_rexpect *expect;
	size_t nexpect;
};
const struct tp_rsample *tp_rules_samples(const struct tp_rules *rules, size_t *n);

/* Scratch for one thread's matching; sized for rules and usable only with it.
 * It also holds the per-input state of block and context rules. */
struct tp_rules_scratch *tp_rules_scratch_new(const struct tp_rules *rules);
void tp_rules_scratch_free(struct tp_rules_scratch *scratch);
/* 1 if no block is open and no context is live at line next_line. */
int tp_rules_scratch_idle(const struct tp_rules_scratch *scratch, uint64_t next_line);
/* Has the set rules for pass (0: before the built-in readers, 1: after)? */
int tp_rules_has_pass(const struct tp_rules *rules, int pass);
/*
 * Can the candidate search (scan.h) choose the lines for these rules? Yes
 * when every group declares markers (a rule of a group without them may
 * match any line); block rows and lines after a context are read anyway
 * while the parser is not idle.
 */
int tp_rules_scan_safe(const struct tp_rules *rules);
/* The groups' markers and the finished-bar literal "100%|" of @bar rules,
 * as a table for the candidate search (owned by rules). */
const struct tp_marker_set *tp_rules_scan_markers(const struct tp_rules *rules);

/* Has pass @bar rules (rules for progress-bar segments)? */
int tp_rules_has_bar(const struct tp_rules *rules, int pass);

/* One segment of a log line as the parser hands it to the rules. */
struct tp_rules_line {
	const char *line; /* after launcher/timestamp/level prefixes were stripped */
	size_t n;
	const char *raw;  /* the same segment before stripping (ANSI removed) */
	size_t raw_n;
	int bar;          /* line/raw is a progress bar (the last one on its line) */
	const char *file;
	uint64_t lineno;
	uint64_t *hits;   /* per-rule match counters (TP_RULE_STATS), or NULL */
	int no_marker;    /* the candidate search saw none of the rules' markers on the
			   * physical line (0: not known, the gate looks itself) */
	int rank;         /* the line's launcher rank, -1 if none */
	const char *ts;   /* the line's timestamp (ISO 8601), or NULL */
};

/*
 * Matches one segment against the rules of one pass in order; the first
 * rule that matches wins unless it is marked @more. A rule of a group that
 * declares markers is tried only when one of them is on the line; rows of
 * a block only while the block is open. Records (file, lineno, fields from
 * the named groups and constants) go to sink->emit; their strings point
 * into the line or the rules, valid during the callback.
 *
 * Returns 1 if a record was emitted or a block/context rule took the line,
 * 0 if no rule matched, -1 if a rule matched but a captured value could
 * not be read (sink->warn was called, nothing emitted for that rule). A
 * rule that exceeds the match limit, or fails otherwise inside PCRE2, is
 * reported through sink->warn and counts as not matching. scratch may be
 * NULL (one is made for the call: slow, for tests and one-off use).
 */
int tp_rules_match_pass(const struct tp_rules *rules, struct tp_rules_scratch *scratch, int pass,
			const struct tp_rules_line *ln, const struct tp_sink *sink);

/* Pass 0 on a stripped line (line is also raw), without hit counts. */
int tp_rules_match(const struct tp_rules *rules, struct tp_rules_scratch *scratch,
		   const char *line, size_t n, const char *file, uint64_t lineno,
		   const struct tp_sink *sink);

/* The formats whose markers were on line lineno while none of their rules
 * read the line (the line may still be read otherwise): their names,
 * quoted ("'caffe' and 'mxnet'", the first four), added to names; returns
 * how many (0: none). */
int tp_rules_missed(const struct tp_rules *rules, const struct tp_rules_scratch *scratch, uint64_t lineno,
		    struct strbuf *names);

/* At the end of an input: the records a held block still keeps (see
 * @block ... hold) go to sink, and the block closes. */
void tp_rules_finish(const struct tp_rules *rules, struct tp_rules_scratch *scratch,
		     const struct tp_sink *sink);

#endif
