/*
 * backend.c - choosing the backend (auto falls back to the CPU and says
 * why in one line) and dispatching each request to the CPU code or the
 * CUDA backend; the statistics of timing samples.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "attn.h"
#include "cpu.h"
#include "cuda_api.h"
#include "base/base.h"

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
	int rc = cuda_failed(tpr_cuda_attn(be->cuda, j, out, &e), &e, err);
	snprintf(be->info.gemm, sizeof(be->info.gemm), "%s", tpr_cuda_gemm(be->cuda));
	return rc;
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
	int rc = cuda_failed(tpr_cuda_bench_attn(be->cuda, j, o, m, &e), &e, err);
	snprintf(be->info.gemm, sizeof(be->info.gemm), "%s", tpr_cuda_gemm(be->cuda));
	return rc;
}
