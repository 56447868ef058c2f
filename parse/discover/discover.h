/*
 * discover.h - timing templates discovered from repetition.
 *
 * Lines that no reader or rule read, and that hold a number next to a time
 * or rate unit ("7.99s", "9240 ms/iter", "0.0011 s/iter", "12.3 task/s"),
 * are clustered online into templates, the way Drain does (He et al.,
 * "Drain: An Online Log Parsing Approach with Fixed Depth Tree", ICWS
 * 2017): the line's tokens, numbers masked, are routed by their count and
 * first tokens to a leaf of templates, and join the most similar one if
 * at least half their tokens agree, else start a new one. A template seen
 * at least min_count times, whose timing values were not all the same,
 * is a series: each of its values with a unit becomes a record (`timing`,
 * or `rate` for a unit per second), named from the text before the value,
 * its lines' values emitted in input order once it qualifies. Values of a
 * template seen fewer times never become records.
 *
 * Memory is bounded by TP_DISC_MAX_TEMPLATES templates (the least recently
 * used is evicted) and TP_DISC_PENDING lines held per template until it
 * qualifies; never by the input.
 */
#ifndef TPROF_DISCOVER_H
#define TPROF_DISCOVER_H

#include <stddef.h>
#include <stdint.h>

#include "parse/lines/parser.h"

#define TP_DISC_MAX_TEMPLATES 512
#define TP_DISC_PENDING 16     /* lines held per template until it qualifies */
#define TP_DISC_MIN_COUNT 3    /* times a template is seen before it is a series */
#define TP_DISC_MAX_TOKENS 64  /* longer lines are clustered on their first tokens */
#define TP_DISC_SEEN 16        /* values a line's other readers read, at most */

/* One line for the miner (all borrowed for the call). */
struct tp_disc_line {
	const char *s;    /* the line after its prefixes (rank, timestamp, level) */
	size_t n;
	const char *file;
	uint64_t line;
	int rank;         /* -1: none */
	const char *ts;   /* NULL: none */
	const double *seen; /* the values the line's records already hold */
	size_t nseen;
};

struct tp_miner;

/* min_count 0: TP_DISC_MIN_COUNT. */
struct tp_miner *tp_miner_new(unsigned min_count);
void tp_miner_free(struct tp_miner *m);

/*
 * Clusters a line; calls sink->emit for the records that are ready (its
 * own, if its template is a series; a template's held lines, in order,
 * when this line makes it one). The records' strings live in the miner
 * until the next call; their origin is "template ID (seen N): TEXT".
 * Returns the template's id (0: the line has no token).
 */
unsigned tp_miner_line(struct tp_miner *m, const struct tp_disc_line *ln, const struct tp_sink *sink);
/* How many lines template id took so far (0: not held). */
uint64_t tp_miner_seen(const struct tp_miner *m, unsigned id);

struct tp_miner_stats {
	uint64_t lines;     /* lines clustered */
	uint64_t templates; /* templates made */
	uint64_t evicted;   /* templates evicted (least recently used) */
	uint64_t series;    /* templates that became series */
	uint64_t records[TP_NTYPES];
};
/* Adds the miner's counts into st. */
void tp_miner_add_stats(const struct tp_miner *m, struct tp_miner_stats *st);

/* The templates held now, most recently used first (tprof-parse --discover). */
struct tp_template_info {
	unsigned id;          /* its number, in the order templates were made */
	uint64_t count;       /* lines it took */
	int series;           /* it became a series */
	const char *text;     /* the template: "|E2E latency=<*>s |Gather ..." */
	const char *sample;   /* its first line */
	uint64_t sample_line; /* that line's number */
	size_t nvalues;       /* timing values it reads */
};
size_t tp_miner_ntemplates(const struct tp_miner *m);
/* i-th template, most recently used first; 0 past the end. */
int tp_miner_template(struct tp_miner *m, size_t i, struct tp_template_info *out);
/* A rules v2 entry (one line per value) that reads template id's lines
 * (tprof-parse --rules), appended to sb. */
void tp_miner_rules(struct tp_miner *m, unsigned id, struct strbuf *sb);

/* Does [s,e) hold a number next to a time or rate unit? */
int tp_disc_has_unit(const char *s, const char *e);

/* Does [s,e) hold a number named by a time word and no unit: "Time: 1.21",
 * "time=0.5", "time : 43.05", "Time cost=1029.7" (a word ending in
 * "time", "Time", "TIME" or "tIME", then " cost" or maybe a blank, then ':'
 * or '=', blanks and a digit), or one named with its unit ("updt_s:0.504",
 * "wall_ms=630990", "epoch_sec: 12": a letter, "_s", "_sec" or "_ms", ':' or
 * '=', blanks, a digit)? Such a line holds one of the candidate search's
 * "time:" or "_s:" markers (parse/scan/markers.c). */
int tp_disc_has_time_word(const char *s, const char *e);

/* Does [s,e) count steps as "k/N" after a word that counts them ("iter
 * 13/135", "Batch(200/1417)", "[Epoch 1 Batch 170/274]"), not a date or
 * a fraction? Such a line goes to the miner where it is stamped: its
 * index and stamp are where the steps are. */
int tp_disc_has_counter(const char *s, const char *e);

/* The first line in [s,e) (s a line start) that may hold a number next to
 * a unit (a superset of tp_disc_has_unit's lines), or e. The bytes up to
 * limit (>= e) may be read, never beyond. Where nl is not NULL, *nl is the
 * number of line ends before the line returned: the scan counts them on
 * its way, which spares the caller a second pass over the same bytes. */
const char *tp_disc_next_line(const char *s, const char *e, const char *limit, uint64_t *nl);

#endif
