/*
 * lines.c - readers for the one-line formats of the five seed styles:
 *
 *   [TIMING] name: 12.34s (39.09min)      [STAGE] name        (S0)
 *   [GPM TIMING] Last 100 graphs: Pattern gen=…ms, Total=…ms, Avg nodes=…
 *   Num examples = 10,000  (HF Trainer header keys)
 *   X complete: 45.32s total[, peak memory: … MB | , GPU peak: … MB]  (S1)
 *   Forward: 10.5 ± 1.2 ms   N=100: 2.31 ms   Peak memory: 512.00 MB
 *   Total: 12.50 GFLOPs      PE precomputation: 12.34 ms (one-time)  (S2)
 *   name: avg=0.0234s, total=2.34s, count=100   profiling/<name>_avg_time (S3)
 *   Batch 0: 0.538s, GPU 23.1MB, CPU 1648.9MB, loss=0.009458
 *   Epoch end: 4.774s total, GPU 14.4MB, 3236MB reserved, peak 2880MB
 *   Batch timing: avg=…s, min=…s, max=…s
 *   [Performance] op: 1.234s, CPU +250.5MB, GPU +512.0MB            (S4)
 *
 * Strong markers ([TIMING], [STAGE], [GPM TIMING], [Performance],
 * "Epoch end:", "Batch timing:") warn when their values cannot be read;
 * generic shapes ("Name: 12 MB") must match the whole line or are noise.
 */
#include <math.h>
#include <string.h>

#include "base/base.h"
#include "parser_int.h"

static void set_name(struct tp_record *r, const char *s, const char *e)
{
	e = trim_end(s, e);
	r->name = s;
	r->name_len = (size_t)(e - s);
}

/* Only blanks left, or blanks and one "(...)" remark such as "(one-time)". */
static int rest_is_blank(const char *q, const char *e, int allow_remark)
{
	q = tp_skip_blanks(q, e);
	if (q < e && allow_remark && *q == '(') {
		const char *c = find_byte(q, e, ')');
		if (!c)
			return 0;
		q = tp_skip_blanks(c + 1, e);
	}
	return q >= e;
}

/*
 * "name: <duration>" where name may itself contain ':' — tries each colon
 * and keeps the first whose remainder is a duration running to the end of
 * the line (or to a ',' when upto_comma).
 */
static const char *split_name_duration(const char *t, const char *e, int upto_comma,
				       double *sec, const char **after)
{
	for (const char *c = find_byte(t, e, ':'); c; c = find_byte(c + 1, e, ':')) {
		const char *q = tp_skip_blanks(c + 1, e);
		const char *n;
		if (!tp_read_duration(q, e, -1, sec, &n))
			continue;
		n = tp_skip_blanks(n, e);
		if (n >= e || (upto_comma && *n == ',')) {
			*after = n;
			return c;
		}
	}
	return NULL;
}

/* The "[ts]" right before a bracket marker, if no timestamp was stripped. */
static void ts_before(struct tp_parser *p, const struct seg *sg, const char *marker)
{
	if (p->cur_ts)
		return;
	const char *q = trim_end(sg->s, marker);
	if (q - sg->s >= 21 && q[-1] == ']') {
		const char *o = q - 1;
		while (o > sg->s && o[-1] != '[')
			o--;
		if (o > sg->s && tp_ts_read(o, q - 1, TP_TS_AS_PRINTED, p->tsbuf) == q - 1)
			p->cur_ts = p->tsbuf;
	}
}

static void read_stage(struct tp_parser *p, struct rank_state *rs, const char *t, const char *e);

/* "=== TRAINING PIPELINE START ===": a banner, framed by '=' or '-' runs. */
static int is_banner(const char *t, const char *e)
{
	e = trim_end(t, e);
	return e - t >= 6 && (t[0] == '=' || t[0] == '-') && t[1] == t[0] && t[2] == t[0] &&
	       e[-1] == t[0] && e[-2] == t[0] && e[-3] == t[0];
}

static void read_timing(struct tp_parser *p, struct rank_state *rs, const char *t, const char *e)
{
	double sec;
	const char *after;
	const char *c = split_name_duration(t, e, 0, &sec, &after);
	if (!c || c == t) {
		/* Graph-LLaVA's TimeProfiler opens the run with
		 * "[TIMING] === TRAINING PIPELINE START ===": a stage marker */
		if (is_banner(t, e))
			read_stage(p, rs, t, e);
		else
			tp_warn(p, "[TIMING] line without a readable 'name: duration'");
		return;
	}
	struct tp_record r;
	tp_rec_init(p, &r, TP_TIMING);
	set_name(&r, t, c);
	tp_check_set(p, &r, S_SECONDS, sec, 1, "seconds");
	tp_emit(p, rs, &r);
}

