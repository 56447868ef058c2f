/*
 * driver.c - whole-input parsing, single- or multi-threaded (see driver.h).
 *
 * Threads: each round reads threads x chunk bytes, each thread one piece of
 * a plain file with pread, counting the piece's line ends while it is in
 * that core's cache (so neither the kernel's copy nor the line numbers are
 * a serial part). The round is cut into one slice per thread at the first
 * line end of each piece, and every thread parses its slice with a parser
 * that starts with no open block. That is right unless
 * a table or a pending record straddles the cut: the main thread then
 * checks, slice by slice in order, whether the true parser (the one that
 * read everything before) was idle at the cut. If it was, the worker's
 * output is exact and the worker's parser becomes the true one; if not,
 * the main thread parses that slice again itself. Blocks are a few lines
 * long, so re-parsing is rare and the output is always that of one thread.
 */
#include "driver.h"

#include <errno.h>
#include <pthread.h>
#include <sys/stat.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "parse/discover/discover.h"
#include "follow.h"
#include "input.h"
#include "parse/scan/scan.h"

#define DEFAULT_CHUNK (2 * 1024 * 1024)
#define FLUSH_AT (256 * 1024)
#define MIN_PARALLEL_SIZE (4 * 1024 * 1024)

/* Where a parser's records and warnings go. */
struct slot {
	const struct tp_run_opts *o;
	struct strbuf out;   /* formatted text or encoded records */
	struct strbuf warns; /* encoded warnings */
	int direct;          /* deliver at once instead of buffering (one thread) */
	int stop;
	/* template discovery: the run's miner, fed in input order from the
	 * calling thread; a worker's lines for it wait in disc, each with the
	 * length of out when it came */
	struct tp_miner *miner;
	struct strbuf disc;
	struct strbuf now;   /* a discovered record's text, written at once */
	struct tp_parser *span; /* the parser bound: the records count in its log span */
};

static void put_u32(struct strbuf *sb, uint32_t v)
{
	strbuf_add(sb, &v, sizeof(v));
}

static void put_str(struct strbuf *sb, const char *s, size_t n, int nul)
{
	if (!s) {
		put_u32(sb, UINT32_MAX);
		return;
	}
	put_u32(sb, (uint32_t)n);
	strbuf_add(sb, s, n);
	if (nul)
		strbuf_addch(sb, '\0');
}

static void encode_record(struct strbuf *sb, const struct tp_record *r)
{
	uint8_t t = (uint8_t)r->type;
	int32_t rank = r->rank;
	uint64_t line = r->line;
	uint32_t has = r->has;
	strbuf_add(sb, &t, 1);
	strbuf_add(sb, &rank, sizeof(rank));
	strbuf_add(sb, &line, sizeof(line));
	put_u32(sb, has);
	for (int i = 0; i < TP_NUM_SLOTS; i++)
		if (tp_has_slot(has, i))
			strbuf_add(sb, &r->num[i], sizeof(double));
	put_str(sb, r->name, r->name_len, 0);
	put_str(sb, r->text, r->text_len, 0);
	put_str(sb, r->ts, r->ts ? strlen(r->ts) : 0, 1);
	put_u32(sb, (uint32_t)r->role);
	put_str(sb, r->parent, r->parent_len, 0);
}

static const char *get_str(const char *p, const char **s, size_t *n, int nul)
{
	uint32_t len;
	memcpy(&len, p, 4);
	p += 4;
	if (len == UINT32_MAX) {
		*s = NULL;
		*n = 0;
		return p;
	}
	*s = p;
	*n = len;
	return p + len + (nul ? 1 : 0);
}

