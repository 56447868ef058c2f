/*
 * explain.h - tprof-parse --explain: shows, line by line, which built-in
 * reader, rule or discovered template read each line of the inputs and
 * the records it made (NDJSON), and the text of lines that made nothing;
 * and tprof-parse --discover.
 */
#ifndef TPROF_EXPLAIN_H
#define TPROF_EXPLAIN_H

#include "parse/input/driver.h"
#include "parse/rules/rules.h"

/* Explains files[0..nfiles) ("-" or none: standard input) to standard
 * output, progress records and discovery as o says; returns the tool's
 * exit status. */
int tp_explain(int nfiles, char **files, const struct tp_rules *rules, const struct tp_run_opts *o,
	       struct strbuf *err);

/* tprof-parse --discover: the timing templates of each input with their
 * counts, a sample line and rules that read their lines, as one rules
 * file on standard output; the tool's exit status. */
int tp_discover_report(int nfiles, char **files, const struct tp_rules *rules, const struct tp_run_opts *o,
		       struct strbuf *err);

#endif
