/*
 * test_replay.c - tprof-replay on the CPU (always; the GPU comparisons are
 * tests/gpu_replay.c, `make check-gpu`): Philox known answers, graph
 * generators, walk statistics (chi-square of neighbour choices, node2vec's
 * exact second-step distribution and its return bias), nodes without
 * neighbours, determinism across seeds, threads and call shapes, attention
 * (three-step and fused against the double reference), S2's FLOP
 * model, log configuration scanning, backends, and the tool end to end.
 *
 * Run from the repository root (make check does). Seeds are fixed, so the
 * statistical tests are deterministic: a threshold is either met or not.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "testutil.h"
#include "replay/attn.h"
#include "replay/backend.h"
#include "replay/cpu.h"
#include "replay/graph.h"
#include "base/json.h"
#include "replay/logcfg.h"
#include "replay/flops.h"
#include "replay/philox.h"
#include "replay/replay.h"
#include "replay/walk.h"

/* ---- helpers ------------------------------------------------------------- */

static void graph_of(struct tpr_graph *g, int32_t n, const int32_t *edges, size_t ne)
{
	struct strbuf err = STRBUF_INIT;
	cr_assert_eq(tpr_graph_from_edges(g, n, edges, ne, &err), 0, "%s", err.buf ? err.buf : "");
	strbuf_release(&err);
}

static void generate(struct tpr_graph *g, enum tpr_family fam, int32_t graphs, double nodes,
		     double degree, uint64_t seed)
{
	struct tpr_graph_spec s = { fam, graphs, nodes, graphs > 1 ? 0.3 : 0, degree, TPR_DEFAULT_GAMMA,
				    seed };
	struct strbuf err = STRBUF_INIT;
	cr_assert_eq(tpr_graph_generate(g, &s, &err), 0, "%s", err.buf ? err.buf : "");
	strbuf_release(&err);
}

static void cfg_of(struct tpr_walk_cfg *c, int32_t patterns, int32_t length, double p, double q,
		   uint64_t seed)
{
	struct tpr_walk_params w = { patterns, length, p, q, seed };
	struct strbuf err = STRBUF_INIT;
	cr_assert_eq(tpr_walk_cfg_make(c, &w, &err), 0, "%s", err.buf ? err.buf : "");
	strbuf_release(&err);
}

struct walks {
	int32_t *nodes, *edges;
	size_t nn, ne;
};

static void walk_all(struct walks *w, const struct tpr_graph *g, const struct tpr_walk_cfg *c, int threads)
{
	w->nn = tpr_walk_nodes_len(c, 0, g->n);
	w->ne = tpr_walk_edges_len(c, 0, g->n);
	w->nodes = xmalloc((w->nn + 1) * sizeof(int32_t));
	w->edges = xmalloc((w->ne + 1) * sizeof(int32_t));
	if (threads == 0) {
		tpr_walk_ref(g, c, 0, g->n, w->nodes, w->edges);
	} else {
		struct tpr_pool *pool = tpr_pool_new(threads);
		tpr_walk_cpu(pool, g, c, 0, g->n, w->nodes, w->edges);
		tpr_pool_free(pool);
	}
}

static void walks_free(struct walks *w)
{
	free(w->nodes);
	free(w->edges);
}

/* Pearson's statistic of observed counts against expected ones. */
static double chi_square(const double *obs, const double *expect, int k)
{
	double x = 0;
	for (int i = 0; i < k; i++)
		x += (obs[i] - expect[i]) * (obs[i] - expect[i]) / expect[i];
	return x;
}

/* ---- Philox ---------------------------------------------------------------- */

static void kat(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1,
		const uint32_t want[4])
{
	struct tpr_u32x4 r = tpr_philox(c0, c1, c2, c3, k0, k1);
	for (int i = 0; i < 4; i++)
		cr_expect_eq(r.v[i], want[i], "word %d: %#x, Random123 says %#x", i, r.v[i], want[i]);
}

Test(philox, random123_known_answers)
{
	static const uint32_t zero[4] = { 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8 };
	static const uint32_t ones[4] = { 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd };
	static const uint32_t pi[4] = { 0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1 };
	kat(0, 0, 0, 0, 0, 0, zero);
	kat(0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, ones);
	kat(0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, pi);
}

Test(philox, below_is_in_range_and_exact)
{
	cr_expect_eq(tpr_below(0, 7), 0);
	cr_expect_eq(tpr_below(0xffffffffu, 7), 6);
	cr_expect_eq(tpr_below(0x80000000u, 2), 1);
	cr_expect_eq(tpr_below(0x7fffffffu, 2), 0);
	cr_expect_eq(tpr_below(12345, 1), 0);
	cr_expect(tpr_unit_float(0) == -1.0f && tpr_unit_float(0xffffffffu) < 1.0f);
}

/* ---- graphs ---------------------------------------------------------------- */

/* Sorted rows, no self loops or repeats, every edge present both ways. */
static void check_simple(const struct tpr_graph *g)
{
	cr_assert_eq(g->rowptr[0], 0);
	cr_assert_eq(g->rowptr[g->n], g->m);
	for (int32_t u = 0; u < g->n; u++)
		for (int32_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++) {
			int32_t v = g->col[e];
			cr_assert(v != u, "self loop at %d", u);
			cr_assert(e == g->rowptr[u] || g->col[e - 1] < v, "row %d not sorted/simple", u);
			int found = 0;
			for (int32_t f = g->rowptr[v]; f < g->rowptr[v + 1]; f++)
				found |= g->col[f] == u;
			cr_assert(found, "edge %d-%d has no reverse", u, v);
		}
}

Test(graph, molecules_look_like_molecules)
{
	struct tpr_graph g;
	generate(&g, TPR_FAM_MOLECULE, 500, 30, TPR_MOLECULE_DEGREE, 7);
	check_simple(&g);
	cr_expect_eq(g.ngraphs, 500);
	cr_expect_eq(g.n, 15000, "the mean size is kept: %d nodes", g.n);
	double deg = (double)g.m / g.n;
	cr_expect(deg > 2.0 && deg < 2.25, "average degree %.3f, not ~2.1", deg);
	for (int32_t u = 0; u < g.n; u++)
		cr_expect_leq(g.rowptr[u + 1] - g.rowptr[u], 4, "node %d has degree > 4", u);
	for (int32_t k = 0; k < g.ngraphs; k++) /* no edge leaves its graph */
		for (int32_t e = g.rowptr[g.goff[k]]; e < g.rowptr[g.goff[k + 1]]; e++)
			cr_assert(g.col[e] >= g.goff[k] && g.col[e] < g.goff[k + 1]);
	tpr_graph_free(&g);
}

