/*
 * data.c - the numbers behind the charts, as data-only report tables that
 * people do not read but charts, JSON, CSV and XLSX do: bounded traces of
 * every series (batch time, memory, loss, epochs, GPM windows), the stage
 * timeline from the timestamps, and the points of scaling sweeps.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses_int.h"

static void trace_rows(struct rtable *t, const char *run, const char *series, const char *unit,
		       const struct tp_trace *tr, struct rkey key)
{
	const struct tp_sample *pts;
	struct tp_sample last;
	size_t n = tp_trace_points(tr, &pts, &last);
	for (size_t i = 0; i < n; i++) {
		const struct tp_sample *p = i < tr->n ? &pts[i] : &last;
		rt_key(t, key);
		rt_text(t, run);
		rt_text(t, series);
		rt_text(t, unit);
		rt_num(t, (double)p->index + 1, 0); /* sample 1 is the first, as in the outlier table */
		rt_num(t, p->v, -1);
		rt_num(t, (double)p->line, 0);
	}
}

static void points(const struct an_run *run, struct rtable *t)
{
	char name[96];
	for (size_t i = 0; i < run->ranks.n; i++) {
		const struct an_batches *b = tp_map_at(&run->ranks, i);
		const char *rk = tp_map_key(&run->ranks, i);
		const char *sfx = strcmp(rk, "-") ? rk : NULL;
		static const struct {
			enum an_series_kind kind;
			const char *what, *unit;
			size_t off;
		} kinds[] = {
			{ AK_BATCH_TIME, "batch time", "s", offsetof(struct an_batches, t_seconds) },
			{ AK_CPU_MEMORY, "CPU memory", "MB", offsetof(struct an_batches, t_cpu_mb) },
			{ AK_GPU_MEMORY, "GPU memory", "MB", offsetof(struct an_batches, t_gpu_mb) },
			{ AK_LOSS, "loss", "", offsetof(struct an_batches, t_loss) },
			{ AK_EPOCH_TIME, "epoch time", "s", offsetof(struct an_batches, t_epochs) },
		};
		for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
			const struct tp_trace *tr = (const struct tp_trace *)((const char *)b + kinds[k].off);
			if (sfx)
				snprintf(name, sizeof(name), "%s [rank %s]", kinds[k].what, sfx);
			else
				snprintf(name, sizeof(name), "%s", kinds[k].what);
			trace_rows(t, run->label, name, kinds[k].unit, tr, an_key(kinds[k].kind, rk, run->index, 0));
		}
	}
	trace_rows(t, run->label, "GPM window total", "ms", &run->t_gpm_total_ms,
		   an_key(AK_GPM_TOTAL, NULL, run->index, 0));
	trace_rows(t, run->label, "GPM window pattern gen", "ms", &run->t_gpm_pattern_ms,
		   an_key(AK_GPM_PATTERN, NULL, run->index, 0));
	trace_rows(t, run->label, "GPM window avg nodes", "", &run->t_gpm_avg_nodes,
		   an_key(AK_GPM_AVG_NODES, NULL, run->index, 0));
}

/* The samples of a named series while they all fit its exact head (a metric
 * printed per step is short; a longer one is left to the variance table). */
static void head_rows(struct rtable *t, const char *run, const char *series, const struct tp_series *s,
		      struct rkey key)
{
	if (s->n > s->nhead)
		return;
	for (uint32_t i = 0; i < s->nhead; i++) {
		rt_key(t, key);
		rt_text(t, run);
		rt_text(t, series);
		rt_text(t, "s");
		rt_num(t, (double)s->head[i].index, 0);
		rt_num(t, s->head[i].v, -1);
		rt_num(t, (double)s->head[i].line, 0);
	}
}

