/*
 * config.h - the workload sizes a log prints in its free text, outside
 * tprof's timing lines: the GPM tower's `num_patterns=64, pattern_size=8,
 * hidden_dim=300`, S2's `Namespace(hidden_dim=128, num_layers=6,
 * ...)` and `Config: num_nodes=500, ...`, a dataset's `10000 graphs, avg
 * 28.9 nodes, avg 62.4 edges`, a profiling batch `32 graphs ..., 4821
 * nodes, 9874 edges`, and whether the run used a CUDA device.
 *
 * The parser reads them from the first TP_CONFIG_LINES lines of an input
 * (runs print their configuration when they start; a bound keeps the cost
 * off the hot path of multi-GB logs) into `config` records, one per value
 * and line, so they travel through NDJSON like every other record.
 * tprof-replay rebuilds workloads from them; the first value of a key wins.
 */
#ifndef TPROF_PARSE_CONFIG_H
#define TPROF_PARSE_CONFIG_H

#include <stddef.h>

#define TP_CONFIG_LINES 10000

enum tp_config_key {
	TP_CFG_PATTERNS,     /* num_patterns= */
	TP_CFG_PATTERN_SIZE, /* pattern_size=, walk_length= */
	TP_CFG_HIDDEN,       /* hidden_dim=, hidden_size=, hidden= */
	TP_CFG_HEADS,        /* num_heads=, heads=, nhead= */
	TP_CFG_LAYERS,       /* num_layers=, layers= */
	TP_CFG_NODES,        /* num_nodes= */
	TP_CFG_EDGES,        /* num_edges= */
	TP_CFG_FFN,          /* ffn_dim= */
	TP_CFG_DEGREE,       /* avg_degree= */
	TP_CFG_BATCH_GRAPHS, /* "N graphs ..., M nodes, E edges" (a profiling batch) */
	TP_CFG_BATCH_NODES,
	TP_CFG_BATCH_EDGES,
	TP_CFG_DS_NODES,     /* "avg X nodes, avg Y edges" (a dataset) */
	TP_CFG_DS_EDGES,
	TP_CFG_GPU,          /* 1 when the log shows a CUDA device in use */
	TP_CFG_GPU_NAME,     /* the GPU's name, a text value ("NVIDIA A100-SXM4-40GB") */
	TP_CFG_TOKENS_STEP,  /* "tokens per iteration will be: 491,520" (nanoGPT) */
	TP_CFG_NKEYS
};

/* The record key of each ("num_patterns", ..., "gpu_name"). */
extern const char *const tp_config_keys[TP_CFG_NKEYS];

/* The key of a record's key string, or TP_CFG_NKEYS. */
enum tp_config_key tp_config_key_of(const char *s, size_t n);

/* One size found: a number, or for TP_CFG_GPU_NAME the text [s, s+n). */
typedef void (*tp_config_hit_fn)(void *ctx, enum tp_config_key k, double v, const char *s, size_t n);

/* Calls hit for every size in the line [s, s+n), in the order above. */
void tp_config_scan(const char *s, size_t n, tp_config_hit_fn hit, void *ctx);

#endif
