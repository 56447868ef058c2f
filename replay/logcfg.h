/*
 * logcfg.h - the sizes a log prints outside tprof's timing records, which
 * tprof-replay needs to rebuild a workload, gathered from the `config`
 * records the parser makes of them (parse/lines/config.h): the GPM tower's
 * `num_patterns=64, pattern_size=8, hidden_dim=300`, S2's
 * `Namespace(hidden_dim=128, ...)`, the dataset and profiling-batch lines,
 * and whether the run used a GPU. So a raw log, its NDJSON and standard
 * input give the same workloads.
 *
 * The first value of each key wins (later lines of a scaling experiment
 * reuse the names for the values being varied). Each value keeps its line.
 */
#ifndef TPROF_REPLAY_LOGCFG_H
#define TPROF_REPLAY_LOGCFG_H

#include <stdint.h>

#include "base/base.h"
#include "parse/parse.h"

/* The keys are parse's (config.h), under shorter names. */
enum tpr_cfg_key {
	CFG_PATTERNS = TP_CFG_PATTERNS,
	CFG_PATTERN_SIZE = TP_CFG_PATTERN_SIZE,
	CFG_HIDDEN = TP_CFG_HIDDEN,
	CFG_HEADS = TP_CFG_HEADS,
	CFG_LAYERS = TP_CFG_LAYERS,
	CFG_NODES = TP_CFG_NODES,
	CFG_EDGES = TP_CFG_EDGES,
	CFG_FFN = TP_CFG_FFN,
	CFG_DEGREE = TP_CFG_DEGREE,
	CFG_BATCH_GRAPHS = TP_CFG_BATCH_GRAPHS,
	CFG_BATCH_NODES = TP_CFG_BATCH_NODES,
	CFG_BATCH_EDGES = TP_CFG_BATCH_EDGES,
	CFG_DS_NODES = TP_CFG_DS_NODES,
	CFG_DS_EDGES = TP_CFG_DS_EDGES,
	CFG_GPU = TP_CFG_GPU,
	CFG_NKEYS = TP_CFG_GPU_NAME /* the name goes to .gpu */
};

struct tpr_logcfg {
	double v[CFG_NKEYS];      /* NAN when absent */
	uint64_t line[CFG_NKEYS]; /* 1-based; 0 when absent */
	char gpu[96];             /* the GPU's name if printed, else "" */
};

/* Reads path (any input tp_read_input takes). Returns 0, or -1 with err set. */
int tpr_logcfg_scan(const char *path, struct tpr_logcfg *cfg, struct strbuf *err);

/* Takes a config record; other records are ignored. */
void tpr_logcfg_record(struct tpr_logcfg *cfg, const struct tp_record *r);

/* Scans one line of free text (for tests). */
void tpr_logcfg_line(struct tpr_logcfg *cfg, const char *s, size_t n, uint64_t line);

void tpr_logcfg_init(struct tpr_logcfg *cfg);
int tpr_logcfg_has(const struct tpr_logcfg *cfg, enum tpr_cfg_key k);

#endif
