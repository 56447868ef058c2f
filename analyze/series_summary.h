/*
 * series_summary.h - what the run history keeps of a run's series: per compared
 * item (an_run_items: stages, batch and epoch times per rank, GPM windows,
 * metrics, operations, runtimes) a fixed summary, and the comparison of
 * two runs from those summaries alone (Welch's t-test on mean, standard
 * deviation and count, in the same "compare" table as --compare).
 */
#ifndef TPROF_SERIES_SUMMARY_H
#define TPROF_SERIES_SUMMARY_H

#include "analyses.h"

struct an_summary {
	char name[192];
	char unit[8];
	uint64_t n;          /* samples (1 for a single value such as a stage total) */
	double mean, std;    /* std: sample standard deviation, 0 if n < 2 */
	double median, mad;  /* mad: median absolute deviation (unscaled) */
	double p90, min, max;
	double value;        /* the value runs are compared on (an_item's) */
};

/* Fills out with the run's summaries (at most max); returns how many. */
size_t an_run_summaries(const struct an_run *run, struct an_summary *out, size_t max);

/* Median absolute deviation of a series: exact from the kept head when
 * every sample is there, else (Q3 - Q1) / 2 (exact for symmetric data). */
double an_series_mad(const struct tp_series *s);

/* A labelled set of summaries: one stored run. */
struct an_summary_run {
	const char *label, *file;
	const struct an_summary *v;
	size_t n;
};

/*
 * The "compare" section of rep: every run of runs[1..n) against runs[0],
 * item by item, with Welch's t-test where both have n >= 2. Returns 1 if
 * o->fail_regression_pct tripped.
 */
int an_compare_summaries(const struct an_summary_run *runs, size_t n, const struct an_opts *o,
			 struct report *rep);

#endif
