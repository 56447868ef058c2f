/*
 * analyses.c - the table of analyses (an_analyses) and the walk over it
 * that runs the ones asked for. tprof-analyze's options, --help and
 * completions come from the same table.
 */
#include "analyses_int.h"
#include "progress.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int an_parse_param(const char *arg, struct an_param *p)
{
	const char *eq = strchr(arg, '=');
	char *end;
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(p->name))
		return -1;
	memcpy(p->name, arg, (size_t)(eq - arg));
	p->name[eq - arg] = '\0';
	errno = 0;
	p->value = strtod(eq + 1, &end);
	if (errno || *end || end == eq + 1 || !isfinite(p->value))
		return -1;
	p->set = 1;
	return 0;
}

void an_opts_default(struct an_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->which = AN_ALL;
	o->bottleneck_pct = 50;
	o->optimize_pct = 20;
	o->data_pct = 30;
	o->variance_ratio = 2.0;
	o->outlier_z = 3.5;
	o->straggler_pct = 10;
	o->loss_threshold = NAN;
	o->fail_regression_pct = NAN;
	o->alpha = 0.05;
}

/*
 * The rows' functions, one signature: the parts keep their own (the
 * breakdown takes whether bottlenecks were asked), these adapt them.
 */
static int run_breakdown(const struct an_model *m, const struct an_opts *o, struct report *rep)
{
	an_breakdown(m, o, rep, (o->which & AN_BOTTLENECKS) != 0);
	if (o->which & AN_BREAKDOWN)
		an_profile(m, o, rep);
	return 0;
}

#define RUN_VOID(fn)                                                                              	static int run_##fn(const struct an_model *m, const struct an_opts *o, struct report *rep) 	{                                                                                         		an_##fn(m, o, rep);                                                               		return 0;                                                                         	}
RUN_VOID(series)
RUN_VOID(progress_report)
RUN_VOID(speedup)
RUN_VOID(scaling)
RUN_VOID(records)
RUN_VOID(data)
RUN_VOID(nothing)
RUN_VOID(summary)

/*
 * Options list the rows with a name in table order; a function runs once,
 * at its first row's place, so that the report reads top-down: where the
 * time went, what to fix, how stable the numbers are, how runs compare.
 */
const struct an_analysis an_analyses[] = {
	{ "breakdown", AN_BREAKDOWN, run_breakdown, "stage shares, unaccounted time, checks, model profile",
	  "Each stage's share of the total, the time in no stage, printed tables\n"
	  "checked against their rows and against the raw lines, the clock\n"
	  "checked, S2's model profile and S1's average per dataset\n"
	  "(see\n"
	  ".BR breakdown ).\n" },
	{ "bottlenecks", AN_BOTTLENECKS, run_breakdown, "thresholds and advice (see --bottleneck-pct ...)",
	  "The bottleneck thresholds of S4 with their advice, and the share\n"
	  "of GPM pattern generation (see\n"
	  ".BR bottlenecks ).\n"
	  "The shares are those of the breakdown, so its tables are shown too.\n" },
	{ "warmup", AN_WARMUP, run_series, "first vs steady state, where warmup ends",
	  "First sample against the steady state, and where warmup ends (see\n"
	  ".BR warmup ).\n" },
	{ "variance", AN_VARIANCE, run_series, "spread, outliers, drift, leaks, aggregate rows",
	  "Spread, quantiles, outliers, drift and memory leaks of every series, and\n"
	  "S4's AGGREGATE STATISTICS and Batch timing lines (see\n"
	  ".BR variance ).\n" },
	{ NULL, 0, run_progress_report, NULL, NULL }, /* the progress bars' tables */
	{ "speedup", AN_SPEEDUP, run_speedup, "speedups against a baseline (--baseline NAME)",
	  "Speedups against a baseline (see\n"
	  ".B speedup\n"
	  "and\n"
	  ".BR \\-\\-baseline ).\n" },
	{ "convergence", AN_CONVERGENCE, run_series, "steps/epochs/seconds to --loss-threshold X",
	  "Steps, epoch and seconds until the loss first reaches\n"
	  ".B \\-\\-loss\\-threshold\n"
	  "(which must be given, or the exit status is 2).\n" },
	{ "throughput", AN_THROUGHPUT, run_series, "samples/s, steps/s, graphs/s, nodes/s, inference",
	  "Samples, optimization steps, batches, graphs and nodes per second, and\n"
	  "S1's inference benchmarks (see\n"
	  ".BR throughput ).\n" },
	{ "scaling", AN_SCALING, run_scaling, "log-log fit of time against size (--param, --predict)",
	  "Log\\-log fits of time against size, with the exponent's interval, the\n"
	  "expected complexity and\n"
	  ".B \\-\\-predict\n"
	  "(see\n"
	  ".BR scaling ).\n" },
	{ "compare", AN_COMPARE, an_compare, "run against run with significance tests",
	  "Each run against the first, with a rank test where samples exist (see\n"
	  ".BR compare ).\n" },
	{ "ranks", AN_RANKS, run_series, "per-rank medians and stragglers",
	  "Per\\-rank median batch times and stragglers (see\n"
	  ".BR ranks ).\n" },
	/* not options: the single printed statistics, the charts' data, what
	 * was read when nothing applied, and last the summary, which ranks the
	 * others' findings */
	{ NULL, 0, run_records, NULL, NULL },
	{ NULL, AN_DATA, run_data, NULL, NULL },
	{ NULL, 0, run_nothing, NULL, NULL },
	{ NULL, 0, run_summary, NULL, NULL },
	{ 0 },
};

/* Whether fn runs: bit 0 always, else any row of fn asked for. */
static int asked(const struct an_analysis *t, an_run_fn *fn, unsigned which)
{
	for (const struct an_analysis *a = t; a->run; a++)
		if (a->run == fn && (!a->bit || (which & a->bit)))
			return 1;
	return 0;
}

static int ran_before(const struct an_analysis *t, const struct an_analysis *a)
{
	for (const struct an_analysis *b = t; b < a; b++)
		if (b->run == a->run)
			return 1;
	return 0;
}

int an_analyze_with(const struct an_analysis *t, const struct an_model *m, const struct an_opts *o,
		    struct report *rep)
{
	/* fixed order and titles, whatever analysis adds to them first */
	for (int k = AS_NONE + 1; k < AS_NKINDS; k++)
		an_section(rep, (enum an_section_kind)k);
	int gate = 0;
	for (const struct an_analysis *a = t; a->run; a++)
		if (!ran_before(t, a) && asked(t, a->run, o->which))
			gate |= a->run(m, o, rep);
	return gate;
}

int an_analyze(const struct an_model *m, const struct an_opts *o, struct report *rep)
{
	return an_analyze_with(an_analyses, m, o, rep);
}
