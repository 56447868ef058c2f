/*
 * gpu_replay.c - `make check-gpu`: the CUDA backend against the CPU.
 *
 * Walks must be bit-identical to the CPU's (uniform and node2vec; molecule
 * batches, Erdos-Renyi and power-law graphs with isolated nodes); attention
 * (three-step and fused, with and without projections, head sizes of every
 * fused-kernel instantiation) must agree with the double reference within
 * 1e-5 of the output's magnitude; the timed replays must produce samples.
 *
 * Prints one line per check. Exit 1 if any check failed, and where no
 * device answers (one line says so: nothing was checked). Built only with
 * CUDA; make check builds it without running it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/attn.h"
#include "replay/backend.h"
#include "replay/replay.h"
#include "replay/walk.h"

struct tally {
	int passed, failed;
};

static void report(struct tally *t, int ok, const char *what, const char *detail)
{
	printf("%s  %s%s%s\n", ok ? "ok  " : "FAIL", what, detail[0] ? ": " : "", detail);
	if (ok)
		t->passed++;
	else
		t->failed++;
}

static void check_walks(struct tpr_backend *be, struct tally *t, enum tpr_family fam, int32_t graphs,
			double nodes, double p, double q)
{
	struct tpr_graph_spec s = { fam, graphs, nodes, graphs > 1 ? 0.43 : 0,
				    fam == TPR_FAM_MOLECULE ? TPR_MOLECULE_DEGREE : 4, TPR_DEFAULT_GAMMA, 17 };
	struct tpr_walk_params wp = { 16, 8, p, q, 99 };
	struct tpr_graph g;
	struct tpr_walk_cfg c;
	struct strbuf err = STRBUF_INIT;
	char what[128], detail[256] = "";
	snprintf(what, sizeof(what), "walks %s %d x %g nodes, p=%g q=%g", tpr_family_name(fam), (int)graphs,
		 nodes, p, q);
	if (tpr_graph_generate(&g, &s, &err) < 0 || tpr_walk_cfg_make(&c, &wp, &err) < 0) {
		report(t, 0, what, err.buf);
		strbuf_release(&err);
		return;
	}
	size_t nn = tpr_walk_nodes_len(&c, 0, g.n), ne = tpr_walk_edges_len(&c, 0, g.n);
	int32_t *cn = xmalloc(nn * 4), *ce = xmalloc(ne * 4), *gn = xmalloc(nn * 4), *ge = xmalloc(ne * 4);
	struct tpr_pool *pool = tpr_pool_new(0);
	tpr_walk_cpu(pool, &g, &c, 0, g.n, cn, ce);
	tpr_pool_free(pool);
	if (tpr_run_walks(be, &g, &c, gn, ge, &err) < 0) {
		report(t, 0, what, err.buf);
	} else {
		size_t bad = 0;
		for (size_t i = 0; i < nn; i++)
			bad += cn[i] != gn[i];
		for (size_t i = 0; i < ne; i++)
			bad += ce[i] != ge[i];
		snprintf(detail, sizeof(detail), "%zu of %zu ids differ", bad, nn + ne);
		report(t, bad == 0, what, detail);
	}
	free(cn);
	free(ce);
	free(gn);
	free(ge);
	tpr_graph_free(&g);
	strbuf_release(&err);
}

static void check_attn(struct tpr_backend *be, struct tally *t, int32_t graphs, double nodes, int32_t dim,
		       int32_t heads, int project, int fused)
{
	struct tpr_graph_spec s = { TPR_FAM_MOLECULE, graphs, nodes, graphs > 1 ? 0.9 : 0, 0, 0, 5 };
	struct tpr_attn_data d;
	struct strbuf err = STRBUF_INIT;
	char what[128], detail[128] = "";
	snprintf(what, sizeof(what), "attention %s%s %d x %g nodes, d%d h%d", fused ? "fused" : "three-step",
		 project ? " +QKV" : "", (int)graphs, nodes, (int)dim, (int)heads);
	if (tpr_attn_data_make(&d, &s, dim, heads, project, fused, &err) < 0) {
		report(t, 0, what, err.buf);
		strbuf_release(&err);
		return;
	}
	size_t nd = (size_t)d.job.n * dim;
	float *out = xmalloc(nd * sizeof(*out));
	double *ref = xmalloc(nd * sizeof(*ref));
	if (tpr_run_attn(be, &d.job, out, &err) < 0) {
		report(t, 0, what, err.buf);
	} else {
		tpr_attn_ref(&d.job, ref);
		double e = tpr_rel_err(out, ref, nd);
		snprintf(detail, sizeof(detail), "relative error %.2e", e);
		report(t, e < 1e-5, what, detail);
	}
	free(out);
	free(ref);
	tpr_attn_data_free(&d);
	strbuf_release(&err);
}

/* The timed paths: events, per-graph calls, copies. */
static void check_timing(struct tpr_backend *be, struct tally *t)
{
	struct tpr_timing_opts o = { 2, 5, 5 };
	struct tpr_graph_spec s = { TPR_FAM_MOLECULE, 100, 29, 0.3, TPR_MOLECULE_DEGREE, 2.5, 3 };
	struct tpr_walk_params wp = { 64, 8, 1, 1, 3 };
	struct tpr_result r;
	struct strbuf err = STRBUF_INIT;
	char detail[256];
	int code;
	int ok = tpr_bench_walk_spec(be, &s, &wp, &o, TPR_PER_GRAPH, &r, &err, &code) == 0;
	snprintf(detail, sizeof(detail), "%s kernel %.4f ms, 100 calls %.4f ms, h2d pinned %.4f pageable %.4f ms",
		 ok ? "" : err.buf, r.kernel_ms.median, r.call_ms.median, r.h2d_pin.median, r.h2d_page.median);
	report(t, ok && r.kernel_ms.n == 5 && r.call_ms.n == 5 && r.h2d_pin.n > 0 && r.d2h_page.n > 0 &&
			  r.call_ms.median > r.kernel_ms.median,
	       "timed walks (GPM window, per-graph calls)", detail);
	strbuf_reset(&err);
	struct tpr_attn_opts ao = { 1, 1, TPR_FP32 };
	ok = tpr_bench_attn_variant(be, &s, 300, 4, &ao, &o, &r, &err, &code) == 0;
	snprintf(detail, sizeof(detail), "%s kernel %.4f ms, %.1f GFLOP/s", ok ? "" : err.buf,
		 r.kernel_ms.median, r.flops / (r.kernel_ms.median * 1e-3) / 1e9);
	report(t, ok && r.kernel_ms.n == 5 && r.kernel_ms.median > 0, "timed attention", detail);
	strbuf_release(&err);
}

