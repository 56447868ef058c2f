/*
 * analyses.c - runs the selected analyses in a fixed order, so that the
 * report reads top-down: where the time went, what to fix, how stable the
 * numbers are, and how runs compare.
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

int an_analyze(const struct an_model *m, const struct an_opts *o, struct report *rep)
{
	/* fixed order and titles, whatever analysis adds to them first */
	for (int k = AS_NONE + 1; k < AS_NKINDS; k++)
		an_section(rep, (enum an_section_kind)k);
	int gate = 0;
	if (o->which & (AN_BREAKDOWN | AN_BOTTLENECKS))
		an_breakdown(m, o, rep, (o->which & AN_BOTTLENECKS) != 0);
	if (o->which & AN_BREAKDOWN)
		an_profile(m, o, rep);
	if (o->which & (AN_WARMUP | AN_VARIANCE | AN_RANKS | AN_CONVERGENCE | AN_THROUGHPUT))
		an_series(m, o, rep);
	an_progress_report(m, o, rep);
	if (o->which & AN_SPEEDUP)
		an_speedup(m, o, rep);
	if (o->which & AN_SCALING)
		an_scaling(m, o, rep);
	if (o->which & AN_COMPARE)
		gate = an_compare(m, o, rep);
	an_records(m, o, rep);
	if (o->which & AN_DATA)
		an_data(m, o, rep);
	an_nothing(m, o, rep);
	an_summary(m, o, rep);
	return gate;
}