static void read_stage(struct tp_parser *p, struct rank_state *rs, const char *t, const char *e)
{
	if (t >= e) {
		tp_warn(p, "[STAGE] line without a stage name");
		return;
	}
	struct tp_record r;
	tp_rec_init(p, &r, TP_STAGE);
	set_name(&r, t, e);
	tp_emit(p, rs, &r);
}

/* Finds "key=" (case-sensitive) in [t,e) at a word start; returns past '='. */
static const char *find_key(const char *t, const char *e, const char *key)
{
	size_t n = strlen(key);
	for (const char *q = find_str(t, e, key); q; q = find_str(q + 1, e, key)) {
		if (q > t && tp_is_word(q[-1]))
			continue;
		const char *r = q + n;
		if (r < e && (*r == '\'' || *r == '"'))
			r++; /* a Python dict key: 'total_time': 2.34 */
		r = tp_skip_blanks(r, e);
		if (r < e && (*r == '=' || *r == ':'))
			return tp_skip_blanks(r + 1, e);
	}
	return NULL;
}

static int key_duration_to(const char *t, const char *e, const char *key, double target, double *v)
{
	const char *q = find_key(t, e, key), *n;
	return q && tp_read_duration_to(q, e, target, target, v, &n);
}

static int key_duration(const char *t, const char *e, const char *key, double *sec)
{
	return key_duration_to(t, e, key, 1.0, sec);
}

/* v in a unit of scale seconds, to milliseconds with at most one rounding. */
static double to_ms(double v, double scale)
{
	if (scale == 1e-3)
		return v;
	return scale < 1e-3 ? v / (1e-3 / scale) : v * (scale / 1e-3);
}

static int key_number(const char *t, const char *e, const char *key, double *v)
{
	const char *q = find_key(t, e, key), *n;
	return q && tp_read_number(q, e, v, &n);
}

static void read_gpm(struct tp_parser *p, struct rank_state *rs, const char *t, const char *e)
{
	struct tp_record r;
	tp_rec_init(p, &r, TP_GPM);
	const char *q = TP_EAT(t, e, "Last ");
	unsigned long long graphs;
	if (q && tp_read_uint(q, e, &graphs, &q))
		tp_set(&r, S_GPM_GRAPHS, (double)graphs);
	double pat, tot, nodes;
	int ok = key_duration_to(t, e, "Pattern gen", 1e-3, &pat);
	ok &= key_duration_to(t, e, "Total", 1e-3, &tot);
	ok &= key_number(t, e, "Avg nodes", &nodes);
	if (!ok || !tp_has(&r, S_GPM_GRAPHS)) {
		tp_warn(p, "[GPM TIMING] line without 'Last N graphs: Pattern gen=…, Total=…, Avg nodes=…'");
		return;
	}
	tp_check_set(p, &r, S_GPM_PATTERN_MS, pat, 1, "pattern_gen_ms");
	tp_check_set(p, &r, S_GPM_TOTAL_MS, tot, 1, "total_ms");
	tp_check_set(p, &r, S_GPM_AVG_NODES, nodes, 1, "avg_nodes");
	tp_emit(p, rs, &r);
}

/* "CPU +250.5MB" style items after a label. */
static int label_mb(const char *t, const char *e, const char *label, double *mb)
{
	size_t n = strlen(label);
	for (const char *q = find_str(t, e, label); q; q = find_str(q + 1, e, label)) {
		if (q > t && tp_is_word(q[-1]))
			continue;
		const char *r = tp_skip_blanks(q + n, e), *x;
		if (r < e && *r == ':')
			r = tp_skip_blanks(r + 1, e);
		if (tp_read_mb(r, e, 0, mb, &x))
			return 1;
	}
	return 0;
}

static void read_perf(struct tp_parser *p, struct rank_state *rs, const char *t, const char *e)
{
	double sec, mb;
	const char *after;
	const char *c = split_name_duration(t, e, 1, &sec, &after);
	if (!c || c == t) {
		tp_warn(p, "[Performance] line without a readable 'name: duration'");
		return;
	}
	struct tp_record r;
	tp_rec_init(p, &r, TP_PERF);
	set_name(&r, t, c);
	tp_check_set(p, &r, S_SECONDS, sec, 1, "seconds");
	if (label_mb(after, e, "CPU", &mb))
		tp_check_set(p, &r, S_PERF_CPU_DELTA_MB, mb, 0, "cpu_delta_mb");
	if (label_mb(after, e, "GPU peak", &mb))
		tp_check_set(p, &r, S_PERF_GPU_PEAK_MB, mb, 1, "gpu_peak_mb");
	const char *g = find_str(after, e, "GPU");
	if (g && !TP_EAT(g, e, "GPU peak") && label_mb(g, e, "GPU", &mb))
		tp_check_set(p, &r, S_PERF_GPU_DELTA_MB, mb, 0, "gpu_delta_mb");
	tp_emit(p, rs, &r);
}

