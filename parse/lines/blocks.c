/*
 * blocks.c - multi-line tables and blocks: a header line opens a block for
 * the rank that printed it, rows are read until the block's closing rule
 * (or three lines that are not rows, or end of input), then the block ends.
 *
 *   [TIMING SUMMARY] / TIMING SUMMARY - Section X   rows "name : 1.2s (3.4%)"
 *   X - Detailed Breakdown:                         rows "name : 1.2s ( 3.4%)"
 *   PERFORMANCE SUMMARY                             rows "name  t  +cpu  +gpu  peak"
 *   AGGREGATE STATISTICS                            rows "name  n  total mean min max"
 *   SPEEDUP ANALYSIS                                "Baseline: X (150.00s)", "Y : 1.67x faster"
 *   X Inference Benchmark:                          Mean/Min/Max latency, Throughput
 *   X - Warmup Analysis:                            First epoch, Steady state, Warmup overhead
 *   --- Profiling Metrics (Step N) ---              metric rows
 *   ***** Running training *****                    "Key = value" rows
 *
 * Which rule closes a block: '=' for the big tables (their inner rules are
 * '-'), '-' for the small blocks that are framed by dashes.
 */
#include <math.h>
#include <string.h>

#include "base/base.h"
#include "parser_int.h"

static void open_block(struct tp_parser *p, struct rank_state *rs, enum block_kind k,
		       const char *name, size_t n)
{
	if (rs->blk.kind != BLK_NONE)
		tp_block_end(p, rs);
	memset(&rs->blk, 0, sizeof(rs->blk));
	rs->blk.kind = k;
	rs->blk.line = p->lineno;
	name_set(&rs->blk.section, name, n);
	if (p->cur_ts)
		name_set(&rs->blk.ts, p->cur_ts, strlen(p->cur_ts));
	p->emitted++; /* a header is a recognized line */
}

int tp_block_start(struct tp_parser *p, struct rank_state *rs, const struct seg *sg)
{
	const char *t = sg->t, *e = sg->e, *q;
	switch (*t) {
	case '[':
		if (TP_EAT(t, e, "[TIMING SUMMARY]")) {
			open_block(p, rs, BLK_SUMMARY, "TIMING SUMMARY", 14);
			return 1;
		}
		break;
	case 'T':
		if ((q = TP_EAT(t, e, "TIMING SUMMARY"))) {
			q = tp_skip_blanks(q, e);
			if (q < e && *q == '-')
				q = tp_skip_blanks(q + 1, e);
			if (q >= e)
				open_block(p, rs, BLK_SUMMARY, "TIMING SUMMARY", 14);
			else
				open_block(p, rs, BLK_SUMMARY, q, (size_t)(e - q));
			return 1;
		}
		break;
	case 'P':
		if (TP_EAT(t, e, "PERFORMANCE SUMMARY")) {
			open_block(p, rs, BLK_PERFSUM, "PERFORMANCE SUMMARY", 19);
			return 1;
		}
		break;
	case 'A':
		if (TP_EAT(t, e, "AGGREGATE STATISTICS")) {
			open_block(p, rs, BLK_AGGSTATS, "AGGREGATE STATISTICS", 20);
			return 1;
		}
		break;
	case 'S':
		if (TP_EAT(t, e, "SPEEDUP ANALYSIS")) {
			open_block(p, rs, BLK_SPEEDUP, "SPEEDUP ANALYSIS", 16);
			return 1;
		}
		break;
	case '-':
		if ((q = TP_EAT(t, e, "--- Profiling Metrics"))) {
			open_block(p, rs, BLK_METRICS, "", 0);
			const char *s = find_str(q, e, "Step");
			double step;
			const char *x;
			if (s && tp_read_number(tp_skip_blanks(s + 4, e), e, &step, &x)) {
				if (isfinite(step) && step >= 0) {
					rs->blk.step = step;
					rs->blk.has_step = 1;
				} else {
					tp_warn(p, "Profiling Metrics header with an unreadable step");
				}
			}
			return 1;
		}
		break;
	case '*':
		/* "***** train metrics *****" (log_metrics) is the hf-trainer
		 * format pack's: its *_runtime rows are durations, not meta */
		if (TP_EAT(t, e, "***** ") && tp_ends_with(t, e, " *****") && e - t > 12 &&
		    !tp_ends_with(t, e, " metrics *****")) {
			open_block(p, rs, BLK_HFHEADER, t + 6, (size_t)(e - t - 12));
			return 1;
		}
		break;
	default:
		break;
	}
	if (e[-1] != ':')
		return 0;
	if (tp_ends_with(t, e, " - Detailed Breakdown:")) {
		open_block(p, rs, BLK_BREAKDOWN, t, (size_t)(e - t) - 22);
		return 1;
	}
	if (tp_ends_with(t, e, " Inference Benchmark:")) {
		open_block(p, rs, BLK_INFERENCE, t, (size_t)(e - t) - 21);
		return 1;
	}
	if (tp_ends_with(t, e, " - Warmup Analysis:")) {
		open_block(p, rs, BLK_WARMUP, t, (size_t)(e - t) - 19);
		return 1;
	}
	return 0;
}

