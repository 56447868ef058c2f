/*
 * graph.h - the graphs tprof-replay walks and attends over: batches of
 * small molecule-like graphs (the GPM tower's input), Erdos-Renyi graphs
 * and power-law (Chung-Lu) graphs, generated reproducibly from a seed,
 * stored as one sorted CSR graph (types.h).
 *
 * Contract: the same spec gives the same graph, byte for byte, on any
 * machine. Every graph is undirected and simple (no self loops, no
 * duplicate edges); a node may have no neighbours (power-law and
 * Erdos-Renyi graphs have some).
 */
#ifndef TPROF_REPLAY_GRAPH_H
#define TPROF_REPLAY_GRAPH_H

#include <stdint.h>

#include "types.h"
#include "base/base.h"

enum tpr_family {
	TPR_FAM_MOLECULE, /* trees of max degree 4 plus 5- and 6-rings */
	TPR_FAM_ER,       /* G(n, M) with M = degree * n / 2 */
	TPR_FAM_POWERLAW  /* Chung-Lu with weights i^(-1/(gamma-1)) */
};

struct tpr_graph_spec {
	enum tpr_family family;
	int32_t graphs;  /* graphs in the batch, >= 1 */
	double nodes;    /* average nodes per graph, >= 1 */
	double spread;   /* sizes uniform in nodes * [1 - spread, 1 + spread]; the mean is kept */
	double degree;   /* average degree, 2 * edges / nodes */
	double gamma;    /* power-law exponent (> 2) */
	uint64_t seed;
};

/* Defaults: molecules have degree 2.15 (62.4 directed edges / 28.9 nodes in S0's dataset line). */
#define TPR_MOLECULE_DEGREE 2.15
#define TPR_DEFAULT_GAMMA 2.5

/* Returns 0, or -1 with a message (sizes out of range). */
int tpr_graph_generate(struct tpr_graph *g, const struct tpr_graph_spec *s, struct strbuf *err);

/*
 * One graph of n nodes from ne undirected pairs (edges[2i], edges[2i+1]);
 * self loops and duplicates are dropped. Returns 0, or -1 with a message.
 */
int tpr_graph_from_edges(struct tpr_graph *g, int32_t n, const int32_t *edges, size_t ne,
			 struct strbuf *err);

void tpr_graph_free(struct tpr_graph *g);

/*
 * Only the node offsets of the batch a spec describes (ngraphs + 1
 * values, the same as tpr_graph_generate's goff): attention needs the
 * sizes, not the edges. Returns 0, or -1 with a message.
 */
int tpr_graph_sizes(const struct tpr_graph_spec *s, int32_t *goff, struct strbuf *err);

const char *tpr_family_name(enum tpr_family f);
/* 0, or -1 if s names no family. */
int tpr_family_parse(const char *s, enum tpr_family *f);

#endif
