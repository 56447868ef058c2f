/*
 * analyses.c - the table of analyses (an_analyses) and the walk over it
 * that runs the ones asked for. tprof-analyze's options, --help and
 * completions come from the same table.
 */
#include "analyses.h"
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
	{ "breakdown", AN_BREAKDOWN, run_breakdown, "stage shares, unaccounted time, checks, model profile" },
	{ "bottlenecks", AN_BOTTLENECKS, run_breakdown, "thresholds and advice (see --bottleneck-pct ...)" },
	{ "warmup", AN_WARMUP, run_series, "first vs steady state, where warmup ends" },
	{ "variance", AN_VARIANCE, run_series, "spread, outliers, drift, leaks, aggregate rows" },
	{ NULL, 0, run_progress_report, NULL }, /* the progress bars' tables */
	{ "speedup", AN_SPEEDUP, run_speedup, "speedups against a baseline (--baseline NAME)" },
	{ "convergence", AN_CONVERGENCE, run_series, "steps/epochs/seconds to --loss-threshold X" },
	{ "throughput", AN_THROUGHPUT, run_series, "samples/s, steps/s, graphs/s, nodes/s, inference" },
	{ "scaling", AN_SCALING, run_scaling, "log-log fit of time against size (--param, --predict)" },
	{ "compare", AN_COMPARE, an_compare, "run against run with significance tests" },
	{ "ranks", AN_RANKS, run_series, "per-rank medians and stragglers" },
	/* not options: the single printed statistics, the charts' data, what
	 * was read when nothing applied, and last the summary, which ranks the
	 * others' findings */
	{ NULL, 0, run_records, NULL },
	{ NULL, AN_DATA, run_data, NULL },
	{ NULL, 0, run_nothing, NULL },
	{ NULL, 0, run_summary, NULL },
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