static void rec_for_block(struct tp_parser *p, struct rank_state *rs, struct tp_record *r,
			  enum tp_type t)
{
	tp_rec_init(p, r, t);
	if (!r->ts && rs->blk.ts.n)
		r->ts = rs->blk.ts.s;
}

/* Summary and breakdown rows: "name : 2345.67s (39.09min)  (97.5%)". */
static int summary_row(struct tp_parser *p, struct rank_state *rs, const struct seg *sg)
{
	const char *t = sg->t, *e = sg->e;
	for (const char *c = find_byte(t, e, ':'); c; c = find_byte(c + 1, e, ':')) {
		double sec, pct;
		const char *q = tp_skip_blanks(c + 1, e), *x;
		if (!tp_read_duration(q, e, -1, &sec, &x))
			continue;
		x = tp_skip_blanks(x, e);
		int has_pct = 0;
		if (x < e && *x == '(') {
			const char *y = tp_skip_blanks(x + 1, e);
			if (tp_read_number(y, e, &pct, &y) && (y = tp_skip_blanks(y, e)) < e &&
			    *y == '%' && (y = tp_skip_blanks(y + 1, e)) < e && *y == ')') {
				has_pct = 1;
				x = tp_skip_blanks(y + 1, e);
			}
		}
		if (x < e)
			continue;
		const char *ne = trim_end(t, c);
		if (ne == t)
			return 0;
		struct tp_record r;
		size_t nl = (size_t)(ne - t);
		if ((nl == 19 && !memcmp(t, "Average per dataset", 19))) {
			rec_for_block(p, rs, &r, TP_META);
			r.name = t;
			r.name_len = nl;
			tp_check_set(p, &r, S_META_VALUE, sec, 1, "value");
			tp_emit(p, rs, &r);
			rs->blk.rows++;
			return 1;
		}
		rec_for_block(p, rs, &r, TP_SUMMARY);
		r.text = rs->blk.section.s;
		r.text_len = rs->blk.section.n;
		if ((nl == 10 && !memcmp(t, "Total time", 10)) || (nl == 5 && !memcmp(t, "Total", 5)))
			r.name = "TOTAL", r.name_len = 5;
		else
			r.name = t, r.name_len = nl;
		tp_check_set(p, &r, S_SECONDS, sec, 1, "seconds");
		if (has_pct)
			tp_check_set(p, &r, S_SUM_PERCENT, pct, 1, "percent");
		tp_emit(p, rs, &r);
		rs->blk.rows++;
		return 1;
	}
	/* "name : garbage" inside a summary table is a malformed row */
	const char *c = find_byte(t, e, ':');
	if (c && c > t && rs->blk.rows > 0 && (c + 1 >= e || c[1] != '/')) {
		tp_warn(p, "%s row without a readable duration", rs->blk.section.s);
		return 1;
	}
	return 0;
}

#define MAX_TOK 32

/* Splits [t,e) on blanks; returns the token count (at most MAX_TOK). */
static int tokens(const char *t, const char *e, const char *ts[], const char *te[])
{
	int n = 0;
	const char *q = t;
	while (q < e && n < MAX_TOK) {
		q = tp_skip_blanks(q, e);
		if (q >= e)
			break;
		ts[n] = q;
		while (q < e && *q != ' ' && *q != '\t')
			q++;
		te[n++] = q;
	}
	return n;
}

