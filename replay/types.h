/*
 * types.h - the plain data that crosses the boundary between the C side
 * of tprof-replay and its CUDA backend: graphs in CSR form, walk and
 * attention jobs, timing options, raw timing samples and device facts.
 *
 * Plain C structs with fixed-width fields, no tprof library types, so that
 * nvcc (C++) and the C compilers read them alike.
 */
#ifndef TPROF_REPLAY_TYPES_H
#define TPROF_REPLAY_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A batch of graphs as one CSR graph (their disjoint union). Neighbour
 * lists are sorted, so an edge id (its index in col) is its rank in
 * (source, destination) order: the "sorted-edge order" of the walk output.
 * Undirected graphs store each edge in both directions.
 */
struct tpr_graph {
	int32_t n;       /* nodes, all graphs together */
	int32_t m;       /* directed edges */
	int32_t *rowptr; /* n + 1 */
	int32_t *col;    /* m */
	int32_t ngraphs;
	int32_t *goff;   /* ngraphs + 1 node offsets: graph g is [goff[g], goff[g+1]) */
};

/*
 * Random walks, as the kernels see them. node2vec acceptance is decided by
 * 32-bit integer thresholds computed once on the host (tpr_walk_cfg_make):
 * a proposal is accepted when its random word is below the threshold of
 * its kind, so no floating point is evaluated on the device.
 */
struct tpr_walk_cfg {
	uint32_t key0, key1;    /* the seed */
	int32_t patterns;       /* P walks per start node */
	int32_t length;         /* L steps per walk */
	int32_t node2vec;       /* 0: uniform walks (p = q = 1) */
	uint32_t max_attempts;  /* rejection-sampling bound; then the last proposal is taken */
	uint64_t thr_return;    /* accept x == previous node: 2^32 * (1/p) / max */
	uint64_t thr_common;    /* accept x adjacent to previous: 2^32 * 1 / max */
	uint64_t thr_other;     /* accept any other x: 2^32 * (1/q) / max */
};

/*
 * The arithmetic a replay runs as, as frameworks name it (PyTorch: FP32
 * matrix products without TF32 by default since 1.12; TF32 with
 * torch.backends.cuda.matmul.allow_tf32; BF16 under autocast). FP32 is the
 * reference. It reaches the CUDA projections (cuBLAS compute types) and the
 * storage of Q, K and V (BF16); the CPU backend always computes in FP32.
 */
enum tpr_precision { TPR_FP32, TPR_TF32, TPR_BF16, TPR_NPRECISIONS };

/* What runs the CUDA projections: cuBLAS where it loads, else our kernel. */
enum tpr_gemm {
	TPR_GEMM_AUTO,   /* cuBLAS if libcublas loads, else the own kernel */
	TPR_GEMM_CUBLAS, /* cuBLAS or an error */
	TPR_GEMM_OWN     /* the own tiled kernel (FP32 arithmetic) */
};

/*
 * Multi-head self-attention over the nodes of each graph: for graph g and
 * head h, out[i] = softmax_j(q_i . k_j / sqrt(dh)) v_j over the nodes i, j
 * of g, with q, k, v the columns [h*dh, (h+1)*dh) of Q, K, V ([n, dim],
 * row-major). With project set, Q = X Wq, K = X Wk, V = X Wv first
 * (W: [dim, dim] row-major, y[j] = sum_k x[k] W[k][j]).
 */
struct tpr_attn_job {
	int32_t ngraphs;
	const int32_t *goff; /* ngraphs + 1 */
	int32_t n, dim, heads;
	int32_t project;
	int32_t fused;        /* 1: online softmax; 0: scores, softmax, weighted sum */
	int32_t precision;    /* enum tpr_precision (CUDA; the CPU runs FP32) */
	int32_t gemm;         /* enum tpr_gemm (CUDA) */
	const float *x, *wq, *wk, *wv; /* when project */
	const float *q, *k, *v;        /* when !project */
};

/*
 * Graphs of up to this many nodes keep their scores on chip in either
 * variant: on a GPU one block holds the graph's Q, K and V for a head
 * (attn.cu), on the CPU one work item holds all its rows' scores in cache.
 */
#define TPR_ATTN_SMALL 64

/* How a walk replay is timed (bits). */
enum {
	TPR_PER_GRAPH = 1, /* call samples: one call (+ synchronize) per graph, summed */
	TPR_NO_KERNEL = 2  /* skip the batched kernel samples (when only the calls matter) */
};

struct tpr_timing_opts {
	int warmup;       /* untimed runs first */
	int trials;       /* timed runs (at most) */
	double budget_s;  /* stop timing once this much time was spent (after 1 trial) */
};

/* Raw samples in milliseconds; cap is set by whoever allocated ms. */
struct tpr_samples {
	int n, cap;
	double *ms;
};

/* Everything one measured workload produced; n == 0 where not measured. */
struct tpr_measure {
	struct tpr_samples kernel;  /* device time (CUDA events) or CPU monotonic clock */
	struct tpr_samples call;    /* per call: host clock around launch + synchronize */
	struct tpr_samples h2d_pinned, h2d_pageable, d2h_pinned, d2h_pageable;
	double h2d_bytes, d2h_bytes;
	int calls;                  /* calls per "call" sample (one per graph in window mode) */
	int32_t precision;          /* attention: the precision the projections ran at */
};

struct tpr_device_info {
	char kind[8];        /* "cpu" or "cuda" */
	char name[128];
	int units;           /* CPU threads or CUDA SMs */
	double clock_ghz;
	double peak_gbs;     /* memory bandwidth */
	double peak_gflops;  /* FP32 (CUDA cores, no tensor cores) */
	double peak_tf32;    /* dense tensor-core TF32; the FP32 peak on the CPU */
	double peak_bf16;    /* dense tensor-core BF16 (FP32 accumulation); the FP32 peak on the CPU */
	char peak_note[240]; /* where the peaks come from */
	char gemm[128];      /* what runs the projections: "cuBLAS 13.0.2 (...)", "own tiled kernel: why" */
};

struct tpr_err {
	int code;      /* CUDA error number, 0 if none */
	char msg[256];
};

#ifdef __cplusplus
}
#endif

#endif
