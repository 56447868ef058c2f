/*
 * schema.c - the one place where the report's sections and tables get
 * their machine ids, default titles and columns, each next to the typed id
 * (analyses.h) that renderers select it by. The machine ids and column
 * names are what JSON, CSV and XLSX print; the typed ids are what charts
 * and renderers look up, so a rename here changes an output's text and no
 * chart.
 */
#include <stdlib.h>
#include <string.h>

#include "analyses_int.h"

#define C(k, n, u) { k, n, u }
#define MAX_COLS 16

static const struct {
	enum an_section_kind kind;
	const char *id, *title;
} sections[] = {
	{ AS_SUMMARY, "summary", "Summary" },
	{ AS_BREAKDOWN, "breakdown", "Breakdown" },
	{ AS_BOTTLENECKS, "bottlenecks", "Bottlenecks" },
	{ AS_WARMUP, "warmup", "Warmup" },
	{ AS_VARIANCE, "variance", "Variance, outliers and drift" },
	{ AS_RANKS, "ranks", "Ranks and stragglers" },
	{ AS_CONVERGENCE, "convergence", "Convergence" },
	{ AS_THROUGHPUT, "throughput", "Throughput" },
	{ AS_SPEEDUP, "speedup", "Speedups" },
	{ AS_SCALING, "scaling", "Scaling" },
	{ AS_COMPARE, "compare", "Run comparison" },
	{ AS_DATA, "data", "Chart data" },
};

