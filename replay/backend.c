/*
 * backend.c - choosing the backend (auto falls back to the CPU and says
 * why in one line) and dispatching each request to the CPU code or the
 * CUDA backend; the statistics of timing samples.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "attn.h"
#include "cpu.h"
#include "cuda_api.h"
#include "stats.h"

double tpr_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void open_cpu(struct tpr_backend *be, int threads)
{
	be->kind = TPR_BE_CPU;
	be->pool = tpr_pool_new(threads);
	tpr_cpu_info(&be->info, tpr_pool_size(be->pool));
}

int tpr_backend_open(struct tpr_backend *be, const char *which, int threads, struct strbuf *note,
		     struct strbuf *err, int *code)
{
	memset(be, 0, sizeof(*be));
	if (strcmp(which, "auto") && strcmp(which, "cpu") && strcmp(which, "cuda")) {
		strbuf_addf(err, "unknown backend '%s' (auto, cuda, cpu)", which);
		*code = TP_EXIT_INPUT;
		return -1;
	}
	if (!strcmp(which, "cpu")) {
		open_cpu(be, threads);
		return 0;
	}
	struct tpr_err e = { 0, "" };
	int rc = tpr_cuda_open(&be->cuda, &be->info, &e);
	if (rc == 0) {
		be->kind = TPR_BE_CUDA;
		return 0;
	}
	if (rc == 1 && !strcmp(which, "auto")) {
		strbuf_addf(note, "%s: falling back to the CPU backend", e.msg);
		open_cpu(be, threads);
		return 0;
	}
	strbuf_addf(err, "CUDA backend unavailable: %s", e.msg);
	*code = TP_EXIT_INTERNAL;
	return -1;
}

void tpr_backend_close(struct tpr_backend *be)
{
	tpr_cuda_close(be->cuda);
	tpr_pool_free(be->pool);
	memset(be, 0, sizeof(*be));
}

static int cuda_failed(int rc, const struct tpr_err *e, struct strbuf *err)
{
	if (rc)
		strbuf_addstr(err, e->msg);
	return rc ? -1 : 0;
}

int tpr_run_walks(struct tpr_backend *be, const struct tpr_graph *g, const struct tpr_walk_cfg *c,
		  int32_t *nodes, int32_t *edges, struct strbuf *err)
{
	struct tpr_err e = { 0, "" };
	if (be->kind == TPR_BE_CPU) {
		tpr_walk_cpu(be->pool, g, c, 0, g->n, nodes, edges);
		return 0;
	}
	return cuda_failed(tpr_cuda_walks(be->cuda, g, c, nodes, edges, &e), &e, err);
}

int tpr_run_attn(struct tpr_backend *be, const struct tpr_attn_job *j, float *out, struct strbuf *err)
{
	struct tpr_err e = { 0, "" };
	if (tpr_attn_check(j, err) < 0)
		return -1;
	if (be->kind == TPR_BE_CPU) {
		struct tpr_attn_ws *ws = tpr_attn_ws_new(j, tpr_pool_size(be->pool));
		tpr_attn_cpu(be->pool, j, ws, out);
		tpr_attn_ws_free(ws);
		return 0;
	}
	return cuda_failed(tpr_cuda_attn(be->cuda, j, out, &e), &e, err);
}

int tpr_bench_walks(struct tpr_backend *be, const struct tpr_graph *g, const struct tpr_walk_cfg *c,
		    const struct tpr_timing_opts *o, int mode, struct tpr_measure *m,
		    struct strbuf *err)
{
	struct tpr_err e = { 0, "" };
	if (be->kind == TPR_BE_CPU)
		return tpr_cpu_bench_walks(be->pool, g, c, o, mode, m);
	return cuda_failed(tpr_cuda_bench_walks(be->cuda, g, c, o, mode, m, &e), &e, err);
}

int tpr_bench_attn(struct tpr_backend *be, const struct tpr_attn_job *j,
		   const struct tpr_timing_opts *o, struct tpr_measure *m, struct strbuf *err)
{
	struct tpr_err e = { 0, "" };
	if (tpr_attn_check(j, err) < 0)
		return -1;
	if (be->kind == TPR_BE_CPU)
		return tpr_cpu_bench_attn(be->pool, j, o, m);
	return cuda_failed(tpr_cuda_bench_attn(be->cuda, j, o, m, &e), &e, err);
}

static void samples_init(struct tpr_samples *s, int cap)
{
	s->n = 0;
	s->cap = cap;
	s->ms = xcalloc((size_t)cap, sizeof(*s->ms));
}

void tpr_measure_init(struct tpr_measure *m, int cap)
{
	memset(m, 0, sizeof(*m));
	cap = cap < 1 ? 1 : cap;
	samples_init(&m->kernel, cap);
	samples_init(&m->call, cap);
	samples_init(&m->h2d_pinned, cap);
	samples_init(&m->h2d_pageable, cap);
	samples_init(&m->d2h_pinned, cap);
	samples_init(&m->d2h_pageable, cap);
}

void tpr_measure_free(struct tpr_measure *m)
{
	free(m->kernel.ms);
	free(m->call.ms);
	free(m->h2d_pinned.ms);
	free(m->h2d_pageable.ms);
	free(m->d2h_pinned.ms);
	free(m->d2h_pageable.ms);
	memset(m, 0, sizeof(*m));
}

void tpr_stat_of(const struct tpr_samples *s, struct tpr_stat *st)
{
	struct tp_series *ser = xmalloc(sizeof(*ser));
	tp_series_init(ser);
	for (int i = 0; i < s->n; i++)
		tp_series_add(ser, s->ms[i], 0);
	st->n = (int)ser->n;
	st->median = ser->n ? tp_series_quantile(ser, 0.5) : NAN;
	st->min = ser->n ? ser->min : NAN;
	st->max = ser->n ? ser->max : NAN;
	tp_series_free(ser);
	free(ser);
}
