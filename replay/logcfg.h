/*
 * logcfg.h - the sizes a log prints outside tprof's timing records, which
 * tprof-replay needs to rebuild a workload: the GPM tower's
 * `num_patterns=64, pattern_size=8, hidden_dim=300`, seed 002's
 * `Namespace(hidden_dim=128, num_layers=6, num_heads=8, ...)` and
 * `Config: num_nodes=500, ...`, the dataset line `10000 graphs, avg 28.9
 * nodes, avg 62.4 edges`, the profiling batch `32 graphs ..., 4821 nodes,
 * 9874 edges`, and whether the run used a GPU.
 *
 * The first value of each key wins (later lines of a scaling experiment
 * reuse the names for the values being varied). Each value keeps its line.
 */
#ifndef TPROF_REPLAY_LOGCFG_H
#define TPROF_REPLAY_LOGCFG_H

#include <stdint.h>

#include "base/base.h"

enum tpr_cfg_key {
	CFG_PATTERNS,     /* num_patterns= */
	CFG_PATTERN_SIZE, /* pattern_size=, walk_length= */
	CFG_HIDDEN,       /* hidden_dim=, hidden_size=, hidden= */
	CFG_HEADS,        /* num_heads=, heads=, nhead= */
	CFG_LAYERS,       /* num_layers=, layers= */
	CFG_NODES,        /* num_nodes= */
	CFG_EDGES,        /* num_edges= */
	CFG_FFN,          /* ffn_dim= */
	CFG_DEGREE,       /* avg_degree= */
	CFG_BATCH_GRAPHS, /* "N graphs ..., M nodes, E edges" (a profiling batch) */
	CFG_BATCH_NODES,
	CFG_BATCH_EDGES,
	CFG_DS_NODES,     /* "avg X nodes, avg Y edges" (a dataset) */
	CFG_DS_EDGES,
	CFG_GPU,          /* 1 when the log shows a CUDA device in use */
	CFG_NKEYS
};

struct tpr_logcfg {
	double v[CFG_NKEYS];      /* NAN when absent */
	uint64_t line[CFG_NKEYS]; /* 1-based; 0 when absent */
	char gpu[96];             /* the GPU's name if printed, else "" */
};

/* Scans path (plain or gzip). Returns 0, or -1 with err set. */
int tpr_logcfg_scan(const char *path, struct tpr_logcfg *cfg, struct strbuf *err);

/* Scans one line (for tests and for callers with their own reader). */
void tpr_logcfg_line(struct tpr_logcfg *cfg, const char *s, size_t n, uint64_t line);

void tpr_logcfg_init(struct tpr_logcfg *cfg);
int tpr_logcfg_has(const struct tpr_logcfg *cfg, enum tpr_cfg_key k);

#endif
