/*
 * parser.c - the line driver of the streaming parser.
 *
 * For each physical line: split it on carriage returns (progress bars
 * redraw with '\r', so one "line" may hold many screens and a real record
 * at its end), strip ANSI colour escapes, a launcher's rank prefix, a
 * leading timestamp, a logging library's prefix (prefix.c) and a logger
 * level, then hand the rest to the block
 * reader (if a table is open for that rank) and to the one-line readers.
 * User rules (--rules) are tried first, so a user can override a built-in.
 */
#include "parser_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "config.h"
#include "parse/rules/rules.h"
#include "parse/scan/scan.h"

#define MAX_RANK 65535
#define SCAN_CAP 4096 /* candidate lines found per call of the matcher */

/* Records from user rules are counted like built-in ones. */
static int rules_emit(void *ctx, const struct tp_record *r)
{
	struct tp_parser *p = ctx;
	struct tp_record c = *r;
	if (c.rank < 0)
		c.rank = p->cur_rank;
	if (!c.ts)
		c.ts = p->cur_ts;
	p->st.records[c.type]++;
	p->emitted++;
	p->rule_records++;
	for (int i = 0; i < TP_NUM_SLOTS && p->disc; i++)
		if (tp_has(&c, i) && p->nseen < TP_DISC_SEEN)
			p->seen[p->nseen++] = c.num[i];
	tp_note_emitted(p, &c);
	return p->sink.emit ? p->sink.emit(p->sink.ctx, &c) : 0;
}

static void rules_warn(void *ctx, const char *file, uint64_t line, const char *msg)
{
	struct tp_parser *p = ctx;
	p->st.malformed++;
	p->emitted++;
	if (p->sink.warn)
		p->sink.warn(p->sink.ctx, file, line, msg);
}

struct tp_parser *tp_parser_new(const char *file, const struct tp_sink *sink,
				const struct tp_rules *rules)
{
	struct tp_parser *p = xcalloc(1, sizeof(*p));
	p->file = file ? file : "-";
	p->sink = *sink;
	p->rules = rules;
	if (rules)
		p->scratch = tp_rules_scratch_new(rules);
	p->rules_sink.emit = rules_emit;
	p->rules_sink.warn = rules_warn;
	p->rules_sink.ctx = p;
	p->progress = 1;
	return p;
}

void tp_parser_set_progress(struct tp_parser *p, int on)
{
	p->progress = on;
}

void tp_parser_set_discover(struct tp_parser *p, void (*fn)(void *ctx, const struct tp_disc_line *ln),
			    void *ctx)
{
	p->disc = fn;
	p->disc_ctx = ctx;
}

/* A line nothing read, or rules only, to the miner if it holds a unit (the
 * vector test first, reading on to the buffer's end where the line is in
 * the buffer tp_parse_buffer reads). */
static void discover(struct tp_parser *p, const struct seg *sg)
{
	if (!p->disc || p->seg_bar || sg->t >= sg->e)
		return;
	uintptr_t t = (uintptr_t)sg->t, e = (uintptr_t)sg->e;
	const char *limit = p->buf_end && t >= (uintptr_t)p->buf && e <= (uintptr_t)p->buf_end ? p->buf_end : sg->e;
	int scanned = tp_disc_next_line(sg->t, sg->e, limit, NULL) == sg->t;
	if (!scanned && !tp_disc_has_time_word(sg->t, sg->e))
		return;
	/* the scan takes a count of steps too, which says something only with
	 * the line's stamp */
	if (scanned && !p->cur_ts && tp_disc_has_counter(sg->t, sg->e) && !tp_disc_has_unit(sg->t, sg->e) &&
	    !tp_disc_has_time_word(sg->t, sg->e))
		return;
	struct tp_disc_line ln = { sg->t,	   (size_t)(sg->e - sg->t), p->file, p->lineno,
				   p->cur_rank, p->cur_ts, p->seen,	       p->nseen };
	p->disc(p->disc_ctx, &ln);
	p->disc_line = p->lineno;
}

void tp_parser_set_sink(struct tp_parser *p, const struct tp_sink *sink)
{
	p->sink = *sink;
}

void tp_parser_take_stats(struct tp_parser *p, struct tp_stats *acc)
{
	if (acc) {
		acc->lines += p->st.lines;
		for (int t = 0; t < TP_NTYPES; t++)
			acc->records[t] += p->st.records[t];
		acc->unrecognized += p->st.unrecognized;
		acc->malformed += p->st.malformed;
		acc->long_lines += p->st.long_lines;
		acc->bytes += p->st.bytes;
		for (size_t i = 0; i < TP_RULE_STATS; i++)
			acc->rule_hits[i] += p->st.rule_hits[i];
	}
	memset(&p->st, 0, sizeof(p->st));
}

void tp_parser_free(struct tp_parser *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nranks; i++)
		free(p->ranks[i]);
	free(p->ranks);
	strbuf_release(&p->clean);
	strbuf_release(&p->joined);
	tp_scan_scratch_free(p->scan_ss);
	free(p->cand);
	if (p->scratch)
		tp_rules_scratch_free(p->scratch);
	free(p);
}

const struct tp_stats *tp_parser_stats(const struct tp_parser *p)
{
	return &p->st;
}

void tp_parser_set_lineno(struct tp_parser *p, uint64_t next_line)
{
	p->lineno = next_line ? next_line - 1 : 0;
}

uint64_t tp_parser_next_line(const struct tp_parser *p)
{
	return p->lineno + 1;
}