/* A numeric cell: "0.396", "+76.9", "2.758s", "1.7MB". */
static int cell_number(const char *s, const char *e, double *v)
{
	const char *x;
	if (tp_read_duration(s, e, 1.0, v, &x) && x == e)
		return 1;
	if (tp_read_mb(s, e, 1, v, &x) && x == e)
		return 1;
	return 0;
}

/*
 * Right-aligned table rows: the last `want` cells are numbers, the rest is
 * the name (which may hold blanks: "model forward"). Returns the number of
 * numeric cells read (1 for a TOTAL row with only a time).
 */
static int numeric_row(const char *t, const char *e, int want, double *vals, const char **name_end)
{
	const char *ts[MAX_TOK], *te[MAX_TOK];
	int n = tokens(t, e, ts, te);
	int k = 0;
	while (k < want && k < n - 1 && cell_number(ts[n - 1 - k], te[n - 1 - k], &vals[want - 1 - k]))
		k++;
	if (k == 0)
		return 0;
	if (k < want) /* left-align what was read: a short row has the first columns */
		memmove(vals, vals + (want - k), (size_t)k * sizeof(*vals));
	*name_end = te[n - 1 - k];
	return k;
}

static int perfsum_row(struct tp_parser *p, struct rank_state *rs, const struct seg *sg)
{
	double v[4];
	const char *ne;
	if (TP_EAT(sg->t, sg->e, "Operation")) {
		p->emitted++;
		return 1; /* column header */
	}
	int k = numeric_row(sg->t, sg->e, 4, v, &ne);
	if (k != 4 && k != 1)
		return 0;
	struct tp_record r;
	rec_for_block(p, rs, &r, TP_SUMMARY);
	r.text = rs->blk.section.s;
	r.text_len = rs->blk.section.n;
	r.name = sg->t;
	r.name_len = (size_t)(ne - sg->t);
	tp_check_set(p, &r, S_SECONDS, v[0], 1, "seconds");
	if (k == 4) {
		tp_check_set(p, &r, S_SUM_CPU_MB, v[1], 0, "cpu_mb");
		tp_check_set(p, &r, S_SUM_GPU_MB, v[2], 0, "gpu_mb");
		tp_check_set(p, &r, S_SUM_GPU_PEAK_MB, v[3], 1, "gpu_peak_mb");
	}
	tp_emit(p, rs, &r);
	rs->blk.rows++;
	return 1;
}

static int aggstats_row(struct tp_parser *p, struct rank_state *rs, const struct seg *sg)
{
	double v[5];
	const char *ne;
	if (TP_EAT(sg->t, sg->e, "Operation")) {
		p->emitted++;
		return 1;
	}
	if (numeric_row(sg->t, sg->e, 5, v, &ne) != 5)
		return 0;
	struct tp_record r;
	rec_for_block(p, rs, &r, TP_AGGREGATE);
	r.name = sg->t;
	r.name_len = (size_t)(ne - sg->t);
	tp_check_set(p, &r, S_AGG_COUNT, v[0], 1, "count");
	tp_check_set(p, &r, S_AGG_TOTAL_S, v[1], 1, "total_s");
	tp_check_set(p, &r, S_AGG_MEAN_S, v[2], 1, "mean_s");
	tp_check_set(p, &r, S_AGG_MIN_S, v[3], 1, "min_s");
	tp_check_set(p, &r, S_AGG_MAX_S, v[4], 1, "max_s");
	tp_emit(p, rs, &r);
	rs->blk.rows++;
	return 1;
}

