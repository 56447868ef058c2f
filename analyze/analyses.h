/*
 * analyses.h - the questions tprof-analyze answers, each a function from
 * the model (model.h) to sections of a report (report.h):
 *
 *   breakdown    stage shares, unaccounted time, table and clock checks
 *   bottlenecks  thresholds of S4 with their advice, GPM share
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
	AN_ALL = ~0u /* with the bits of rows added after these */
};

/*
 * The report's vocabulary, defined once: what each section, table, column
 * and row is, as typed ids carried on the report (rsection.kind,
 * rtable.kind, rcol.key, rt_row_key). Renderers select and join by these
 * ids, never by the names and titles people read, so renaming a title or a
 * series changes no chart. schema.c holds each table's section, machine id
 * and columns next to their ids.
 */
enum an_section_kind {
	AS_NONE,
	AS_SUMMARY,
	AS_BREAKDOWN,
	AS_BOTTLENECKS,
	AS_WARMUP,
	AS_VARIANCE,
	AS_RANKS,
	AS_CONVERGENCE,
	AS_THROUGHPUT,
	AS_SPEEDUP,
	AS_SCALING,
	AS_COMPARE,
	AS_DATA,
	AS_NKINDS,
	/* made by the run history (history/), not by an_analyze */
	AS_TREND = AS_NKINDS
};

enum an_table_kind {
	AT_NONE,
	AT_SUMMARY_RUNS,   /* per run: wall time, stages, steady step, throughput, warmup cost */
	AT_SUMMARY_TOP,    /* the findings with the most time at stake, largest first */
	AT_BREAKDOWN,      /* stage shares of one run (or of one printed table) */
	AT_TABLE_CHECK,
	AT_GPM_SHARE,
	AT_WARMUP,
	AT_WARMUP_PRINTED,
	AT_VARIANCE,
	AT_OUTLIERS,
	AT_DRIFT,
	AT_RANKS,
	AT_CONVERGENCE,
	AT_THROUGHPUT,
	AT_SPEEDUP,
	AT_SPEEDUP_PRINTED,
	AT_SCALING,        /* one row per fit; row key group = the fit */
	AT_SCALING_FITS,   /* data: each fit's line (intercept, exponent, centroid) */
	AT_COMPARE,
	AT_POINTS,         /* data: traces of every series */
	AT_TIMELINE,       /* data: stage start and end */
	AT_SCALING_POINTS, /* data: the points of each fit; row key group = the fit */
	AT_TREND,          /* the run history: one series across stored runs */
	AT_PROGRESS,       /* per progress bar: steps, step time, stalls, ETA error */
	AT_NKINDS
};

/* Columns that consumers look up (the others have key AC_NONE). */
enum an_col_key {
	AC_NONE,
	AC_RUN,
	AC_SERIES,
	AC_UNIT,
	AC_INDEX,
	AC_VALUE,
	AC_LINE,
	AC_STAGE,
	AC_SECONDS,
	AC_SHARE,
	AC_CUMULATIVE,
	AC_START,
	AC_END,
	AC_PARAM,
	AC_MEAN,
	AC_STD,
	AC_MEDIAN,
	AC_EXPONENT,
	AC_CI_LOW,
	AC_CI_HIGH,
	AC_EXPECTED,
	AC_INTERCEPT,  /* of the log-log line: log(time) = intercept + exponent log(x) */
	AC_LOG_X_MEAN, /* mean of log(x) over the fit's points: the line passes its centroid */
	AC_LOG_Y_MEAN,
	AC_ITEM,
	AC_BASELINE_RUN,
	AC_BASELINE,
	AC_RATIO,
	AC_P,
	AC_WARMUP_END,
	AC_RANK,
	AC_OVERHEAD_PCT,
	AC_WALL,
	AC_WALL_FROM,   /* what gave the wall: "timestamps", "clock", "phases", ... */
	AC_AT_STAKE,
	AC_MESSAGE,
	AC_ADVICE,
	AC_WHERE,
	AC_UNACCOUNTED,
	AC_N,
	AC_THROUGHPUT,
	AC_WARMUP_COST,
	AC_WARNINGS,    /* parse warnings of a run */
	AC_SEVERITY,
	AC_KIND,
	AC_X_LOW,  /* a fit line's ends: x_low, x_high, then y_low, y_high (adjacent) */
	AC_X_HIGH,
	AC_Y_LOW,
	AC_Y_HIGH,
	AC_RUN_ID,
	AC_CHANGE_POINT,
	AC_CHANGE,
	AC_STEP_KIND, /* what a run's step series is: "iteration", or "span" (a phase's) */
	AC_NKEYS
};