int tp_parser_idle(const struct tp_parser *p)
{
	if (!tp_rules_scratch_idle(p->scratch, p->lineno + 1) || p->wrap_len)
		return 0;
	for (size_t i = 0; i < p->nranks; i++)
		if (p->ranks[i] && (p->ranks[i]->blk.kind != BLK_NONE || p->ranks[i]->has_pending))
			return 0;
	return 1;
}

static struct rank_state *rank_state(struct tp_parser *p, int rank)
{
	size_t i = (rank < 0 || rank > MAX_RANK) ? 0 : (size_t)rank + 1;
	if (i >= p->nranks) {
		size_t n = p->nranks ? p->nranks : 4;
		while (n <= i)
			n *= 2;
		p->ranks = xrealloc(p->ranks, n * sizeof(*p->ranks));
		memset(p->ranks + p->nranks, 0, (n - p->nranks) * sizeof(*p->ranks));
		p->nranks = n;
	}
	if (!p->ranks[i])
		p->ranks[i] = xcalloc(1, sizeof(struct rank_state));
	return p->ranks[i];
}

/* "GPU peak: 1024.3MB" right after a [Performance] line completes it. */
static int continue_pending(struct tp_parser *p, struct rank_state *rs, const struct seg *sg)
{
	const char *q = TP_EAT(sg->t, sg->e, "GPU peak:");
	double mb;
	if (!q)
		return 0;
	q = tp_skip_blanks(q, sg->e);
	if (!tp_read_mb(q, sg->e, 1, &mb, &q)) {
		tp_warn(p, "[Performance] GPU peak line without a readable size");
		return 1;
	}
	tp_check_set(p, &rs->pending, S_PERF_GPU_PEAK_MB, mb, 1, "gpu_peak_mb");
	p->emitted++;
	tp_flush_pending(p, rs);
	return 1;
}

static const char *strip_rank(const char *s, const char *e, int *rank)
{
	const char *q = s;
	long v = 0;
	if (q >= e || (*q != '[' && !tp_is_digit(*q)))
		return s;
	if (*q == '[') {
		const char *r = TP_EAT(q + 1, e, "rank");
		if (!r)
			r = TP_EAT(q + 1, e, "default");
		if (r) {
			if (r >= e || !tp_is_digit(*r))
				return s;
			while (r < e && tp_is_digit(*r) && v <= MAX_RANK)
				v = v * 10 + (*r++ - '0');
			if (r + 1 < e && r[0] == ']' && r[1] == ':') {
				*rank = (int)v;
				return tp_skip_blanks(r + 2, e);
			}
			return s;
		}
		/* mpirun --tag-output: [job,rank]<stdout>: */
		r = q + 1;
		while (r < e && tp_is_digit(*r))
			r++;
		if (r == q + 1 || r >= e || *r != ',')
			return s;
		r++;
		if (r >= e || !tp_is_digit(*r))
			return s;
		while (r < e && tp_is_digit(*r) && v <= MAX_RANK)
			v = v * 10 + (*r++ - '0');
		if (r < e && *r == ']') {
			const char *t = TP_EAT(r + 1, e, "<stdout>:");
			if (!t)
				t = TP_EAT(r + 1, e, "<stderr>:");
			if (t) {
				*rank = (int)v;
				return tp_skip_blanks(t, e);
			}
		}
		return s;
	}
	/* srun --label: up to 5 digits, ": " */
	while (q < e && tp_is_digit(*q) && q - s < 6)
		v = v * 10 + (*q++ - '0');
	if (q > s && q - s <= 5 && q + 1 < e && q[0] == ':' && q[1] == ' ') {
		*rank = (int)v;
		return q + 2;
	}
	return s;
}

/* pdsh's "host: " (DeepSpeed's multi-node launcher): a lower-case host name
 * with a '-' or '.' in it ("worker-1", "ip-10-0-0-7"), or "localhost", then
 * ": ". Its trailing number, if any, is the rank (the node's). Names without
 * a '-' or '.' are left alone: "epoch1: 2.5 s" is a label, not a host. */
static const char *strip_host(const char *s, const char *e, int *rank)
{
	const char *q = s;
	int sep = 0;
	if (q >= e || !(*q >= 'a' && *q <= 'z'))
		return s;
	while (q < e && ((*q >= 'a' && *q <= 'z') || tp_is_digit(*q) || *q == '-' || *q == '.')) {
		sep |= *q == '-' || *q == '.';
		q++;
	}
	int local = q - s == 9 && !memcmp(s, "localhost", 9);
	if ((!sep && !local) || q + 2 > e || q[0] != ':' || q[1] != ' ' || q[-1] == '-' || q[-1] == '.')
		return s;
	const char *d = q;
	long v = 0;
	while (d > s && tp_is_digit(d[-1]) && q - d < 6)
		d--;
	if (d < q) {
		for (const char *k = d; k < q; k++)
			v = v * 10 + (*k - '0');
		*rank = v > MAX_RANK ? MAX_RANK : (int)v;
	}
	return q + 2;
}

/* Ray's worker prefix, "(pid=123) ", "(TaskRunner pid=123) " or
 * "(WorkerDict pid=123, ip=10.0.0.7) ": the actor's name is not a rank. */
static const char *strip_ray(const char *s, const char *e)
{
	if (e - s < 8 || *s != '(')
		return s;
	const char *q = s + 1;
	while (q < e && q - s < 64 && (tp_is_alpha(*q) || tp_is_digit(*q) || *q == '_' || *q == '.'))
		q++;
	if (q > s + 1) {
		if (q >= e || *q != ' ')
			return s;
		q++;
	}
	const char *d = TP_EAT(q, e, "pid=");
	if (!d || d >= e || !tp_is_digit(*d))
		return s;
	while (d < e && tp_is_digit(*d))
		d++;
	if (d < e && *d == ',') /* ", ip=10.0.0.7" */
		while (d < e && *d != ')' && *d != '(' && d - s < 96)
			d++;
	if (d + 1 >= e || *d != ')' || d[1] != ' ')
		return s;
	return d + 2;
}