static const char *decode_record(const char *p, struct tp_record *r, const char *file)
{
	uint8_t t;
	int32_t rank;
	uint32_t has;
	size_t tslen;
	memset(r, 0, sizeof(*r));
	memcpy(&t, p, 1);
	p += 1;
	memcpy(&rank, p, 4);
	p += 4;
	memcpy(&r->line, p, 8);
	p += 8;
	memcpy(&has, p, 4);
	p += 4;
	r->type = (enum tp_type)t;
	r->rank = rank;
	r->has = has;
	r->file = file;
	for (int i = 0; i < TP_NUM_SLOTS; i++)
		if (tp_has_slot(has, i)) {
			memcpy(&r->num[i], p, sizeof(double));
			p += sizeof(double);
		}
	p = get_str(p, &r->name, &r->name_len, 0);
	p = get_str(p, &r->text, &r->text_len, 0);
	p = get_str(p, &r->ts, &tslen, 1);
	uint32_t role;
	memcpy(&role, p, 4);
	r->role = (enum tp_role)role;
	return get_str(p + 4, &r->parent, &r->parent_len, 0);
}

static void deliver(struct slot *sl, const char *file);

static int slot_emit(void *ctx, const struct tp_record *r)
{
	struct slot *sl = ctx;
	const struct tp_run_opts *o = sl->o;
	if (o->type_mask && !(o->type_mask & (1u << r->type)))
		return 0;
	if (o->count_only)
		return 0;
	if (o->fmt >= 0) {
		tp_emit_record((enum tp_out_format)o->fmt, r, &sl->out);
		if (sl->direct && sl->out.len >= FLUSH_AT)
			deliver(sl, r->file);
	} else if (sl->direct) {
		o->sink.emit(o->sink.ctx, r);
	} else {
		encode_record(&sl->out, r);
	}
	return 0;
}

static void slot_warn(void *ctx, const char *file, uint64_t line, const char *msg)
{
	struct slot *sl = ctx;
	if (sl->direct) {
		if (sl->o->sink.warn)
			sl->o->sink.warn(sl->o->sink.ctx, file, line, msg);
		return;
	}
	strbuf_add(&sl->warns, &line, sizeof(line));
	put_str(&sl->warns, msg, strlen(msg), 1);
}

/* A discovered record, from the calling thread: out at once. */
static int slot_emit_now(void *ctx, const struct tp_record *r)
{
	struct slot *sl = ctx;
	const struct tp_run_opts *o = sl->o;
	if (sl->span)
		tp_parser_note_record(sl->span, r);
	if ((o->type_mask && !(o->type_mask & (1u << r->type))) || o->count_only)
		return 0;
	if (o->fmt < 0) {
		o->sink.emit(o->sink.ctx, r);
		return 0;
	}
	strbuf_reset(&sl->now);
	tp_emit_record((enum tp_out_format)o->fmt, r, &sl->now);
	if (!sl->stop && o->write && o->write(o->ctx, sl->now.buf, sl->now.len))
		sl->stop = 1;
	return 0;
}

/* A discovered record on one thread: out as the parser's records go. */
static int slot_emit_disc(void *ctx, const struct tp_record *r)
{
	struct slot *sl = ctx;
	if (sl->span)
		tp_parser_note_record(sl->span, r);
	return slot_emit(ctx, r);
}

/* A line for the miner: mined now (one thread), or kept for deliver. */
static void slot_disc(void *ctx, const struct tp_disc_line *ln)
{
	struct slot *sl = ctx;
	if (sl->direct) {
		struct tp_sink s = { slot_emit_disc, slot_warn, sl };
		tp_miner_line(sl->miner, ln, &s);
		return;
	}
	struct strbuf *sb = &sl->disc;
	uint64_t off = sl->out.len;
	int32_t rank = ln->rank;
	strbuf_add(sb, &off, sizeof(off));
	strbuf_add(sb, &ln->line, sizeof(ln->line));
	strbuf_add(sb, &rank, sizeof(rank));
	put_str(sb, ln->ts, ln->ts ? strlen(ln->ts) : 0, 1);
	put_str(sb, ln->s, ln->n, 0);
	put_u32(sb, (uint32_t)ln->nseen);
	strbuf_add(sb, ln->seen, ln->nseen * sizeof(double));
}

