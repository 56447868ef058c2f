/*
 * load.h - reading the inputs of the analysis tools into the model: each
 * path is a run, read as a known document (.json/.csv reports), the NDJSON
 * of tprof-parse (told apart by its first line) or a raw log (plain or
 * .gz; a large regular file is split across parser threads). "-" is
 * standard input. Shared by tprof-analyze and tprof-plot.
 *
 * Errors and parse warnings go to stderr prefixed with st->tool; at most
 * 20 warnings are printed, then one line says how many more there were.
 */
#ifndef TPROF_LOAD_H
#define TPROF_LOAD_H

#include "model.h"
#include "parse/parse.h"

struct an_load_stats {
	const char *tool;       /* in: message prefix, e.g. "tprof-analyze" */
	int quiet;              /* in: do not print parse warnings */
	unsigned long warnings; /* out: parse warnings seen */
	int failed;             /* out: some input could not be read */
};

/*
 * Feeds every input into m (n == 0: standard input). Returns 0, or -1 if
 * an input could not be read (st->failed is set; the other inputs are
 * still read).
 */
int an_load_inputs(struct an_model *m, char **paths, int n, int threads, const struct tp_rules *rules,
		   struct an_load_stats *st);

#endif