static void metric_points(const struct an_run *run, struct rtable *t)
{
	char name[200];
	for (size_t i = 0; i < run->metrics.n; i++) {
		const struct an_named_series *s = tp_map_at(&run->metrics, i);
		snprintf(name, sizeof(name), "%s avg", tp_map_key(&run->metrics, i));
		head_rows(t, run->label, name, &s->s, an_key(AK_METRIC, NULL, run->index, (int)i + 1));
	}
}

/* A [TIMING] line is printed when its stage ends: it started `seconds` before. */
static void timeline(const struct an_run *run, struct rtable *t)
{
	int64_t t0 = run->first_ts;
	if (t0 == INT64_MIN)
		return;
	for (size_t i = 0; i < run->stages.n; i++) {
		const struct an_stage *s = tp_map_at(&run->stages, i);
		if (s->ts == INT64_MIN)
			continue;
		double end = (double)(s->ts - t0);
		rt_key(t, an_key(AK_STAGE, NULL, run->index, 0));
		rt_text(t, run->label);
		rt_text(t, tp_map_key(&run->stages, i));
		rt_num(t, end - s->seconds, -1);
		rt_num(t, end, -1);
		rt_num(t, s->seconds, -1);
		rt_num(t, (double)s->line, 0);
	}
}

/* The group of key i: that of the first key with the same parameter. */
static int sweep_group(const struct an_run *run, size_t i)
{
	const char *key = tp_map_key(&run->scaling, i), *sep = strchr(key, '\x1f');
	size_t plen = sep ? (size_t)(sep - key) : strlen(key);
	size_t j = 0;
	for (;; j++) {
		const char *k2 = tp_map_key(&run->scaling, j);
		if (!strncmp(k2, key, plen) && (k2[plen] == '\x1f' || !k2[plen]))
			break;
	}
	return an_sweep_group(run, j);
}

static void scaling_points(const struct an_run *run, struct rtable *t)
{
	for (size_t i = 0; i < run->scaling.n; i++) {
		const char *key = tp_map_key(&run->scaling, i);
		const char *sep = strchr(key, '\x1f');
		const struct an_nums *x = tp_map_at(&run->scaling, i);
		rt_key(t, an_key(AK_RUNTIME, NULL, run->index, sweep_group(run, i)));
		rt_text(t, run->label);
		rt_textn(t, key, sep ? (size_t)(sep - key) : strlen(key));
		rt_num(t, x->num[S_SC_VALUE], -1);
		rt_num(t, x->num[S_SC_MEAN_MS], -1);
		rt_num(t, tp_has_slot(x->has, S_SC_STD_MS) ? x->num[S_SC_STD_MS] : NAN, -1);
		rt_num(t, (double)x->line, 0);
	}
}

/* The points of the fit across runs tagged with --param (run "all runs"). */
static void run_param_points(const struct an_model *m, const struct an_opts *o, struct rtable *t)
{
	double *x = xcalloc(m->nruns + 1, sizeof(*x)), *y = xcalloc(m->nruns + 1, sizeof(*y));
	const char *what;
	size_t n = an_run_param_points(m, o, x, y, &what);
	for (size_t i = 0; i < n; i++) {
		rt_key(t, an_key(AK_NONE, NULL, -1, AN_GROUP_ALL_RUNS));
		rt_text(t, "all runs");
		rt_text(t, o->run_params[0].name);
		rt_num(t, x[i], -1);
		rt_num(t, y[i], -1);
		rt_empty(t);
		rt_empty(t);
	}
	free(x);
	free(y);
}

void an_data(const struct an_model *m, const struct an_opts *o, struct report *rep)
{
	struct rtable *pt = an_table(rep, AT_POINTS, NULL), *tl = an_table(rep, AT_TIMELINE, NULL);
	struct rtable *sp = an_table(rep, AT_SCALING_POINTS, NULL);
	for (size_t r = 0; r < m->nruns; r++) {
		points(m->runs[r], pt);
		metric_points(m->runs[r], pt);
		timeline(m->runs[r], tl);
		scaling_points(m->runs[r], sp);
	}
	run_param_points(m, o, sp);
}