Test(graph, random_families_have_their_shape)
{
	struct tpr_graph er, pl;
	generate(&er, TPR_FAM_ER, 1, 20000, 4, 3);
	generate(&pl, TPR_FAM_POWERLAW, 1, 20000, 4, 3);
	check_simple(&er);
	check_simple(&pl);
	double d = (double)er.m / er.n;
	cr_expect(d > 3.9 && d <= 4.0, "Erdos-Renyi degree %.3f", d);
	int32_t maxdeg = 0, isolated = 0;
	for (int32_t u = 0; u < pl.n; u++) {
		int32_t k = pl.rowptr[u + 1] - pl.rowptr[u];
		maxdeg = k > maxdeg ? k : maxdeg;
		isolated += k == 0;
	}
	cr_expect_gt(maxdeg, 100, "power-law hub degree only %d", maxdeg);
	cr_expect_gt(isolated, 0, "power-law graphs have nodes without neighbours");
	tpr_graph_free(&er);
	tpr_graph_free(&pl);
}

Test(graph, same_seed_same_graph)
{
	struct tpr_graph a, b, c;
	generate(&a, TPR_FAM_POWERLAW, 3, 2000, 3, 11);
	generate(&b, TPR_FAM_POWERLAW, 3, 2000, 3, 11);
	generate(&c, TPR_FAM_POWERLAW, 3, 2000, 3, 12);
	cr_assert_eq(a.n, b.n);
	cr_assert_eq(a.m, b.m);
	cr_expect(!memcmp(a.rowptr, b.rowptr, ((size_t)a.n + 1) * 4) && !memcmp(a.col, b.col, (size_t)a.m * 4));
	cr_expect(a.m != c.m || memcmp(a.col, c.col, (size_t)a.m * 4), "another seed, another graph");
	tpr_graph_free(&a);
	tpr_graph_free(&b);
	tpr_graph_free(&c);
}

Test(graph, bad_specs_are_refused)
{
	struct tpr_graph g;
	struct strbuf err = STRBUF_INIT;
	struct tpr_graph_spec s = { TPR_FAM_ER, 0, 10, 0, 2, 2.5, 1 };
	cr_expect_eq(tpr_graph_generate(&g, &s, &err), -1);
	s.graphs = 1, s.family = TPR_FAM_POWERLAW, s.gamma = 1.5;
	cr_expect_eq(tpr_graph_generate(&g, &s, &err), -1);
	int32_t bad[] = { 0, 5 };
	cr_expect_eq(tpr_graph_from_edges(&g, 3, bad, 1, &err), -1);
	cr_expect(strstr(err.buf, "outside") != NULL);
	strbuf_release(&err);
}

/* ---- walks ----------------------------------------------------------------- */

/* Every step follows an edge of its node, named by its sorted-edge id. */
static void check_walks(const struct tpr_graph *g, const struct tpr_walk_cfg *c, const struct walks *w)
{
	int32_t L = c->length;
	for (size_t i = 0; i < (size_t)c->patterns * g->n; i++) {
		const int32_t *nd = w->nodes + i * (size_t)(L + 1), *ed = w->edges + i * (size_t)L;
		cr_assert_eq(nd[0], (int32_t)(i % (size_t)g->n), "walk %zu starts elsewhere", i);
		for (int32_t t = 0; t < L; t++) {
			int32_t u = nd[t];
			if (g->rowptr[u] == g->rowptr[u + 1]) {
				cr_assert(ed[t] == -1 && nd[t + 1] == u, "walk %zu moved from isolated %d", i, u);
				continue;
			}
			cr_assert(ed[t] >= g->rowptr[u] && ed[t] < g->rowptr[u + 1], "walk %zu step %d: edge %d not of node %d", i, t, ed[t], u);
			cr_assert_eq(g->col[ed[t]], nd[t + 1]);
		}
	}
}

Test(walk, steps_follow_sorted_edges)
{
	struct tpr_graph g;
	struct tpr_walk_cfg c, n2v;
	struct walks a, b;
	generate(&g, TPR_FAM_POWERLAW, 1, 3000, 3, 5);
	cfg_of(&c, 4, 8, 1, 1, 9);
	cfg_of(&n2v, 4, 8, 0.5, 2, 9);
	walk_all(&a, &g, &c, 2);
	walk_all(&b, &g, &n2v, 2);
	check_walks(&g, &c, &a);
	check_walks(&g, &n2v, &b);
	walks_free(&a);
	walks_free(&b);
	tpr_graph_free(&g);
}

/* A star: node 0 with 7 leaves. Each leaf must be the first step of 1/7 of node 0's walks. */
Test(walk, neighbours_chosen_uniformly_chi_square)
{
	int32_t edges[14];
	for (int i = 0; i < 7; i++)
		edges[2 * i] = 0, edges[2 * i + 1] = i + 1;
	struct tpr_graph g;
	struct tpr_walk_cfg c;
	struct walks w;
	graph_of(&g, 8, edges, 7);
	cfg_of(&c, 70000, 1, 1, 1, 2024);
	walk_all(&w, &g, &c, 2);
	double obs[7] = { 0 }, expect[7];
	for (int32_t p = 0; p < c.patterns; p++)
		obs[w.nodes[(size_t)p * 8 * 2 + 1] - 1]++; /* walk (p, node 0), step 1 */
	for (int i = 0; i < 7; i++)
		expect[i] = c.patterns / 7.0;
	double x = chi_square(obs, expect, 7);
	cr_expect_lt(x, 22.46, "chi-square %.2f with 6 degrees of freedom (p < 0.001)", x);
	walks_free(&w);
	tpr_graph_free(&g);
}

/* Every transition of long walks on a random graph, all nodes pooled: sum of per-node statistics. */
Test(walk, all_transitions_uniform_chi_square)
{
	struct tpr_graph g;
	struct tpr_walk_cfg c;
	struct walks w;
	generate(&g, TPR_FAM_ER, 1, 200, 6, 77);
	cfg_of(&c, 200, 20, 1, 1, 78);
	walk_all(&w, &g, &c, 2);
	double *count = xcalloc((size_t)g.m, sizeof(double)), *from = xcalloc((size_t)g.n, sizeof(double));
	for (size_t e = 0; e < w.ne; e++)
		if (w.edges[e] >= 0)
			count[w.edges[e]]++;
	for (int32_t u = 0; u < g.n; u++)
		for (int32_t e = g.rowptr[u]; e < g.rowptr[u + 1]; e++)
			from[u] += count[e];
	double x = 0, df = 0;
	for (int32_t u = 0; u < g.n; u++) {
		int32_t deg = g.rowptr[u + 1] - g.rowptr[u];
		if (deg < 2 || from[u] == 0)
			continue;
		for (int32_t e = g.rowptr[u]; e < g.rowptr[u + 1]; e++) {
			double ex = from[u] / deg;
			x += (count[e] - ex) * (count[e] - ex) / ex;
		}
		df += deg - 1;
	}
	/* chi-square(df) is about normal(df, 2 df) here: 4.5 sigma is p ~ 3e-6 */
	cr_expect_lt(x, df + 4.5 * sqrt(2 * df), "chi-square %.1f with %.0f degrees of freedom", x, df);
	cr_expect_gt(x, df - 4.5 * sqrt(2 * df), "chi-square %.1f: too uniform to be random", x);
	free(count);
	free(from);
	walks_free(&w);
	tpr_graph_free(&g);
}

/*
 * node2vec's second step from t=0 through v=1: v's neighbours are t itself
 * (weight 1/p), 2 (also adjacent to t: 1) and 3, 4 (1/q each).
 */