static int speedup_row(struct tp_parser *p, struct rank_state *rs, const struct seg *sg)
{
	const char *t = sg->t, *e = sg->e, *q, *x;
	if ((q = TP_EAT(t, e, "Baseline:"))) {
		q = tp_skip_blanks(q, e);
		const char *paren = find_byte(q, e, '(');
		const char *ne = trim_end(q, paren ? paren : e);
		name_set(&rs->blk.baseline, q, (size_t)(ne - q));
		double sec;
		if (paren && tp_read_duration(paren + 1, e, 1.0, &sec, &x) && isfinite(sec)) {
			rs->blk.baseline_s = sec;
			rs->blk.has_baseline_s = 1;
		}
		p->emitted++;
		rs->blk.rows++; /* the closing '=' rule may follow: the block has begun */
		return 1;
	}
	/* "Epoch 1: MLP        :  1.40x faster": the value follows the colon
	 * whose rest reads as "N.NNx"; the name may hold colons of its own */
	double f = 0;
	const char *c;
	for (c = find_byte(t, e, ':'); c; c = find_byte(c + 1, e, ':')) {
		q = tp_skip_blanks(c + 1, e);
		if (tp_read_number(q, e, &f, &x) && x < e && (*x == 'x' || *x == 'X'))
			break;
	}
	if (!c || c == t) {
		/* not a row: a line of another block ends this one (after 3 misses,
		 * or at once when it is a header) instead of being swallowed */
		if (find_str(t, e, "x faster") || find_str(t, e, "x slower")) {
			tp_warn(p, "SPEEDUP ANALYSIS row without a readable 'name: N.NNx'");
			return 1;
		}
		return 0;
	}
	x = tp_skip_blanks(x + 1, e);
	struct tp_record r;
	rec_for_block(p, rs, &r, TP_SPEEDUP);
	r.name = t;
	r.name_len = (size_t)(trim_end(t, c) - t);
	/*
	 * The factor is baseline time / this time. S1 prints that very
	 * number, "0.75x slower" when it is below 1; "2x slower" (a number above
	 * 1) is the other convention, for a factor of 0.5.
	 */
	if (TP_EAT(x, e, "slower") && f > 1)
		f = 1.0 / f;
	tp_check_set(p, &r, S_SPD_FACTOR, f, 1, "factor");
	if (rs->blk.baseline.n) {
		r.text = rs->blk.baseline.s;
		r.text_len = rs->blk.baseline.n;
	}
	if (rs->blk.has_baseline_s)
		tp_set(&r, S_SPD_BASELINE_S, rs->blk.baseline_s);
	tp_emit(p, rs, &r);
	rs->blk.rows++;
	return 1;
}

/* "Label:   value unit" rows of the inference and warmup blocks. */
struct block_field {
	const char *label;
	int slot;
	int kind;          /* 0 duration -> seconds, 1 duration -> ms, 2 plain number */
	const char *field; /* the record field, for warnings */
	int nonneg;        /* a negative value is suspicious */
};

static const struct block_field inference_fields[] = {
	{ "Mean latency:", S_LAT_MEAN_MS, 1, "mean_ms", 1 },
	{ "Min latency:", S_LAT_MIN_MS, 1, "min_ms", 1 },
	{ "Max latency:", S_LAT_MAX_MS, 1, "max_ms", 1 },
	{ "Throughput:", S_LAT_THROUGHPUT, 2, "throughput", 1 },
};

/* A first epoch faster than the steady state gives a negative overhead
 * (S1 prints it as is): a finding of the analysis, not a bad value. */
static const struct block_field warmup_fields[] = {
	{ "First epoch:", S_WU_FIRST_S, 0, "first_s", 1 },
	{ "First batch:", S_WU_FIRST_S, 0, "first_s", 1 },
	{ "First step:", S_WU_FIRST_S, 0, "first_s", 1 },
	{ "Steady state:", S_WU_STEADY_S, 0, "steady_s", 1 },
	{ "Warmup overhead:", S_WU_OVERHEAD_S, 0, "overhead_s", 0 },
};