/* The bracketed markers the seeds' styles print, and their readers. They
 * may sit anywhere in a line (after a progress bar, a logger prefix). */
#define BRACKET(lit, fn) { lit, sizeof(lit) - 1, fn }
static const struct {
	const char *lit;
	size_t len;
	void (*read)(struct tp_parser *p, struct rank_state *rs, const char *t, const char *e);
} brackets[] = {
	BRACKET("[TIMING]", read_timing),
	BRACKET("[STAGE]", read_stage),
	BRACKET("[GPM TIMING]", read_gpm),
	BRACKET("[Performance]", read_perf),
};
#undef BRACKET

static int bracket_markers(struct tp_parser *p, struct rank_state *rs, const struct seg *sg)
{
	for (const char *b = find_byte(sg->t, sg->e, '['); b; b = find_byte(b + 1, sg->e, '['))
		for (size_t i = 0; i < ARRAY_SIZE(brackets); i++) {
			const char *q = tp_eat_n(b, sg->e, brackets[i].lit, brackets[i].len);
			if (q) {
				ts_before(p, sg, b);
				brackets[i].read(p, rs, tp_skip_blanks(q, sg->e), sg->e);
				return 1;
			}
		}
	return 0;
}

static int read_batch(struct tp_parser *p, struct rank_state *rs, const char *t, const char *e)
{
	unsigned long long idx;
	const char *q = t + 6, *n;
	double sec, v;
	if (!tp_read_uint(q, e, &idx, &q) || q >= e || *q != ':')
		return 0;
	q = tp_skip_blanks(q + 1, e);
	if (!tp_read_duration(q, e, -1, &sec, &n)) {
		/* "Batch 17: 0.2" at the end of a cut-off log is a damaged record */
		if (find_str(q, e, "GPU") || find_str(q, e, "loss") || (q < e && tp_is_digit(*q)))
			tp_warn(p, "Batch line without a readable duration");
		return 0;
	}
	struct tp_record r;
	tp_rec_init(p, &r, TP_BATCH);
	tp_set(&r, S_BAT_INDEX, (double)idx);
	tp_check_set(p, &r, S_SECONDS, sec, 1, "seconds");
	if (label_mb(n, e, "GPU", &v))
		tp_check_set(p, &r, S_BAT_GPU_MB, v, 1, "gpu_mb");
	if (label_mb(n, e, "CPU", &v))
		tp_check_set(p, &r, S_BAT_CPU_MB, v, 1, "cpu_mb");
	if (key_number(n, e, "loss", &v))
		tp_check_set(p, &r, S_BAT_LOSS, v, 0, "loss");
	tp_emit(p, rs, &r);
	return 1;
}

/* "3236MB reserved", "peak 2880MB" */
static int mb_before(const char *t, const char *e, const char *word, double *mb)
{
	const char *w = find_str(t, e, word);
	if (!w)
		return 0;
	const char *q = trim_end(t, w);
	const char *s = q;
	while (s > t && s[-1] != ' ' && s[-1] != ',')
		s--;
	const char *x;
	return tp_read_mb(s, q, 0, mb, &x) && x == q;
}

static int read_epoch(struct tp_parser *p, struct rank_state *rs, const char *t, const char *e)
{
	const char *q = tp_skip_blanks(t + 10, e), *n;
	double sec, v;
	if (!tp_read_duration(q, e, -1, &sec, &n)) {
		tp_warn(p, "Epoch end line without a readable duration");
		return 1;
	}
	struct tp_record r;
	tp_rec_init(p, &r, TP_EPOCH);
	tp_check_set(p, &r, S_SECONDS, sec, 1, "seconds");
	if (label_mb(n, e, "GPU", &v))
		tp_check_set(p, &r, S_EP_GPU_MB, v, 1, "gpu_mb");
	if (mb_before(n, e, "reserved", &v))
		tp_check_set(p, &r, S_EP_RESERVED_MB, v, 1, "reserved_mb");
	if (label_mb(n, e, "peak", &v))
		tp_check_set(p, &r, S_EP_PEAK_MB, v, 1, "peak_mb");
	tp_emit(p, rs, &r);
	return 1;
}