Test(walk, node2vec_second_step_has_exact_weights)
{
	const int32_t edges[] = { 0, 1, 1, 2, 1, 3, 1, 4, 0, 2 };
	struct tpr_graph g;
	struct tpr_walk_cfg c;
	struct walks w;
	double p = 0.5, q = 2, wsum = 1 / p + 1 + 2 / q;
	graph_of(&g, 5, edges, 5);
	cfg_of(&c, 60000, 2, p, q, 31);
	walk_all(&w, &g, &c, 2);
	double obs[4] = { 0 }, n = 0;
	for (int32_t k = 0; k < c.patterns; k++) {
		const int32_t *nd = w.nodes + (size_t)k * 5 * 3; /* walk (k, start 0) */
		if (nd[1] != 1)
			continue;
		n++;
		obs[nd[2] == 0 ? 0 : nd[2] == 2 ? 1 : nd[2] == 3 ? 2 : 3]++;
	}
	double expect[4] = { n / p / wsum, n / wsum, n / q / wsum, n / q / wsum };
	double x = chi_square(obs, expect, 4);
	cr_expect_lt(x, 16.27, "chi-square %.2f with 3 degrees of freedom (p < 0.001): %g %g %g %g of %g", x,
		     obs[0], obs[1], obs[2], obs[3], n);
	walks_free(&w);
	tpr_graph_free(&g);
}

static double return_rate(const struct tpr_graph *g, double p, double q)
{
	struct tpr_walk_cfg c;
	struct walks w;
	cfg_of(&c, 20, 10, p, q, 5);
	walk_all(&w, g, &c, 2);
	double back = 0, steps = 0;
	for (size_t i = 0; i < (size_t)c.patterns * g->n; i++) {
		const int32_t *nd = w.nodes + i * 11;
		for (int t = 2; t <= 10; t++, steps++)
			back += nd[t] == nd[t - 2];
	}
	walks_free(&w);
	return back / steps;
}

Test(walk, node2vec_small_p_returns_more)
{
	struct tpr_graph g;
	generate(&g, TPR_FAM_ER, 1, 500, 5, 8);
	double small = return_rate(&g, 0.25, 1), uniform = return_rate(&g, 1, 1), large = return_rate(&g, 4, 1);
	cr_expect(small > uniform && uniform > large, "return rates p=0.25 %.3f, p=1 %.3f, p=4 %.3f", small,
		  uniform, large);
	cr_expect_gt(small, 2 * large);
	tpr_graph_free(&g);
}

Test(walk, nodes_without_neighbours_stay_put)
{
	const int32_t edges[] = { 0, 1, 1, 2 }; /* node 3 has no neighbours */
	struct tpr_graph g;
	graph_of(&g, 4, edges, 2);
	for (int n2v = 0; n2v < 2; n2v++) {
		struct tpr_walk_cfg c;
		struct walks w;
		cfg_of(&c, 3, 6, n2v ? 0.3 : 1, n2v ? 3 : 1, 1);
		walk_all(&w, &g, &c, 1);
		for (int32_t k = 0; k < 3; k++) {
			const int32_t *nd = w.nodes + ((size_t)k * 4 + 3) * 7, *ed = w.edges + ((size_t)k * 4 + 3) * 6;
			for (int t = 0; t < 6; t++)
				cr_expect(nd[t + 1] == 3 && ed[t] == -1, "isolated walk moved (node2vec %d)", n2v);
		}
		check_walks(&g, &c, &w);
		walks_free(&w);
	}
	tpr_graph_free(&g);
}

Test(walk, deterministic_across_threads_shapes_and_seeds)
{
	struct tpr_graph g;
	struct tpr_walk_cfg c, c2;
	struct walks ref, mt, other;
	generate(&g, TPR_FAM_MOLECULE, 50, 25, TPR_MOLECULE_DEGREE, 4);
	cfg_of(&c, 8, 5, 0.7, 1.3, 1234);
	cfg_of(&c2, 8, 5, 0.7, 1.3, 1235);
	walk_all(&ref, &g, &c, 0);
	walk_all(&mt, &g, &c, 2);
	walk_all(&other, &g, &c2, 2);
	cr_expect(!memcmp(ref.nodes, mt.nodes, ref.nn * 4) && !memcmp(ref.edges, mt.edges, ref.ne * 4),
		  "the threads changed the walks");
	cr_expect(memcmp(ref.nodes, other.nodes, ref.nn * 4), "another seed gave the same walks");
	/* one call per graph gives the walks of the batched call */
	int32_t *nodes = xmalloc(ref.nn * 4), *edges = xmalloc(ref.ne * 4 + 4);
	for (int32_t k = 0; k < g.ngraphs; k++) {
		int32_t a = g.goff[k], b = g.goff[k + 1];
		tpr_walk_ref(&g, &c, a, b, nodes, edges);
		for (int32_t p = 0; p < c.patterns; p++)
			cr_assert(!memcmp(nodes + (size_t)p * (b - a) * 6, ref.nodes + ((size_t)p * g.n + a) * 6,
					  (size_t)(b - a) * 6 * 4),
				  "graph %d pattern %d differs when walked alone", k, p);
	}
	free(nodes);
	free(edges);
	walks_free(&ref);
	walks_free(&mt);
	walks_free(&other);
	tpr_graph_free(&g);
}

Test(walk, bad_parameters_are_refused)
{
	struct tpr_walk_cfg c;
	struct strbuf err = STRBUF_INIT;
	struct tpr_walk_params w = { 0, 5, 1, 1, 1 };
	cr_expect_eq(tpr_walk_cfg_make(&c, &w, &err), -1);
	w.patterns = 1, w.p = 0;
	cr_expect_eq(tpr_walk_cfg_make(&c, &w, &err), -1);
	w.p = 1, w.q = NAN;
	cr_expect_eq(tpr_walk_cfg_make(&c, &w, &err), -1);
	strbuf_release(&err);
}

/* ---- attention ---------------------------------------------------------------- */

static double attn_error(const struct tpr_graph_spec *s, int32_t dim, int32_t heads, int project,
			 int fused, int threads)
{
	struct tpr_attn_data d;
	struct strbuf err = STRBUF_INIT;
	cr_assert_eq(tpr_attn_data_make(&d, s, dim, heads, project, fused, &err), 0, "%s",
		     err.buf ? err.buf : "");
	size_t nd = (size_t)d.job.n * dim;
	double *ref = xmalloc(nd * sizeof(*ref));
	float *out = xmalloc(nd * sizeof(*out));
	struct tpr_pool *pool = tpr_pool_new(threads);
	struct tpr_attn_ws *ws = tpr_attn_ws_new(&d.job, tpr_pool_size(pool));
	tpr_attn_ref(&d.job, ref);
	tpr_attn_cpu(pool, &d.job, ws, out);
	double e = tpr_rel_err(out, ref, nd);
	tpr_attn_ws_free(ws);
	tpr_pool_free(pool);
	free(ref);
	free(out);
	tpr_attn_data_free(&d);
	strbuf_release(&err);
	return e;
}

