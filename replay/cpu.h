/*
 * cpu.h - the CPU backend's timed replays and machine facts (cpu.c).
 */
#ifndef TPROF_REPLAY_CPU_H
#define TPROF_REPLAY_CPU_H

#include "attn.h"
#include "pool.h"
#include "types.h"
#include "walk.h"

int tpr_cpu_bench_walks(struct tpr_pool *pool, const struct tpr_graph *g,
			const struct tpr_walk_cfg *c, const struct tpr_timing_opts *o, int mode,
			struct tpr_measure *m);
int tpr_cpu_bench_attn(struct tpr_pool *pool, const struct tpr_attn_job *j,
		       const struct tpr_timing_opts *o, struct tpr_measure *m);

/* Bytes of the memcpy used to measure bandwidth. */
#define TPR_MEMCPY_BYTES (64u << 20)

/* CPU peaks: measured memcpy bandwidth and a documented FP32 estimate. */
void tpr_cpu_info(struct tpr_device_info *info, int threads);

#endif
