/*
 * validate.c - tprof-replay --validate LOG: every logged measurement that
 * a kernel of ours can replay is replayed and judged.
 *
 *   GPM windows ([GPM TIMING] ... Pattern gen=Xms ... Avg nodes=N): the
 *     window's graphs are generated (molecule-like unless --family), and
 *     their patterns generated with one call and one synchronize per graph,
 *     as the tower does. gpm.py prints the per-graph MEAN over the window,
 *     so the replayed value is the window's time divided by its graphs.
 *   Forward times and node/layer scaling points of S2's models,
 *     when the hidden size, heads and layers are known (log or flags): one
 *     attention layer (QKV projections + attention) is replayed and scaled
 *     by S2's FLOP model to the whole forward (all layers, FFN and
 *     MPNN at the attention kernel's FLOP rate). A time named for the
 *     attention itself ("Attention forward", "attn", "sdpa") is that layer
 *     alone, unscaled.
 *
 * Attention is replayed with every variant unless --variant names one, and
 * the fastest is the replay: what a log is judged against is the best
 * tprof can do, not its slowest path.
 *
 * Verdicts (ratio = logged / replayed, band [lo, hi], default 0.5-3):
 *   consistent    lo <= ratio <= hi, or ratio < lo with the logged time
 *                 still at or above the roofline bound of the device
 *   too-fast      below the roofline bound itself (the FLOPs at the
 *                 device's peak for the precision, the inputs and outputs
 *                 at its bandwidth) or, on a GPU, below the floor of a
 *                 synchronized call: faster than a correct replay, so a
 *                 missing synchronize
 *   overhead      ratio > hi: time the kernel does not explain (a Python
 *                 loop, host<->device copies, the model on the CPU)
 *   warm-up       ratio > hi on the first window only, which is more than
 *                 twice the median window
 *   inconclusive  ratio < lo, logged on a GPU whose figures are unknown
 *                 (replayed on the CPU without TPROF_REPLAY_PEAKS)
 *
 * The device figures of the bound: TPROF_REPLAY_PEAKS where given (the
 * logged GPU's), else the replay device's when it is a GPU, or the CPU's
 * for a log that shows no GPU.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include "parse/parse.h"
#include "logcfg.h"
#include "flops.h"
#include "replay.h"

enum verdict { V_CONSISTENT, V_TOO_FAST, V_OVERHEAD, V_WARMUP, V_INCONCLUSIVE, V_N };
static const char *const verdict_names[V_N] = { "consistent", "too-fast", "overhead", "warm-up",
						"inconclusive" };

struct logged {
	enum tp_type type;
	uint64_t line;
	char name[48];   /* runtime name, scaling parameter, flops name */
	double a, b, c;  /* gpm: graphs, pattern_gen_ms, avg_nodes; runtime: mean_ms; scaling: value, mean_ms */
};

struct row {
	char what[48];
	uint64_t line;
	char workload[96];
	double logged, replayed;
	double scale;        /* the row's work over the result's (per graph, whole forward) */
	double bound;        /* ms: roofline bound on the judged device (and the call floor); NAN: none */
	double replay_pct;   /* the replay's share of its own device's roofline */
	double logged_pct;   /* the logged time's share of the judged device's roofline */
	int calls;
	enum verdict v;
	char reason[128];
	size_t result;
};

struct vstate {
	struct tpr_backend *be;
	const struct tpr_flags *f;
	struct tpr_logcfg cfg;
	const char *path;
	struct logged *logs;
	size_t nlogs, alloc_logs;
	struct row *rows;
	size_t nrows, alloc_rows;
	struct tpr_result *res;
	size_t nres, alloc_res;
	struct window {
		int32_t graphs;
		double nodes;
		size_t result;
	} *win, *att;      /* replays already made: walk windows, attention layers */
	size_t nwin, alloc_win, natt, alloc_att;
	struct tpr_peaks peaks; /* the judged device's figures (have_peaks) */
	int have_peaks, peaks_gpu;
	const char *peaks_from;
	struct strbuf skipped;  /* "name (line N): why; ..." */
	size_t nskipped;
	unsigned long warnings;
};

/* ---- reading the records ------------------------------------------------ */

