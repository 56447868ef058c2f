/*
 * read.c - the one input reader (see read.h): documents, NDJSON read back,
 * raw logs.
 */
#include "parse/parse.h"
#include "driver.h"

#include <string.h>

#include "base/base.h"
#include "docinput.h"
#include "parse/emit.h"
#include "input.h"
#include "ndjson_in.h"

/* A record of tprof-parse is a few hundred bytes (names up to 64 KiB); a
 * line far longer is not one, and holding it whole would let one line
 * take any amount of memory. */
#define NDJSON_MAX_LINE (16 * 1024 * 1024)
#define FLUSH_AT (64 * 1024)

/* Records that do not come from the line parser, delivered as it would. */
struct out {
	const struct tp_run_opts *o;
	struct tp_stats *st;
	struct strbuf buf; /* formatted records not yet written */
	int stop;
};

static void out_flush(struct out *d)
{
	if (d->buf.len && !d->stop && d->o->write && d->o->write(d->o->ctx, d->buf.buf, d->buf.len))
		d->stop = 1;
	strbuf_reset(&d->buf);
}

static int out_emit(void *ctx, const struct tp_record *r)
{
	struct out *d = ctx;
	const struct tp_run_opts *o = d->o;
	d->st->records[r->type]++;
	if (o->count_only || (o->type_mask && !(o->type_mask & (1u << r->type))))
		return 0;
	if (o->fmt < 0) {
		if (o->sink.emit)
			o->sink.emit(o->sink.ctx, r);
		return 0;
	}
	tp_emit_record((enum tp_out_format)o->fmt, r, &d->buf);
	if (d->buf.len >= FLUSH_AT)
		out_flush(d);
	return 0;
}

static void out_warn(void *ctx, const char *file, uint64_t line, const char *msg)
{
	struct out *d = ctx;
	d->st->malformed++;
	if (d->o->sink.warn)
		d->o->sink.warn(d->o->sink.ctx, file, line, msg);
}

/* tprof's own NDJSON: a first line that opens with a "type" whose value
 * is one of tprof's record types. A log of JSON lines of its own
 * ({"type": "train", ...}, YOLACT's) is a log, read as any other. */
static int looks_like_ndjson(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t' || *s == '\xef' || *s == '\xbb' || *s == '\xbf'))
		s++, n--;
	if (n <= 8 || memcmp(s, "{\"type\":", 8))
		return 0;
	const char *q = s + 8, *e = s + n;
	while (q < e && *q == ' ')
		q++;
	if (q >= e || *q != '"')
		return 0;
	const char *name = ++q;
	while (q < e && *q != '"' && *q != '\\')
		q++;
	return q < e && *q == '"' && tp_type_from_name(name, (size_t)(q - name)) >= 0;
}

/* One complete NDJSON line: a record, or a warning. */
static void ndjson_line(struct out *d, const char *name, uint64_t lineno, const char *p, size_t len,
			struct json_doc *doc, struct strbuf *msg)
{
	struct json_error je;
	struct tp_record r;
	while (len && (p[len - 1] == '\r' || p[len - 1] == ' '))
		len--;
	if (!len)
		return;
	strbuf_reset(msg);
	if (json_parse(p, len, doc, &je) < 0)
		out_warn(d, name, lineno, je.msg);
	else if (tp_record_from_json(doc->root, &r, msg) < 0)
		out_warn(d, name, lineno, msg->buf ? msg->buf : "not a record");
	else
		out_emit(d, &r);
}

/* NDJSON records from an open input whose first piece is at hand. */
static int read_ndjson(struct out *d, struct tp_input *in, const char *s, size_t n, int flags,
		       struct strbuf *err)
{
	struct json_doc doc = JSON_DOC_INIT;
	struct strbuf msg = STRBUF_INIT, line = STRBUF_INIT;
	uint64_t lineno = 1;
	int rc = 0, too_long = 0;
	for (;;) {
		if (flags & TP_LINE_START) {
			strbuf_reset(&line);
			too_long = 0;
		}
		if (!too_long && line.len + n > NDJSON_MAX_LINE) {
			too_long = 1;
			strbuf_reset(&line);
		}
		if (!too_long)
			strbuf_add(&line, s, n);
		d->st->bytes += n + ((flags & TP_LINE_END) != 0);
		if ((flags & TP_LINE_END) && too_long)
			out_warn(d, in->name, lineno++, "line longer than 16 MiB skipped: not a tprof record");
		else if (flags & TP_LINE_END)
			ndjson_line(d, in->name, lineno++, line.buf ? line.buf : "", line.len, &doc, &msg);
		if (d->stop)
			break;
		int k = tp_input_next(in, &s, &n, &flags, err);
		if (k < 0)
			rc = -1;
		if (k <= 0)
			break;
	}
	d->st->lines += lineno - 1;
	json_free(&doc);
	strbuf_release(&msg);
	strbuf_release(&line);
	return rc;
}

static void begin(const struct tp_read_cb *cb, const char *name, enum tp_input_kind k)
{
	if (cb && cb->begin)
		cb->begin(cb->ctx, name, k);
}

/* A report or export document; *done says whether path was one. */
static int read_document(struct out *d, const char *path, const struct tp_read_cb *cb, int *done,
			 struct strbuf *err)
{
	struct strbuf buf = STRBUF_INIT;
	int kind = tp_doc_load(path, &buf), rc = 0;
	*done = kind != TP_DOC_NONE;
	if (*done) {
		struct tp_sink s = { out_emit, out_warn, d };
		begin(cb, path, TP_IN_DOCUMENT);
		rc = tp_doc_parse(kind, buf.buf, buf.len, path, &s, err);
		d->st->bytes += buf.len;
	}
	strbuf_release(&buf);
	return rc;
}

int tp_read_input(const char *path, const struct tp_run_opts *o, const struct tp_read_cb *cb,
		  struct tp_stats *st, struct strbuf *err)
{
	struct out d = { o, st, STRBUF_INIT, 0 };
	struct tp_input in;
	int done, rc = read_document(&d, path, cb, &done, err);
	if (!done) {
		if (tp_input_open(&in, path, err) < 0)
			return -1;
		const char *s = "";
		size_t n = 0;
		int flags = 0, k = tp_input_next(&in, &s, &n, &flags, err);
		if (k > 0 && looks_like_ndjson(s, n)) {
			begin(cb, in.name, TP_IN_NDJSON);
			rc = read_ndjson(&d, &in, s, n, flags, err);
			tp_input_close(&in);
		} else if (k < 0) {
			tp_input_close(&in);
			rc = -1;
		} else if (in.is_regular && (o->threads > 1 || o->scanner) && strcmp(path, "-")) {
			/* reopened by name, so that the driver can split it across
			 * threads or search it by chunks; standard input (a file
			 * redirected to it) has been read from already and is read on */
			tp_input_close(&in);
			begin(cb, path, TP_IN_LOG);
			return tp_run_file(path, NULL, o, st, err);
		} else {
			begin(cb, in.name, TP_IN_LOG);
			rc = k > 0 ? tp_run_input(&in, s, n, flags, o, st, err) : 0;
			tp_input_close(&in);
			return rc;
		}
	}
	out_flush(&d);
	strbuf_release(&d.buf);
	if (rc < 0)
		return -1;
	return d.stop || rc > 0 ? 1 : 0;
}