Test(attention, both_variants_match_the_double_reference)
{
	/* sizes 1..~60 nodes (one-node graphs included), head sizes 75 and 16 */
	struct tpr_graph_spec small = { TPR_FAM_MOLECULE, 40, 30, 0.97, 0, 0, 3 };
	struct tpr_graph_spec big = { TPR_FAM_MOLECULE, 1, 700, 0, 0, 0, 4 };
	for (int fused = 0; fused < 2; fused++)
		for (int project = 0; project < 2; project++) {
			double e1 = attn_error(&small, 300, 4, project, fused, 1);
			double e2 = attn_error(&big, 128, 8, project, fused, 2);
			cr_expect_lt(e1, 1e-5, "fused %d project %d: relative error %.3g (d300 h4)", fused, project, e1);
			cr_expect_lt(e2, 1e-5, "fused %d project %d: relative error %.3g (d128 h8, 700 nodes)", fused,
				     project, e2);
		}
}

Test(attention, fused_equals_three_step_closely)
{
	struct tpr_graph_spec s = { TPR_FAM_MOLECULE, 10, 300, 0.5, 0, 0, 9 };
	struct tpr_attn_data a, b;
	struct strbuf err = STRBUF_INIT;
	cr_assert_eq(tpr_attn_data_make(&a, &s, 64, 4, 1, 0, &err), 0);
	cr_assert_eq(tpr_attn_data_make(&b, &s, 64, 4, 1, 1, &err), 0);
	size_t nd = (size_t)a.job.n * 64;
	float *oa = xmalloc(nd * 4), *ob = xmalloc(nd * 4);
	double *wide = xmalloc(nd * sizeof(double));
	struct tpr_pool *pool = tpr_pool_new(2);
	struct tpr_attn_ws *wa = tpr_attn_ws_new(&a.job, 2), *wb = tpr_attn_ws_new(&b.job, 2);
	tpr_attn_cpu(pool, &a.job, wa, oa);
	tpr_attn_cpu(pool, &b.job, wb, ob);
	for (size_t i = 0; i < nd; i++)
		wide[i] = oa[i];
	cr_expect_lt(tpr_rel_err(ob, wide, nd), 1e-5);
	tpr_attn_ws_free(wa);
	tpr_attn_ws_free(wb);
	tpr_pool_free(pool);
	free(oa);
	free(ob);
	free(wide);
	tpr_attn_data_free(&a);
	tpr_attn_data_free(&b);
	strbuf_release(&err);
}

Test(attention, large_scores_do_not_overflow)
{
	/* q . k up to ~1e4 / sqrt(dh): the maximum subtraction keeps exp finite */
	struct tpr_graph_spec s = { TPR_FAM_MOLECULE, 2, 50, 0, 0, 0, 5 };
	struct tpr_attn_data d;
	struct strbuf err = STRBUF_INIT;
	cr_assert_eq(tpr_attn_data_make(&d, &s, 32, 2, 0, 1, &err), 0);
	size_t nd = (size_t)d.job.n * 32;
	for (size_t i = 0; i < 2 * nd; i++)
		d.buf[i] *= 30; /* q and k */
	float *out = xmalloc(nd * 4);
	double *ref = xmalloc(nd * sizeof(double));
	struct tpr_pool *pool = tpr_pool_new(1);
	for (int fused = 0; fused < 2; fused++) {
		d.job.fused = fused;
		struct tpr_attn_ws *ws = tpr_attn_ws_new(&d.job, 1);
		tpr_attn_ref(&d.job, ref);
		tpr_attn_cpu(pool, &d.job, ws, out);
		double e = tpr_rel_err(out, ref, nd);
		cr_expect(e < 1e-4, "fused %d: relative error %.3g with large scores", fused, e);
		tpr_attn_ws_free(ws);
	}
	tpr_pool_free(pool);
	free(out);
	free(ref);
	tpr_attn_data_free(&d);
	strbuf_release(&err);
}

Test(attention, inconsistent_shapes_are_refused)
{
	struct tpr_graph_spec s = { TPR_FAM_MOLECULE, 2, 10, 0, 0, 0, 5 };
	struct tpr_attn_data d;
	struct strbuf err = STRBUF_INIT;
	cr_expect_eq(tpr_attn_data_make(&d, &s, 300, 7, 1, 1, &err), -1);
	cr_expect(strstr(err.buf, "multiple") != NULL, "%s", err.buf);
	strbuf_release(&err);
}

/* ---- models ---------------------------------------------------------------- */

/* The configuration S2's sample prints, and its printed estimate. */
Test(model, seed_002_flops_reproduced)
{
	struct tpr_gt_model m = { 1, 500, 500.0 * 500, 2500, 128, 8, 256, 6 };
	struct tpr_gt_flops f;
	tpr_gt_flops(&m, &f);
	cr_expect(fabs(f.total / 1e9 - 1.82) < 0.005, "total %.4f GFLOPs, logged 1.82", f.total / 1e9);
	cr_expect(fabs(f.attention / 1e9 - 1.22) < 0.005, "attention %.4f, logged 1.22", f.attention / 1e9);
	cr_expect(fabs(f.ffn / 1e9 - 0.40) < 0.005, "FFN %.4f, logged 0.40", f.ffn / 1e9);
	cr_expect(fabs(f.mpnn / 1e9 - 0.20) < 0.005, "MPNN %.4f, logged 0.20", f.mpnn / 1e9);
	cr_expect_eq(tpr_flops_linear(3, 5, 7), 2 * 3 * 5 * 7);
}

Test(model, kernel_work)
{
	const int32_t goff[] = { 0, 10, 30 }, big[] = { 0, 10, 110 };
	struct tpr_attn_job j = { .ngraphs = 2, .goff = goff, .n = 30, .dim = 64, .heads = 4, .fused = 1 };
	struct tpr_work w, w3;
	tpr_work_attn(&j, &w);
	cr_expect_eq(w.units, (100 + 400) * 4.0);
	cr_expect_eq(w.flops, 4 * 500.0 * 64 + 5 * 500.0 * 4);
	cr_expect_eq(w.bytes, 4 * 4 * 30 * 64.0, "Q, K, V read, out written");
	cr_expect_eq(w.min_bytes, w.bytes);
	j.fused = 0;
	tpr_work_attn(&j, &w3);
	cr_expect_eq(w3.bytes, w.bytes, "graphs of up to %d nodes keep their scores on chip", TPR_ATTN_SMALL);
	j.goff = big, j.n = 110;
	tpr_work_attn(&j, &w3);
	cr_expect_eq(w3.bytes, 4 * 4 * 110 * 64.0 + 4 * 4 * 100 * 100 * 4.0, "the 100-node graph moves its scores");
	/* projections: X, W read, Q, K, V written and read, out written; at least X, W and out */
	j.goff = goff, j.n = 30, j.fused = 1, j.project = 1;
	tpr_work_attn(&j, &w);
	cr_expect_eq(w.flops, 4 * 500.0 * 64 + 5 * 500.0 * 4 + 3 * 2 * 30 * 64.0 * 64);
	cr_expect_eq(w.bytes, 4 * (30 * 64 + 3 * 64 * 64 + 6 * 30 * 64 + 30 * 64.0));
	cr_expect_eq(w.min_bytes, 4 * (30 * 64 + 3 * 64 * 64 + 30 * 64.0));
	j.precision = TPR_BF16; /* X, W, Q, K, V stored in BF16; the output stays FP32 */
	tpr_work_attn(&j, &w3);
	cr_expect_eq(w3.bytes, 2 * (30 * 64 + 3 * 64 * 64 + 6 * 30 * 64.0) + 4 * 30 * 64);
	cr_expect_eq(w3.min_bytes, w.min_bytes, "min_bytes counts 4-byte elements");
}

