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
/* Single printed statistics: AGGREGATE STATISTICS rows, Batch timing, inference
 * benchmarks, Average per dataset (records.c). */
void an_records(const struct an_model *m, const struct an_opts *o, struct report *rep);
/* When the report is empty: what was read and why nothing applied. */
void an_nothing(const struct an_model *m, const struct an_opts *o, struct report *rep);
/* Seed 002's runtime, memory and FLOP figures of each run, set against each other. */
void an_profile(const struct an_model *m, const struct an_opts *o, struct report *rep);
void an_series(const struct an_model *m, const struct an_opts *o, struct report *rep);
void an_speedup(const struct an_model *m, const struct an_opts *o, struct report *rep);
void an_scaling(const struct an_model *m, const struct an_opts *o, struct report *rep);
int an_compare(const struct an_model *m, const struct an_opts *o, struct report *rep);
void an_data(const struct an_model *m, struct report *rep);

/* The items runs are compared on: stages (or table rows), batch and epoch
 * times per rank, GPM windows, metrics, operations, runtimes. */
struct an_item {
	char name[192];
	const char *unit;
	double value;                 /* seconds / ms summary (the median where samples exist) */
	const struct tp_series *s;    /* samples, or NULL */
	int higher_better;            /* a rate: more is faster */
};
size_t an_run_items(const struct an_run *run, struct an_item *v, size_t max);

/* One item of one run against the baseline run (shared with the run history). */
struct an_cmp_row {
	const char *name, *unit;
	const char *base_label, *label, *file;
	double base, value;  /* the two summaries */
	double p;            /* p-value of the test, NAN if none */
	int samples;         /* both sides have samples (else "cannot tell") */
	const char *test;    /* the test's name for the finding */
	int higher_better;   /* a rate: a lower value is the slower run */
};
/* A row of the "compare" table (created in *t on first use), with its finding; 1 if the gate tripped. */
int an_compare_row(struct report *rep, struct rtable **t, const struct an_opts *o, const struct an_cmp_row *c);
/* The closing "(geometric mean of ratios)" row. */
void an_compare_geomean(struct rtable *t, const char *base_label, const char *label, double logsum, size_t nlog);

/* Classifies a stage name: "data", "forward", "backward", "optimizer", "other". */
const char *an_stage_kind(const char *name);
/* The seed-004 advice for a kind of finding, or NULL. */
const char *an_advice(const char *kind);

#endif