/* Out: the slot's buffered output in [a, b). */
static void deliver_out(struct slot *sl, const char *file, size_t a, size_t b)
{
	const struct tp_run_opts *o = sl->o;
	if (b <= a)
		return;
	if (o->fmt >= 0) {
		if (!sl->stop && o->write && o->write(o->ctx, sl->out.buf + a, b - a))
			sl->stop = 1;
	} else if (!sl->direct) {
		const char *p = sl->out.buf + a, *e = sl->out.buf + b;
		while (p < e) {
			struct tp_record r;
			p = decode_record(p, &r, file);
			o->sink.emit(o->sink.ctx, &r);
		}
	}
}

/* Hands a slot's buffered output and warnings to the caller, in order;
 * the lines a worker kept for the miner are mined where they came. */
static void deliver(struct slot *sl, const char *file)
{
	const struct tp_run_opts *o = sl->o;
	const char *p = sl->warns.buf, *e = p + sl->warns.len;
	while (p && p < e) {
		uint64_t line;
		const char *msg;
		size_t n;
		memcpy(&line, p, 8);
		p = get_str(p + 8, &msg, &n, 1);
		if (o->sink.warn)
			o->sink.warn(o->sink.ctx, file, line, msg);
	}
	strbuf_reset(&sl->warns);
	size_t pos = 0;
	p = sl->disc.buf;
	e = p + sl->disc.len;
	while (p && p < e) {
		struct tp_disc_line ln = { .file = file };
		uint64_t off;
		int32_t rank;
		uint32_t nseen;
		size_t tslen;
		memcpy(&off, p, 8);
		memcpy(&ln.line, p + 8, 8);
		memcpy(&rank, p + 16, 4);
		ln.rank = rank;
		p = get_str(p + 20, &ln.ts, &tslen, 1);
		p = get_str(p, &ln.s, &ln.n, 0);
		memcpy(&nseen, p, 4);
		double seen[TP_DISC_SEEN];
		ln.nseen = nseen <= TP_DISC_SEEN ? nseen : TP_DISC_SEEN;
		memcpy(seen, p + 4, ln.nseen * sizeof(double));
		ln.seen = seen;
		p += 4 + nseen * sizeof(double);
		deliver_out(sl, file, pos, (size_t)off);
		pos = (size_t)off;
		tp_miner_line(sl->miner, &ln, &(struct tp_sink){ slot_emit_now, NULL, sl });
	}
	strbuf_reset(&sl->disc);
	deliver_out(sl, file, pos, sl->out.len);
	strbuf_reset(&sl->out);
}

static void slot_bind(struct slot *sl, struct tp_parser *p)
{
	struct tp_sink s = { slot_emit, slot_warn, sl };
	tp_parser_set_sink(p, &s);
	tp_parser_set_discover(p, sl->miner ? slot_disc : NULL, sl);
	sl->span = p;
}

/* The run's miner, when discovery is on and its records are wanted. */
static struct tp_miner *run_miner(const struct tp_run_opts *o)
{
	unsigned want = (1u << TP_TIMING) | (1u << TP_RATE);
	if (o->no_discovery || (o->type_mask && !(o->type_mask & want)))
		return NULL;
	return tp_miner_new(o->discover_min);
}

/* Adds the miner's counts to the run's statistics and frees it. */
static void end_miner(struct tp_miner *m, struct tp_stats *stats)
{
	if (!m)
		return;
	struct tp_miner_stats ms = { 0 };
	tp_miner_add_stats(m, &ms);
	stats->disc_lines += ms.lines;
	stats->disc_templates += ms.templates;
	stats->disc_series += ms.series;
	stats->disc_evicted += ms.evicted;
	for (int t = 0; t < TP_NTYPES; t++)
		stats->records[t] += ms.records[t];
	tp_miner_free(m);
}

static void slot_release(struct slot *sl)
{
	strbuf_release(&sl->out);
	strbuf_release(&sl->warns);
	strbuf_release(&sl->disc);
	strbuf_release(&sl->now);
}

int tp_run_wants_progress(const struct tp_run_opts *o)
{
	return !o->no_progress && (!o->type_mask || (o->type_mask & (1u << TP_PROGRESS)));
}