/* ---- device figures ------------------------------------------------------------ */

Test(peaks, parsed_from_the_environment_format)
{
	struct tpr_peaks p;
	struct strbuf err = STRBUF_INIT;
	cr_assert_eq(tpr_peaks_parse("name=H100 SXM,fp32=67,tf32=495,bf16=989,bw=3.35", &p, &err), 0, "%s", err.buf);
	cr_expect_str_eq(p.name, "H100 SXM");
	cr_expect_eq(p.gflops[TPR_FP32], 67e3);
	cr_expect_eq(p.gflops[TPR_TF32], 495e3);
	cr_expect_eq(p.gflops[TPR_BF16], 989e3);
	cr_expect(fabs(p.gbs - 3350) < 1e-9);
	cr_assert_eq(tpr_peaks_parse("bw=0.9,fp32=14", &p, &err), 0, "%s", err.buf);
	cr_expect(p.gflops[TPR_TF32] == 14e3 && p.gflops[TPR_BF16] == 14e3, "no tensor cores: the FP32 peak");
	static const char *const bad[] = { "fp32=67", "bw=3", "fp32=-1,bw=3", "fp32=67,bw=3,hbm=3",
					   "fp32=67,bw=x", "fp32", "fp32=67 ,bw=3", "" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strbuf_reset(&err);
		cr_expect_eq(tpr_peaks_parse(bad[i], &p, &err), -1, "'%s' accepted", bad[i]);
		cr_expect_gt(err.len, 0, "'%s': no message", bad[i]);
	}
	enum tpr_precision prec;
	cr_expect(tpr_precision_parse("tf32", &prec) == 0 && prec == TPR_TF32);
	cr_expect_eq(tpr_precision_parse("fp16", &prec), -1);
	cr_expect_str_eq(tpr_precision_name(TPR_BF16), "bf16");
	struct tpr_device_info d = { .peak_gflops = 10, .peak_tf32 = 80 };
	cr_expect_eq(tpr_device_peak(&d, TPR_TF32), 80);
	cr_expect_eq(tpr_device_peak(&d, TPR_BF16), 10, "unknown: the FP32 peak");
	strbuf_release(&err);
}

/* ---- log configuration ---------------------------------------------------------- */

static void scan(struct tpr_logcfg *c, const char *line, uint64_t n)
{
	tpr_logcfg_line(c, line, strlen(line), n);
}

Test(logcfg, sizes_from_free_text)
{
	struct tpr_logcfg c;
	tpr_logcfg_init(&c);
	scan(&c, "GPM tower: num_patterns=64, pattern_size=8, hidden_dim=300, readout=mean", 3);
	scan(&c, "Dropped 0 samples with empty SMILES; 10000 graphs, avg 28.9 nodes, avg 62.4 edges", 4);
	scan(&c, "INFO - Arguments: Namespace(model='gt', hidden_dim=128, num_layers=6, num_heads=8, "
		 "ffn_dim=256, num_nodes=500, avg_degree=5, lr=1e-3)", 5);
	scan(&c, "Profiling batch: 32 graphs from the test split, 4821 nodes, 9874 edges", 6);
	scan(&c, "  profiling num_nodes=100 (num_edges=500, 100 runs)...", 7);
	scan(&c, "2024-11-02 10:12:41,105 - INFO - Using device: cuda (NVIDIA A100-SXM4-40GB, 39.39 GB)", 8);
	cr_expect_eq(c.v[CFG_PATTERNS], 64);
	cr_expect_eq(c.v[CFG_PATTERN_SIZE], 8);
	cr_expect_eq(c.v[CFG_HIDDEN], 300, "the first value wins");
	cr_expect_eq(c.line[CFG_HIDDEN], 3);
	cr_expect_eq(c.v[CFG_LAYERS], 6);
	cr_expect_eq(c.v[CFG_HEADS], 8);
	cr_expect_eq(c.v[CFG_NODES], 500, "later scaling lines do not override");
	cr_expect_eq(c.v[CFG_EDGES], 500);
	cr_expect(fabs(c.v[CFG_DS_EDGES] / c.v[CFG_DS_NODES] - 2.159) < 0.001);
	cr_expect_eq(c.v[CFG_BATCH_GRAPHS], 32);
	cr_expect_eq(c.v[CFG_BATCH_NODES], 4821);
	cr_expect(tpr_logcfg_has(&c, CFG_GPU));
	cr_expect_str_eq(c.gpu, "NVIDIA A100-SXM4-40GB");
}

Test(logcfg, whole_sample_log)
{
	struct tpr_logcfg c;
	struct strbuf err = STRBUF_INIT;
	cr_assert_eq(tpr_logcfg_scan("samples/graph-llava-pretrain.log", &c, &err), 0);
	cr_expect_eq(c.v[CFG_PATTERNS], 64);
	cr_expect_eq(c.line[CFG_PATTERNS], 27);
	cr_expect(tpr_logcfg_has(&c, CFG_GPU), "DeepSpeed's cuda accelerator line");
	cr_expect_eq(tpr_logcfg_scan("/nonexistent/log", &c, &err), -1);
	strbuf_release(&err);
}

/* ---- backends ---------------------------------------------------------------- */

Test(backend, choices_and_fallback)
{
	struct tpr_backend be;
	struct strbuf note = STRBUF_INIT, err = STRBUF_INIT;
	int code = 0;
	cr_assert_eq(tpr_backend_open(&be, "cpu", 2, &note, &err, &code), 0);
	cr_expect_eq(be.kind, TPR_BE_CPU);
	cr_expect_eq(note.len, 0);
	cr_expect(be.info.peak_gbs > 0 && be.info.peak_gflops > 0);
	tpr_backend_close(&be);
	cr_expect_eq(tpr_backend_open(&be, "tpu", 2, &note, &err, &code), -1);
	cr_expect_eq(code, TP_EXIT_INPUT);
	strbuf_reset(&err);
	cr_assert_eq(tpr_backend_open(&be, "auto", 2, &note, &err, &code), 0);
	if (be.kind == TPR_BE_CPU)
		cr_expect(strstr(note.buf, "falling back to the CPU") && !strchr(note.buf, '\n'),
			  "one line saying why: %s", note.buf);
	int have_gpu = be.kind == TPR_BE_CUDA;
	tpr_backend_close(&be);
	int rc = tpr_backend_open(&be, "cuda", 2, &note, &err, &code);
	cr_expect_eq(rc == 0, have_gpu);
	if (rc == 0)
		tpr_backend_close(&be);
	else
		cr_expect_eq(code, TP_EXIT_INTERNAL);
	strbuf_release(&note);
	strbuf_release(&err);
}