static int read_batch_timing(struct tp_parser *p, struct rank_state *rs, const char *t,
			     const char *e)
{
	struct tp_record r;
	double v;
	tp_rec_init(p, &r, TP_AGGREGATE);
	set_name(&r, t, t + 12);
	int any = 0;
	if (key_duration(t, e, "avg", &v) || key_duration(t, e, "mean", &v))
		any += tp_check_set(p, &r, S_AGG_MEAN_S, v, 1, "mean_s");
	if (key_duration(t, e, "min", &v))
		any += tp_check_set(p, &r, S_AGG_MIN_S, v, 1, "min_s");
	if (key_duration(t, e, "max", &v))
		any += tp_check_set(p, &r, S_AGG_MAX_S, v, 1, "max_s");
	if (key_duration(t, e, "total", &v))
		any += tp_check_set(p, &r, S_AGG_TOTAL_S, v, 1, "total_s");
	if (key_number(t, e, "count", &v))
		any += tp_check_set(p, &r, S_AGG_COUNT, v, 1, "count");
	if (!any) {
		tp_warn(p, "Batch timing line without avg=/min=/max= values");
		return 1;
	}
	tp_emit(p, rs, &r);
	return 1;
}

/* The first ':' followed (after blanks) by lit: names may hold colons
 * ("Epoch 1: forward: avg=…"), the value part never starts with one. */
static const char *colon_before(const char *t, const char *e, const char *lit)
{
	size_t n = strlen(lit);
	for (const char *c = find_byte(t, e, ':'); c; c = find_byte(c + 1, e, ':'))
		if (tp_eat_n(tp_skip_blanks(c + 1, e), e, lit, n))
			return c;
	return NULL;
}

/* "name: avg=0.0234s, total=2.34s, count=100" (S3), inside or outside a block. */
int tp_read_metric_row(struct tp_parser *p, struct rank_state *rs, const struct seg *sg,
		       const struct block *blk)
{
	const char *c = colon_before(sg->t, sg->e, "avg=");
	if (!c || c == sg->t)
		return 0;
	const char *q = tp_skip_blanks(c + 1, sg->e);
	struct tp_record r;
	double v;
	tp_rec_init(p, &r, TP_METRIC);
	set_name(&r, sg->t, c);
	if (blk && blk->has_step)
		tp_set(&r, S_MET_STEP, blk->step);
	int ok = 0;
	if (key_duration(q, sg->e, "avg", &v))
		ok += tp_check_set(p, &r, S_MET_AVG_S, v, 1, "avg_s");
	if (key_duration(q, sg->e, "total", &v))
		ok += tp_check_set(p, &r, S_MET_TOTAL_S, v, 1, "total_s");
	if (key_number(q, sg->e, "count", &v))
		ok += tp_check_set(p, &r, S_MET_COUNT, v, 1, "count");
	if (!ok) {
		tp_warn(p, "profiling metric line without readable avg=/total=/count=");
		return 1;
	}
	tp_emit(p, rs, &r);
	return 1;
}

struct metric_acc {
	const char *name;
	size_t n;
	struct tp_record r;
};

/*
 * wandb keys: "profiling/<name>_avg_time 0.0234" (run summary) or a dict
 * "{'profiling/<name>_avg_time': 0.0234, ...}". Keys of one name on one
 * line become one record.
 */
static int read_wandb_keys(struct tp_parser *p, struct rank_state *rs, const struct seg *sg)
{
	static const struct {
		const char *suffix;
		int slot;
	} sfx[] = { { "_avg_time", S_MET_AVG_S }, { "_total_time", S_MET_TOTAL_S },
		    { "_count", S_MET_COUNT } };
	struct metric_acc acc[16];
	int nacc = 0;
	const char *e = sg->e;
	for (const char *k = find_str(sg->t, e, "profiling/"); k; k = find_str(k + 1, e, "profiling/")) {
		const char *ns = k + 10, *ke = ns;
		while (ke < e && (tp_is_word(*ke) || *ke == '.' || *ke == '-' || *ke == '/'))
			ke++;
		for (size_t i = 0; i < ARRAY_SIZE(sfx); i++) {
			size_t sl = strlen(sfx[i].suffix);
			if ((size_t)(ke - ns) <= sl || memcmp(ke - sl, sfx[i].suffix, sl))
				continue;
			const char *v = ke;
			while (v < e && (*v == '\'' || *v == '"' || *v == ':' || *v == '=' || *v == ' ' || *v == '\t'))
				v++;
			double val;
			const char *x;
			if (v < e && (unsigned char)*v == 0xe2)
				break; /* "Run history:" draws a sparkline (U+2581..), not a value */
			if (!tp_read_number(v, e, &val, &x)) {
				tp_warn(p, "wandb key profiling/%.*s without a readable value",
					(int)(ke - ns > 64 ? 64 : ke - ns), ns);
				break;
			}
			size_t nl = (size_t)(ke - ns) - sl;
			int a;
			for (a = 0; a < nacc; a++)
				if (acc[a].n == nl && !memcmp(acc[a].name, ns, nl))
					break;
			if (a == nacc) {
				if (nacc == (int)ARRAY_SIZE(acc))
					break;
				acc[a].name = ns;
				acc[a].n = nl;
				tp_rec_init(p, &acc[a].r, TP_METRIC);
				acc[a].r.name = ns;
				acc[a].r.name_len = nl;
				nacc++;
			}
			tp_check_set(p, &acc[a].r, sfx[i].slot, val, 1, sfx[i].suffix + 1);
			break;
		}
	}
	for (int a = 0; a < nacc; a++)
		if (acc[a].r.has)
			tp_emit(p, rs, &acc[a].r);
	return nacc > 0;
}