int main(void)
{
	struct tpr_backend be;
	struct strbuf note = STRBUF_INIT, err = STRBUF_INIT;
	struct tally t = { 0, 0 };
	int code;
	if (tpr_backend_open(&be, "cuda", 0, &note, &err, &code) < 0) {
		fprintf(stderr, "check-gpu: no CUDA device answers, nothing was checked (%s)\n", err.buf);
		strbuf_release(&note);
		strbuf_release(&err);
		return 1;
	}
	printf("check-gpu: %s, %d SMs, %.0f GB/s, %.0f GFLOP/s FP32\n", be.info.name, be.info.units,
	       be.info.peak_gbs, be.info.peak_gflops);
	check_walks(&be, &t, TPR_FAM_MOLECULE, 2000, 35, 1, 1);
	check_walks(&be, &t, TPR_FAM_MOLECULE, 2000, 35, 0.25, 4);
	check_walks(&be, &t, TPR_FAM_ER, 1, 100000, 1, 1);
	check_walks(&be, &t, TPR_FAM_POWERLAW, 1, 50000, 1, 1);
	check_walks(&be, &t, TPR_FAM_POWERLAW, 1, 50000, 2, 0.5);
	static const int32_t shapes[][2] = { { 300, 4 }, { 128, 8 }, { 64, 2 }, { 256, 4 }, { 96, 1 } };
	for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++)
		for (int fused = 0; fused < 2; fused++)
			for (int project = 0; project < 2; project++)
				check_attn(&be, &t, 200, 30, shapes[k][0], shapes[k][1], project, fused);
	check_attn(&be, &t, 1, 1500, 128, 8, 1, 1);
	check_attn(&be, &t, 1, 1500, 128, 8, 1, 0);
	check_timing(&be, &t);
	printf("check-gpu: %d passed, %d failed\n", t.passed, t.failed);
	tpr_backend_close(&be);
	strbuf_release(&note);
	strbuf_release(&err);
	return t.failed ? 1 : 0;
}
