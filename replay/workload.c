/*
 * workload.c - what both jobs of tprof-replay share: flag defaults,
 * attention inputs, and the report tables for the device, the timings
 * and the roofline.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "flops.h"
#include "replay.h"
#include "rng.h"

void tpr_flags_default(struct tpr_flags *f)
{
	memset(f, 0, sizeof(*f));
	f->family = TPR_FAM_MOLECULE;
	f->graphs = f->nodes = f->spread = f->degree = NAN;
	f->gamma = TPR_DEFAULT_GAMMA;
	f->patterns = f->pattern_size = NAN;
	f->p = f->q = 1;
	f->hidden = f->heads = f->layers = NAN;
	f->variant = -1;
	f->project = 1;
	f->precision = TPR_FP32;
	f->gemm = TPR_GEMM_AUTO;
	f->seed = 42;
	f->kernels = TPR_K_WALK | TPR_K_ATTN;
	f->timing.warmup = 3;
	f->timing.trials = 10;
	f->timing.budget_s = 2;
	f->band_lo = TPR_DEF_BAND_LO;
	f->band_hi = TPR_DEF_BAND_HI;
}

static const char *const precision_names[TPR_NPRECISIONS] = { "fp32", "tf32", "bf16" };

const char *tpr_precision_name(enum tpr_precision prec)
{
	return (unsigned)prec < TPR_NPRECISIONS ? precision_names[prec] : "?";
}

int tpr_precision_parse(const char *s, enum tpr_precision *prec)
{
	for (int i = 0; i < TPR_NPRECISIONS; i++)
		if (!strcmp(s, precision_names[i])) {
			*prec = (enum tpr_precision)i;
			return 0;
		}
	return -1;
}

double tpr_device_peak(const struct tpr_device_info *d, enum tpr_precision prec)
{
	double p = prec == TPR_TF32 ? d->peak_tf32 : prec == TPR_BF16 ? d->peak_bf16 : d->peak_gflops;
	return p > 0 ? p : d->peak_gflops;
}

void tpr_peaks_of(const struct tpr_device_info *d, struct tpr_peaks *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%.63s", d->name);
	for (int i = 0; i < TPR_NPRECISIONS; i++)
		p->gflops[i] = tpr_device_peak(d, (enum tpr_precision)i);
	p->gbs = d->peak_gbs;
}

/* One "key=value" of a TPROF_REPLAY_PEAKS spec; the value is [v, end). */
static int peaks_field(struct tpr_peaks *p, const char *key, size_t klen, const char *v, size_t vlen,
		       struct strbuf *err)
{
	static const char *const keys[] = { "fp32", "tf32", "bf16", "bw" };
	char num[64], *end;
	if (klen == 4 && !memcmp(key, "name", 4)) {
		snprintf(p->name, sizeof(p->name), "%.*s", (int)(vlen < 63 ? vlen : 63), v);
		return 0;
	}
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		if (klen != strlen(keys[k]) || memcmp(key, keys[k], klen))
			continue;
		snprintf(num, sizeof(num), "%.*s", (int)(vlen < 63 ? vlen : 63), v);
		double x = strtod(num, &end);
		if (end == num || *end || !(x > 0) || !isfinite(x) || vlen >= sizeof(num)) {
			strbuf_addf(err, "%s=%.*s: a positive number wanted", keys[k], (int)vlen, v);
			return -1;
		}
		if (k < TPR_NPRECISIONS)
			p->gflops[k] = x * 1e3; /* TFLOP/s */
		else
			p->gbs = x * 1e3; /* TB/s */
		return 0;
	}
	strbuf_addf(err, "unknown key '%.*s' (name, fp32, tf32, bf16, bw)", (int)klen, key);
	return -1;
}

int tpr_peaks_parse(const char *spec, struct tpr_peaks *p, struct strbuf *err)
{
	memset(p, 0, sizeof(*p));
	for (const char *s = spec; *s;) {
		size_t len = strcspn(s, ",");
		const char *eq = memchr(s, '=', len);
		if (!eq) {
			strbuf_addf(err, "'%.*s' is not key=value", (int)len, s);
			return -1;
		}
		if (peaks_field(p, s, (size_t)(eq - s), eq + 1, len - (size_t)(eq - s) - 1, err) < 0)
			return -1;
		s += len + (s[len] == ',');
	}
	if (!(p->gflops[TPR_FP32] > 0) || !(p->gbs > 0)) {
		strbuf_addstr(err, "fp32 (TFLOP/s) and bw (TB/s) are needed");
		return -1;
	}
	for (int i = 0; i < TPR_NPRECISIONS; i++)
		if (!(p->gflops[i] > 0))
			p->gflops[i] = p->gflops[TPR_FP32]; /* no tensor cores */
	if (!p->name[0])
		snprintf(p->name, sizeof(p->name), "the device of TPROF_REPLAY_PEAKS");
	return 0;
}