/* One thread, from the piece at hand (n == (size_t)-1: none yet). */
static int run_stream_from(struct tp_input *in, const char *file, const struct tp_run_opts *o,
			   struct tp_stats *stats, const char *line, size_t n, int flags,
			   struct strbuf *err)
{
	struct slot sl = { .o = o, .direct = 1, .miner = run_miner(o) };
	struct tp_sink s = { slot_emit, slot_warn, &sl };
	struct tp_parser *p = tp_parser_new(file, &s, o->rules);
	tp_parser_set_progress(p, tp_run_wants_progress(o));
	slot_bind(&sl, p);
	int rc = 1;
	uint64_t done = 0, next_report = 16u << 20;
	if (n == (size_t)-1)
		rc = tp_input_next(in, &line, &n, &flags, err);
	for (; rc > 0 && !sl.stop; rc = tp_input_next(in, &line, &n, &flags, err)) {
		tp_parser_feed(p, line, n, flags);
		done += n + 1;
		if (o->progress && done >= next_report) {
			o->progress(o->progress_ctx, done, in->is_regular ? (uint64_t)in->size : 0);
			next_report = done + (16u << 20);
		}
	}
	tp_parser_finish(p);
	deliver(&sl, file);
	tp_parser_take_stats(p, stats);
	tp_parser_free(p);
	end_miner(sl.miner, stats);
	slot_release(&sl);
	if (sl.stop)
		return 1;
	return rc < 0 ? -1 : 0;
}

struct worker {
	struct tp_parser *p;
	struct slot sl;
	const char *s, *e; /* slice */
	uint64_t first_line;
	pthread_t tid;
	/* a piece of the round's read (read_round) */
	const struct tp_input *in;
	char *rd;
	size_t rd_n;
	int64_t rd_off;
	long rd_got;
	int rd_errno;
	uint64_t rd_nl;    /* line ends in the piece read */
	uint64_t rd_before; /* line ends in the round's buffer before the piece */
};

static void parse_slice(struct tp_parser *p, const char *s, const char *e, uint64_t first_line)
{
	tp_parser_set_lineno(p, first_line);
	tp_parse_buffer(p, s, (size_t)(e - s));
}

static void *worker_parse(void *arg)
{
	struct worker *w = arg;
	parse_slice(w->p, w->s, w->e, w->first_line);
	return NULL;
}

static void *worker_read(void *arg)
{
	struct worker *w = arg;
	w->rd_got = tp_input_pread(w->in, w->rd, w->rd_n, w->rd_off);
	w->rd_errno = errno;
	/* counted here, while the bytes are in this core's cache */
	w->rd_nl = w->rd_got > 0 ? tp_count_newlines(w->rd, w->rd + w->rd_got) : 0;
	return NULL;
}

struct par;
static struct tp_parser *new_parser(const struct par *pp);

/* Runs fn on workers 0..n-1 at once (worker 0 on this thread). */
static void run_workers(struct worker *w, int n, void *(*fn)(void *))
{
	for (int i = 1; i < n; i++)
		if (pthread_create(&w[i].tid, NULL, fn, &w[i]) != 0) {
			w[i].tid = 0;
			fn(&w[i]);
		}
	fn(&w[0]);
	for (int i = 1; i < n; i++)
		if (w[i].tid)
			pthread_join(w[i].tid, NULL);
}

struct par {
	const struct tp_run_opts *o;
	const char *file;
	int nt;
	struct worker *w;
	struct tp_parser *seq; /* the true parser: it has read everything so far */
	struct slot seq_slot;
	struct tp_stats *stats;
	uint64_t next_line;    /* number of the next line to parse */
	/* this round's read pieces w[0..npieces) (read_round), after a start
	 * that holds no line end */
	int npieces;
};