/* "Final profiling summary: {'op': {'avg_time': x, 'total_time': y, 'count': n}, ...}" */
static int read_summary_dict(struct tp_parser *p, struct rank_state *rs, const char *t,
			     const char *e)
{
	int n = 0;
	const char *q = find_byte(t, e, '{');
	if (!q)
		return 0;
	q++;
	while (q < e) {
		const char *qs = find_byte(q, e, '\'');
		if (!qs)
			break;
		const char *qe = find_byte(qs + 1, e, '\'');
		if (!qe)
			break;
		const char *b = tp_skip_blanks(qe + 1, e);
		if (b >= e || *b != ':')
			break;
		b = tp_skip_blanks(b + 1, e);
		if (b >= e || *b != '{')
			break;
		const char *close = find_byte(b, e, '}');
		if (!close)
			break;
		struct tp_record r;
		double v;
		tp_rec_init(p, &r, TP_METRIC);
		r.name = qs + 1;
		r.name_len = (size_t)(qe - qs - 1);
		if (key_number(b, close, "avg_time", &v))
			tp_check_set(p, &r, S_MET_AVG_S, v, 1, "avg_s");
		if (key_number(b, close, "total_time", &v))
			tp_check_set(p, &r, S_MET_TOTAL_S, v, 1, "total_s");
		if (key_number(b, close, "count", &v))
			tp_check_set(p, &r, S_MET_COUNT, v, 1, "count");
		if (r.has) {
			tp_emit(p, rs, &r);
			n++;
		}
		q = close + 1;
	}
	return n > 0;
}

#define KEY(s) { s, sizeof(s) - 1 }
static const struct {
	const char *k;
	size_t n;
} hf_keys[] = { KEY("Num examples"), KEY("Num Epochs"), KEY("Total optimization steps"),
		KEY("Instantaneous batch size per device"), KEY("Total train batch size"),
		KEY("Gradient Accumulation steps"), KEY("Number of trainable parameters"),
		KEY("Num batches") };

/* "Key = 10,000" (HF Trainer header). any_key: accept any key (inside the block). */
int tp_read_meta_row(struct tp_parser *p, struct rank_state *rs, const struct seg *sg, int any_key)
{
	const char *eq = NULL;
	if (!any_key) {
		/* outside the header block only the Trainer's own keys count */
		for (size_t i = 0; i < ARRAY_SIZE(hf_keys) && !eq; i++) {
			const char *k = tp_eat_n(sg->t, sg->e, hf_keys[i].k, hf_keys[i].n);
			if (k && k < sg->e && *k == ' ')
				eq = TP_EAT(tp_skip_blanks(k, sg->e) - 1, sg->e, " = ");
		}
		if (eq)
			eq -= 3;
	} else {
		eq = find_str(sg->t, sg->e, " = ");
	}
	if (!eq || eq == sg->t)
		return 0;
	const char *ke = trim_end(sg->t, eq);
	const char *v = tp_skip_blanks(eq + 3, sg->e), *x;
	double val;
	struct tp_record r;
	tp_rec_init(p, &r, TP_META);
	set_name(&r, sg->t, ke);
	if (tp_read_number(v, sg->e, &val, &x) && x >= sg->e) {
		if (!tp_check_set(p, &r, S_META_VALUE, val, 0, "value"))
			return 1;
	} else {
		r.text = v;
		r.text_len = (size_t)(sg->e - v);
	}
	tp_emit(p, rs, &r);
	return 1;
}

/* A plausible label for generic "Label: value" lines. */
static int is_label(const char *s, const char *e)
{
	if (e <= s || e - s > 80 || !(tp_is_word(*s)))
		return 0;
	for (const char *q = s; q < e; q++)
		if (*q == '{' || *q == '[' || *q == '\'' || *q == '"' || *q == '=' || *q == '|')
			return 0;
	return 1;
}

static int read_complete(struct tp_parser *p, struct rank_state *rs, const char *t,
			 const char *c, const char *e)
{
	const char *q = tp_skip_blanks(c + 1, e), *n;
	double sec, mb;
	if (!tp_read_duration(q, e, -1, &sec, &n))
		return 0;
	struct tp_record r;
	tp_rec_init(p, &r, TP_COMPLETE);
	set_name(&r, t, trim_end(t, c) - 9);
	tp_check_set(p, &r, S_SECONDS, sec, 1, "seconds");
	if (label_mb(n, e, "peak memory", &mb))
		tp_check_set(p, &r, S_CPL_PEAK_MB, mb, 1, "peak_mb");
	if (label_mb(n, e, "GPU peak", &mb))
		tp_check_set(p, &r, S_CPL_GPU_PEAK_MB, mb, 1, "gpu_peak_mb");
	tp_emit(p, rs, &r);
	return 1;
}