double tpr_family_degree(enum tpr_family f)
{
	return f == TPR_FAM_MOLECULE ? TPR_MOLECULE_DEGREE : TPR_DEF_DEGREE_RANDOM;
}

static void fill_uniform(float *a, size_t n, float scale, uint64_t seed, uint32_t sub)
{
	struct tpr_rng r;
	tpr_rng_init(&r, seed, TPR_DOM_TENSOR, sub);
	for (size_t i = 0; i < n; i++)
		a[i] = tpr_unit_float(tpr_rng_u32(&r)) * scale;
}

int tpr_attn_data_make(struct tpr_attn_data *d, const struct tpr_graph_spec *sizes, int32_t dim,
		       int32_t heads, int project, int fused, struct strbuf *err)
{
	memset(d, 0, sizeof(*d));
	d->goff = xmalloc(((size_t)sizes->graphs + 1) * sizeof(*d->goff));
	if (tpr_graph_sizes(sizes, d->goff, err) < 0) {
		tpr_attn_data_free(d);
		return -1;
	}
	struct tpr_attn_job *j = &d->job;
	j->ngraphs = sizes->graphs;
	j->goff = d->goff;
	j->n = d->goff[sizes->graphs];
	j->dim = dim;
	j->heads = heads;
	j->project = project;
	j->fused = fused;
	if (tpr_attn_check(j, err) < 0) {
		tpr_attn_data_free(d);
		return -1;
	}
	size_t nd = (size_t)j->n * dim, dd = (size_t)dim * dim;
	d->buf = xmalloc((project ? nd + 3 * dd : 3 * nd) * sizeof(float));
	if (project) {
		/* weights scaled so that projections keep the inputs' magnitude */
		fill_uniform(d->buf, nd, 1, sizes->seed, 0);
		fill_uniform(d->buf + nd, 3 * dd, 1 / sqrtf((float)dim), sizes->seed, 1);
		j->x = d->buf, j->wq = d->buf + nd, j->wk = j->wq + dd, j->wv = j->wk + dd;
	} else {
		fill_uniform(d->buf, 3 * nd, 1, sizes->seed, 2);
		j->q = d->buf, j->k = d->buf + nd, j->v = d->buf + 2 * nd;
	}
	return 0;
}

void tpr_attn_data_free(struct tpr_attn_data *d)
{
	free(d->goff);
	free(d->buf);
	memset(d, 0, sizeof(*d));
}

void tpr_result_from(struct tpr_result *r, const struct tpr_measure *m)
{
	tpr_stat_of(&m->kernel, &r->kernel_ms);
	tpr_stat_of(&m->call, &r->call_ms);
	tpr_stat_of(&m->h2d_pinned, &r->h2d_pin);
	tpr_stat_of(&m->h2d_pageable, &r->h2d_page);
	tpr_stat_of(&m->d2h_pinned, &r->d2h_pin);
	tpr_stat_of(&m->d2h_pageable, &r->d2h_page);
	r->calls = m->calls;
	r->precision = m->precision;
	r->h2d_bytes = m->h2d_bytes;
	r->d2h_bytes = m->d2h_bytes;
}

/* ---- report tables ------------------------------------------------------ */

/* Decimals that keep about four significant digits of a duration. */
static int ms_prec(double v)
{
	double a = fabs(v);
	return a < 0.01 ? 5 : a < 1 ? 4 : a < 100 ? 3 : 1;
}

static void ms_cell(struct rtable *t, double v)
{
	rt_num(t, v, ms_prec(v));
}

void tpr_report_device(struct report *rep, const struct tpr_backend *be)
{
	const struct tpr_device_info *d = &be->info;
	struct rtable *t = report_table(rep, "device", "device", "Replay device",
					"backend,device,units,clock:GHz,peak_bandwidth:GB/s,"
					"peak_fp32:GFLOP/s,peak_tf32:GFLOP/s,peak_bf16:GFLOP/s,"
					"projections,peaks_from");
	rt_text(t, d->kind);
	rt_text(t, d->name);
	rt_num(t, d->units, 0);
	rt_num(t, d->clock_ghz, 2);
	rt_num(t, d->peak_gbs, 1);
	rt_num(t, d->peak_gflops, 1);
	rt_num(t, tpr_device_peak(d, TPR_TF32), 1);
	rt_num(t, tpr_device_peak(d, TPR_BF16), 1);
	rt_text(t, d->gemm[0] ? d->gemm : "-");
	rt_text(t, d->peak_note);
}