/* What a row's series is (rkey.series). */
enum an_series_kind {
	AK_NONE,
	AK_BATCH_TIME,
	AK_EPOCH_TIME,
	AK_CPU_MEMORY,
	AK_GPU_MEMORY,
	AK_LOSS,
	AK_GPM_TOTAL,
	AK_GPM_PATTERN,
	AK_GPM_AVG_NODES,
	AK_METRIC,
	AK_OPERATION,
	AK_RUNTIME,
	AK_RATE,         /* a printed rate (samples/s, tokens/s): more is faster */
	AK_STAGE,        /* a stage or a printed table's row */
	AK_OTHER_STAGES, /* the stages beyond the table's limit, summed */
	AK_UNACCOUNTED,
	AK_TOTAL,
	AK_OVERALL,      /* a summary over the other rows (the geometric mean of ratios) */
	AK_STEP_TIME,    /* the run's step, its values a timing's (no batch carries it) */
	AK_NKINDS
};

/*
 * Groups of a scaling fit (rkey.group in "scaling", "scaling-fits" and
 * "scaling-points"): a run's sweep of one parameter, the first key of that
 * parameter in an_run.scaling naming it; the fit across runs tagged with
 * --param; a run's GPM windows against their graph size.
 */
#define AN_GROUP_ALL_RUNS 1

/* A kind of series for people ("batch time"), or NULL. */
const char *an_series_name(enum an_series_kind kind);

struct an_param {
	char name[32];
	double value;
	int set;
};

/* --match OLD=NEW: the series OLD of the first run is NEW in the others. */
struct an_match {
	const char *old_name, *new_name;
};

/* What an_analyze returns: bits. */
#define AN_GATE_REGRESSION 1 /* --fail-on-regression tripped */
#define AN_GATE_EMPTY 2      /* two runs share no series: nothing to compare */

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
	const struct an_match *match; /* --match, nmatch entries */
	size_t nmatch;
};

void an_opts_default(struct an_opts *o);

/* "NAME=NUMBER" (--param, --predict) into p; -1 if it is not that. */
int an_parse_param(const char *arg, struct an_param *p);

/*
 * The analyses, one row each: the table tprof-analyze makes its analysis
 * options, their --help lines and completions from, and an_analyze walks.
 * A row with a name is an option (--NAME) that sets its bit in which; a
 * row without one runs whenever its bit is asked, or always (bit 0).
 * Several rows may share a function (warmup, variance, ... are one pass
 * over the series): it runs once, at its first row's place, and reads
 * o->which for what to add. A function returns AN_GATE_* bits, or 0.
 *
 * Adding an analysis is its file (the function) and its row in
 * analyses.c, with a bit of its own (README, "Adding an analysis").
 */
typedef int an_run_fn(const struct an_model *m, const struct an_opts *o, struct report *rep);
struct an_analysis {
	const char *name; /* the option's long name, or NULL */
	unsigned bit;     /* AN_* (a new row: the next free bit), or 0: always */
	an_run_fn *run;
	const char *help; /* the option's --help line */
	const char *man;  /* its entry in tprof-analyze(1), roff: the build puts it
			   * under OPTIONS, after ".TP" and ".B \\-\\-NAME" */
};
extern const struct an_analysis an_analyses[]; /* ends with a row of zeros */

/* Run against run (tprof-history's compare too); AN_GATE_* bits. */
int an_compare(const struct an_model *m, const struct an_opts *o, struct report *rep);

/* Runs the analyses asked for by o->which (all: AN_ALL) in the table's
 * order. Returns AN_GATE_* bits. */
int an_analyze(const struct an_model *m, const struct an_opts *o, struct report *rep);

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

/* What gave a run's wall; an_wall_from_name is its word in the report's
 * wall_from column ("timestamps", "phases", ...; NULL for AW_NONE). */
enum an_wall_from {
	AW_NONE,
	AW_PHASES,
	AW_CLOCK,
	AW_TABLE_TOTAL,
	AW_BATCHES,   /* steps added: what lies between them is left out */
	AW_EPOCHS,
	AW_GPM,       /* GPM windows added */
	AW_RUN_TIME,  /* a run time printed (a step metric's total) */
	AW_STAMPS,
	AW_STEPS,     /* the steps that ran times the median step: a bound */
	AW_BARS       /* a progress bar's clock over its runs */
};
const char *an_wall_from_name(enum an_wall_from from);

#endif
