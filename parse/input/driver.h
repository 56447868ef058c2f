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

/*
 * Parses path ("-" is standard input). Adds to *stats. Returns 0; 1 if
 * write() asked to stop; -1 with err set when the input could not be
 * opened or read to its end (what was read before is delivered).
 */
int tp_run_file(const char *path, const char *display, const struct tp_run_opts *o,
		struct tp_stats *stats, struct strbuf *err);

/* Like tp_run_file on one thread, on an input already open whose first
 * piece (first, n, flags: from tp_input_next) was read to tell what it is. */
struct tp_input;
int tp_run_input(struct tp_input *in, const char *first, size_t n, int flags, const struct tp_run_opts *o,
		 struct tp_stats *stats, struct strbuf *err);

#endif