Test(backend, cpu_measurements)
{
	struct tpr_backend be;
	struct strbuf note = STRBUF_INIT, err = STRBUF_INIT;
	int code;
	struct tpr_graph g;
	struct tpr_walk_cfg c;
	struct tpr_measure m;
	struct tpr_timing_opts o = { 1, 4, 10 };
	cr_assert_eq(tpr_backend_open(&be, "cpu", 2, &note, &err, &code), 0);
	generate(&g, TPR_FAM_MOLECULE, 20, 30, TPR_MOLECULE_DEGREE, 1);
	cfg_of(&c, 8, 5, 1, 1, 1);
	tpr_measure_init(&m, o.trials);
	cr_assert_eq(tpr_bench_walks(&be, &g, &c, &o, TPR_PER_GRAPH, &m, &err), 0);
	cr_expect_eq(m.kernel.n, 4);
	cr_expect_eq(m.call.n, 4);
	cr_expect_eq(m.calls, 20);
	cr_expect_eq(m.h2d_pinned.n, 0, "no copies on the CPU");
	struct tpr_stat st;
	tpr_stat_of(&m.kernel, &st);
	cr_expect(st.min <= st.median && st.median <= st.max && st.min > 0);
	tpr_measure_free(&m);
	tpr_measure_init(&m, o.trials);
	cr_assert_eq(tpr_bench_walks(&be, &g, &c, &o, TPR_PER_GRAPH | TPR_NO_KERNEL, &m, &err), 0);
	cr_expect_eq(m.kernel.n, 0);
	cr_expect_eq(m.call.n, 4);
	tpr_measure_free(&m);
	/* a run through the backend equals the reference */
	struct walks ref;
	walk_all(&ref, &g, &c, 0);
	int32_t *nodes = xmalloc(ref.nn * 4), *edges = xmalloc(ref.ne * 4);
	cr_assert_eq(tpr_run_walks(&be, &g, &c, nodes, edges, &err), 0);
	cr_expect(!memcmp(nodes, ref.nodes, ref.nn * 4) && !memcmp(edges, ref.edges, ref.ne * 4));
	free(nodes);
	free(edges);
	walks_free(&ref);
	tpr_graph_free(&g);
	tpr_backend_close(&be);
	strbuf_release(&note);
	strbuf_release(&err);
}

/* ---- end to end ----------------------------------------------------------------- */

/* run(cmd): the shared runner of testutil.h, with cmd taken literally */
#define result tu_result
#define run(cmd) tu_run("%s", cmd)
#define run_fmt tu_run
#define result_free tu_result_free
#define slurp tu_slurp

#define QUICK "--trials 2 --warmup 0 --budget 0.2"

Test(cli, validate_prints_the_verdict_table)
{
	struct result r = run("bin/tprof-replay --validate samples/graph-llava-pretrain.log --backend cpu " QUICK);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err.buf);
	cr_expect_eq(r.err.len, 0, "stderr: %s", r.err.buf);
	cr_expect(strstr(r.out.buf, "Logged timings against their replay") != NULL);
	cr_expect(strstr(r.out.buf, "GPM pattern gen") != NULL);
	cr_expect(strstr(r.out.buf, "warm-up") != NULL, "the first window (312.77 ms) is a warm-up");
	cr_expect(strstr(r.out.buf, "Roofline") != NULL);
	result_free(&r);
}

static const struct json_value *find_table(const struct json_value *root, const char *id)
{
	const struct json_value *secs = json_get(root, "sections");
	for (size_t i = 0; secs && i < secs->arr.n; i++) {
		const struct json_value *tabs = json_get(&secs->arr.items[i], "tables");
		for (size_t k = 0; tabs && k < tabs->arr.n; k++) {
			const struct json_value *tid = json_get(&tabs->arr.items[k], "id");
			if (tid && !strcmp(tid->str.s, id))
				return &tabs->arr.items[k];
		}
	}
	return NULL;
}

Test(cli, validate_json_has_a_row_per_window)
{
	struct result r = run("bin/tprof-replay --validate samples/graph-llava-pretrain.log -b cpu -f json " QUICK);
	struct json_doc doc = JSON_DOC_INIT;
	struct json_error je;
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err.buf);
	cr_assert_eq(json_parse(r.out.buf, r.out.len, &doc, &je), 0, "not JSON: %s", je.msg);
	cr_expect_str_eq(json_get(doc.root, "tool")->str.s, "tprof-replay");
	const struct json_value *t = find_table(doc.root, "verdicts");
	cr_assert_not_null(t);
	const struct json_value *rows = json_get(t, "rows");
	cr_expect_eq(rows->arr.n, 60, "60 [GPM TIMING] windows, %zu rows", rows->arr.n);
	size_t warm = 0;
	for (size_t i = 0; i < rows->arr.n; i++) {
		const struct json_value *row = &rows->arr.items[i];
		cr_assert_eq(row->arr.n, 11);
		cr_expect(row->arr.items[3].num.v > 0 && row->arr.items[4].num.v > 0);
		warm += !strcmp(row->arr.items[9].str.s, "warm-up");
	}
	cr_expect_eq(warm, 1, "only the first window is a warm-up");
	cr_expect_not_null(find_table(doc.root, "roofline"));
	cr_expect_not_null(find_table(doc.root, "device"));
	json_free(&doc);
	result_free(&r);
}

/*
 * The batch (1000 graphs x 30 nodes, d300, h4, QKV projections) as
 * S2's profiler prints a time of the attention block alone, on an
 * H100: PyTorch ran it in 0.77-0.81 ms (FP32, TF32 off) and 0.50 ms with
 * TF32; 0.12 and 0.02 ms are below the roofline bound.
 */
#define H100_PEAKS "TPROF_REPLAY_PEAKS='name=H100 SXM,fp32=67,tf32=495,bf16=989,bw=3.35' "
#define ATT_LOG(dir)                                                                                    \
	"printf '%%s\\n' \"INFO - Arguments: Namespace(model='gt', hidden_dim=300, num_layers=1, num_heads=4)\" " \
	"'INFO - Using device: cuda (NVIDIA H100 80GB HBM3, 79.19 GB)' "                                 \
	"'Profiling batch: 1000 graphs from the test split, 30000 nodes, 62400 edges' "                 \
	"'Attention forward: 0.77 ms' 'Attention forward, slowest run: 0.81 ms' "                       \
	"'Attention forward without synchronize: 0.12 ms' 'SDPA with TF32: 0.50 ms' "                   \
	"'SDPA with TF32, no synchronize: 0.02 ms' >" dir "/att.log"

struct verdict_row {
	char what[64], verdict[16];
	double logged, bound, replay_pct;
};