static int keep_record(void *ctx, const struct tp_record *r)
{
	struct vstate *st = ctx;
	struct logged l = { r->type, r->line, "", NAN, NAN, NAN };
	if (r->type == TP_CONFIG) {
		tpr_logcfg_record(&st->cfg, r);
		return 0;
	}
	if (r->name)
		snprintf(l.name, sizeof(l.name), "%.*s", (int)r->name_len, r->name);
	if (r->type == TP_GPM && tp_has(r, S_GPM_PATTERN_MS)) {
		l.a = tp_has(r, S_GPM_GRAPHS) ? r->num[S_GPM_GRAPHS] : NAN;
		l.b = r->num[S_GPM_PATTERN_MS];
		l.c = tp_has(r, S_GPM_AVG_NODES) ? r->num[S_GPM_AVG_NODES] : NAN;
	} else if (r->type == TP_RUNTIME && tp_has(r, S_RT_MEAN_MS)) {
		l.a = r->num[S_RT_MEAN_MS];
	} else if (r->type == TP_SCALING && tp_has(r, S_SC_VALUE) && tp_has(r, S_SC_MEAN_MS)) {
		l.a = r->num[S_SC_VALUE];
		l.b = r->num[S_SC_MEAN_MS];
	} else if (r->type == TP_FLOPS && tp_has(r, S_FLOPS_GFLOPS)) {
		l.a = r->num[S_FLOPS_GFLOPS];
	} else {
		return 0;
	}
	ALLOC_GROW(st->logs, st->nlogs + 1, st->alloc_logs);
	st->logs[st->nlogs++] = l;
	return 0;
}

static void count_warning(void *ctx, const char *file, uint64_t line, const char *msg)
{
	struct vstate *st = ctx;
	(void)file, (void)line, (void)msg;
	st->warnings++; /* tprof-parse reports them; here they only cost replayable lines */
}

/* The log, its NDJSON or a document, through parse's one reader: the
 * timing records and the config records with the workload's sizes. */
static int read_log(struct vstate *st, struct strbuf *err)
{
	struct tp_run_opts o = { .threads = 1, .fmt = -1 };
	struct tp_stats stats = { 0 };
	tpr_logcfg_init(&st->cfg);
	o.sink.emit = keep_record;
	o.sink.warn = count_warning;
	o.sink.ctx = st;
	return tp_read_input(st->path, &o, NULL, &stats, err) < 0 ? -1 : 0;
}

/* ---- rows and verdicts --------------------------------------------------- */

static void skip(struct vstate *st, const char *what, uint64_t line, const char *why)
{
	if (st->nskipped++ < 8)
		strbuf_addf(&st->skipped, "%s%s (line %llu): %s", st->skipped.len ? "; " : "", what,
			    (unsigned long long)line, why);
}

static size_t add_result(struct vstate *st, const struct tpr_result *r)
{
	ALLOC_GROW(st->res, st->nres + 1, st->alloc_res);
	st->res[st->nres] = *r;
	return st->nres++;
}

/* Copy time per call from the replay's measured copies (CUDA only; NAN on the CPU). */
static double copy_ms_per_call(const struct tpr_result *r)
{
	if (!r->h2d_page.n || !r->d2h_page.n)
		return NAN;
	return (r->h2d_page.median + r->d2h_page.median) / (r->calls > 0 ? r->calls : 1);
}

static void judge_slow(struct row *w, const struct tpr_result *r, double first_factor)
{
	double extra = (w->logged - w->replayed) / (w->calls > 0 ? w->calls : 1);
	double copies = copy_ms_per_call(r);
	if (first_factor > 2) {
		w->v = V_WARMUP;
		snprintf(w->reason, sizeof(w->reason), "first window, %.1fx the median window", first_factor);
	} else if (copies > 0 && extra <= 2 * copies) {
		w->v = V_OVERHEAD;
		snprintf(w->reason, sizeof(w->reason), "+%.3g ms/call: host<->device copies", extra);
	} else {
		w->v = V_OVERHEAD;
		snprintf(w->reason, sizeof(w->reason), "+%.3g ms/call the kernel does not explain", extra);
	}
}

static double roofline_ms(double flops, double bytes, double gflops, double gbs)
{
	double t = bytes / (gbs * 1e9);
	if (flops > 0 && flops / (gflops * 1e9) > t)
		t = flops / (gflops * 1e9);
	return t * 1e3;
}