/* "10.5 ± 1.2 ms", "10.5 +/- 1.2 ms": the unit after the std applies to both. */
static int read_pm(const char *q, const char *e, double *mean, double *std, const char **next)
{
	const char *x, *y;
	double m, s, scale;
	if (!tp_read_number(q, e, &m, &x))
		return 0;
	x = tp_skip_blanks(x, e);
	if (!(y = TP_EAT(x, e, "\xc2\xb1")) && !(y = TP_EAT(x, e, "+/-")) && !(y = TP_EAT(x, e, "+-")))
		return 0;
	y = tp_skip_blanks(y, e);
	if (!tp_read_number(y, e, &s, &y))
		return 0;
	if (!tp_read_time_unit(tp_skip_blanks(y, e), e, &scale, &x))
		return 0;
	*mean = to_ms(m, scale);
	*std = to_ms(s, scale);
	*next = x;
	return 1;
}

/* "RuntimeStats(mean=10.5, std=1.2, min=9.1, max=14.2, num_runs=100)" */
static int read_runtime_stats(struct tp_parser *p, struct tp_record *r, const char *q, const char *e)
{
	const char *b = TP_EAT(q, e, "RuntimeStats(");
	double v;
	if (!b)
		return 0;
	if (key_number(b, e, "mean", &v))
		tp_check_set(p, r, S_RT_MEAN_MS, v, 1, "mean_ms");
	if (key_number(b, e, "std", &v))
		tp_check_set(p, r, S_RT_STD_MS, v, 1, "std_ms");
	if (key_number(b, e, "min", &v))
		tp_check_set(p, r, S_RT_MIN_MS, v, 1, "min_ms");
	if (key_number(b, e, "max", &v))
		tp_check_set(p, r, S_RT_MAX_MS, v, 1, "max_ms");
	if (key_number(b, e, "num_runs", &v))
		tp_check_set(p, r, S_RT_RUNS, v, 1, "runs");
	return 1;
}

static int read_flops(const char *q, const char *e, double *gflops, const char **next)
{
	static const struct {
		const char *u;
		double scale;
	} units[] = { { "TFLOPs", 1e3 }, { "TFLOPS", 1e3 }, { "GFLOPs", 1 }, { "GFLOPS", 1 },
		      { "MFLOPs", 1e-3 }, { "MFLOPS", 1e-3 }, { "FLOPs", 1e-9 }, { "FLOPS", 1e-9 } };
	double v;
	const char *x;
	if (!tp_read_number(q, e, &v, &x))
		return 0;
	x = tp_skip_blanks(x, e);
	if (x >= e || (*x != 'T' && *x != 'G' && *x != 'M' && *x != 'F'))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		const char *y = tp_eat(x, e, units[i].u);
		if (y) {
			*gflops = v * units[i].scale;
			*next = y;
			return 1;
		}
	}
	return 0;
}

/* RuntimeStats' "(n=100)" after a mean and std: its number of runs. */
static void remark_runs(struct tp_parser *p, struct tp_record *r, const char *q, const char *e)
{
	double v;
	const char *x;
	q = TP_EAT(tp_skip_blanks(q, e), e, "(n=");
	if (q && tp_read_number(q, e, &v, &x) && x < e && *x == ')')
		tp_check_set(p, r, S_RT_RUNS, v, 1, "runs");
}

/*
 * "N=100: 2.31 ms", "N=100: 2.31 ± 0.12 ms", and ScalingExperiment's
 * print_summary "  num_nodes=100: 20.00 ms, 25.0 MB" (peak memory).
 */