/* Launcher prefixes, nested as launchers stack them ("0: [default3]:",
 * "[default0]:[rank0]:", "worker-1: [rank5]:"); the innermost gives the rank. */
static const char *strip_prefixes(const char *s, const char *e, int *rank)
{
	for (int k = 0; k < 3; k++) {
		const char *q = strip_rank(s, e, rank);
		if (q == s)
			q = strip_host(s, e, rank);
		if (q == s)
			q = strip_ray(s, e);
		if (q == s)
			break;
		s = tp_skip_blanks(q, e);
	}
	return s;
}

static const char *const levels[] = { "INFO", "WARNING", "WARN", "DEBUG", "ERROR",
				      "CRITICAL", "NOTICE", "TRACE" };

/* A logger level such as "INFO - ", "[INFO] ", "INFO:root:", "| INFO | ". */
static const char *strip_level(const char *t, const char *e)
{
	const char *q = t;
	int bracket = 0;
	if (q < e && (*q == '[' || *q == '|')) {
		bracket = *q == '[';
		q = tp_skip_blanks(q + 1, e);
	}
	/* every level starts with one of these: skip the loop for most lines */
	if (q >= e || !strchr("IWDECNT", *q) || *q == '\0')
		return t;
	for (size_t i = 0; i < ARRAY_SIZE(levels); i++) {
		if (levels[i][0] != *q)
			continue;
		const char *r = tp_eat(q, e, levels[i]);
		if (!r)
			continue;
		if (bracket) {
			if (r >= e || *r != ']')
				return t;
			r++;
		}
		r = tp_skip_blanks(r, e);
		if (r < e && (*r == '-' || *r == '|')) {
			return tp_skip_blanks(r + 1, e);
		}
		if (r < e && *r == ':' && !bracket) {
			/* INFO:root:message */
			const char *c = find_byte(r + 1, e, ':');
			if (c && c - r < 64 && !find_byte(r + 1, c, ' '))
				return tp_skip_blanks(c + 1, e);
			return tp_skip_blanks(r + 1, e);
		}
		if (bracket) /* "[INFO]: message" ('%(asctime)s [%(levelname)s]: %(message)s') */
			return r < e && *r == ':' ? tp_skip_blanks(r + 1, e) : r;
		return t;
	}
	return t;
}


/*
 * A stamp without a year ("--05-09T11:40:50", glog's and PyTorch's C++
 * warnings) after the span's first, dated one, given that one's year, or
 * the next where the month and day come before it; into full. 0: none.
 */
static int with_year(const char *start, const char *ts, char full[TP_TS_MAX])
{
	if (tp_ts_rank(start) != 2 || tp_ts_rank(ts) != 1 || strlen(start) < 10 || strlen(ts) < 7)
		return 0;
	int year = atoi(start);
	if (strncmp(ts + 2, start + 5, 5) < 0)
		year++;
	int n = snprintf(full, TP_TS_MAX, "%04d%s", year, ts + 1);
	return n > 0 && n < TP_TS_MAX;
}

/* The log's first and last time stamps so far. */
static void note_span(struct tp_parser *p)
{
	const char *ts = p->cur_ts;
	char full[TP_TS_MAX];
	if (p->span_line[0] && with_year(p->span_ts[0], ts, full))
		ts = full;
	size_t n = strlen(ts) + 1;
	if (p->span_line[0] && tp_ts_rank(ts) != tp_ts_rank(p->span_ts[0])) {
		if (tp_ts_rank(ts) < tp_ts_rank(p->span_ts[0]))
			return;
		p->span_line[0] = 0; /* a more complete stamp: the span starts again */
	}
	if (!p->span_line[0]) {
		memcpy(p->span_ts[0], ts, n);
		p->span_line[0] = p->lineno;
	}
	memcpy(p->span_ts[1], ts, n);
	p->span_line[1] = p->lineno;
}

void tp_parser_carry_span(struct tp_parser *p, const struct tp_parser *before)
{
	if (before->span_line[0] && p->span_line[0] && tp_ts_rank(before->span_ts[0]) != tp_ts_rank(p->span_ts[0])) {
		if (tp_ts_rank(before->span_ts[0]) < tp_ts_rank(p->span_ts[0]))
			return; /* this chunk's stamps say more */
		p->span_line[0] = p->span_line[1] = 0;
	}
	if (before->span_line[0] && (!p->span_line[0] || before->span_line[0] < p->span_line[0])) {
		memcpy(p->span_ts[0], before->span_ts[0], sizeof(p->span_ts[0]));
		p->span_line[0] = before->span_line[0];
	}
	if (before->span_line[1] > p->span_line[1]) {
		memcpy(p->span_ts[1], before->span_ts[1], sizeof(p->span_ts[1]));
		p->span_line[1] = before->span_line[1];
	}
	if (before->rec_ts_line[0] && (!p->rec_ts_line[0] || before->rec_ts_line[0] < p->rec_ts_line[0]))
		p->rec_ts_line[0] = before->rec_ts_line[0];
	if (before->rec_ts_line[1] > p->rec_ts_line[1])
		p->rec_ts_line[1] = before->rec_ts_line[1];
}

/* "log start" and "log end": the span of the log's own time stamps, on
 * every line and not only on the lines that made records; each is given
 * only where it reaches beyond the records that carry a time stamp. */