/* The verdict rows of a JSON report; returns how many (at most max). */
static size_t verdict_rows(const char *json, struct verdict_row *out, size_t max)
{
	struct json_doc doc = JSON_DOC_INIT;
	struct json_error je;
	size_t n = 0;
	cr_assert_eq(json_parse(json, strlen(json), &doc, &je), 0, "not JSON: %s", je.msg);
	const struct json_value *t = find_table(doc.root, "verdicts");
	cr_assert_not_null(t, "no verdicts table");
	const struct json_value *rows = json_get(t, "rows");
	for (size_t i = 0; i < rows->arr.n && n < max; i++, n++) {
		const struct json_value *row = &rows->arr.items[i];
		cr_assert_eq(row->arr.n, 11);
		snprintf(out[n].what, sizeof(out[n].what), "%s", row->arr.items[0].str.s);
		snprintf(out[n].verdict, sizeof(out[n].verdict), "%s", row->arr.items[9].str.s);
		out[n].logged = row->arr.items[3].num.v;
		out[n].bound = row->arr.items[6].kind == JSON_NUM ? row->arr.items[6].num.v : NAN;
		out[n].replay_pct = row->arr.items[7].kind == JSON_NUM ? row->arr.items[7].num.v : NAN;
	}
	json_free(&doc);
	return n;
}

/* PyTorch's times get "consistent", times below the H100's roofline the missing-synchronize verdict. */
static void judged_on_the_h100(const char *precision, const double *want_bound)
{
	char *dir = tu_tmpdir("replay-h100");
	struct result r = run_fmt(ATT_LOG("%s") " && " H100_PEAKS "$B/tprof-replay --validate -b cpu --variant fused "
		    "--precision %s -f json --trials 1 --warmup 0 --budget 0 %s/att.log", dir, precision, dir);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err.buf);
	struct verdict_row v[8];
	size_t n = verdict_rows(r.out.buf, v, 8);
	cr_assert_eq(n, 5, "5 attention times, %zu rows", n);
	int tf32 = !strcmp(precision, "tf32");
	for (size_t i = 0; i < n; i++) {
		/* FP32: 17.3 GFLOP at 67 TFLOP/s; TF32: at 495 TFLOP/s */
		cr_expect(fabs(v[i].bound - want_bound[0]) < want_bound[1], "%s: bound %.4f ms", v[i].what, v[i].bound);
		cr_expect(v[i].replay_pct > 0 && v[i].replay_pct <= 100, "%s: replay at %.1f%% of the CPU's peak",
			  v[i].what, v[i].replay_pct);
		int below = v[i].logged < v[i].bound;
		const char *want = below ? "too-fast" : "consistent";
		if (!tf32 || strstr(v[i].what, "TF32") || below)
			cr_expect_str_eq(v[i].verdict, want, "%s (%.2f ms, %s): %s", v[i].what, v[i].logged, precision,
					 v[i].verdict);
	}
	/* the times at PyTorch's speed are above both bounds, the unsynchronized ones below */
	cr_expect_str_eq(v[0].verdict, "consistent", "0.77 ms");
	cr_expect_str_eq(v[1].verdict, "consistent", "0.81 ms");
	cr_expect_str_eq(v[tf32 ? 3 : 2].verdict, tf32 ? "consistent" : "too-fast");
	cr_expect_str_eq(v[4].verdict, "too-fast", "0.02 ms");
	cr_expect(strstr(r.out.buf, tf32 ? "judged as a run at tf32" : "judged as a run at fp32"),
		  "the precision assumed is stated");
	cr_expect(strstr(r.out.buf, "\"H100 SXM\""), "the figures' device is named");
	result_free(&r);
	tu_rmtree(dir);
}

Test(cli, validate_judges_against_the_roofline_fp32, .timeout = 300)
{
	static const double bound[2] = { 17.3e9 / 67e12 * 1e3, 0.002 };
	judged_on_the_h100("fp32", bound);
}

Test(cli, validate_judges_against_the_roofline_tf32, .timeout = 300)
{
	static const double bound[2] = { 17.3e9 / 495e12 * 1e3, 0.0005 };
	judged_on_the_h100("tf32", bound);
}

/* Without the GPU's figures a CPU replay cannot judge a fast GPU time; every variant is replayed. */
Test(cli, validate_without_figures_and_the_fastest_variant)
{
	char *dir = tu_tmpdir("replay-nofig");
	struct result r = run_fmt(
		"printf '%%s\\n' 'INFO - Arguments: Namespace(hidden_dim=64, num_layers=2, num_heads=4)' "
		"'INFO - Using device: cuda (NVIDIA H100 80GB HBM3, 79.19 GB)' "
		"'Profiling batch: 40 graphs from the test split, 1200 nodes, 2600 edges' "
		"'Attention forward: 0.001 ms' 'Attention forward, slow: 0.05 ms' >%s/a.log && "
		"$B/tprof-replay --validate -b cpu -f json " QUICK " %s/a.log",
		dir, dir);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err.buf);
	struct verdict_row v[4];
	cr_assert_eq(verdict_rows(r.out.buf, v, 4), 2);
	cr_expect_str_eq(v[0].verdict, "too-fast", "1 us: below any synchronized GPU call");
	cr_expect(isnan(v[0].bound), "no figures, no bound");
	cr_expect(strstr(r.out.buf, "attention fused") && strstr(r.out.buf, "attention three-step"),
		  "both variants replayed");
	struct result e = run_fmt("TPROF_REPLAY_PEAKS=fp32=67 $B/tprof-replay --validate -b cpu %s/a.log", dir);
	cr_expect_eq(e.status, 2, "a bad TPROF_REPLAY_PEAKS is a usage error");
	cr_expect(strstr(e.err.buf, "TPROF_REPLAY_PEAKS"), "%s", e.err.buf);
	result_free(&e);
	result_free(&r);
	tu_rmtree(dir);
}

Test(cli, benchmark_mode_and_auto_backend)
{
	struct result r = run("bin/tprof-replay --graphs 20 --nodes 20 --hidden 64 --heads 4 -f csv " QUICK);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err.buf);
	cr_expect(strstr(r.out.buf, "walks uniform") && strstr(r.out.buf, "attention fused") &&
		  strstr(r.out.buf, "attention three-step"));
	if (!strstr(r.out.buf, "cuda,")) /* no GPU: one line on stderr says so */
		cr_expect(strstr(r.err.buf, "falling back to the CPU") && strchr(r.err.buf, '\n') == r.err.buf + r.err.len - 1,
			  "stderr: %s", r.err.buf);
	result_free(&r);
	r = run("bin/tprof-replay -b cpu --kernel walk --family powerlaw --graphs 1 --nodes 5000 --p 0.5 --q 2 " QUICK);
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.out.buf, "walks node2vec p=0.5 q=2") != NULL);
	result_free(&r);
}

/* The logged side of every verdict row: what was measured, where, on which
 * workload and the logged value (the replayed side is a new measurement). */
#define LOGGED_ROWS " -f csv | grep -E '^validate,verdicts,[0-9]+,(measurement|line|workload|logged),'"
#define GL "samples/graph-llava-pretrain.log"

