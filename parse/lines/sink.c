/*
 * sink.c - how the format readers hand their results to the parser's
 * sink: a record is started (tp_rec_init), its numbers are checked on the
 * way in (tp_check_set), and it is emitted, or held for one line while it
 * may still be completed (tp_emit); a line that cannot be read becomes a
 * counted warning (tp_warn). The line readers (lines.c, blocks.c) call
 * down into this file and never back into parser.c, which calls them.
 */
#include "parser_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"

void name_set(struct name_buf *b, const char *s, size_t n)
{
	if (n >= sizeof(b->s))
		n = sizeof(b->s) - 1;
	memcpy(b->s, s, n);
	b->s[n] = '\0';
	b->n = n;
}

void tp_rec_init(struct tp_parser *p, struct tp_record *r, enum tp_type t)
{
	memset(r, 0, sizeof(*r));
	r->type = t;
	r->file = p->file;
	r->line = p->lineno;
	r->ts = p->cur_ts;
	r->rank = p->cur_rank;
}

void tp_warn(struct tp_parser *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->st.malformed++;
	if (p->sink.warn)
		p->sink.warn(p->sink.ctx, p->file, p->lineno, msg);
}

int tp_check_set(struct tp_parser *p, struct tp_record *r, int slot, double v, int nonneg,
		 const char *what)
{
	if (!isfinite(v)) {
		tp_warn(p, "%s %s: %s is not a finite number, field left empty",
			tp_schemas[r->type].type_name, what, isnan(v) ? "nan" : "inf");
		return 0;
	}
	if (nonneg && v < 0)
		tp_warn(p, "%s %s: negative value %g", tp_schemas[r->type].type_name, what, v);
	tp_set(r, slot, v);
	return 1;
}

void tp_flush_pending(struct tp_parser *p, struct rank_state *rs)
{
	if (!rs->has_pending)
		return;
	rs->has_pending = 0;
	rs->pending.name = rs->pending_name.s;
	rs->pending.ts = rs->pending_ts.n ? rs->pending_ts.s : NULL;
	struct tp_record r = rs->pending;
	p->st.records[r.type]++;
	tp_note_emitted(p, &r);
	if (p->sink.emit)
		p->sink.emit(p->sink.ctx, &r);
}

void tp_emit_now(struct tp_parser *p, const struct tp_record *r)
{
	p->emitted++;
	p->st.records[r->type]++;
	tp_note_emitted(p, r);
	if (p->sink.emit)
		p->sink.emit(p->sink.ctx, r);
}

/*
 * Emits r now, or holds it when it may be continued on the next line
 * ([Performance] and its "GPU peak:" line).
 */
void tp_emit(struct tp_parser *p, struct rank_state *rs, struct tp_record *r)
{
	p->emitted++;
	tp_flush_pending(p, rs);
	if (r->type == TP_PERF && !tp_has(r, S_PERF_GPU_PEAK_MB)) {
		rs->has_pending = 1;
		rs->pending = *r;
		name_set(&rs->pending_name, r->name, r->name_len);
		rs->pending.name_len = rs->pending_name.n;
		name_set(&rs->pending_ts, r->ts ? r->ts : "", r->ts ? strlen(r->ts) : 0);
		return;
	}
	p->st.records[r->type]++;
	tp_note_emitted(p, r);
	if (p->sink.emit)
		p->sink.emit(p->sink.ctx, r);
}