/* The row's bound on the judged device and both shares of a roofline. */
static void row_bounds(const struct vstate *st, struct row *w)
{
	const struct tpr_result *r = &st->res[w->result];
	const struct tpr_device_info *d = &st->be->info;
	enum tpr_precision p = st->f->precision;
	double own = roofline_ms(r->flops * w->scale, r->bytes * w->scale,
				 tpr_device_peak(d, (enum tpr_precision)r->precision), d->peak_gbs);
	w->replay_pct = 100 * own / w->replayed;
	w->bound = w->logged_pct = NAN;
	if (!st->have_peaks)
		return;
	/* BF16 halves what the inputs and outputs of a matrix kernel weigh */
	double io = r->min_bytes * w->scale * (p == TPR_BF16 && r->flops > 0 ? 0.5 : 1);
	double roof = roofline_ms(r->flops * w->scale, io, st->peaks.gflops[p], st->peaks.gbs);
	double floor_ms = st->peaks_gpu ? TPR_GPU_CALL_FLOOR_MS * (w->calls > 0 ? w->calls : 1) : 0;
	w->logged_pct = 100 * roof / w->logged;
	w->bound = roof > floor_ms ? roof : floor_ms;
}

static void judge_fast(const struct vstate *st, struct row *w)
{
	double per_call = w->logged / (w->calls > 0 ? w->calls : 1);
	if (!isnan(w->bound) && w->logged < w->bound) {
		w->v = V_TOO_FAST;
		snprintf(w->reason, sizeof(w->reason), "faster than a correct replay: below the %s (%.3g ms)%s",
			 w->logged_pct < 100 ? "floor of a synchronized GPU call" : "roofline bound", w->bound,
			 st->peaks_gpu ? ": missing synchronize?" : "");
	} else if (!isnan(w->bound)) {
		w->v = V_CONSISTENT;
		snprintf(w->reason, sizeof(w->reason), "faster than the replay, %.0f%% of the %s roofline at %s",
			 w->logged_pct, st->peaks_gpu ? "GPU's" : "device's", tpr_precision_name(st->f->precision));
	} else if (per_call < TPR_GPU_CALL_FLOOR_MS) {
		w->v = V_TOO_FAST;
		snprintf(w->reason, sizeof(w->reason),
			 "faster than a correct replay: below any synchronized GPU call: missing synchronize?");
	} else {
		w->v = V_INCONCLUSIVE;
		snprintf(w->reason, sizeof(w->reason),
			 "GPU log, CPU replay: --backend cuda, or the GPU's TPROF_REPLAY_PEAKS");
	}
}

static void judge(const struct vstate *st, struct row *w, double first_factor)
{
	double ratio = w->logged / w->replayed;
	const struct tpr_result *r = &st->res[w->result];
	row_bounds(st, w);
	if (ratio >= st->f->band_lo && ratio <= st->f->band_hi) {
		w->v = V_CONSISTENT;
		snprintf(w->reason, sizeof(w->reason), "within %gx-%gx of the replay", st->f->band_lo,
			 st->f->band_hi);
	} else if (ratio > st->f->band_hi) {
		judge_slow(w, r, first_factor);
	} else {
		judge_fast(st, w);
	}
}

static struct row *add_row(struct vstate *st, const char *what, uint64_t line, double logged,
			   double replayed, size_t result, int calls, double scale)
{
	ALLOC_GROW(st->rows, st->nrows + 1, st->alloc_rows);
	struct row *w = &st->rows[st->nrows++];
	memset(w, 0, sizeof(*w));
	snprintf(w->what, sizeof(w->what), "%s", what);
	snprintf(w->workload, sizeof(w->workload), "%s", st->res[result].workload);
	w->line = line;
	w->logged = logged;
	w->replayed = replayed;
	w->result = result;
	w->calls = calls;
	w->scale = scale;
	return w;
}

/* ---- GPM windows ------------------------------------------------------- */

static double pick(double flag, const struct tpr_logcfg *cfg, enum tpr_cfg_key k, double def)
{
	if (!isnan(flag))
		return flag;
	return tpr_logcfg_has(cfg, k) ? cfg->v[k] : def;
}

/* A count from a log as int32: NaN or negative is -1, past the range
 * INT32_MAX, so that the workload's range check rejects it with its
 * message (a cast of 1e23 would be undefined). */
static int32_t count32(double v)
{
	return !(v >= 0) ? -1 : v >= (double)INT32_MAX ? INT32_MAX : (int32_t)v;
}