static const struct schema {
	enum an_table_kind kind;
	enum an_section_kind section;
	const char *id, *title;
	int data_only;
	struct rcol_spec cols[MAX_COLS]; /* up to the first with no name */
} tables[] = {
	{ AT_SUMMARY_RUNS, AS_SUMMARY, "summary-runs", "At a glance", 0,
	  { C(AC_RUN, "run", ""), C(AC_WALL, "wall", "s"), C(AC_WALL_FROM, "wall_from", ""),
	    C(AC_SECONDS, "in_stages", "s"),
	    C(AC_UNACCOUNTED, "unaccounted", "s"), C(AC_SERIES, "step", ""), C(AC_MEDIAN, "step_median", "s"),
	    C(AC_STD, "step_spread", "s"), C(AC_N, "steps", ""), C(AC_STEP_KIND, "step_kind", ""),
	    C(AC_THROUGHPUT, "throughput", "steps/s"),
	    C(AC_WARMUP_COST, "warmup_cost", "s"), C(AC_NONE, "file", ""), C(AC_NONE, "records", ""), C(AC_WARNINGS, "parse_warnings", "") } },
	{ AT_SUMMARY_TOP, AS_SUMMARY, "summary-top", "Top findings by time at stake", 0,
	  { C(AC_INDEX, "rank", ""), C(AC_RUN, "run", ""), C(AC_AT_STAKE, "at_stake", "s"),
	    C(AC_SEVERITY, "severity", ""), C(AC_KIND, "kind", ""), C(AC_MESSAGE, "finding", ""),
	    C(AC_ADVICE, "advice", ""), C(AC_WHERE, "where", "") } },
	{ AT_BREAKDOWN, AS_BREAKDOWN, "breakdown", "Where the time went", 0,
	  { C(AC_RUN, "run", ""), C(AC_STAGE, "stage", ""), C(AC_SECONDS, "seconds", "s"),
	    C(AC_SHARE, "share", "%"), C(AC_CUMULATIVE, "cumulative", "%"), C(AC_LINE, "line", "") } },
	{ AT_TABLE_CHECK, AS_BREAKDOWN, "table-check", "Printed table check", 0,
	  { C(AC_RUN, "run", ""), C(AC_NONE, "section", ""), C(AC_NONE, "row", ""), C(AC_SECONDS, "seconds", "s"),
	    C(AC_NONE, "printed", "%"), C(AC_NONE, "recomputed", "%"), C(AC_NONE, "delta", "%"),
	    C(AC_LINE, "line", "") } },

	{ AT_WARMUP, AS_WARMUP, "warmup", "Warmup: first sample vs steady state", 0,
	  { C(AC_RUN, "run", ""), C(AC_SERIES, "series", ""), C(AC_UNIT, "unit", ""), C(AC_NONE, "n", ""),
	    C(AC_NONE, "first", ""), C(AC_NONE, "steady_mean", ""), C(AC_MEDIAN, "steady_median", ""),
	    C(AC_NONE, "overhead", ""), C(AC_OVERHEAD_PCT, "overhead_pct", "%"),
	    C(AC_WARMUP_END, "warmup_ends_at", ""), C(AC_NONE, "mean_after_warmup", "") } },
	{ AT_WARMUP_PRINTED, AS_WARMUP, "warmup-printed", "Warmup analyses printed in the log", 0,
	  { C(AC_RUN, "run", ""), C(AC_SERIES, "name", ""), C(AC_NONE, "first", "s"), C(AC_NONE, "steady", "s"),
	    C(AC_NONE, "overhead", "s"), C(AC_OVERHEAD_PCT, "overhead_pct", "%"), C(AC_LINE, "line", "") } },
	{ AT_VARIANCE, AS_VARIANCE, "variance", "Variance of repeated measurements", 0,
	  { C(AC_RUN, "run", ""), C(AC_SERIES, "series", ""), C(AC_UNIT, "unit", ""), C(AC_NONE, "n", ""),
	    C(AC_NONE, "warmup", ""), C(AC_MEAN, "mean", ""), C(AC_STD, "std", ""), C(AC_NONE, "min", ""),
	    C(AC_NONE, "max", ""), C(AC_MEDIAN, "median", ""), C(AC_NONE, "p90", ""), C(AC_NONE, "p99", ""),
	    C(AC_NONE, "max/min", "x"), C(AC_NONE, "cv", "%"), C(AC_NONE, "max/min_all", "x") } },
	{ AT_OUTLIERS, AS_VARIANCE, "outliers", "Outliers (modified z-score, median/MAD, |z| > threshold)", 0,
	  { C(AC_RUN, "run", ""), C(AC_SERIES, "series", ""), C(AC_UNIT, "unit", ""), C(AC_INDEX, "index", ""),
	    C(AC_VALUE, "value", ""), C(AC_MEDIAN, "median", ""), C(AC_LINE, "line", "") } },
	{ AT_DRIFT, AS_VARIANCE, "drift", "Drift within the run (least squares against the sample index)", 0,
	  { C(AC_RUN, "run", ""), C(AC_SERIES, "series", ""), C(AC_UNIT, "unit", ""), C(AC_NONE, "n", ""),
	    C(AC_NONE, "slope_per_step", ""), C(AC_NONE, "change_over_run", "%"), C(AC_NONE, "r2", ""),
	    C(AC_P, "p", "") } },
	{ AT_RANKS, AS_RANKS, "ranks", "Per-rank batch times", 0,
	  { C(AC_RUN, "run", ""), C(AC_RANK, "rank", ""), C(AC_NONE, "batches", ""), C(AC_MEDIAN, "median", "s"),
	    C(AC_MEAN, "mean", "s"), C(AC_NONE, "p90", "s"), C(AC_NONE, "vs_median_rank", "%") } },
	{ AT_CONVERGENCE, AS_CONVERGENCE, "convergence", "Convergence", 0,
	  { C(AC_RUN, "run", ""), C(AC_RANK, "rank", ""), C(AC_NONE, "reached", ""), C(AC_NONE, "steps", ""),
	    C(AC_NONE, "epoch", ""), C(AC_SECONDS, "seconds", "s"), C(AC_NONE, "min_loss", ""),
	    C(AC_LINE, "line", "") } },
	{ AT_THROUGHPUT, AS_THROUGHPUT, "throughput", "Throughput", 0,
	  { C(AC_RUN, "run", ""), C(AC_SERIES, "measure", ""), C(AC_VALUE, "value", ""), C(AC_UNIT, "unit", "") } },
	{ AT_PROGRESS, AS_THROUGHPUT, "progress", "Progress bars: steps from their redraws", 0,
	  { C(AC_RUN, "run", ""), C(AC_SERIES, "bar", ""), C(AC_NONE, "total", ""), C(AC_NONE, "runs", ""),
	    C(AC_NONE, "redraws", ""), C(AC_N, "steps", ""), C(AC_MEDIAN, "step_median", "s"),
	    C(AC_NONE, "step_p90", "s"), C(AC_NONE, "stalls", ""), C(AC_NONE, "stall_time", "s"),
	    C(AC_NONE, "eta_error", "%"), C(AC_NONE, "eta_bias", "s"), C(AC_LINE, "line", "") } },
	{ AT_SPEEDUP, AS_SPEEDUP, "speedup", "Speedups", 0,
	  { C(AC_RUN, "run", ""), C(AC_ITEM, "name", ""), C(AC_SECONDS, "seconds", "s"), C(AC_RATIO, "speedup", "x"),
	    C(AC_NONE, "uncertainty", "x"), C(AC_BASELINE, "baseline", ""), C(AC_LINE, "line", "") } },

	{ AT_SCALING, AS_SCALING, "scaling", "Scaling: log(time) against log(size)", 0,
	  { C(AC_RUN, "run", ""), C(AC_SERIES, "series", ""), C(AC_PARAM, "param", ""), C(AC_NONE, "points", ""),
	    C(AC_EXPONENT, "exponent", ""), C(AC_CI_LOW, "ci_low", ""), C(AC_CI_HIGH, "ci_high", ""),
	    C(AC_NONE, "r2", ""), C(AC_EXPECTED, "expected", ""), C(AC_NONE, "predicted", "ms"),
	    C(AC_NONE, "pred_low", "ms"), C(AC_NONE, "pred_high", "ms") } },
	{ AT_SCALING_FITS, AS_DATA, "scaling-fits", "Scaling fit lines", 1,
	  { C(AC_RUN, "run", ""), C(AC_SERIES, "series", ""), C(AC_PARAM, "param", ""),
	    C(AC_INTERCEPT, "intercept", ""), C(AC_EXPONENT, "exponent", ""), C(AC_CI_LOW, "ci_low", ""),
	    C(AC_CI_HIGH, "ci_high", ""), C(AC_EXPECTED, "expected", ""), C(AC_LOG_X_MEAN, "log_x_mean", ""),
	    C(AC_LOG_Y_MEAN, "log_y_mean", ""), C(AC_X_LOW, "x_low", ""), C(AC_X_HIGH, "x_high", ""),
	    C(AC_Y_LOW, "y_low", "ms"), C(AC_Y_HIGH, "y_high", "ms") } },
	{ AT_COMPARE, AS_COMPARE, "compare", "Run comparison (each run against the first)", 0,
	  { C(AC_ITEM, "item", ""), C(AC_UNIT, "unit", ""), C(AC_BASELINE_RUN, "baseline_run", ""),
	    C(AC_BASELINE, "baseline", ""), C(AC_RUN, "run", ""), C(AC_VALUE, "value", ""), C(AC_RATIO, "ratio", "x"),
	    C(AC_NONE, "change", "%"), C(AC_P, "p_value", ""), C(AC_NONE, "verdict", ""),
	    C(AC_CI_LOW, "ratio_low", "x"), C(AC_CI_HIGH, "ratio_high", "x") } },
	{ AT_POINTS, AS_DATA, "points", "Series points for charts", 1,
	  { C(AC_RUN, "run", ""), C(AC_SERIES, "series", ""), C(AC_UNIT, "unit", ""), C(AC_INDEX, "index", ""),
	    C(AC_VALUE, "value", ""), C(AC_LINE, "line", "") } },
	{ AT_TIMELINE, AS_DATA, "timeline", "Stage timeline", 1,
	  { C(AC_RUN, "run", ""), C(AC_STAGE, "stage", ""), C(AC_START, "start", "s"), C(AC_END, "end", "s"),
	    C(AC_SECONDS, "seconds", "s"), C(AC_LINE, "line", "") } },
	{ AT_SCALING_POINTS, AS_DATA, "scaling-points", "Scaling points", 1,
	  { C(AC_RUN, "run", ""), C(AC_PARAM, "param", ""), C(AC_VALUE, "value", ""), C(AC_MEAN, "mean", "ms"),
	    C(AC_STD, "std", "ms"), C(AC_LINE, "line", "") } },
};