Test(cli, validate_reads_a_log_its_ndjson_and_stdin_alike, .timeout = 300)
{
	struct result raw = run("$B/tprof-replay --validate -b cpu " GL " " QUICK LOGGED_ROWS);
	cr_assert_eq(raw.status, 0, "%s", raw.err.buf);
	size_t lines = 0;
	for (const char *p = raw.out.buf; p && *p; p++)
		lines += *p == '\n';
	cr_assert_eq(lines, 60 * 4, "60 GPM windows, 4 logged columns each: %zu lines", lines);
	cr_expect(strstr(raw.out.buf, "validate,verdicts,1,line,,111\r\n") &&
		  strstr(raw.out.buf, "validate,verdicts,1,logged,ms,312.77\r\n") &&
		  strstr(raw.out.buf, "100 molecule x 28.6 nodes, deg 2.16, P64 L8"),
		  "the first window, its workload from the log's config lines:\n%.400s", raw.out.buf);
	static const char *const forms[] = {
		/* the log as an operand after the options, and the older --validate LOG */
		"$B/tprof-replay -b cpu " QUICK " --validate " GL LOGGED_ROWS,
		"$B/tprof-replay --validate " GL " -b cpu " QUICK LOGGED_ROWS,
		/* the NDJSON of tprof-parse, through a pipe and as a file */
		"$B/tprof-parse " GL " | $B/tprof-replay --validate - -b cpu " QUICK LOGGED_ROWS,
		"d=$(mktemp -d) && $B/tprof-parse -o $d/gl.ndjson " GL " && $B/tprof-replay -b cpu --validate $d/gl.ndjson "
		QUICK LOGGED_ROWS "; rm -rf $d",
		/* the raw log on standard input, plain and gzipped, with no operand */
		"$B/tprof-replay --validate -b cpu " QUICK " < " GL LOGGED_ROWS,
		"gzip -c " GL " | $B/tprof-replay --validate -b cpu " QUICK LOGGED_ROWS,
	};
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct result r = run(forms[i]);
		cr_expect_eq(r.status, 0, "%s: exit %d: %s", forms[i], r.status, r.err.buf);
		cr_expect_str_eq(r.out.buf ? r.out.buf : "", raw.out.buf, "%s gives other rows", forms[i]);
		result_free(&r);
	}
	result_free(&raw);
}

Test(cli, validate_empty_stdin_says_nothing_to_replay)
{
	struct result r = run("$B/tprof-replay --validate -b cpu " QUICK " </dev/null");
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.out.buf, "nothing-to-replay") || strstr(r.out.buf, "no logged measurement"),
		  "%s", r.out.buf);
	result_free(&r);
}

/* A size the log prints past any real run (num_patterns=1e23) is refused
 * with a message, never cast out of range or allocated. */
Test(cli, validate_refuses_absurd_logged_sizes)
{
	struct result r = run("d=$(mktemp -d) && printf 'GPM tower: num_patterns=99999999999999999999999, "
			      "pattern_size=8\\n[GPM TIMING] Last 100 graphs: Pattern gen=12.00ms, Total=40.00ms, "
			      "Avg nodes=28.3\\n' > $d/h.log && $B/tprof-replay --validate -b cpu " QUICK " $d/h.log; "
			      "s=$?; rm -rf $d; exit $s");
	cr_expect_eq(r.status, 2, "%s", r.err.buf);
	cr_expect(strstr(r.err.buf, "patterns of length 8: out of range"), "%s", r.err.buf);
	result_free(&r);
}

Test(cli, exit_codes)
{
	static const struct {
		const char *cmd;
		int status;
	} cases[] = {
		{ "bin/tprof-replay --frobnicate", 2 },
		{ "bin/tprof-replay --validate /nonexistent.log", 2 },
		{ "bin/tprof-replay --validate samples/graph-llava-pretrain.log samples/ddp-4rank.log", 2 },
		{ "bin/tprof-replay samples/graph-llava-pretrain.log", 2 },
		{ "bin/tprof-replay --backend tpu", 2 },
		{ "bin/tprof-replay --patterns 0", 2 },
		{ "bin/tprof-replay --band 3:1", 2 },
		{ "bin/tprof-replay -b cpu --hidden 30 --heads 7 --kernel attention", 2 },
		{ "bin/tprof-replay -b cpu --kernel walk --graphs 2 -o /nonexistent/dir/out.json " QUICK, 3 },
		{ "bin/tprof-replay --help", 0 },
		{ "bin/tprof --version", 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct result r = run(cases[i].cmd);
		cr_expect_eq(r.status, cases[i].status, "%s: exit %d, want %d (%s)", cases[i].cmd, r.status,
			     cases[i].status, r.err.buf);
		result_free(&r);
	}
	struct result r = run("bin/tprof-replay -b auto --kernel walk --graphs 2 " QUICK);
	if (strstr(r.out.buf, "cpu ")) {
		result_free(&r);
		r = run("bin/tprof-replay -b cuda --kernel walk --graphs 2");
		cr_expect_eq(r.status, 5, "no device: --backend cuda is a device failure (%s)", r.err.buf);
	}
	result_free(&r);
}

/* Every long option of --help is on a tag line (after .TP) of the man page's OPTIONS. */
Test(cli, options_documented)
{
	struct result r = run("bin/tprof-replay --help");
	struct strbuf page = STRBUF_INIT, tags = STRBUF_INIT;
	slurp("man/tprof-replay.1", &page);
	cr_assert_gt(page.len, 1000, "man/tprof-replay.1 missing");
	const char *opts = strstr(page.buf, "\n.SH OPTIONS"), *end = opts ? strstr(opts + 1, "\n.SH ") : NULL;
	cr_assert(opts && end, "no OPTIONS section");
	for (const char *p = opts; p && p < end; p = strchr(p + 1, '\n'))
		if (!strncmp(p, "\n.TP\n", 5)) {
			const char *tag = p + 5, *nl = strchr(tag, '\n');
			for (const char *c = tag; c < nl; c++)
				if (!(c[0] == '\\' && c[1] == '-'))
					strbuf_addch(&tags, *c); /* "\-" is a plain '-' */
			strbuf_addch(&tags, '\n');
		}
	int n = 0;
	for (const char *p = strstr(r.out.buf, "  --"); p; p = strstr(p + 1, "--")) {
		char opt[64];
		size_t k = 0;
		while (k < sizeof(opt) - 1 && (p[k] == '-' || (p[k] >= 'a' && p[k] <= 'z') || p[k] == ' '))
			opt[k] = p[k], k++;
		opt[k] = '\0';
		char *o = opt + strspn(opt, " ");
		o[strcspn(o, " ")] = '\0';
		if (strlen(o) < 3 || strncmp(o, "--", 2))
			continue;
		const char *hit = strstr(tags.buf, o);
		while (hit && (hit[strlen(o)] == '-' || (hit[strlen(o)] >= 'a' && hit[strlen(o)] <= 'z')))
			hit = strstr(hit + 1, o);
		cr_expect(hit != NULL, "%s (from --help) has no .TP entry in man/tprof-replay.1", o);
		n++;
	}
	cr_expect_gt(n, 20, "only %d options found in --help", n);
	strbuf_release(&page);
	strbuf_release(&tags);
	result_free(&r);
}