static int read_scaling(struct tp_parser *p, struct rank_state *rs, const char *t, const char *c,
			const char *e)
{
	const char *eq = find_byte(t, c, '=');
	if (!eq || eq == t)
		return 0;
	for (const char *q = t; q < eq; q++)
		if (!tp_is_word(*q))
			return 0;
	double value, ms, std = 0;
	const char *x;
	if (!tp_read_number(eq + 1, c, &value, &x) || x != c)
		return 0;
	const char *q = tp_skip_blanks(c + 1, e);
	int has_std = 0;
	if (read_pm(q, e, &ms, &std, &x))
		has_std = 1;
	else if (!tp_read_duration_to(q, e, -1, 1e-3, &ms, &x))
		return 0;
	double mb = NAN;
	x = tp_skip_blanks(x, e);
	if (x < e && *x == ',' && !tp_read_mb(tp_skip_blanks(x + 1, e), e, 0, &mb, &x))
		return 0;
	if (!rest_is_blank(x, e, 1))
		return 0;
	struct tp_record r;
	tp_rec_init(p, &r, TP_SCALING);
	set_name(&r, t, eq);
	tp_check_set(p, &r, S_SC_VALUE, value, 0, "value");
	tp_check_set(p, &r, S_SC_MEAN_MS, ms, 1, "mean_ms");
	if (has_std)
		tp_check_set(p, &r, S_SC_STD_MS, std, 1, "std_ms");
	if (!isnan(mb))
		tp_check_set(p, &r, S_SC_PEAK_MB, mb, 1, "peak_mb");
	tp_emit(p, rs, &r);
	return 1;
}

/* Generic "Label: value" lines of S2 (runtime, memory, flops). */
static int read_labelled(struct tp_parser *p, struct rank_state *rs, const char *t, const char *c,
			 const char *e)
{
	const char *q = tp_skip_blanks(c + 1, e), *x;
	/* every value here starts with a number or "RuntimeStats(": most noise
	 * lines with a colon stop at this test */
	if (q >= e || !(tp_is_digit(*q) || *q == '.' || *q == '-' || *q == '+' || *q == 'R'))
		return 0;
	if (!is_label(t, trim_end(t, c)))
		return 0;
	double a, b;
	struct tp_record r;
	if (read_pm(q, e, &a, &b, &x) && rest_is_blank(x, e, 1)) {
		tp_rec_init(p, &r, TP_RUNTIME);
		set_name(&r, t, c);
		tp_check_set(p, &r, S_RT_MEAN_MS, a, 1, "mean_ms");
		tp_check_set(p, &r, S_RT_STD_MS, b, 1, "std_ms");
		remark_runs(p, &r, x, e);
		tp_emit(p, rs, &r);
		return 1;
	}
	if (TP_EAT(q, e, "RuntimeStats(")) {
		tp_rec_init(p, &r, TP_RUNTIME);
		set_name(&r, t, c);
		read_runtime_stats(p, &r, q, e);
		tp_emit(p, rs, &r);
		return 1;
	}
	if (tp_read_mb(q, e, 0, &a, &x) && rest_is_blank(x, e, 1)) {
		tp_rec_init(p, &r, TP_MEMORY);
		set_name(&r, t, c);
		tp_check_set(p, &r, S_MEM_MB, a, 1, "mb");
		tp_emit(p, rs, &r);
		return 1;
	}
	if (read_flops(q, e, &a, &x) && rest_is_blank(x, e, 1)) {
		tp_rec_init(p, &r, TP_FLOPS);
		set_name(&r, t, c);
		tp_check_set(p, &r, S_FLOPS_GFLOPS, a, 1, "gflops");
		tp_emit(p, rs, &r);
		return 1;
	}
	/* "PE precomputation: 12.34 ms (one-time)": sub-second units only */
	if (tp_read_number(q, e, &a, &x)) {
		const char *u = tp_skip_blanks(x, e);
		double scale = 0;
		if (TP_EAT(u, e, "ms"))
			scale = 1, u += 2;
		else if (TP_EAT(u, e, "us"))
			scale = 1e-3, u += 2;
		else if (TP_EAT(u, e, "\xc2\xb5s"))
			scale = 1e-3, u += 3;
		if (scale > 0 && rest_is_blank(u, e, 1)) {
			tp_rec_init(p, &r, TP_RUNTIME);
			set_name(&r, t, c);
			tp_check_set(p, &r, S_RT_MEAN_MS, a * scale, 1, "mean_ms");
			tp_emit(p, rs, &r);
			return 1;
		}
	}
	return 0;
}

static int generic_colon(struct tp_parser *p, struct rank_state *rs, const struct seg *sg)
{
	const char *t = sg->t, *e = sg->e;
	const char *c = find_byte(t, e, ':');
	if (!c || c == t)
		return 0;
	/* "Epoch 1: MLP training complete: 45.32s total": the name holds a colon */
	for (const char *k = find_str(t, e, " complete:"); k; k = find_str(k + 1, e, " complete:"))
		if (k > t && read_complete(p, rs, t, k + 9, e))
			return 1;
	if (colon_before(t, e, "avg="))
		return tp_read_metric_row(p, rs, sg, NULL);
	if (find_byte(t, c, '='))
		return read_scaling(p, rs, t, c, e);
	return read_labelled(p, rs, t, c, e);
}

