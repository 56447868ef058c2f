/*
 * driver.h - runs the parser over a whole input, on one thread (any input:
 * pipes, gzip) or on several (a large regular file), and delivers the
 * result in input order.
 *
 * Contract: with any thread count the records, their order, the warnings
 * and the statistics are exactly those of one thread. Memory is bounded by
 * threads x chunk size, not by the input. Output goes either as formatted
 * text (fmt >= 0: NDJSON/CSV/table via emit.h, formatted in the worker
 * threads) to write(), or as records to sink->emit (fmt < 0), always from
 * the calling thread.
 */
#ifndef TPROF_DRIVER_H
#define TPROF_DRIVER_H

#include "parse/emit.h"
#include "parse/lines/parser.h"

struct tp_run_opts {
	int threads;               /* <= 1: one thread */
	int fmt;                   /* enum tp_out_format, or -1 for records to sink */
	int count_only;            /* no output at all, statistics only */
	unsigned type_mask;        /* bit t set: type t is wanted; 0 means all */
	const struct tp_rules *rules;
	/* the candidate search (scan.h, tp_scanner_for_run); NULL: every line
	 * goes through the recognizers. Used on regular files. */
	const struct tp_scanner *scanner;
	size_t chunk;              /* bytes per thread per round; 0: default */
	int no_progress;           /* no progress records (every bar redraw) */
	int no_discovery;          /* no template discovery (discover.h) */
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
 * Parses path ("-" is standard input). Adds to *stats. Returns 0; 1 if
 * write() asked to stop; -1 with err set when the input could not be
 * opened or read to its end (what was read before is delivered).
 */
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

int tp_run_file(const char *path, const char *display, const struct tp_run_opts *o,
		struct tp_stats *stats, struct strbuf *err);

/* Like tp_run_file on one thread, on an input already open whose first
 * piece (first, n, flags: from tp_input_next) was read to tell what it is. */
struct tp_input;
int tp_run_input(struct tp_input *in, const char *first, size_t n, int flags, const struct tp_run_opts *o,
		 struct tp_stats *stats, struct strbuf *err);

/*
 * --follow: parses path as it grows (see follow.h for rotation and
 * truncation), delivering records as they arrive, until *stop becomes
 * non-zero (a signal handler sets it); then the last partial line and open
 * blocks are parsed too. tick (if any) runs at most every tick_ms when new
 * records arrived, and once at the end. note receives one-line notices
 * ("the log was rotated"). Returns 0, 1 if write() asked to stop, -1 on an
 * input error (err set).
 */
#include <signal.h>

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

#endif