static void emit_span(struct tp_parser *p)
{
	static const char *const keys[2] = { "log start", "log end" };
	/* given also for a log nothing else was read from: its wall is still
	 * the span of its time stamps */
	if (!p->span_line[0] || p->span_line[0] == p->span_line[1] || !p->sink.emit)
		return;
	for (int i = 0; i < 2; i++) {
		if (p->rec_ts_line[i] && (i ? p->span_line[1] <= p->rec_ts_line[1] : p->span_line[0] >= p->rec_ts_line[0]))
			continue;
		struct tp_record r = { .type = TP_META, .file = p->file, .line = p->span_line[i],
				       .ts = p->span_ts[i], .rank = -1, .name = keys[i],
				       .name_len = strlen(keys[i]), .text = p->span_ts[i],
				       .text_len = strlen(p->span_ts[i]) };
		p->st.records[TP_META]++;
		p->sink.emit(p->sink.ctx, &r);
	}
}

/* Strips "[2024-10-13 22:30:00]" or "2024-10-13 22:30:00,123 -" at t
 * (also "[12/22 22:29:54 logger.name]:", Sockeye's
 * "[2018-08-28:13:41:56:INFO:sockeye.training:__call__] " and the stamp
 * of the torch profiler's "STAGE:2025-04-07 13:17:03 pid:tid file.cpp:314] ..."). */
/* The Unix time at q (ten digits and a fraction; thirteen digits of
 * milliseconds with ms), as the line's stamp; 0 if there is none. */
static int epoch_at(struct tp_parser *p, const char *q, const char *e, int ms)
{
	double v;
	const char *x;
	const char *d = q;
	while (d < e && tp_is_digit(*d))
		d++;
	if (d - q != (ms ? 13 : 10) || !tp_read_number(q, e, &v, &x) || (x < e && tp_is_alpha(*x)))
		return 0;
	if (!tp_ts_from_epoch(ms ? v / 1000 : v, p->tsbuf))
		return 0;
	p->cur_ts = p->tsbuf;
	return 1;
}

/*
 * The Unix times that stamp a line without standing first on it, read
 * and left in place: MLPerf's and NVIDIA's loggers (":::MLL 1558576678.967
 * run_start: ...", ":::MLPv0.5.0 gnmt 1541575318.668 (file:66) key",
 * ":::NVLOGv0.2.2 Tacotron2_PyT 1592939516.330 (...) iter_time: 0.6",
 * ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1621419722617, ...}"), and a
 * JSON line's "time" member (YOLACT's {"type": "train", ..., "time":
 * 1607422676.03}).
 */
static void epoch_stamp(struct tp_parser *p, const char *q, const char *e)
{
	if (e - q > 20 && q[0] == ':' && q[1] == ':' && q[2] == ':') {
		const char *r = q + 3;
		const char *ms = memmem(r, (size_t)(e - r < 80 ? e - r : 80), "\"time_ms\": ", 11);
		if (ms) {
			epoch_at(p, ms + 11, e, 1);
			return;
		}
		/* the logger's tag, up to one word more (the benchmark's), the time */
		for (int words = 0; words < 3 && r < e; words++) {
			if (tp_is_digit(*r) && epoch_at(p, r, e, 0))
				return;
			while (r < e && *r != ' ')
				r++;
			r = tp_skip_blanks(r, e);
		}
	} else if (e - q > 20 && q[0] == '{' && q[1] == '"') {
		const char *tm = memmem(q, (size_t)(e - q), "\"time\": ", 8);
		if (tm)
			epoch_at(p, tm + 8, e, 0);
	}
}

/* HugeCTR's "[20d02h08m28s]" (the day of the month and the time of day):
 * after it, with the time of day as the stamp; else NULL. */
static const char *dhms_stamp(struct tp_parser *p, const char *q, const char *e)
{
	static const char units[] = "dhms";
	int v[4];
	const char *r = q + 1;
	for (int k = 0; k < 4; k++) {
		const char *d = r;
		v[k] = 0;
		while (r < e && tp_is_digit(*r) && r - d < 2)
			v[k] = v[k] * 10 + (*r++ - '0');
		if (r == d || r >= e || *r != units[k])
			return NULL;
		r++;
	}
	if (r >= e || *r != ']' || v[1] > 23 || v[2] > 59 || v[3] > 60)
		return NULL;
	snprintf(p->tsbuf, sizeof(p->tsbuf), "T%02d:%02d:%02d", v[1], v[2], v[3]);
	p->cur_ts = p->tsbuf;
	return r + 1;
}

static const char *strip_ts(struct tp_parser *p, const char *t, const char *e)
{
	const char *q = t;
	if (q < e && (*q == ':' || *q == '{')) {
		epoch_stamp(p, q, e);
		return t;
	}
	if (e - q > 13 && *q == '[' && tp_is_digit(q[1])) {
		const char *r = dhms_stamp(p, q, e);
		if (r)
			return r;
	}
	int bracket = 0;
	if (q < e && *q == '[') {
		bracket = 1;
		q++;
		if (q < e && *q == ' ')
			q++; /* "[ Mon Dec  1 22:54:11 2025 ] " */
	} else if (e - q > 6 && !memcmp(q, "STAGE:", 6)) {
		q += 6;
	}
	/* asctime's "Mon Dec  1 22:54:11 2025" in brackets only: nvidia-smi
	 * heads its table with one, hours before the run's own stamps */
	if (!bracket && q < e && tp_is_alpha(*q))
		return t;
	const char *r = tp_ts_read(q, e, TP_TS_AS_PRINTED, p->tsbuf);
	if (!r)
		return t;
	if (bracket) {
		/* detectron2's console: "[12/22 22:29:54 d2.utils.events]: " */
		if (r < e && *r == ' ') {
			const char *n = r + 1;
			while (n < e && *n != ']' && *n != ' ' && *n != '[')
				n++;
			if (n > r + 1 && n < e && *n == ']')
				r = n + 1 < e && n[1] == ':' ? n + 1 : n; /* at the ':' after it */
		} else if (r + 1 < e && *r == ':' && tp_is_alpha(r[1])) {
			/* ":LEVEL:logger:function]" of '[%(asctime)s:%(levelname)s:...]' */
			const char *n = r + 1;
			while (n < e && *n != ']' && *n != '[' && !tp_is_blank(*n))
				n++;
			if (n < e && *n == ']')
				r = n;
		}
		if (r < e && *r == ' ' && r + 1 < e && r[1] == ']')
			r++;
		if (r >= e || (*r != ']' && (*r != ':' || r[-1] != ']')))
			return t;
		r++;
	}
	p->cur_ts = p->tsbuf;
	r = tp_skip_blanks(r, e);
	if (r < e && (*r == '-' || *r == '|'))
		r = tp_skip_blanks(r + 1, e);
	return r;
}

