/*
 * bench.c - tprof-replay without --validate: replay the workload the
 * flags describe (walks and/or attention, both attention variants unless
 * one is asked for) and report timings, throughput and the roofline.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "flops.h"
#include "replay.h"

#define MAX_RESULTS 4

static void bench_spec(const struct tpr_flags *f, struct tpr_graph_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->family = f->family;
	s->graphs = isnan(f->graphs) ? TPR_DEF_GRAPHS : (int32_t)f->graphs;
	s->nodes = isnan(f->nodes) ? TPR_DEF_NODES : f->nodes;
	/* molecules of a dataset differ in size: 0.43 spreads 35 nodes over 20-50 */
	s->spread = !isnan(f->spread) ? f->spread : s->graphs > 1 ? 0.43 : 0;
	s->degree = isnan(f->degree) ? tpr_family_degree(f->family) : f->degree;
	s->gamma = f->gamma;
	s->seed = f->seed;
}

static void walk_names(struct tpr_result *r, const struct tpr_graph_spec *s, const struct tpr_walk_cfg *c,
		       const struct tpr_walk_params *wp)
{
	if (c->node2vec)
		snprintf(r->kernel, sizeof(r->kernel), "walks node2vec p=%g q=%g", wp->p, wp->q);
	else
		snprintf(r->kernel, sizeof(r->kernel), "walks uniform");
	snprintf(r->workload, sizeof(r->workload), "%d %s x %.4g nodes, deg %.3g, P%d L%d",
		 (int)s->graphs, tpr_family_name(s->family), s->nodes, s->degree, (int)c->patterns,
		 (int)c->length);
}

int tpr_bench_walk_spec(struct tpr_backend *be, const struct tpr_graph_spec *s,
			const struct tpr_walk_params *wp, const struct tpr_timing_opts *o, int mode,
			struct tpr_result *r, struct strbuf *err, int *code)
{
	struct tpr_walk_cfg c;
	struct tpr_graph g;
	struct tpr_measure m;
	*code = TP_EXIT_INPUT;
	if (tpr_walk_cfg_make(&c, wp, err) < 0 || tpr_graph_generate(&g, s, err) < 0)
		return -1;
	memset(r, 0, sizeof(*r));
	walk_names(r, s, &c, wp);
	tpr_measure_init(&m, o->trials);
	if (g.ngraphs == 1)
		mode &= ~TPR_PER_GRAPH;
	int rc = tpr_bench_walks(be, &g, &c, o, mode, &m, err);
	if (rc == 0) {
		struct tpr_work w;
		tpr_result_from(r, &m);
		tpr_work_walks(&g, &c, &w);
		r->flops = w.flops, r->bytes = w.bytes, r->steps = w.units;
	}
	*code = TP_EXIT_INTERNAL;
	tpr_measure_free(&m);
	tpr_graph_free(&g);
	return rc;
}

/* ", FP32"; ", TF32 (FP32 ran)" where the backend could not run what was asked. */
static void precision_words(char *buf, size_t n, enum tpr_precision asked, int32_t ran)
{
	static const char *const upper[TPR_NPRECISIONS] = { "FP32", "TF32", "BF16" };
	const char *r = ran >= 0 && ran < TPR_NPRECISIONS ? upper[ran] : "?";
	if ((int32_t)asked == ran)
		snprintf(buf, n, ", %s", upper[asked]);
	else
		snprintf(buf, n, ", %s (%s ran)", upper[asked], r);
}

int tpr_bench_attn_variant(struct tpr_backend *be, const struct tpr_graph_spec *s, int32_t dim,
			   int32_t heads, const struct tpr_attn_opts *ao, const struct tpr_timing_opts *o,
			   struct tpr_result *r, struct strbuf *err, int *code)
{
	struct tpr_attn_data d;
	struct tpr_measure m;
	char prec[40];
	*code = TP_EXIT_INPUT;
	if (tpr_attn_data_make(&d, s, dim, heads, ao->project, ao->fused, err) < 0)
		return -1;
	d.job.precision = ao->precision;
	d.job.gemm = ao->gemm;
	memset(r, 0, sizeof(*r));
	tpr_measure_init(&m, o->trials);
	m.precision = ao->precision;
	int rc = tpr_bench_attn(be, &d.job, o, &m, err);
	if (rc == 0) {
		struct tpr_work w;
		tpr_result_from(r, &m);
		d.job.precision = m.precision; /* the traffic of what ran */
		tpr_work_attn(&d.job, &w);
		r->flops = w.flops, r->bytes = w.bytes, r->min_bytes = w.min_bytes;
	}
	precision_words(prec, sizeof(prec), ao->precision, m.precision);
	snprintf(r->kernel, sizeof(r->kernel), "attention %s", ao->fused ? "fused" : "three-step");
	snprintf(r->workload, sizeof(r->workload), "%d x %.4g nodes, d%d h%d%s%s", (int)s->graphs,
		 s->nodes, (int)dim, (int)heads, ao->project ? ", QKV" : "", prec);
	*code = TP_EXIT_INTERNAL;
	tpr_measure_free(&m);
	tpr_attn_data_free(&d);
	return rc;
}

static int bench_attention(struct tpr_backend *be, const struct tpr_flags *f,
			   const struct tpr_graph_spec *s, struct tpr_result *r, size_t *n,
			   struct strbuf *err, int *code)
{
	int32_t dim = isnan(f->hidden) ? TPR_DEF_HIDDEN : (int32_t)f->hidden;
	int32_t heads = isnan(f->heads) ? TPR_DEF_HEADS : (int32_t)f->heads;
	for (int fused = 1; fused >= 0; fused--) {
		if (f->variant >= 0 && f->variant != fused)
			continue;
		struct tpr_attn_opts ao = { fused, f->project, f->precision, f->gemm };
		if (tpr_bench_attn_variant(be, s, dim, heads, &ao, &f->timing, &r[*n], err, code) < 0)
			return -1;
		(*n)++;
	}
	return 0;
}

int tpr_benchmark(struct tpr_backend *be, const struct tpr_flags *f, struct report *rep,
		  struct strbuf *err, int *code)
{
	struct tpr_graph_spec s;
	struct tpr_result r[MAX_RESULTS];
	size_t n = 0;
	bench_spec(f, &s);
	struct tpr_walk_params wp = { isnan(f->patterns) ? TPR_DEF_PATTERNS : (int32_t)f->patterns,
				      isnan(f->pattern_size) ? TPR_DEF_PATTERN_SIZE : (int32_t)f->pattern_size,
				      f->p, f->q, f->seed };
	if ((f->kernels & TPR_K_WALK) &&
	    tpr_bench_walk_spec(be, &s, &wp, &f->timing, TPR_PER_GRAPH, &r[n++], err, code) < 0)
		return -1;
	if ((f->kernels & TPR_K_ATTN) && bench_attention(be, f, &s, r, &n, err, code) < 0)
		return -1;
	tpr_report_device(rep, be);
	tpr_report_timing(rep, r, n);
	tpr_report_roofline(rep, be, r, n);
	return 0;
}