static int field_row(struct tp_parser *p, struct rank_state *rs, const struct seg *sg,
		     const struct block_field *f, size_t nf)
{
	for (size_t i = 0; i < nf; i++) {
		const char *q = tp_eat(sg->t, sg->e, f[i].label), *x;
		double v;
		if (!q)
			continue;
		q = tp_skip_blanks(q, sg->e);
		int ok = f[i].kind == 2 ? tp_read_number(q, sg->e, &v, &x)
					: tp_read_duration_to(q, sg->e, -1, f[i].kind == 1 ? 1e-3 : 1.0, &v, &x);
		if (!ok) {
			tp_warn(p, "%s row '%s' without a readable value", rs->blk.section.s, f[i].label);
			return 1;
		}
		rs->blk.acc.type = rs->blk.kind == BLK_INFERENCE ? TP_LATENCY : TP_WARMUP;
		tp_check_set(p, &rs->blk.acc, f[i].slot, v, f[i].nonneg, f[i].field);
		if (f[i].slot == S_WU_OVERHEAD_S && rs->blk.kind == BLK_WARMUP) {
			/* "2.180s ( 72.2%)" */
			double pct;
			x = tp_skip_blanks(x, sg->e);
			if (x < sg->e && *x == '(' &&
			    tp_read_number(tp_skip_blanks(x + 1, sg->e), sg->e, &pct, &x))
				tp_check_set(p, &rs->blk.acc, S_WU_OVERHEAD_PCT, pct, 0, "overhead_pct");
		}
		rs->blk.rows++;
		p->emitted++;
		return 1;
	}
	return 0;
}

static int ends_on(const struct block *b, char rule)
{
	switch (b->kind) {
	case BLK_BREAKDOWN:
	case BLK_INFERENCE:
	case BLK_WARMUP:
		return rule == '-';
	default:
		return rule == '=';
	}
}

int tp_block_row(struct tp_parser *p, struct rank_state *rs, const struct seg *sg)
{
	struct block *b = &rs->blk;
	if (sg->t >= sg->e)
		return 0;
	char c0 = *sg->t;
	if (c0 == '[')
		return 0; /* no row starts with '[': a [TIMING] line inside a table is its own record */
	if ((c0 == '=' || c0 == '-') && is_separator_line(sg->t, sg->e, c0)) {
		if (b->rows > 0 && ends_on(b, c0))
			tp_block_end(p, rs);
		else if (b->kind == BLK_METRICS || b->kind == BLK_HFHEADER)
			tp_block_end(p, rs);
		p->emitted++; /* a table's rule is part of the table, not noise */
		return 1;
	}
	int ok = 0;
	switch (b->kind) {
	case BLK_SUMMARY:
	case BLK_BREAKDOWN:
		ok = summary_row(p, rs, sg);
		break;
	case BLK_PERFSUM:
		ok = perfsum_row(p, rs, sg);
		break;
	case BLK_AGGSTATS:
		ok = aggstats_row(p, rs, sg);
		break;
	case BLK_SPEEDUP:
		ok = speedup_row(p, rs, sg);
		break;
	case BLK_INFERENCE:
		ok = field_row(p, rs, sg, inference_fields, ARRAY_SIZE(inference_fields));
		break;
	case BLK_WARMUP:
		ok = field_row(p, rs, sg, warmup_fields, ARRAY_SIZE(warmup_fields));
		break;
	case BLK_METRICS:
		ok = tp_read_metric_row(p, rs, sg, b);
		if (!ok)
			tp_block_end(p, rs); /* metric rows are contiguous */
		return ok;
	case BLK_HFHEADER:
		ok = tp_read_meta_row(p, rs, sg, 1);
		if (!ok)
			tp_block_end(p, rs);
		return ok;
	case BLK_NONE:
		return 0;
	}
	if (ok)
		b->misses = 0;
	return ok;
}

void tp_block_end(struct tp_parser *p, struct rank_state *rs)
{
	struct block *b = &rs->blk;
	if ((b->kind == BLK_INFERENCE || b->kind == BLK_WARMUP) && b->acc.has) {
		struct tp_record r = b->acc;
		r.type = b->kind == BLK_INFERENCE ? TP_LATENCY : TP_WARMUP;
		r.file = p->file;
		r.line = b->line;
		r.ts = b->ts.n ? b->ts.s : NULL;
		r.rank = p->cur_rank;
		r.name = b->section.s;
		r.name_len = b->section.n;
		b->kind = BLK_NONE;
		int saved = p->emitted;
		tp_emit(p, rs, &r);
		p->emitted = saved; /* the record belongs to the header line */
	}
	b->kind = BLK_NONE;
}