/* date(1)'s stamp ending a line that says what it marks ("XPK End: Sat
 * Jun 27 00:57:51 UTC 2026", a job script's echo of its start and end),
 * into buf. A date alone on its line (a script's bare `date`, between
 * commands run days apart) stays no stamp of the run's. */
static int trailing_date(const char *t, const char *e, char buf[TP_TS_MAX])
{
	for (const char *o = e - 24; o > t && e - o <= 30; o--)
		if (o[3] == ' ' && o[0] >= 'A' && o[0] <= 'Z' && o[-1] == ' ' &&
		    tp_ts_read(o, e, TP_TS_AS_PRINTED, buf) == e)
			return 1;
	return 0;
}

/* A full date-time in parentheses ending the line, its stamp: Coqui
 * TTS's trainer opens each epoch with " > TRAINING (2022-11-03 10:47:31)"
 * and stamps nothing else; or in brackets after a key (a PaddlePaddle
 * AOT-GAN trainer's "... time:[2022-08-26 21:35:14]"); or date(1)'s. A
 * date without a year there is left alone. */
static void trailing_stamp(struct tp_parser *p, const char *t, const char *e)
{
	if (e - t >= 24 && tp_is_digit(e[-1]) && e[-5] == ' ') { /* " 2026" */
		char buf[TP_TS_MAX];
		if (trailing_date(t, e, buf)) {
			memcpy(p->tsbuf, buf, sizeof(buf));
			p->cur_ts = p->tsbuf;
		}
		return;
	}
	if (e - t < 21 || (e[-1] != ')' && e[-1] != ']'))
		return;
	char open = e[-1] == ')' ? '(' : '[';
	const char *o = e - 2;
	while (o > t && *o != open && e - o < 36)
		o--;
	char buf[TP_TS_MAX];
	if (*o != open || (open == '[' && (o == t || (o[-1] != ':' && o[-1] != '=' && o[-1] != ' '))) ||
	    tp_ts_read(o + 1, e - 1, TP_TS_AS_PRINTED, buf) != e - 1 || tp_ts_rank(buf) < 2)
		return;
	memcpy(p->tsbuf, buf, sizeof(buf));
	p->cur_ts = p->tsbuf;
}

struct config_ctx {
	struct tp_parser *p;
	struct rank_state *rs;
};

/* A workload size from the line's free text (config.c) becomes a config record. */
static void config_hit(void *ctx, enum tp_config_key k, double v, const char *s, size_t n)
{
	struct config_ctx *c = ctx;
	struct tp_record r;
	tp_rec_init(c->p, &r, TP_CONFIG);
	r.name = tp_config_keys[k];
	r.name_len = strlen(r.name);
	if (s) {
		r.text = s;
		r.text_len = n;
	} else {
		tp_set(&r, S_META_VALUE, v);
	}
	tp_emit(c->p, c->rs, &r);
}

/* Removes CSI sequences (ESC [ params final-byte) into p->clean. */
static void strip_ansi(struct tp_parser *p, const char **ps, const char **pe)
{
	const char *s = *ps, *e = *pe;
	strbuf_reset(&p->clean);
	const char *q = s;
	while (q < e) {
		const char *x = memchr(q, '\x1b', (size_t)(e - q));
		if (!x) {
			strbuf_add(&p->clean, q, (size_t)(e - q));
			break;
		}
		strbuf_add(&p->clean, q, (size_t)(x - q));
		q = x + 1;
		if (q < e && *q == '[') {
			q++;
			while (q < e && ((*q >= '0' && *q <= '?') || (*q >= ' ' && *q <= '/')))
				q++;
			if (q < e)
				q++;
		}
	}
	*ps = p->clean.buf ? p->clean.buf : "";
	*pe = *ps + p->clean.len;
}

/* Hands a segment to the rules of one pass; 1 if they took it. */
static int try_rules(struct tp_parser *p, int pass, const struct seg *sg, const char *raw,
		     const char *raw_e, int bar)
{
	struct tp_rules_line ln = { sg->t, (size_t)(sg->e - sg->t), raw, (size_t)(raw_e - raw),
				    bar, p->file, p->lineno, p->st.rule_hits, p->no_rule_marker,
				    p->cur_rank, p->cur_ts };
	int rc = tp_rules_match_pass(p->rules, p->scratch, pass, &ln, &p->rules_sink);
	if (rc > 0)
		p->emitted++; /* a block or context rule takes a line without a record */
	return rc != 0;
}

/* A finished bar: "100%|" (@bar rules read a loop's final rate). */
static int bar_done(const char *s, const char *e)
{
	size_t look = (size_t)(e - s) < 96 ? (size_t)(e - s) : 96;
	const char *pct = memchr(s, '%', look);
	return pct && pct - s >= 3 && !memcmp(pct - 3, "100", 3);
}

