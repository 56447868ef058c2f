/*
 * cuda_stub.c - the CUDA backend of a build without nvcc (or with
 * `make CUDA=0`): no device ever answers, and the reason says so, so that
 * --backend auto falls back to the CPU with an honest one-line message.
 */
#include <stdio.h>

#include "cuda_api.h"

static int built_without(struct tpr_err *e)
{
	e->code = 0;
	snprintf(e->msg, sizeof(e->msg), "built without CUDA (no nvcc at build time, or make CUDA=0)");
	return -1;
}

int tpr_cuda_built(void)
{
	return 0;
}

const char *tpr_cuda_gemm(const struct tpr_cuda *c)
{
	(void)c;
	return "";
}

int tpr_cuda_open(struct tpr_cuda **c, struct tpr_device_info *info, struct tpr_err *e)
{
	(void)info;
	*c = NULL;
	built_without(e);
	return 1;
}

void tpr_cuda_close(struct tpr_cuda *c)
{
	(void)c;
}

int tpr_cuda_walks(struct tpr_cuda *c, const struct tpr_graph *g, const struct tpr_walk_cfg *cfg,
		   int32_t *nodes, int32_t *edges, struct tpr_err *e)
{
	(void)c, (void)g, (void)cfg, (void)nodes, (void)edges;
	return built_without(e);
}

int tpr_cuda_attn(struct tpr_cuda *c, const struct tpr_attn_job *j, float *out, struct tpr_err *e)
{
	(void)c, (void)j, (void)out;
	return built_without(e);
}

int tpr_cuda_bench_walks(struct tpr_cuda *c, const struct tpr_graph *g,
			 const struct tpr_walk_cfg *cfg, const struct tpr_timing_opts *o,
			 int mode, struct tpr_measure *m, struct tpr_err *e)
{
	(void)c, (void)g, (void)cfg, (void)o, (void)mode, (void)m;
	return built_without(e);
}

int tpr_cuda_bench_attn(struct tpr_cuda *c, const struct tpr_attn_job *j,
			const struct tpr_timing_opts *o, struct tpr_measure *m, struct tpr_err *e)
{
	(void)c, (void)j, (void)o, (void)m;
	return built_without(e);
}
