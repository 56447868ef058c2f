/*
 * read.h - the one input reader of every tool: a path ("-": standard
 * input) becomes records, whatever it holds:
 *
 *   a document   the JSON report of the Graph Transformer profiling package,
 *                the CSV/JSON timing exports (docinput.h), by content
 *   NDJSON       what tprof-parse writes, told apart by its first line, read
 *                back record for record (tprof-parse run.log | tool -)
 *   a log        anything else, plain or gzip; a large regular file is
 *                split across o->threads parser threads (driver.h)
 *
 * Records go where o says (driver.h, struct tp_run_opts): formatted
 * through o->write when o->fmt >= 0, else to o->sink; warnings to
 * o->sink.warn; counts into *st. So tprof-parse, tprof-analyze,
 * tprof-plot and tprof-replay read the same inputs the same way.
 */
#ifndef TPROF_PARSE_READ_H
#define TPROF_PARSE_READ_H

#include "driver.h"

enum tp_input_kind { TP_IN_LOG, TP_IN_NDJSON, TP_IN_DOCUMENT };

/* Called once per input, before its first record (an empty log too). */
struct tp_read_cb {
	void (*begin)(void *ctx, const char *name, enum tp_input_kind kind);
	void *ctx;
};

/*
 * Returns 0, 1 when o->write asked to stop, or -1 with err set (the input
 * could not be opened or read, or a document is broken; the records read
 * before the error were delivered).
 */
int tp_read_input(const char *path, const struct tp_run_opts *o, const struct tp_read_cb *cb,
		  struct tp_stats *st, struct strbuf *err);

#endif