static void window_spec(const struct vstate *st, const struct logged *l, struct tpr_graph_spec *s,
			struct tpr_walk_params *wp)
{
	const struct tpr_flags *f = st->f;
	const struct tpr_logcfg *c = &st->cfg;
	double degree = tpr_family_degree(f->family);
	if (f->family == TPR_FAM_MOLECULE && tpr_logcfg_has(c, CFG_DS_NODES) && c->v[CFG_DS_NODES] > 0)
		degree = c->v[CFG_DS_EDGES] / c->v[CFG_DS_NODES]; /* the dataset's own */
	memset(s, 0, sizeof(*s));
	s->family = f->family;
	s->graphs = count32(!isnan(f->graphs) ? f->graphs : !isnan(l->a) ? l->a : 100);
	s->nodes = !isnan(f->nodes) ? f->nodes : !isnan(l->c) ? l->c : TPR_DEF_NODES;
	s->spread = isnan(f->spread) ? 0.3 : f->spread;
	s->degree = !isnan(f->degree) ? f->degree : degree;
	s->gamma = f->gamma;
	s->seed = f->seed;
	wp->patterns = count32(pick(f->patterns, c, CFG_PATTERNS, TPR_DEF_PATTERNS));
	wp->length = count32(pick(f->pattern_size, c, CFG_PATTERN_SIZE, TPR_DEF_PATTERN_SIZE));
	wp->p = f->p;
	wp->q = f->q;
	wp->seed = f->seed;
}

static double median_window(const struct vstate *st)
{
	struct tpr_samples s = { 0, 0, NULL };
	struct tpr_stat stat;
	s.ms = xmalloc((st->nlogs + 1) * sizeof(double));
	for (size_t i = 0; i < st->nlogs; i++)
		if (st->logs[i].type == TP_GPM)
			s.ms[s.n++] = st->logs[i].b;
	s.cap = s.n;
	tpr_stat_of(&s, &stat);
	free(s.ms);
	return stat.median;
}

/* Workloads of the same shape (graphs, nodes) are replayed once. */
static ssize_t find_shape(const struct window *w, size_t n, const struct tpr_graph_spec *s)
{
	for (size_t i = 0; i < n; i++)
		if (w[i].graphs == s->graphs && w[i].nodes == s->nodes)
			return (ssize_t)w[i].result;
	return -1;
}

static void remember_shape(struct window **w, size_t *n, size_t *alloc, const struct tpr_graph_spec *s,
			   size_t result)
{
	ALLOC_GROW(*w, *n + 1, *alloc);
	(*w)[*n].graphs = s->graphs;
	(*w)[*n].nodes = s->nodes;
	(*w)[(*n)++].result = result;
}

/* The window with the most nodes: the one whose batched kernel is timed for the roofline. */
static double largest_window(const struct vstate *st)
{
	double best = 0;
	for (size_t i = 0; i < st->nlogs; i++) {
		struct tpr_graph_spec s;
		struct tpr_walk_params wp;
		if (st->logs[i].type != TP_GPM)
			continue;
		window_spec(st, &st->logs[i], &s, &wp);
		best = s.graphs * s.nodes > best ? s.graphs * s.nodes : best;
	}
	return best;
}

/*
 * Avg nodes is the run's cumulative average: each window is replayed with
 * its own mean size, recovered from two averages; where the 0.1 rounding
 * makes one window's uncertain by more than 10%, with the mean size of the
 * windows pooled up to the point where it is known (as tprof-analyze's
 * scaling fit does). Windows left at the end keep the cumulative average.
 */
static void own_window_sizes(struct vstate *st)
{
	double graphs = 0, graphs0 = 0, avg0 = 0, err;
	size_t from = 0;
	for (size_t i = 0; i < st->nlogs; i++) {
		struct logged *l = &st->logs[i];
		if (l->type != TP_GPM)
			continue;
		graphs += isnan(l->a) ? 100 : l->a;
		if (isnan(l->c))
			continue;
		double avg = l->c, own = tp_gpm_window_nodes(avg, graphs, avg0, graphs - graphs0, &err);
		if (!(own > 0) || err > 0.1 * own)
			continue;
		for (size_t k = from; k <= i; k++)
			if (st->logs[k].type == TP_GPM && !isnan(st->logs[k].c))
				st->logs[k].c = own;
		from = i + 1, graphs0 = graphs, avg0 = avg;
	}
}

static int replay_windows(struct vstate *st, struct strbuf *err, int *code)
{
	own_window_sizes(st);
	double median = median_window(st), largest = largest_window(st);
	int first = 1, timed_kernel = 0;
	for (size_t i = 0; i < st->nlogs; i++) {
		const struct logged *l = &st->logs[i];
		struct tpr_graph_spec s;
		struct tpr_walk_params wp;
		struct tpr_result r;
		if (l->type != TP_GPM)
			continue;
		window_spec(st, l, &s, &wp);
		ssize_t k = find_shape(st->win, st->nwin, &s);
		if (k < 0) {
			int mode = TPR_PER_GRAPH;
			if (timed_kernel || s.graphs * s.nodes < largest)
				mode |= TPR_NO_KERNEL;
			timed_kernel |= !(mode & TPR_NO_KERNEL);
			if (tpr_bench_walk_spec(st->be, &s, &wp, &st->f->timing, mode, &r, err, code) < 0)
				return -1;
			k = (ssize_t)add_result(st, &r);
			remember_shape(&st->win, &st->nwin, &st->alloc_win, &s, (size_t)k);
		}
		/* the tower prints a per-graph mean: set it against the replay's per-graph time */
		double per_graph = st->res[k].call_ms.median / (s.graphs > 0 ? s.graphs : 1);
		struct row *w = add_row(st, "GPM pattern gen", l->line, l->b, per_graph, (size_t)k, 1,
					1.0 / (s.graphs > 0 ? s.graphs : 1));
		judge(st, w, first && l->b > 2 * median ? l->b / median : 0);
		first = 0;
	}
	return 0;
}

