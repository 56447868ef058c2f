/*
 * replay.h - tprof-replay's two jobs, as library calls that fill a report
 * (base/report.h) for the renderers:
 *
 *   tpr_benchmark  replay the workload the flags describe and report its
 *                  timings, throughput and roofline
 *   tpr_validate   replay every logged measurement it can (GPM windows'
 *                  pattern generation; forward times and scaling points of
 *                  attention models whose sizes the log or the flags give)
 *                  and judge each: consistent, faster than the kernel can
 *                  run, or slower by an overhead the kernel does not explain
 *
 * Workloads: graphs from graph.h, walks from walk.h, attention inputs
 * uniform in [-1, 1) (weights scaled by 1/sqrt(hidden)) from the seed.
 */
#ifndef TPROF_REPLAY_REPLAY_H
#define TPROF_REPLAY_REPLAY_H

#include "backend.h"
#include "graph.h"
#include "base/base.h"
#include "walk.h"

/* Defaults (documented in tprof-replay(1)). */
#define TPR_DEF_PATTERNS 8       /* Graph-LLaVA's GPM tower: 8 patterns ... */
#define TPR_DEF_PATTERN_SIZE 5   /* ... of 5 steps (official GPM: 16 of 8) */
#define TPR_DEF_HIDDEN 300
#define TPR_DEF_HEADS 4
#define TPR_DEF_GRAPHS 1000
#define TPR_DEF_NODES 30
#define TPR_DEF_DEGREE_RANDOM 4.0 /* Erdos-Renyi and power-law */
#define TPR_DEF_BAND_LO 0.5
#define TPR_DEF_BAND_HI 3.0
/* No synchronized GPU call returns faster: a launch plus a synchronize cost more. */
#define TPR_GPU_CALL_FLOOR_MS 0.005

enum { TPR_K_WALK = 1, TPR_K_ATTN = 2 };

/*
 * The figures of a device that a verdict's roofline bound comes from:
 * peaks in GFLOP/s per precision and the memory bandwidth in GB/s. Where
 * the log's device is known to tprof only by them, TPROF_REPLAY_PEAKS
 * gives them (tpr_peaks_parse): "name=H100 SXM,fp32=67,tf32=495,bf16=989,
 * bw=3.35" (TFLOP/s and TB/s; tf32 and bf16 default to fp32).
 */
struct tpr_peaks {
	char name[64];
	double gflops[TPR_NPRECISIONS];
	double gbs;
};
int tpr_peaks_parse(const char *spec, struct tpr_peaks *p, struct strbuf *err);
void tpr_peaks_of(const struct tpr_device_info *d, struct tpr_peaks *p);
/* The device's peak at a precision, GFLOP/s. */
double tpr_device_peak(const struct tpr_device_info *d, enum tpr_precision prec);

/* "fp32", "tf32", "bf16"; tpr_precision_parse returns 0, or -1 for another word. */
const char *tpr_precision_name(enum tpr_precision prec);
int tpr_precision_parse(const char *s, enum tpr_precision *prec);

struct tpr_flags {
	enum tpr_family family;
	/* NAN: not given (then from the log, else the defaults) */
	double graphs, nodes, spread, degree, gamma;
	double patterns, pattern_size, p, q;
	double hidden, heads, layers;
	int variant;      /* -1: both (benchmark) or fused (validate); 0: three-step; 1: fused */
	int project;      /* Q, K, V projections in the attention replay */
	enum tpr_precision precision;
	enum tpr_gemm gemm;
	struct tpr_peaks peaks; /* validate: judge against these (have_peaks) */
	int have_peaks;
	uint64_t seed;
	unsigned kernels; /* TPR_K_* for the benchmark */
	struct tpr_timing_opts timing;
	double band_lo, band_hi;
};

void tpr_flags_default(struct tpr_flags *f);

/*
 * Both return 0, or -1 with err set and *code the exit status
 * (TP_EXIT_INPUT: unreadable log or impossible workload;
 * TP_EXIT_INTERNAL: the device failed).
 */
int tpr_benchmark(struct tpr_backend *be, const struct tpr_flags *f, struct report *rep,
		  struct strbuf *err, int *code);
int tpr_validate(struct tpr_backend *be, const char *path, const struct tpr_flags *f,
		 struct report *rep, struct strbuf *err, int *code);

/* ---- shared by both (workload.c) ---------------------------------------- */

/* Attention inputs for a batch whose sizes the spec gives. */
struct tpr_attn_data {
	struct tpr_attn_job job;
	int32_t *goff;
	float *buf;
};
int tpr_attn_data_make(struct tpr_attn_data *d, const struct tpr_graph_spec *sizes, int32_t dim,
		       int32_t heads, int project, int fused, struct strbuf *err);

/* How an attention replay runs: variant, projections, precision, GEMM. */
struct tpr_attn_opts {
	int fused, project;
	enum tpr_precision precision;
	enum tpr_gemm gemm;
};
void tpr_attn_data_free(struct tpr_attn_data *d);

/* The default degree of a family. */
double tpr_family_degree(enum tpr_family f);

/* A replayed measurement's statistics and work, ready for the report. */
struct tpr_result {
	char kernel[48];    /* "walks uniform", "attention fused", ... */
	char workload[96];  /* "100 molecule graphs x 28.6 nodes, P=8 L=5" */
	struct tpr_stat kernel_ms, call_ms, h2d_pin, h2d_page, d2h_pin, d2h_page;
	int calls;          /* per call sample */
	double h2d_bytes, d2h_bytes;
	double flops, bytes, steps; /* per kernel run */
	double min_bytes;   /* what any implementation moves: inputs read, outputs written, 4-byte elements */
	int32_t precision;  /* what the replay ran at (enum tpr_precision) */
};
void tpr_result_from(struct tpr_result *r, const struct tpr_measure *m);

/*
 * One timed replay each: walks over the spec's graphs (mode: TPR_PER_GRAPH,
 * the call samples make one call per graph as the GPM tower does;
 * TPR_NO_KERNEL, no batched kernel samples), or one
 * attention variant over the spec's graph sizes. Fill r; -1 with err and
 * *code as above.
 */
int tpr_bench_walk_spec(struct tpr_backend *be, const struct tpr_graph_spec *s,
			const struct tpr_walk_params *wp, const struct tpr_timing_opts *o, int mode,
			struct tpr_result *r, struct strbuf *err, int *code);
int tpr_bench_attn_variant(struct tpr_backend *be, const struct tpr_graph_spec *s, int32_t dim,
			   int32_t heads, const struct tpr_attn_opts *ao, const struct tpr_timing_opts *o,
			   struct tpr_result *r, struct strbuf *err, int *code);

/* The report pieces both jobs print. */
void tpr_report_device(struct report *rep, const struct tpr_backend *be);
void tpr_report_timing(struct report *rep, const struct tpr_result *r, size_t n);
void tpr_report_roofline(struct report *rep, const struct tpr_backend *be,
			 const struct tpr_result *r, size_t n);

#endif
