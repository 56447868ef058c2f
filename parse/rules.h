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

#include "parser.h"
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

/*
 * Loads a rules file. Returns NULL on error with one message appended to
 * err: "PATH:LINE:COL: message" for a syntax error (COL counts UTF-8
 * characters from 1; for a regex error it is the column of PCRE2's error
 * offset within the rules-file line), "PATH: message" for an I/O error.
 */
struct tp_rules *tp_rules_load(const char *path, struct strbuf *err);

/* The same from memory; name is used in messages (copied). text need not
 * be NUL-terminated and may contain NUL bytes. */
struct tp_rules *tp_rules_compile(const char *text, size_t n, const char *name,
				  struct strbuf *err);

/* Number of rules loaded (0 for a file of comments only). */
size_t tp_rules_count(const struct tp_rules *rules);

void tp_rules_free(struct tp_rules *rules);

/* Scratch for one thread's matching; sized for rules and usable only with it. */
struct tp_rules_scratch *tp_rules_scratch_new(const struct tp_rules *rules);
void tp_rules_scratch_free(struct tp_rules_scratch *scratch);

/*
 * Matches one line (without its line end; a trailing '\r' is ignored)
 * against the rules in file order; the first rule that matches wins and
 * the others are not tried. On a match the record (file, lineno, fields
 * from the named groups and constants) goes to sink->emit; its strings
 * point into line or into rules, valid during the callback.
 *
 * Returns 1 if a record was emitted, 0 if no rule matched, -1 if a rule
 * matched but a captured value could not be read (sink->warn was called
 * and nothing emitted). A rule that exceeds the match limit, or fails
 * otherwise inside PCRE2, is reported through sink->warn and counts as not
 * matching (the next rule is tried); if no later rule emits, -1 is returned.
 * sink->emit's return value is not interpreted (there is at most one
 * record per line). scratch may be NULL (one is made for the call: slow,
 * for tests and one-off use).
 */
int tp_rules_match(const struct tp_rules *rules, struct tp_rules_scratch *scratch,
		   const char *line, size_t n, const char *file, uint64_t lineno,
		   const struct tp_sink *sink);

#endif