/*
 * A finished bar cut by the end of its line, as a terminal of 120 columns
 * wraps "100%|████…" before "█| 91/91 [00:00<00:00, 484.83 examples/s]":
 * the whole segment is the bar's start, with no closing '|'.
 */
static int cut_bar(const char *s, const char *e)
{
	size_t look = (size_t)(e - s) < 96 ? (size_t)(e - s) : 96;
	const char *pct = memchr(s, '%', look);
	return pct && pct + 1 < e && pct[1] == '|' && bar_done(s, e) &&
	       !memchr(pct + 2, '|', (size_t)(e - pct - 2)) && !memchr(pct + 2, '[', (size_t)(e - pct - 2));
}

/* The last progress bar of a physical line, for @bar rules; rank: its
 * launcher prefix's. */
static void bar_rules(struct tp_parser *p, const char *s, const char *e, int rank)
{
	struct seg sg = { s, e, s };
	p->cur_rank = rank;
	p->cur_ts = NULL;
	for (int pass = 0; pass < 2; pass++)
		if (tp_rules_has_bar(p->rules, pass) && try_rules(p, pass, &sg, s, e, 1))
			return;
}

/* Only blanks and escape sequences in [s, e): the cursor moved, nothing printed. */
static int only_escapes(const char *s, const char *e)
{
	while (s < e) {
		if (tp_is_blank(*s)) {
			s++;
		} else if (*s == '\x1b' && s + 1 < e && s[1] == '[') {
			s += 2;
			while (s < e && !(*s >= '@' && *s <= '~'))
				s++;
			s += s < e;
		} else {
			return 0;
		}
	}
	return 1;
}

/*
 * A finished bar [b, be) that only cursor moves follow, redrawn finished in
 * the next segment [n, ne) with the same count and an elapsed time at most
 * a second later: tqdm's close() redraws a nested bar in place with the
 * run's mean rate ("| 469/469 [05:33<00:00, 1.51it/s]\x1b[A\r100%|…|
 * 469/469 [05:33<00:00, 1.41it/s]"; "| 498/498 [3:45:36<00:00,
 * 25.29s/it]\x1b[A\r...| 498/498 [3:45:37<00:00, 27.18s/it]"), and only
 * that last redraw stands.
 */
static int redrawn_next(const char *b, const char *be, const char *e, const char *n, const char *ne)
{
	if (!n || !only_escapes(be, e))
		return 0;
	const char *lt = memchr(b, '<', (size_t)(be - b));
	const char *lb = lt ? memchr(b, '[', (size_t)(lt - b)) : NULL, *c = lt;
	while (c && c > b && c[-1] != '|')
		c--;
	if (!c || c == b || !lb || lb < c || lt - c < 5 || ne - n < lt - c || !bar_done(n, ne))
		return 0;
	/* the count through its '[' in the next redraw, then its elapsed */
	size_t k = (size_t)(lb - c + 1), look = (size_t)(ne - n) < 400 ? (size_t)(ne - n) : 400;
	const char *m = memmem(n, look, c, k);
	double was, now;
	const char *x;
	return m && tp_read_clock_at(lb + 1, lt, &was, &x) && x == lt &&
	       tp_read_clock_at(m + k, ne, &now, &x) && x < ne && *x == '<' && now >= was && now <= was + 1;
}