/* Line ends in the round's buffer before x, from the pieces' counts. */
static uint64_t newlines_before(const struct par *pp, const char *x)
{
	int j = pp->npieces - 1;
	while (j > 0 && pp->w[j].rd > x)
		j--;
	const struct worker *w = &pp->w[j];
	if (x <= w->rd)
		return j ? w->rd_before : 0; /* before the first piece: no line end */
	return w->rd_before + tp_count_newlines(w->rd, x);
}

/* Cuts [s,e) into slices at the first line end after each piece's start,
 * with their first lines; returns the number of slices. */
static int cut_at_pieces(struct par *pp, const char *s, const char *e)
{
	const char *cur = s;
	const uint64_t base = newlines_before(pp, s);
	uint64_t at = base;
	int used = 0;
	for (int i = 0; i < pp->nt && cur < e; i++) {
		const char *cut = e;
		const char *from = i + 1 < pp->npieces ? pp->w[i + 1].rd : e;
		if (from < cur)
			from = cur;
		if (from < e) {
			const char *nl = memchr(from, '\n', (size_t)(e - from));
			cut = nl ? nl + 1 : e;
		}
		struct worker *w = &pp->w[i];
		w->s = cur;
		w->e = cut;
		w->first_line = pp->next_line + (at - base);
		slot_bind(&w->sl, w->p);
		cur = cut;
		used++;
		if (cut < e)
			at = newlines_before(pp, cut);
	}
	return used;
}

/* Parses whole lines [s,e) (ending in '\n') with the workers, in order. */
static void parallel_round(struct par *pp, const char *s, const char *e)
{
	int used = cut_at_pieces(pp, s, e);
	run_workers(pp->w, used, worker_parse);

	for (int i = 0; i < used; i++) {
		struct worker *w = &pp->w[i];
		if (tp_parser_idle(pp->seq)) {
			deliver(&w->sl, pp->file);
			tp_parser_take_stats(w->p, pp->stats);
			tp_parser_carry_span(w->p, pp->seq);
			struct tp_parser *t = pp->seq;
			pp->seq = w->p;
			w->p = t; /* idle, so it can start the next slice */
		} else {
			/* a block straddles the cut: re-read the slice with the true state */
			strbuf_reset(&w->sl.out);
			strbuf_reset(&w->sl.warns);
			strbuf_reset(&w->sl.disc);
			tp_parser_take_stats(w->p, NULL);
			tp_parser_free(w->p);
			w->p = new_parser(pp);
			slot_bind(&pp->seq_slot, pp->seq);
			parse_slice(pp->seq, w->s, w->e, w->first_line);
			deliver(&pp->seq_slot, pp->file);
			tp_parser_take_stats(pp->seq, pp->stats);
		}
		if (w->sl.stop || pp->seq_slot.stop)
			return;
	}
	pp->next_line = tp_parser_next_line(pp->seq);
}

static struct tp_parser *new_parser(const struct par *pp)
{
	struct tp_parser *p = tp_parser_new(pp->file, &(struct tp_sink){ 0 }, pp->o->rules);
	tp_parser_set_scanner(p, pp->o->scanner);
	tp_parser_set_progress(p, tp_run_wants_progress(pp->o));
	return p;
}

/* Where a part of a line longer than the buffer ends: after its last '\r'
 * (segments stay whole), else at e. */
static const char *cut_after_cr(const char *s, const char *e)
{
	const char *cr = s < e ? memrchr(s, '\r', (size_t)(e - s)) : NULL;
	return cr ? cr + 1 : e;
}

/*
 * Reads up to want bytes into dst like tp_input_read; a plain file is read
 * in one piece per thread at once, so that the kernel's copy is not the
 * serial part of a round. The pieces are used up to the first short one
 * (the end of the file). Otherwise the read is one piece, whose line ends
 * need no count: none lies before it in the round.
 */