/* ---- attention models ------------------------------------------------------ */

struct gt_point {
	const char *what;
	uint64_t line;
	double logged, graphs, nodes, edges, layers;
	int attention; /* the attention layer alone: no FLOP-model scaling */
};

/* Every variant unless --variant names one; the fastest is kept (the others stay in the timings). */
static ssize_t replay_attention(struct vstate *st, const struct tpr_graph_spec *s, double dim,
				double heads, struct strbuf *err, int *code)
{
	ssize_t best = -1;
	for (int fused = 1; fused >= 0; fused--) {
		struct tpr_attn_opts ao = { fused, st->f->project, st->f->precision, st->f->gemm };
		struct tpr_result r;
		if (st->f->variant >= 0 && st->f->variant != fused)
			continue;
		if (tpr_bench_attn_variant(st->be, s, (int32_t)dim, (int32_t)heads, &ao, &st->f->timing, &r,
					   err, code) < 0)
			return -1;
		size_t k = add_result(st, &r);
		if (best < 0 || r.call_ms.median < st->res[best].call_ms.median)
			best = (ssize_t)k;
	}
	return best;
}

/* A model forward: replay one attention layer and scale it by the FLOP model. */
static int replay_model(struct vstate *st, const struct gt_point *p, struct strbuf *err, int *code)
{
	const struct tpr_logcfg *c = &st->cfg;
	double dim = pick(st->f->hidden, c, CFG_HIDDEN, NAN), heads = pick(st->f->heads, c, CFG_HEADS, NAN);
	double ffn = pick(NAN, c, CFG_FFN, 2 * dim);
	double spread = isnan(st->f->spread) ? 0 : st->f->spread;
	struct tpr_graph_spec s = { TPR_FAM_MOLECULE, count32(p->graphs), p->nodes, spread, 0, 0, st->f->seed };
	if (isnan(dim) || isnan(heads) || (isnan(p->layers) && !p->attention) || isnan(p->nodes)) {
		skip(st, p->what, p->line, "hidden size, heads, layers or nodes unknown (--hidden, --heads, --layers, --nodes)");
		return 0;
	}
	ssize_t k = find_shape(st->att, st->natt, &s);
	if (k < 0) {
		if ((k = replay_attention(st, &s, dim, heads, err, code)) < 0)
			return -1;
		remember_shape(&st->att, &st->natt, &st->alloc_att, &s, (size_t)k);
	}
	const struct tpr_result *layer = &st->res[k];
	double scale = 1;
	if (!p->attention) {
		struct tpr_gt_model m = { p->graphs, p->graphs * p->nodes, p->graphs * p->nodes * p->nodes,
					  p->edges, dim, heads, ffn, p->layers };
		struct tpr_gt_flops fl;
		tpr_gt_flops(&m, &fl);
		scale = fl.total / layer->flops; /* the whole forward at the rate the attention layer ran */
	}
	struct row *w = add_row(st, p->what, p->line, p->logged, layer->call_ms.median * scale, (size_t)k, 1,
				scale);
	if (p->attention)
		snprintf(w->workload, sizeof(w->workload), "%d x %.4g nodes, d%g h%g, attention%s", (int)p->graphs,
			 p->nodes, dim, heads, st->f->project ? " with QKV" : "");
	else
		snprintf(w->workload, sizeof(w->workload), "%d x %.4g nodes, d%g h%g, %g layers", (int)p->graphs,
			 p->nodes, dim, heads, p->layers);
	judge(st, w, 0);
	return 0;
}

/* "Attention forward", "attn", "SDPA": a time of the attention block alone. */
static int names_attention(const char *name)
{
	return strcasestr(name, "attention") || strcasestr(name, "attn") || strcasestr(name, "sdpa");
}