static void segment(struct tp_parser *p, const char *s, const char *e, int last, const char *next,
		    const char *next_e)
{
	const char *lastbar;
	p->cur_rank = -1;
	p->cur_ts = NULL;
	if (p->wrap_len) {
		/* the rest of a wrapped bar: read it whole, then what follows it */
		strbuf_reset(&p->joined);
		strbuf_add(&p->joined, p->wrap, p->wrap_len);
		strbuf_add(&p->joined, s, (size_t)(e - s));
		size_t wl = p->wrap_len;
		p->wrap_len = 0;
		const char *j = p->joined.buf, *je = j + p->joined.len;
		const char *end = tp_progress_tqdm(p, j, je, 0, &lastbar);
		if (end > j + wl) {
			bar_rules(p, j, end, -1);
			s += end - j - wl;
			if (s >= e)
				return;
		}
	}
	/* a bar first: most bytes of many logs are redraws; a launcher's
	 * prefix may stand before it ("[default1]:100%|███"), and a print()
	 * that follows one on the same screen starts after its closing ']' */
	const char *bar = s;
	int bar_rank = -1;
	if (s < e && (*s == '[' || tp_is_digit(*s))) {
		int rank = -1;
		const char *b = strip_prefixes(s, e, &rank), *end = b;
		if (b > s) {
			p->cur_rank = rank; /* the bar's records are its rank's */
			end = tp_progress_tqdm(p, b, e, 1, &lastbar);
			p->cur_rank = -1;
		}
		if (end > b) {
			bar = b;
			bar_rank = rank;
			s = end;
		}
	}
	if (bar == s)
		s = tp_progress_tqdm(p, s, e, 1, &lastbar);
	/* the final redraw, or one a print() follows (not blanks a redraw pads
	 * itself with over a longer one) */
	if (s > bar && p->rules && (last || tp_skip_blanks(s, e) < e) && bar_done(lastbar, s) &&
	    !redrawn_next(lastbar, s, e, next, next_e))
		bar_rules(p, lastbar, s, bar_rank);
	if (s >= e)
		return;
	const char *cb = tp_skip_blanks(s, e); /* a terminal pads the line before */
	if (last && p->rules && (size_t)(e - cb) <= sizeof(p->wrap) && cut_bar(cb, e) &&
	    (tp_rules_has_bar(p->rules, 0) || tp_rules_has_bar(p->rules, 1))) {
		/* "100%|" made the line a candidate; the next is read whatever it holds */
		memcpy(p->wrap, cb, (size_t)(e - cb));
		p->wrap_len = (size_t)(e - cb);
		p->wrap_line = p->lineno;
		return;
	}
	if (memchr(s, '\x1b', (size_t)(e - s)))
		strip_ansi(p, &s, &e);
	const char *raw = s;
	/* an mmcv, rich or Keras bar: its record, and the packs may read it */
	p->seg_bar = tp_progress_other(p, s, e);
	struct seg sg;
	sg.s = tp_skip_blanks(s, e);
	sg.s = strip_prefixes(sg.s, e, &p->cur_rank);
	sg.e = trim_end(sg.s, e);
	if (sg.s >= sg.e && p->cur_rank < 0)
		return;
	sg.t = tp_skip_blanks(sg.s, sg.e);
	sg.t = strip_ts(p, sg.t, sg.e);
	sg.t = tp_strip_logger(p, sg.t, &sg.e);
	sg.t = strip_level(sg.t, sg.e);
	if (!p->cur_ts)
		sg.t = strip_ts(p, sg.t, sg.e);
	if (!p->cur_ts)
		trailing_stamp(p, sg.t, sg.e);

	if (p->cur_ts)
		note_span(p);
	struct rank_state *rs = rank_state(p, p->cur_rank);
	if (rs->has_pending) {
		/* the "GPU peak:" line must follow its [Performance] line */
		if (continue_pending(p, rs, &sg))
			return;
		tp_flush_pending(p, rs);
	}

	if (p->lineno <= TP_CONFIG_LINES)
		tp_config_scan(sg.s, (size_t)(sg.e - sg.s), config_hit, &(struct config_ctx){ p, rs });

	p->nseen = 0;
	p->rule_records = 0;
	if (p->rules && tp_rules_has_pass(p->rules, 0)) {
		tp_flush_pending(p, rs);
		if (try_rules(p, 0, &sg, raw, e, 0)) {
			if (p->rule_records)
				discover(p, &sg); /* what the rules left of the line */
			return;
		}
	}
	if (rs->blk.kind != BLK_NONE) {
		if (tp_block_row(p, rs, &sg))
			return;
		if (++rs->blk.misses >= 3)
			tp_block_end(p, rs);
	}
	if (sg.t >= sg.e)
		return;
	if (tp_block_start(p, rs, &sg))
		return;
	if (tp_lines_dispatch(p, rs, &sg))
		return;
	/* format packs read what the built-in readers did not */
	if (!p->rules || !tp_rules_has_pass(p->rules, 1) || !try_rules(p, 1, &sg, raw, e, 0) ||
	    p->rule_records)
		discover(p, &sg);
}

void tp_parser_feed(struct tp_parser *p, const char *s, size_t n, int flags)
{
	if (flags & TP_LINE_START) {
		if (p->wrap_len && p->wrap_line != p->lineno)
			p->wrap_len = 0; /* only the next line can finish a wrapped bar */
		p->lineno++;
		p->st.lines++;
		p->emitted = 0;
		p->line_bytes = 0;
		p->seg_open = 0;
	}
	p->st.bytes += n + ((flags & TP_LINE_END) && !(flags & TP_LINE_NOEOL) ? 1 : 0);
	if (p->line_bytes + n > TP_MAX_LINE)
		p->long_line = 1;
	p->line_bytes += n;
	const char *e = s + n;
	/* a part cut inside a segment (no '\r' ends it): the next part's first
	 * segment is its rest, read by nothing (its start was) */
	int open = !(flags & TP_LINE_END) && n > 0 && e[-1] != '\r';
	while (e > s && (e[-1] == '\r' || e[-1] == '\n'))
		e--;
	while (s < e) {
		const char *cr = memchr(s, '\r', (size_t)(e - s));
		const char *se = cr ? cr : e;
		int rest = p->seg_open;
		p->seg_open = 0;
		/* every segment (a progress bar's redraw) on its first TP_MAX_LINE bytes */
		const char *next = cr && cr + 1 < e ? cr + 1 : NULL, *next_e = NULL;
		if (next) {
			next_e = memchr(next, '\r', (size_t)(e - next));
			next_e = next_e ? next_e : e;
		}
		if (se > s && !rest)
			segment(p, s, se - s > TP_MAX_LINE ? s + TP_MAX_LINE : se, !cr && (flags & TP_LINE_END), next,
				next_e);
		s = cr ? cr + 1 : e;
	}
	if (n > 0)
		p->seg_open = open;
	if (flags & TP_LINE_END) {
		/* a pack's marker on a line nothing reads (the miner's lines are
		 * its own: it counts what it holds) */
		struct strbuf fmt = STRBUF_INIT;
		int k = p->emitted || !p->rules || p->disc_line == p->lineno
				? 0
				: tp_rules_missed(p->rules, p->scratch, p->lineno, &fmt);
		if (k == 1)
			tp_warn(p, "line holds a marker of format %s and none of its rules reads it", fmt.buf);
		else if (k > 1)
			tp_warn(p, "line holds markers of formats %s and none of their rules reads it", fmt.buf);
		strbuf_release(&fmt);
		if (!p->emitted)
			p->st.unrecognized++;
		if (p->long_line)
			p->st.long_lines++;
		p->long_line = 0;
	}
}

void tp_parser_line(struct tp_parser *p, const char *line, size_t n)
{
	tp_parser_feed(p, line, n, TP_LINE_START | TP_LINE_END);
}