static long read_round(struct par *pp, struct tp_input *in, char *dst, size_t want,
		       struct strbuf *err)
{
	int64_t off = tp_input_tell(in);
	if (off < 0 || pp->nt < 2 || want < (size_t)pp->nt) {
		pp->w[0].rd = dst;
		pp->w[0].rd_before = 0;
		pp->npieces = 1;
		return tp_input_read(in, dst, want, err);
	}
	pp->npieces = 0;
	size_t per = want / (size_t)pp->nt;
	if (per >= 65536)
		per = (per + 4095) & ~(size_t)4095; /* whole pages where it matters */
	int n = 0;
	for (size_t at = 0; at < want && n < pp->nt; n++) {
		struct worker *w = &pp->w[n];
		w->in = in;
		w->rd = dst + at;
		w->rd_n = want - at < per || n == pp->nt - 1 ? want - at : per;
		w->rd_off = off + (int64_t)at;
		at += w->rd_n;
	}
	run_workers(pp->w, n, worker_read);
	size_t total = 0;
	uint64_t nl = 0;
	for (int i = 0; i < n; i++) {
		struct worker *w = &pp->w[i];
		if (w->rd_got < 0) {
			if (total)
				break; /* the error comes again on the next read */
			strbuf_addf(err, "%s: read error: %s", in->name, strerror(w->rd_errno));
			return -1;
		}
		w->rd_before = nl;
		nl += w->rd_nl;
		total += (size_t)w->rd_got;
		pp->npieces = i + 1;
		if ((size_t)w->rd_got < w->rd_n)
			break;
	}
	if (tp_input_advance(in, total, err) < 0)
		return -1;
	return (long)total;
}

static int stopped(const struct par *pp)
{
	for (int i = 0; i < pp->nt; i++)
		if (pp->w[i].sl.stop)
			return 1;
	return pp->seq_slot.stop;
}

static int run_parallel(struct tp_input *in, const char *file, const struct tp_run_opts *o,
			struct tp_stats *stats, struct strbuf *err)
{
	struct par pp = { .o = o, .file = file, .nt = o->threads, .stats = stats, .next_line = 1 };
	size_t chunk = o->chunk ? o->chunk : DEFAULT_CHUNK;
	size_t cap = chunk * (size_t)pp.nt;
	char *buf = xmalloc(cap);
	size_t have = 0;
	int rc = 0, in_line = 0;
	uint64_t done = 0;
	if (pp.nt < 1)
		pp.nt = 1;
	pp.w = xcalloc((size_t)pp.nt, sizeof(*pp.w));
	struct tp_miner *miner = run_miner(o);
	for (int i = 0; i < pp.nt; i++) {
		pp.w[i].p = new_parser(&pp);
		pp.w[i].sl.o = o;
		pp.w[i].sl.miner = miner;
	}
	pp.seq_slot.o = o;
	pp.seq_slot.miner = miner;
	pp.seq = new_parser(&pp);
	slot_bind(&pp.seq_slot, pp.seq);

