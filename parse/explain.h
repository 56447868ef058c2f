/*
 * explain.h - tprof-parse --explain: shows, line by line, which built-in
 * reader or rule read each line of the inputs and the records it made
 * (NDJSON), and the text of lines that made nothing.
 */
#ifndef TPROF_EXPLAIN_H
#define TPROF_EXPLAIN_H

#include "rules.h"

/* Explains files[0..nfiles) ("-" or none: standard input) to standard
 * output; returns the tool's exit status. */
int tp_explain(int nfiles, char **files, const struct tp_rules *rules, struct strbuf *err);

#endif