static int runtime_point(struct vstate *st, const struct logged *l, struct gt_point *p)
{
	const struct tpr_logcfg *c = &st->cfg;
	p->what = l->name;
	p->line = l->line;
	p->logged = l->a;
	p->layers = pick(st->f->layers, c, CFG_LAYERS, NAN);
	p->attention = names_attention(l->name);
	if (strcasestr(l->name, "backward") || strcasestr(l->name, "step") ||
	    (!strcasestr(l->name, "forward") && !p->attention)) {
		skip(st, l->name, l->line, "only forward passes are replayed");
		return -1;
	}
	if (tpr_logcfg_has(c, CFG_BATCH_GRAPHS) && c->v[CFG_BATCH_GRAPHS] >= 1 && isnan(st->f->nodes)) {
		p->graphs = c->v[CFG_BATCH_GRAPHS];
		p->nodes = c->v[CFG_BATCH_NODES] / p->graphs;
		p->edges = c->v[CFG_BATCH_EDGES];
	} else {
		p->graphs = isnan(st->f->graphs) ? 1 : st->f->graphs;
		p->nodes = pick(st->f->nodes, c, CFG_NODES, NAN);
		p->edges = pick(NAN, c, CFG_EDGES, p->nodes * pick(st->f->degree, c, CFG_DEGREE, 0)) * p->graphs;
	}
	return 0;
}

static int scaling_point(struct vstate *st, const struct logged *l, struct gt_point *p)
{
	const struct tpr_logcfg *c = &st->cfg;
	double degree = pick(st->f->degree, c, CFG_DEGREE, 0);
	p->what = l->name;
	p->line = l->line;
	p->logged = l->b;
	p->graphs = 1;
	p->attention = 0;
	if (!strcmp(l->name, "N") || !strcmp(l->name, "num_nodes")) {
		p->nodes = l->a;
		p->layers = pick(st->f->layers, c, CFG_LAYERS, NAN);
		p->edges = p->nodes * degree;
	} else if (!strcmp(l->name, "L") || !strcmp(l->name, "num_layers")) {
		p->layers = l->a;
		p->nodes = pick(st->f->nodes, c, CFG_NODES, NAN);
		p->edges = pick(NAN, c, CFG_EDGES, p->nodes * degree);
	} else {
		skip(st, l->name, l->line, "only node (N) and layer (L) scaling is replayed");
		return -1;
	}
	return 0;
}

static int replay_models(struct vstate *st, struct strbuf *err, int *code)
{
	for (size_t i = 0; i < st->nlogs; i++) {
		const struct logged *l = &st->logs[i];
		struct gt_point p;
		char what[96];
		int ok;
		if (l->type == TP_RUNTIME)
			ok = runtime_point(st, l, &p) == 0;
		else if (l->type == TP_SCALING)
			ok = scaling_point(st, l, &p) == 0;
		else
			continue;
		if (!ok)
			continue;
		if (l->type == TP_SCALING) {
			snprintf(what, sizeof(what), "scaling %s=%g", l->name, l->a);
			p.what = what;
		}
		if (replay_model(st, &p, err, code) < 0)
			return -1;
	}
	return 0;
}

/* ---- report ------------------------------------------------------------------ */

static void verdict_table(struct report *rep, const struct vstate *st)
{
	if (!st->nrows)
		return;
	char title[96];
	snprintf(title, sizeof(title), "Logged timings against their replay (%s)",
		 tpr_precision_name(st->f->precision));
	struct rtable *t = report_table(rep, "validate", "verdicts", title,
					"measurement,line,workload,logged:ms,replayed:ms,ratio:x,bound:ms,"
					"replay_of_peak:%,logged_of_peak:%,verdict,reason");
	for (size_t i = 0; i < st->nrows; i++) {
		const struct row *w = &st->rows[i];
		rt_text(t, w->what);
		rt_num(t, (double)w->line, 0);
		rt_text(t, w->workload);
		rt_num(t, w->logged, 3);
		rt_num(t, w->replayed, w->replayed < 1 ? 4 : 3);
		rt_num(t, w->logged / w->replayed, 2);
		rt_num(t, w->bound, w->bound < 1 ? 4 : 3);
		rt_num(t, w->replay_pct, 1);
		rt_num(t, w->logged_pct, 1);
		rt_text(t, verdict_names[w->v]);
		rt_text(t, w->reason);
	}
}