struct rsection *an_section(struct report *rep, enum an_section_kind kind)
{
	for (size_t i = 0; i < ARRAY_SIZE(sections); i++)
		if (sections[i].kind == kind) {
			struct rsection *s = report_section(rep, sections[i].id, sections[i].title);
			s->kind = kind;
			return s;
		}
	abort(); /* every kind has a row above: a missing one is a programming error */
}

struct rtable *an_table(struct report *rep, enum an_table_kind kind, const char *title)
{
	for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
		const struct schema *sc = &tables[i];
		if (sc->kind != kind)
			continue;
		size_t n = 0;
		while (n < MAX_COLS && sc->cols[n].name)
			n++;
		struct rsection *s = an_section(rep, sc->section);
		struct rtable *t = report_table_spec(rep, s->id, sc->id, kind, title ? title : sc->title, sc->cols, n);
		t->data_only = sc->data_only;
		return t;
	}
	abort();
}

const char *an_series_name(enum an_series_kind kind)
{
	static const char *const names[AK_NKINDS] = {
		[AK_BATCH_TIME] = "batch time",	    [AK_EPOCH_TIME] = "epoch time",
		[AK_CPU_MEMORY] = "CPU memory",	    [AK_GPU_MEMORY] = "GPU memory",
		[AK_LOSS] = "loss",		    [AK_GPM_TOTAL] = "GPM window total",
		[AK_GPM_PATTERN] = "GPM window pattern gen", [AK_GPM_AVG_NODES] = "GPM window avg nodes",
		[AK_STEP_TIME] = "step time",
	};
	return kind > AK_NONE && kind < AK_NKINDS ? names[kind] : NULL;
}

struct rkey an_key(int series, const char *rank, int run, int group)
{
	struct rkey k = { series, -1, run, group, -1 };
	if (rank && *rank && strcmp(rank, "-")) {
		char *end;
		long v = strtol(rank, &end, 10);
		k.rank = *end || v < 0 || v > 1 << 30 ? -1 : (int)v;
	}
	return k;
}