void tp_parser_note_record(struct tp_parser *p, const struct tp_record *r)
{
	tp_note_emitted(p, r);
}

void tp_parser_finish(struct tp_parser *p)
{
	if (p->rules)
		tp_rules_finish(p->rules, p->scratch, &p->rules_sink);
	for (size_t i = 0; i < p->nranks; i++) {
		struct rank_state *rs = p->ranks[i];
		if (!rs)
			continue;
		p->cur_rank = i ? (int)i - 1 : -1;
		if (rs->blk.kind != BLK_NONE)
			tp_block_end(p, rs);
		tp_flush_pending(p, rs);
	}
	emit_span(p);
}

/* Parses the line at s (up to its '\n' or e); returns the next line's start. */
static const char *plain_line(struct tp_parser *p, const char *s, const char *e)
{
	const char *nl = memchr(s, '\n', (size_t)(e - s));
	const char *le = nl ? nl : e;
	tp_parser_feed(p, s, (size_t)(le - s), TP_LINE_START | TP_LINE_END | (nl ? 0 : TP_LINE_NOEOL));
	return nl ? nl + 1 : e;
}

static void plain_lines(struct tp_parser *p, const char *s, const char *e)
{
	while (s < e)
		s = plain_line(p, s, e);
}

/* The first line in [s,e) longer than TP_MAX_LINE, or NULL. */
static const char *find_long_line(const char *s, const char *e)
{
	while (e - s > TP_MAX_LINE) {
		/* the line at s is long iff its first TP_MAX_LINE + 1 bytes hold no '\n' */
		const char *nl = memrchr(s, '\n', TP_MAX_LINE + 1);
		if (!nl)
			return s;
		s = nl + 1;
	}
	return NULL;
}

/*
 * Lines [s,e) that hold no marker, read while no block is open and no
 * record is pending: the plain path would count them as lines, bytes and
 * unrecognized lines and do nothing else. A line too long to be parsed
 * whole is still fed to the parser (its cut end could look like a value).
 */
static void skip_lines(struct tp_parser *p, const char *s, const char *e)
{
	while (s < e) {
		const char *lng = find_long_line(s, e);
		const char *run = lng ? lng : e;
		/* a line that may hold a number with a unit goes to the miner */
		uint64_t n = 0;
		const char *disc = p->disc ? tp_disc_next_line(s, run, p->buf_end, &n) : run;
		int mined = disc < run;
		if (mined)
			run = disc, lng = disc;
		if (run > s) {
			if (!p->disc)
				n = tp_count_newlines(s, run);
			if (run[-1] != '\n')
				n++; /* the input's last line, without a line end */
			p->lineno += n;
			p->st.lines += n;
			p->st.unrecognized += n;
			p->st.bytes += (uint64_t)(run - s);
		}
		/* the candidate search found no pack marker on a line for the
		 * miner: the rules' gate need not look again */
		p->no_rule_marker = mined;
		s = lng ? plain_line(p, lng, e) : e;
		p->no_rule_marker = 0;
	}
}

/*
 * Must the next line be read whatever it holds? While a block is open or
 * a record pending (rows carry no marker), and in the first
 * TP_CONFIG_LINES lines, where config.c reads workload sizes from free
 * text (it reads a NUL byte as a blank, which no literal can stand for).
 */
static int must_read(const struct tp_parser *p)
{
	return p->lineno < TP_CONFIG_LINES || !tp_parser_idle(p);
}

/* Reads lines [s,e): plainly while they must be read, then skips. */
static const char *pass_to(struct tp_parser *p, const char *s, const char *e)
{
	while (s < e && must_read(p))
		s = plain_line(p, s, e);
	if (s < e)
		skip_lines(p, s, e);
	return e;
}

static void scan_buffer(struct tp_parser *p, const char *s, const char *e)
{
	while (s < e) {
		if (must_read(p)) {
			s = plain_line(p, s, e);
			continue;
		}
		const char *done;
		long k = tp_scan_lines(p->scan, p->scan_ss, s, e, p->cand, SCAN_CAP, &done);
		if (k < 0) {
			plain_lines(p, s, e);
			return;
		}
		size_t nr, j = 0;
		const char *const *rh = tp_scan_rule_hits(p->scan_ss, &nr);
		for (long i = 0; i < k; i++) {
			const char *c = p->cand[i];
			if (c < s)
				continue; /* read already, inside a block */
			s = pass_to(p, s, c);
			if (rh && s == c) {
				/* most candidates are the built-in readers': the search
				 * already knows that no pack marker is on the line */
				while (j < nr && rh[j] < c)
					j++;
				p->no_rule_marker = j == nr || memchr(c, '\n', (size_t)(rh[j] - c)) != NULL;
			}
			s = plain_line(p, s, e);
			p->no_rule_marker = 0;
		}
		if (s < done)
			s = pass_to(p, s, done);
	}
}

void tp_parser_set_scanner(struct tp_parser *p, const struct tp_scanner *sc)
{
	tp_scan_scratch_free(p->scan_ss);
	p->scan_ss = NULL;
	p->scan = NULL;
	if (!sc)
		return;
	p->scan_ss = tp_scan_scratch_new(sc);
	if (!p->scan_ss)
		return; /* the plain path reads the same */
	if (!p->cand)
		p->cand = xmalloc(SCAN_CAP * sizeof(*p->cand));
	p->scan = sc;
}

void tp_parse_buffer(struct tp_parser *p, const char *buf, size_t n)
{
	p->buf = buf;
	p->buf_end = buf + n;
	if (p->scan && tp_rules_scan_safe(p->rules))
		scan_buffer(p, buf, buf + n);
	else
		plain_lines(p, buf, buf + n);
	p->buf = p->buf_end = NULL;
}