/* The figures the bounds come from, and the precision assumed. */
static void peaks_table(struct report *rep, const struct vstate *st)
{
	enum tpr_precision p = st->f->precision;
	static const char *const as_run[TPR_NPRECISIONS] = {
		"FP32 matrix products without TF32 (PyTorch's default for matmuls since 1.12)",
		("TF32 tensor-core matrix products (torch.backends.cuda.matmul.allow_tf32 = True; "
		 "PyTorch's default for cuDNN convolutions)"),
		"BF16 matrix products accumulating in FP32 (torch.autocast with dtype=torch.bfloat16)",
	};
	report_finding(rep, SEV_INFO, "validate", "precision", NULL, st->path, 0,
		       p == TPR_FP32 ? "--precision tf32 or bf16 for a run with TF32 or autocast" : NULL,
		       "judged as a run at %s: %s", tpr_precision_name(p), as_run[p]);
	if (!st->have_peaks)
		return;
	struct rtable *t = report_table(rep, "validate", "peaks",
					"Device figures of the roofline bounds",
					"device,precision,peak:GFLOP/s,bandwidth:GB/s,call_floor:ms,from");
	rt_text(t, st->peaks.name);
	rt_text(t, tpr_precision_name(p));
	rt_num(t, st->peaks.gflops[p], 1);
	rt_num(t, st->peaks.gbs, 1);
	rt_num(t, st->peaks_gpu ? TPR_GPU_CALL_FLOOR_MS : 0, 3);
	rt_text(t, st->peaks_from);
}

static const char *const advice[V_N] = {
	NULL,
	"synchronize before reading the clock (torch.cuda.synchronize(), or CUDA events): kernel launches "
	"return before the GPU has finished",
	"profile the host side: a Python loop per graph, host<->device copies (pin memory, move data once), "
	"or the work running on the CPU; one batched call per step removes per-call overhead",
	"leave warm-up windows out of averages (tprof analyze --warmup finds where warm-up ends)",
	"run tprof-replay --backend cuda on a machine with a GPU, or give the logged GPU's figures in "
	"TPROF_REPLAY_PEAKS (see tprof-replay(1))",
};

static const char *const what_msg[V_N] = {
	"within the %gx-%gx band of their replay, or faster than it but not below the device's roofline bound",
	("faster than a correct replay: below the roofline bound of the device (the FLOPs at its peak, the "
	 "inputs and outputs at its bandwidth) or the floor of a synchronized GPU call: a missing synchronize"),
	"slower than the replay by more than the band allows (%gx-%gx): an overhead the kernel does not explain",
	"a warm-up window outside the %gx-%gx band",
	"faster than the CPU replay (band %gx-%gx) but logged on a GPU whose figures are unknown here",
};

static void verdict_findings(struct report *rep, const struct vstate *st)
{
	static const enum severity sev[V_N] = { SEV_INFO, SEV_WARNING, SEV_WARNING, SEV_NOTICE, SEV_INFO };
	for (int v = 0; v < V_N; v++) {
		size_t n = 0, first = 0;
		double lo = INFINITY, hi = 0;
		for (size_t i = 0; i < st->nrows; i++) {
			if (st->rows[i].v != (enum verdict)v)
				continue;
			double ratio = st->rows[i].logged / st->rows[i].replayed;
			first = n++ ? first : i;
			lo = ratio < lo ? ratio : lo;
			hi = ratio > hi ? ratio : hi;
		}
		if (!n)
			continue;
		struct strbuf msg = STRBUF_INIT;
		strbuf_addf(&msg, "%s: %zu of %zu replayed measurements are ", verdict_names[v], n, st->nrows);
		if (v == V_TOO_FAST)
			strbuf_addstr(&msg, what_msg[v]);
		else
			strbuf_addf(&msg, what_msg[v], st->f->band_lo, st->f->band_hi);
		strbuf_addf(&msg, " (ratios %.2fx to %.2fx)", lo, hi);
		report_finding(rep, sev[v], "validate", verdict_names[v], NULL, st->path, st->rows[first].line,
			       advice[v], "%s", msg.buf);
		strbuf_release(&msg);
	}
}