static void stat_cells(struct rtable *t, const struct tpr_stat *s)
{
	ms_cell(t, s->median);
	ms_cell(t, s->min);
	ms_cell(t, s->max);
}

void tpr_report_timing(struct report *rep, const struct tpr_result *r, size_t n)
{
	if (!n)
		return;
	struct rtable *t = report_table(
		rep, "timing", "timing", "Replay timings (median, min, max over the trials)",
		"kernel,workload,trials,kernel_median:ms,kernel_min:ms,kernel_max:ms,calls,"
		"call_median:ms,call_min:ms,call_max:ms");
	for (size_t i = 0; i < n; i++) {
		rt_text(t, r[i].kernel);
		rt_text(t, r[i].workload);
		rt_num(t, r[i].kernel_ms.n > r[i].call_ms.n ? r[i].kernel_ms.n : r[i].call_ms.n, 0);
		stat_cells(t, &r[i].kernel_ms);
		rt_num(t, r[i].calls, 0);
		stat_cells(t, &r[i].call_ms);
	}
	struct rtable *c = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!r[i].h2d_pin.n)
			continue;
		if (!c)
			c = report_table(rep, "timing", "copies",
					 "Host<->device copies of the inputs and outputs (medians)",
					 "kernel,workload,h2d:MB,h2d_pinned:ms,h2d_pageable:ms,d2h:MB,"
					 "d2h_pinned:ms,d2h_pageable:ms");
		rt_text(c, r[i].kernel);
		rt_text(c, r[i].workload);
		rt_num(c, r[i].h2d_bytes / 1e6, 3);
		ms_cell(c, r[i].h2d_pin.median);
		ms_cell(c, r[i].h2d_page.median);
		rt_num(c, r[i].d2h_bytes / 1e6, 3);
		ms_cell(c, r[i].d2h_pin.median);
		ms_cell(c, r[i].d2h_page.median);
	}
}

static void roofline_row(struct rtable *t, const struct tpr_backend *be, const struct tpr_result *r)
{
	double s = r->kernel_ms.median * 1e-3;
	double gbs = r->bytes / s / 1e9, gfs = r->flops / s / 1e9;
	double peak = tpr_device_peak(&be->info, (enum tpr_precision)r->precision);
	double balance = peak / be->info.peak_gbs;
	double pct = 100 * gbs / be->info.peak_gbs;
	const char *bound = "memory (random access)";
	if (r->flops > 0) {
		double pf = 100 * gfs / peak;
		pct = pf > pct ? pf : pct;
		bound = r->flops / r->bytes < balance ? "memory" : "compute";
	}
	rt_text(t, r->kernel);
	rt_text(t, r->workload);
	ms_cell(t, r->kernel_ms.median);
	rt_num(t, r->bytes / 1e9, 4);
	rt_num(t, r->flops / 1e9, 4);
	rt_num(t, r->flops > 0 ? r->flops / r->bytes : NAN, 2);
	rt_num(t, gbs, 2);
	rt_num(t, r->flops > 0 ? gfs : NAN, 2);
	rt_num(t, r->steps > 0 ? r->steps / s / 1e6 : NAN, 2);
	rt_num(t, pct, 1);
	rt_text(t, bound);
}

void tpr_report_roofline(struct report *rep, const struct tpr_backend *be,
			 const struct tpr_result *r, size_t n)
{
	size_t timed = 0;
	for (size_t i = 0; i < n; i++)
		timed += r[i].kernel_ms.n > 0;
	if (!timed)
		return;
	struct rtable *t = report_table(
		rep, "roofline", "roofline",
		"Roofline: compulsory bytes and FLOPs per kernel run (the Graph Transformer profiler's FLOP model) against the device's peaks "
		"(at the precision the kernel ran)",
		"kernel,workload,time:ms,bytes:GB,flops:GFLOP,intensity:FLOP/B,bandwidth:GB/s,"
		"compute:GFLOP/s,walk_steps:M/s,of_peak:%,bound");
	for (size_t i = 0; i < n; i++)
		if (r[i].kernel_ms.n)
			roofline_row(t, be, &r[i]);
}