/*
 * The conclusions S4's analysis snippets print, as meta records named
 * as printed (the number is the value):
 *   ⚠️  BOTTLENECK: optimization (65.6%)      ⚡ Consider optimizing: op (23.0%)
 *   ⚠️  High variance (2.5x) - investigate outliers!
 *   Average batch time: 0.220s   Min batch time: …   Max batch time: …
 *   Optimal batch size: 32 (1.234s)
 */
enum { CONC_PCT, CONC_TIMES, CONC_SECONDS, CONC_NUMBER };
static const struct {
	const char *lit;
	int kind;
} conclusions[] = {
	{ "BOTTLENECK:", CONC_PCT },	      { "Consider optimizing:", CONC_PCT },
	{ "High variance (", CONC_TIMES },    { "Average batch time:", CONC_SECONDS },
	{ "Min batch time:", CONC_SECONDS },  { "Max batch time:", CONC_SECONDS },
	{ "Optimal batch size:", CONC_NUMBER },
};

/* "Traceback (most recent call last):", Python's crash: a meta record
 * "traceback", where a launch ended (the analysis measures start-up from
 * the launch after the last crash before the first step). */
static int read_traceback(struct tp_parser *p, struct rank_state *rs)
{
	struct tp_record r;
	tp_rec_init(p, &r, TP_META);
	r.name = "traceback";
	r.name_len = 9;
	r.text = "most recent call last";
	r.text_len = 21;
	tp_emit(p, rs, &r);
	return 1;
}

static int read_conclusion(struct tp_parser *p, struct rank_state *rs, const char *t, const char *e)
{
	/* the snippets start with an emoji ("⚠️  ", "⚡ ") */
	while (t < e && ((unsigned char)*t >= 0x80 || *t == ' '))
		t++;
	for (size_t i = 0; i < ARRAY_SIZE(conclusions); i++) {
		const char *q = tp_eat(t, e, conclusions[i].lit), *x, *ne = NULL;
		double v;
		int ok = 0;
		if (!q)
			continue;
		q = tp_skip_blanks(q, e);
		switch (conclusions[i].kind) {
		case CONC_PCT: {
			const char *o = NULL;
			for (const char *b = find_byte(q, e, '('); b; b = find_byte(b + 1, e, '('))
				o = b;
			ok = o && o > q && tp_read_number(o + 1, e, &v, &x) && x < e && *x == '%';
			ne = o;
			break;
		}
		case CONC_TIMES:
			ok = tp_read_number(q, e, &v, &x) && x < e && (*x == 'x' || *x == 'X');
			ne = trim_end(t, q - 1);
			break;
		case CONC_SECONDS:
			ok = tp_read_duration(q, e, -1, &v, &x);
			ne = q;
			break;
		case CONC_NUMBER:
			ok = tp_read_number(q, e, &v, &x);
			ne = q;
			break;
		}
		if (!ok) {
			tp_warn(p, "'%s' line without a readable value", conclusions[i].lit);
			return 1;
		}
		ne = trim_end(t, ne);
		if (ne > t && ne[-1] == ':')
			ne--;
		struct tp_record r;
		tp_rec_init(p, &r, TP_META);
		set_name(&r, t, ne);
		tp_check_set(p, &r, S_META_VALUE, v, 0, "value");
		tp_emit(p, rs, &r);
		return 1;
	}
	return 0;
}

int tp_lines_dispatch(struct tp_parser *p, struct rank_state *rs, const struct seg *sg)
{
	const char *t = sg->t, *e = sg->e;
	if (bracket_markers(p, rs, sg))
		return 1;
	if ((unsigned char)*t >= 0x80 || *t == 'A' || *t == 'M' || *t == 'O' || *t == 'H' || *t == 'B' ||
	    *t == 'C') {
		if (read_conclusion(p, rs, t, e))
			return 1;
	}
	switch (*t) {
	case 'B':
		if (TP_EAT(t, e, "Batch timing:"))
			return read_batch_timing(p, rs, t, e);
		if (TP_EAT(t, e, "Batch ") && e - t > 6 && tp_is_digit(t[6]))
			return read_batch(p, rs, t, e);
		break;
	case 'E':
		if (TP_EAT(t, e, "Epoch end:"))
			return read_epoch(p, rs, t, e);
		break;
	case 'F':
		if (TP_EAT(t, e, "Final profiling summary:"))
			return read_summary_dict(p, rs, t, e);
		break;
	case 'w':
	case '{':
		if (find_str(t, e, "profiling/"))
			return read_wandb_keys(p, rs, sg);
		return 0;
	case 'T':
		if (TP_EAT(t, e, "Traceback (most recent call last):"))
			return read_traceback(p, rs);
		/* fall through */
	case 'N':
	case 'I':
	case 'G':
		if (tp_read_meta_row(p, rs, sg, 0))
			return 1;
		break;
	default:
		break;
	}
	if (!tp_is_word(*t))
		return 0;
	return generic_colon(p, rs, sg);
}