/* S2's FLOP model against the estimate the log printed, when both exist. */
static void flops_check(struct report *rep, const struct vstate *st)
{
	const struct tpr_logcfg *c = &st->cfg;
	double logged = NAN;
	uint64_t line = 0;
	for (size_t i = 0; i < st->nlogs; i++)
		if (st->logs[i].type == TP_FLOPS && !strcasecmp(st->logs[i].name, "Total"))
			logged = st->logs[i].a, line = st->logs[i].line;
	if (isnan(logged) || !tpr_logcfg_has(c, CFG_NODES) || !tpr_logcfg_has(c, CFG_HIDDEN) ||
	    !tpr_logcfg_has(c, CFG_HEADS) || !tpr_logcfg_has(c, CFG_LAYERS))
		return;
	double n = c->v[CFG_NODES], dim = c->v[CFG_HIDDEN];
	struct tpr_gt_model m = { 1, n, n * n, pick(NAN, c, CFG_EDGES, 0), dim, c->v[CFG_HEADS],
				  pick(NAN, c, CFG_FFN, 2 * dim), c->v[CFG_LAYERS] };
	struct tpr_gt_flops f;
	tpr_gt_flops(&m, &f);
	int agree = fabs(f.total / 1e9 - logged) <= 0.01 * logged + 0.005;
	report_finding(rep, agree ? SEV_INFO : SEV_NOTICE, "validate", "flop-model", NULL, st->path, line,
		       agree ? NULL : "the log's FLOP estimate uses other assumptions than the Graph Transformer profiler's FLOP model",
		       "the Graph Transformer profiler's FLOP model gives %.3f GFLOPs (attention %.3f, FFN %.3f, MPNN %.3f) for the "
		       "logged configuration; the log says %.2f: %s",
		       f.total / 1e9, f.attention / 1e9, f.ffn / 1e9, f.mpnn / 1e9, logged,
		       agree ? "they agree" : "they differ");
}

/* The largest replay of each kernel, for the roofline. */
static void roofline(struct report *rep, const struct vstate *st)
{
	struct tpr_result best[2];
	int have[2] = { 0, 0 };
	for (size_t i = 0; i < st->nres; i++) {
		const struct tpr_result *r = &st->res[i];
		int k = r->steps > 0 ? 0 : 1;
		double size = k ? r->flops : r->steps;
		if (!have[k] || size > (k ? best[k].flops : best[k].steps))
			best[k] = *r, have[k] = 1;
	}
	struct tpr_result out[2];
	size_t n = 0;
	for (int k = 0; k < 2; k++)
		if (have[k])
			out[n++] = best[k];
	tpr_report_roofline(rep, st->be, out, n);
}

static void report_all(struct report *rep, struct vstate *st)
{
	tpr_report_device(rep, st->be);
	report_section(rep, "validate", "validate");
	verdict_table(rep, st);
	peaks_table(rep, st);
	verdict_findings(rep, st);
	flops_check(rep, st);
	if (!st->nrows)
		report_finding(rep, SEV_NOTICE, "validate", "nothing-to-replay", NULL, st->path, 0,
			       "tprof-replay replays [GPM TIMING] windows and forward/scaling times of attention models",
			       "no logged measurement could be replayed");
	if (st->nskipped)
		report_finding(rep, SEV_INFO, "validate", "not-replayed", NULL, st->path, 0, NULL,
			       "%zu measurements not replayed: %s%s", st->nskipped, st->skipped.buf,
			       st->nskipped > 8 ? "; ..." : "");
	tpr_report_timing(rep, st->res, st->nres);
	roofline(rep, st);
}

/* Whose figures the bounds use: TPROF_REPLAY_PEAKS's, a GPU replay's, or the CPU's for a CPU log. */
static void judged_device(struct vstate *st)
{
	if (st->f->have_peaks) {
		st->peaks = st->f->peaks;
		st->have_peaks = st->peaks_gpu = 1;
		st->peaks_from = "TPROF_REPLAY_PEAKS";
	} else if (st->be->kind == TPR_BE_CUDA) {
		tpr_peaks_of(&st->be->info, &st->peaks);
		st->have_peaks = st->peaks_gpu = 1;
		st->peaks_from = "the replay device";
	} else if (!tpr_logcfg_has(&st->cfg, CFG_GPU)) {
		tpr_peaks_of(&st->be->info, &st->peaks);
		st->have_peaks = 1;
		st->peaks_from = "the replay device (the log shows no GPU)";
	}
}

int tpr_validate(struct tpr_backend *be, const char *path, const struct tpr_flags *f,
		 struct report *rep, struct strbuf *err, int *code)
{
	struct vstate st;
	memset(&st, 0, sizeof(st));
	st.be = be;
	st.f = f;
	st.path = path;
	int rc = 0;
	*code = TP_EXIT_INPUT;
	if (read_log(&st, err) < 0) {
		rc = -1;
	} else {
		judged_device(&st);
		if (replay_windows(&st, err, code) < 0 || replay_models(&st, err, code) < 0)
			rc = -1;
		else
			report_all(rep, &st);
	}
	free(st.logs);
	free(st.rows);
	free(st.res);
	free(st.win);
	free(st.att);
	strbuf_release(&st.skipped);
	return rc;
}