	for (;;) {
		long r = read_round(&pp, in, buf + have, cap - have, err);
		if (r < 0) {
			rc = -1;
			break;
		}
		have += (size_t)r;
		int eof = r == 0;
		if (have == 0) {
			if (in_line) {
				/* a line longer than the buffer ran to the end of the input */
				slot_bind(&pp.seq_slot, pp.seq);
				tp_parser_feed(pp.seq, "", 0, TP_LINE_END | TP_LINE_NOEOL);
				deliver(&pp.seq_slot, file);
				tp_parser_take_stats(pp.seq, stats);
			}
			break;
		}
		char *s = buf, *e = buf + have;
		if (in_line) {
			/* finish a line longer than the whole buffer on the true parser;
			 * a part that does not end it is cut after its last '\r', as
			 * the one-thread reader cuts (segments whole on both paths) */
			char *nl = memchr(s, '\n', have);
			const char *part_end = nl ? nl : eof ? e : cut_after_cr(s, e);
			slot_bind(&pp.seq_slot, pp.seq);
			tp_parser_feed(pp.seq, s, (size_t)(part_end - s),
				       nl ? TP_LINE_END : eof ? TP_LINE_END | TP_LINE_NOEOL : 0);
			if (nl || eof) {
				in_line = 0;
				pp.next_line++;
			}
			deliver(&pp.seq_slot, file);
			tp_parser_take_stats(pp.seq, stats);
			s = nl ? nl + 1 : (char *)part_end;
		}
		char *last = s < e ? memrchr(s, '\n', (size_t)(e - s)) : NULL;
		char *whole_end = last ? last + 1 : s;
		if (whole_end > s)
			parallel_round(&pp, s, whole_end);
		done += (uint64_t)(whole_end - buf);
		if (o->progress)
			o->progress(o->progress_ctx, done, (uint64_t)in->size);
		if (stopped(&pp)) {
			rc = 1;
			break;
		}
		size_t rest = (size_t)(e - whole_end);
		if (eof) {
			if (rest) {
				slot_bind(&pp.seq_slot, pp.seq);
				tp_parser_set_lineno(pp.seq, pp.next_line);
				tp_parser_feed(pp.seq, whole_end, rest, TP_LINE_START | TP_LINE_END | TP_LINE_NOEOL);
			}
			break;
		}
		if (rest == cap) {
			/* no line end in the whole buffer: start a long line, cut
			 * after its last '\r' as above */
			size_t part = (size_t)(cut_after_cr(whole_end, e) - whole_end);
			slot_bind(&pp.seq_slot, pp.seq);
			tp_parser_set_lineno(pp.seq, pp.next_line);
			tp_parser_feed(pp.seq, whole_end, part, TP_LINE_START);
			deliver(&pp.seq_slot, file);
			tp_parser_take_stats(pp.seq, stats);
			in_line = 1;
			whole_end += part;
			rest -= part;
		}
		memmove(buf, whole_end, rest);
		have = rest;
	}
	slot_bind(&pp.seq_slot, pp.seq);
	deliver(&pp.seq_slot, file); /* the last lines mined before the span */
	tp_parser_finish(pp.seq);
	deliver(&pp.seq_slot, file);
	tp_parser_take_stats(pp.seq, stats);
	if (pp.seq_slot.stop)
		rc = 1;

	tp_parser_free(pp.seq);
	slot_release(&pp.seq_slot);
	for (int i = 0; i < pp.nt; i++) {
		tp_parser_free(pp.w[i].p);
		slot_release(&pp.w[i].sl);
	}
	end_miner(miner, stats);
	free(pp.w);
	free(buf);
	return rc;
}

static int64_t min_chunked(size_t chunk)
{
	return chunk ? 2 * (int64_t)chunk : MIN_PARALLEL_SIZE;
}

