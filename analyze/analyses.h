/*
 * analyses.h - the questions tprof-analyze answers, each a function from
 * the model (model.h) to sections of a report (report.h):
 *
 *   breakdown    stage shares, unaccounted time, table and clock checks
 *   bottlenecks  thresholds of seed 004 with their advice, GPM share
 *   warmup       first vs steady state, where warmup ends (MSER)
 *   variance     spread, quantiles, robust outliers, drift and leaks
 *   speedup      ratios against a baseline, with uncertainty from samples
 *   convergence  steps, epochs and seconds until the loss reaches a value
 *   throughput   samples/s, steps/s, graphs/s, nodes/s
 *   scaling      log-log fit of time against size, exponent and CI
 *   compare      run against run, with a rank test where samples exist
 *   ranks        per-rank medians and stragglers
 */
#ifndef TPROF_ANALYSES_H
#define TPROF_ANALYSES_H

#include "model.h"
#include "base/base.h"

enum {
	AN_BREAKDOWN = 1 << 0,
	AN_BOTTLENECKS = 1 << 1,
	AN_WARMUP = 1 << 2,
	AN_VARIANCE = 1 << 3,
	AN_SPEEDUP = 1 << 4,
	AN_CONVERGENCE = 1 << 5,
	AN_THROUGHPUT = 1 << 6,
	AN_SCALING = 1 << 7,
	AN_COMPARE = 1 << 8,
	AN_RANKS = 1 << 9,
	AN_DATA = 1 << 10, /* data-only tables behind the charts */
	AN_ALL = (1 << 11) - 1
};

struct an_param {
	char name[32];
	double value;
	int set;
};

struct an_opts {
	unsigned which;            /* AN_* bits; AN_ALL: whatever the input supports */
	double bottleneck_pct;     /* 50 */
	double optimize_pct;       /* 20 */
	double data_pct;           /* 30 */
	double variance_ratio;     /* 2.0: max/min above this is high variance */
	double outlier_z;          /* 3.5: modified z-score threshold */
	double straggler_pct;      /* 10: rank median above the median rank by this much */
	double loss_threshold;     /* NAN: no convergence */
	const char *baseline;      /* speedup baseline name, or NULL: the slowest */
	double fail_regression_pct; /* NAN: no gate */
	double alpha;              /* 0.05: significance level */
	struct an_param predict;   /* --predict N=5000 */
	struct an_param *run_params; /* --param per run (nruns entries) or NULL */
	size_t nrun_params;
};

void an_opts_default(struct an_opts *o);

/* "NAME=NUMBER" (--param, --predict) into p; -1 if it is not that. */
int an_parse_param(const char *arg, struct an_param *p);

/* Runs the selected analyses. Returns 1 if --fail-on-regression tripped. */
int an_analyze(const struct an_model *m, const struct an_opts *o, struct report *rep);

/* The parts (analyses.c calls them in this order). */
void an_breakdown(const struct an_model *m, const struct an_opts *o, struct report *rep, int bottlenecks);
void an_series(const struct an_model *m, const struct an_opts *o, struct report *rep);
void an_speedup(const struct an_model *m, const struct an_opts *o, struct report *rep);
void an_scaling(const struct an_model *m, const struct an_opts *o, struct report *rep);
int an_compare(const struct an_model *m, const struct an_opts *o, struct report *rep);
void an_data(const struct an_model *m, struct report *rep);

/* Classifies a stage name: "data", "forward", "backward", "optimizer", "other". */
const char *an_stage_kind(const char *name);
/* The seed-004 advice for a kind of finding, or NULL. */
const char *an_advice(const char *kind);

#endif
