/*
 * gen_gpm.h - golden log of the Graph-LLaVA GPM tower (seed 000,
 * llava/model/multimodal_encoder/gpm.py). Its forward() appends each
 * graph's pattern-generation and forward time (seconds) to two lists and
 * adds the graph's node count to a running total; every 100 graphs it
 * prints
 *
 *   print(f"[GPM TIMING] Last 100 graphs: Pattern gen={avg_pattern*1000:.2f}ms, "
 *         f"Total={avg_total*1000:.2f}ms, Avg nodes={avg_nodes:.1f}")
 *
 * with avg_pattern = sum(pattern_gen_times[-100:]) / 100 (likewise
 * avg_total): per-graph MEANS over the last 100 graphs, and avg_nodes =
 * total_nodes_processed / len(forward_times): the CUMULATIVE average over
 * the whole run so far.
 *
 * Known inputs: 12 windows of 100 graphs; the graphs of window k have
 * GPM_SIZES[k] + (j % 5 - 2) nodes (mean GPM_SIZES[k]); pattern generation
 * takes 0.09 ms per node (linear, as the seed's O(patterns x length x N x
 * degree) says) and the whole forward 0.11 ms per node + 0.6 ms.
 */
#ifndef TPROF_GOLDEN_GEN_GPM_H
#define TPROF_GOLDEN_GEN_GPM_H

#include <stdio.h>

static const int GPM_SIZES[12] = { 18, 24, 30, 36, 42, 50, 58, 66, 20, 26, 34, 46 };
#define GPM_WINDOWS 12

static inline void gpm_graph(int k, int j, int *nodes, double *pattern_s, double *total_s)
{
	*nodes = GPM_SIZES[k] + (j % 5 - 2);
	*pattern_s = 0.09 * *nodes / 1000;
	*total_s = (0.11 * *nodes + 0.6) / 1000;
}

static inline void gen_gpm_log(FILE *fp)
{
	double pat[100], tot[100];
	long long nodes_total = 0, graphs = 0;
	for (int k = 0; k < GPM_WINDOWS; k++) {
		for (int j = 0; j < 100; j++) {
			int n;
			gpm_graph(k, j, &n, &pat[j], &tot[j]);
			nodes_total += n;
			graphs++;
		}
		double sp = 0, st = 0;
		for (int j = 0; j < 100; j++)
			sp += pat[j], st += tot[j];
		double avg_pattern = sp / 100, avg_total = st / 100;
		double avg_nodes = (double)nodes_total / (double)graphs;
		fprintf(fp, "[GPM TIMING] Last 100 graphs: Pattern gen=%.2fms, Total=%.2fms, Avg nodes=%.1f\n",
			avg_pattern * 1000, avg_total * 1000, avg_nodes);
	}
}

/* The true figures of the run (from the per-graph inputs, not the prints). */
static inline void gen_gpm_expected(FILE *fp)
{
	double total_s = 0, pattern_s = 0;
	long long nodes = 0, graphs = 0;
	for (int k = 0; k < GPM_WINDOWS; k++)
		for (int j = 0; j < 100; j++) {
			int n;
			double p, t;
			gpm_graph(k, j, &n, &p, &t);
			nodes += n, graphs++, pattern_s += p, total_s += t;
		}
	fprintf(fp, "graphs %lld\n", graphs);
	fprintf(fp, "nodes %lld\n", nodes);
	fprintf(fp, "forward_s %.6f\n", total_s);
	fprintf(fp, "pattern_gen_s %.6f\n", pattern_s);
	fprintf(fp, "graphs_per_s %.4f\n", (double)graphs / total_s);
	fprintf(fp, "nodes_per_s %.4f\n", (double)nodes / total_s);
	fprintf(fp, "pattern_share_pct %.4f\n", 100 * pattern_s / total_s);
	fprintf(fp, "pattern_gen_exponent 1\n");
	for (int k = 0; k < GPM_WINDOWS; k++)
		fprintf(fp, "window %d mean_nodes %d\n", k + 1, GPM_SIZES[k]);
}

#endif