int tp_inputs_want_scanner(char *const *paths, int n, size_t chunk)
{
	for (int i = 0; i < n; i++) {
		struct tp_input in;
		struct strbuf err = STRBUF_INIT;
		int want = 0;
		struct stat st;
		/* a FIFO or a device is never opened here: that would wait for a
		 * writer, or take bytes that the reader then misses */
		if (strcmp(paths[i], "-") && stat(paths[i], &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_size >= min_chunked(chunk) && tp_input_open(&in, paths[i], &err) == 0) {
			want = in.is_regular && in.size >= min_chunked(chunk);
			tp_input_close(&in);
		}
		strbuf_release(&err); /* an input that cannot be opened says so when it is read */
		if (want)
			return 1;
	}
	return 0;
}

int tp_run_file(const char *path, const char *display, const struct tp_run_opts *o,
		struct tp_stats *stats, struct strbuf *err)
{
	struct tp_input in;
	if (tp_input_open(&in, path, err) < 0)
		return -1;
	const char *file = display ? display : in.name;
	int rc;
	int64_t min_size = min_chunked(o->chunk);
	/* the chunked reader also serves one thread when the candidate search
	 * is on: it needs whole chunks, not lines */
	if ((o->threads > 1 || o->scanner) && in.is_regular && in.size >= min_size)
		rc = run_parallel(&in, file, o, stats, err);
	else
		rc = run_stream_from(&in, file, o, stats, NULL, (size_t)-1, 0, err);
	tp_input_close(&in);
	return rc;
}

int tp_run_input(struct tp_input *in, const char *first, size_t n, int flags, const struct tp_run_opts *o,
		 struct tp_stats *stats, struct strbuf *err)
{
	return run_stream_from(in, in->name, o, stats, first, n, flags, err);
}

/* ---- --follow ---- */

struct follow_ctx {
	struct tp_parser *p;
	struct tp_stats *stats;
	const struct tp_follow_opts *fo;
	const char *path;
	uint64_t records_before;
};

static void follow_line(void *ctx, const char *line, size_t n)
{
	struct follow_ctx *fc = ctx;
	tp_parser_line(fc->p, line, n);
}

static void follow_restart(void *ctx, const char *why)
{
	struct follow_ctx *fc = ctx;
	tp_parser_finish(fc->p);
	tp_parser_set_lineno(fc->p, 1);
	if (fc->fo->note)
		fc->fo->note(fc->fo->ctx, fc->path, why);
}

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static uint64_t records_of(const struct tp_parser *p)
{
	const struct tp_stats *st = tp_parser_stats(p);
	uint64_t n = 0;
	for (int t = 0; t < TP_NTYPES; t++)
		n += st->records[t];
	return n;
}

int tp_follow_run(const char *path, const struct tp_run_opts *o, const struct tp_follow_opts *fo,
		  struct tp_stats *stats, struct strbuf *err)
{
	struct tp_follow f;
	if (tp_follow_open(&f, path, err) < 0)
		return -1;
	struct slot sl = { .o = o, .direct = 1, .miner = run_miner(o) };
	struct tp_sink s = { slot_emit, slot_warn, &sl };
	struct follow_ctx fc = { tp_parser_new(path, &s, o->rules), stats, fo, path, 0 };
	tp_parser_set_progress(fc.p, tp_run_wants_progress(o));
	slot_bind(&sl, fc.p);
	struct tp_follow_cb cb = { follow_line, follow_restart, &fc };
	uint64_t last_tick = now_ms(), ticked_records = 0;
	int rc = 0;
	while (!*fo->stop && !sl.stop) {
		long n = tp_follow_poll(&f, &cb, err);
		if (n < 0) {
			rc = -1;
			break;
		}
		deliver(&sl, path);
		uint64_t recs = records_of(fc.p);
		if (fo->tick && recs != ticked_records && now_ms() - last_tick >= (uint64_t)fo->tick_ms) {
			fo->tick(fo->ctx, 0);
			ticked_records = recs;
			last_tick = now_ms();
		}
		if (n == 0)
			tp_sleep_ms(fo->poll_ms > 0 ? fo->poll_ms : 200);
	}
	tp_follow_finish(&f, &cb);
	tp_parser_finish(fc.p);
	deliver(&sl, path);
	if (fo->tick)
		fo->tick(fo->ctx, 1);
	tp_parser_take_stats(fc.p, stats);
	tp_parser_free(fc.p);
	end_miner(sl.miner, stats);
	tp_follow_close(&f);
	slot_release(&sl);
	if (sl.stop && rc == 0)
		rc = 1;
	return rc;
}

/* ---- progress on a terminal ---- */

void tp_progress_bar(void *ctx, uint64_t done, uint64_t total)
{
	struct tp_progress *pg = ctx;
	uint64_t now = now_ms();
	if (!pg->start_ms)
		pg->start_ms = now;
	pg->shown = 1;
	double secs = (double)(now - pg->start_ms) / 1000.0;
	double rate = secs > 0 ? (double)done / secs / 1e6 : 0;
	if (total)
		fprintf(stderr, "\r%.40s %3d%% %8.1f MB/s ", pg->name,
			(int)(100.0 * (double)done / (double)total), rate);
	else
		fprintf(stderr, "\r%.40s %10.1f MB %8.1f MB/s ", pg->name, (double)done / 1e6, rate);
}

void tp_progress_clear(struct tp_progress *pg)
{
	if (pg->shown)
		fprintf(stderr, "\r\x1b[K");
	pg->shown = 0;
	pg->start_ms = 0;
}
