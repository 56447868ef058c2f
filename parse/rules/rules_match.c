/*
 * rules_match.c - matching log lines against loaded rules (see rules.h):
 * the marker gate, block and context state, @each/@more/@raw/@bar, name
 * templates, units per capture, @columns cells, the records a hold block
 * keeps until it ends (@add, its end line's units), and the record each
 * match makes.
 *
 * Everything that changes while matching lives in the scratch, so a rule
 * set is shared read-only between threads.
 */
#include "rules_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "parse/record.h"

struct tp_rules_scratch *tp_rules_scratch_new(const struct tp_rules *rules)
{
	struct tp_rules_scratch *s = xcalloc(1, sizeof(*s));
	s->rules = rules;
	s->md = pcre2_match_data_create(rules->max_pairs, rules->gctx);
	s->mctx = pcre2_match_context_create(rules->gctx);
	pcre2_set_match_limit(s->mctx, TP_RULES_MATCH_LIMIT);
	pcre2_set_depth_limit(s->mctx, TP_RULES_MATCH_LIMIT);
	pcre2_set_heap_limit(s->mctx, TP_RULES_HEAP_LIMIT_KIB);
	/* JIT's default 32 KiB machine stack is too small for some legitimate
	 * patterns on long lines; without a JIT stack they still run */
	s->jit = pcre2_jit_stack_create(32 * 1024, 1024 * 1024, rules->gctx);
	if (s->jit)
		pcre2_jit_stack_assign(s->mctx, NULL, s->jit);
	s->gate_words = rules->ngroups / 64 + 1;
	s->gate = xcalloc(s->gate_words, sizeof(*s->gate));
	s->open_block = -1;
	return s; /* s->msg is zeroed, i.e. empty: it grows on the first warning */
}

void tp_rules_scratch_free(struct tp_rules_scratch *s)
{
	if (!s)
		return;
	pcre2_match_data_free(s->md);
	pcre2_match_context_free(s->mctx);
	pcre2_jit_stack_free(s->jit);
	strbuf_release(&s->msg);
	strbuf_release(&s->name);
	strbuf_release(&s->text);
	strbuf_release(&s->parent);
	strbuf_release(&s->held_text);
	free(s->held);
	free(s->gate);
	free(s);
}

int tp_rules_scratch_idle(const struct tp_rules_scratch *s, uint64_t next_line)
{
	return !s || (s->open_block < 0 && (!s->ctx_len || next_line > s->ctx_line + CTX_LINES));
}

/* Everything one match attempt needs to build and report a record. */
struct attempt {
	const struct tp_rules *rs;
	const struct rule *ru;
	struct tp_rules_scratch *s;
	const char *line; /* what the rule matches: stripped, raw or the bar */
	size_t n;
	const struct tp_rules_line *ln;
	const struct tp_sink *sink;
};

/* Starts a warning "rule FILE:LINE (type): " in the scratch buffer. */
static struct strbuf *warn_start(const struct attempt *a)
{
	strbuf_reset(&a->s->msg);
	strbuf_addf(&a->s->msg, "rule %s (%s): ", a->ru->origin,
		    a->ru->kind == RK_RECORD ? tp_schemas[a->ru->type].type_name : "context");
	return &a->s->msg;
}

static void warn_send(const struct attempt *a)
{
	if (a->sink->warn)
		a->sink->warn(a->sink->ctx, a->ln->file, a->ln->lineno, a->s->msg.buf);
}

static void warn_pcre2(const struct attempt *a, int rc)
{
	PCRE2_UCHAR msg[256];
	if (pcre2_get_error_message(rc, msg, sizeof(msg)) < 0)
		strcpy((char *)msg, "unknown error");
	strbuf_addf(warn_start(a), "pattern gave up on this line: %s", (const char *)msg);
	warn_send(a);
}

static void warn_value(const struct attempt *a, const struct fspec *f, const char *p,
		       size_t n)
{
	struct strbuf *m = warn_start(a);
	strbuf_addf(m, "field '%s': cannot read ", f->name);
	tp_rules_add_excerpt(m, p, n);
	strbuf_addf(m, " as %s", tp_rules_expectation(f->conv));
	warn_send(a);
}

static void store_value(struct tp_record *r, const struct fspec *f, const struct value *v)
{
	switch (f->conv) {
	case CV_NAME:
		r->name = v->str;
		r->name_len = v->len;
		break;
	case CV_TEXT:
		r->text = v->str;
		r->text_len = v->len;
		break;
	case CV_VALUE: /* a capture overrides a constant of the other form */
		r->has &= ~TP_HAS(f->slot);
		r->text = NULL;
		r->text_len = 0;
		if (v->is_num)
			tp_set(r, f->slot, v->num);
		else
			store_value(r, &(struct fspec){ .conv = CV_TEXT }, v);
		break;
	case CV_TS:
		r->ts = v->str;
		break;
	case CV_RANK:
		r->rank = (int)v->num;
		break;
	case CV_ROLE:
		r->role = (enum tp_role)(int)v->num;
		break;
	case CV_PARENT:
		r->parent = v->str;
		r->parent_len = v->len;
		break;
	case CV_CTX:
		break;
	default:
		tp_set(r, f->slot, v->num);
	}
}

/* The record with position and the rule's constants, before captures. */
static void record_init(struct tp_record *r, const struct attempt *a)
{
	memset(r, 0, sizeof(*r));
	r->type = a->ru->type;
	r->file = a->ln->file ? a->ln->file : "-";
	r->line = a->ln->lineno;
	r->rank = -1;
	r->origin = a->ru->origin;
	for (size_t i = 0; i < a->ru->nconsts; i++)
		if (!a->ru->consts[i].tmpl)
			store_value(r, &a->ru->consts[i].f, &a->ru->consts[i].v);
}

/* Captured text of group g, trimmed of blanks; 0 if it did not take part
 * or is empty (then the field keeps its constant or stays absent). */
static int group_text(const struct attempt *a, uint32_t g, const char **p, size_t *n)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(a->s->md);
	/* the scratch's match data is sized for the rules' largest pattern:
	 * a pair past this rule's groups holds another rule's last match
	 * ("{1}" in a rule with no group 1) */
	if (g >= pcre2_get_ovector_count(a->s->md) || g >= a->ru->npairs)
		return 0;
	PCRE2_SIZE b = ov[2 * g], e = ov[2 * g + 1];
	if (b == PCRE2_UNSET || e == PCRE2_UNSET || e <= b || e > a->n)
		return 0;
	const char *q = a->line + b, *end = a->line + e;
	q = tp_skip_blanks(q, end);
	while (end > q && tp_is_blank(end[-1]))
		end--;
	*p = q;
	*n = (size_t)(end - q);
	return *n > 0;
}

/* Seconds per unit of a text that is one time unit and nothing else ("ms"). */
static int whole_time_unit(const char *p, size_t n, double *u)
{
	const char *q;
	return tp_read_time_unit(p, p + n, u, &q) && q == p + n;
}

/* Seconds per bare number of capture c: its __UNIT, a __u group on the
 * line, a unit from the open block's header, or 0 (the field's own). */
static double bare_unit(const struct attempt *a, const struct capture *c)
{
	if (c->bare > 0)
		return c->bare;
	for (size_t i = 0; i < a->ru->nucaps; i++) {
		const char *p;
		size_t n;
		double u;
		if (a->ru->ucaps[i].id == c->f.id && group_text(a, a->ru->ucaps[i].group, &p, &n) &&
		    whole_time_unit(p, n, &u))
			return u;
	}
	if (a->ru->block >= 0 && a->s->open_block == a->ru->block)
		for (int i = 0; i < a->s->nhunits; i++)
			if (a->s->hunits[i].len == strlen(c->f.name) &&
			    !memcmp(a->s->hunits[i].field, c->f.name, a->s->hunits[i].len))
				return a->s->hunits[i].unit;
	return 0;
}

/*
 * A pack's number pattern that knows no exponent ("\d+(?:\.\d+)?") stops
 * at the 'e' of "2.5e-1" and would make it 2.5: a numeric capture that
 * ends in a digit and that the line goes on with an exponent takes the
 * exponent too, and a time unit right after it ("1e-3s"), as the number
 * readers would.
 */
static void widen_exponent(const struct attempt *a, const char *p, size_t *n)
{
	const char *q = p + *n, *end = a->line + a->n;
	if (!*n || !tp_is_digit(q[-1]) || memchr(p, 'e', *n) || memchr(p, 'E', *n) || q >= end ||
	    (*q != 'e' && *q != 'E'))
		return;
	const char *d = q + 1;
	if (d < end && (*d == '-' || *d == '+'))
		d++;
	if (d >= end || !tp_is_digit(*d))
		return;
	while (d < end && tp_is_digit(*d))
		d++;
	double u;
	const char *after;
	if (tp_read_time_unit(d, end, &u, &after) && (after == end || !tp_is_word(*after)))
		d = after;
	*n = (size_t)(d - p);
}

/* Is [p, p + n) a number and nothing else (a duration with no unit of its own)? */
static int plain_number(const char *p, size_t n)
{
	double v;
	const char *q;
	return tp_read_number(p, p + n, &v, &q) && tp_skip_blanks(q, p + n) == p + n;
}

static int is_numeric(enum conv c)
{
	return c == CV_NUM || c == CV_SEC || c == CV_MS || c == CV_MB || c == CV_RATE;
}

/*
 * Fills r from the named groups: 0, or -1 after warning about a value. A
 * numeric value that reads as nan or inf leaves its field out (*dropped
 * counts them) rather than losing the record.
 */
static int fill_captures(const struct attempt *a, struct tp_record *r, int *dropped, unsigned *bare)
{
	unsigned done = 0; /* fields set by a group: the first set group wins */
	for (size_t i = 0; i < a->ru->ncaps; i++) {
		const struct capture *c = &a->ru->caps[i];
		const char *p;
		size_t n;
		struct value v;
		if ((done >> c->f.id) & 1u || !group_text(a, c->group, &p, &n))
			continue;
		if (is_numeric(c->f.conv))
			widen_exponent(a, p, &n);
		double unit = bare_unit(a, c);
		if (!tp_rules_read_value(&c->f, p, n, unit, &v, a->s->ts)) {
			warn_value(a, &c->f, p, n);
			return -1;
		}
		done |= 1u << c->f.id;
		if ((c->f.conv == CV_SEC || c->f.conv == CV_MS) && unit == 0 && plain_number(p, n))
			*bare |= 1u << c->f.slot;
		if (is_numeric(c->f.conv) && !isfinite(v.num)) {
			(*dropped)++;
			continue;
		}
		if (c->f.conv == CV_CTX) {
			size_t k = n < CTX_MAX ? n : CTX_MAX;
			memcpy(a->s->ctx, p, k);
			a->s->ctx_len = k;
		}
		store_value(r, &c->f, &v);
	}
	return 0;
}

/* Appends template t to sb: {N} is group N, {ctx} the context, {name} the
 * captured name; anything else is literal. */
static void expand(const struct attempt *a, const char *t, size_t n, const struct tp_record *r,
		   struct strbuf *sb)
{
	const char *e = t + n;
	while (t < e) {
		const char *close = *t == '{' ? memchr(t, '}', (size_t)(e - t)) : NULL;
		if (!close) {
			strbuf_addch(sb, *t++);
			continue;
		}
		const char *k = t + 1;
		size_t kn = (size_t)(close - k);
		const char *p;
		size_t pn;
		if (kn >= 3 && !memcmp(k, "ctx", 3) && (kn == 3 || k[3] == '|')) {
			/* {ctx|TEXT}: TEXT when no context is live */
			if (a->s->ctx_len && a->ln->lineno <= a->s->ctx_line + CTX_LINES)
				strbuf_add(sb, a->s->ctx, a->s->ctx_len);
			else if (kn > 3)
				strbuf_add(sb, k + 4, kn - 4);
		} else if (kn == 4 && !memcmp(k, "name", 4)) {
			if (r->name_len)
				strbuf_add(sb, r->name, r->name_len);
		} else if (kn >= 1 && kn <= 2 && k[0] >= '0' && k[0] <= '9' &&
			   (kn == 1 || (k[1] >= '0' && k[1] <= '9'))) {
			uint32_t g = (uint32_t)(kn == 1 ? k[0] - '0' : (k[0] - '0') * 10 + k[1] - '0');
			if (group_text(a, g, &p, &pn))
				strbuf_add(sb, p, pn);
		} else {
			strbuf_add(sb, t, (size_t)(close + 1 - t));
		}
		t = close + 1;
	}
}

/* Lower case, runs of other than [a-z0-9./] to one '_', none at the ends. */
static void snake(struct strbuf *sb)
{
	size_t k = 0;
	int gap = 0;
	for (size_t i = 0; i < sb->len; i++) {
		unsigned char c = (unsigned char)sb->buf[i];
		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c + 32);
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '/' || c >= 0x80) {
			if (gap && k)
				sb->buf[k++] = '_';
			sb->buf[k++] = (char)c;
			gap = 0;
		} else {
			gap = 1;
		}
	}
	sb->len = k;
	if (sb->buf)
		sb->buf[k] = '\0';
}

/* The rule's template constant for a field of kind conv, or NULL. */
static const struct constant *template_of(const struct rule *ru, enum conv conv)
{
	for (size_t i = 0; i < ru->nconsts; i++)
		if (ru->consts[i].tmpl && ru->consts[i].f.conv == conv)
			return &ru->consts[i];
	return NULL;
}

/* A parent="..." template, into the scratch's parent buffer. */
static void finish_parent(const struct attempt *a, struct tp_record *r)
{
	const struct constant *tmpl = template_of(a->ru, CV_PARENT);
	if (!tmpl)
		return;
	struct strbuf *sb = &a->s->parent;
	strbuf_reset(sb);
	expand(a, tmpl->v.str, tmpl->v.len, r, sb);
	r->parent = sb->len ? sb->buf : NULL;
	r->parent_len = sb->len;
}

/* Name templates and @snake, into the scratch's name buffer; then a text
 * template (which may use the name), into its text buffer. */
static void finish_name(const struct attempt *a, struct tp_record *r)
{
	const struct constant *tmpl = template_of(a->ru, CV_NAME);
	if (tmpl || (a->ru->flags & RF_SNAKE)) {
		struct strbuf *sb = &a->s->name;
		strbuf_reset(sb);
		if (tmpl)
			expand(a, tmpl->v.str, tmpl->v.len, r, sb);
		else if (r->name_len)
			strbuf_add(sb, r->name, r->name_len);
		if (a->ru->flags & RF_SNAKE)
			snake(sb);
		r->name = sb->buf ? sb->buf : "";
		r->name_len = sb->len;
	}
	if ((tmpl = template_of(a->ru, CV_TEXT))) {
		struct strbuf *sb = &a->s->text;
		strbuf_reset(sb);
		expand(a, tmpl->v.str, tmpl->v.len, r, sb);
		r->text = sb->buf ? sb->buf : "";
		r->text_len = sb->len;
	}
}

/* A rate printed per item ("3.2s/it", tqdm's slow mode) becomes items/s. */
static void per_second(struct tp_rules_scratch *s, struct tp_record *r)
{
	if (r->type != TP_RATE || r->text_len < 3 || memcmp(r->text, "s/", 2) ||
	    !tp_has(r, S_RATE_VALUE) || r->num[S_RATE_VALUE] <= 0 ||
	    r->text_len - 2 + 3 > sizeof(s->unit))
		return;
	r->num[S_RATE_VALUE] = 1.0 / r->num[S_RATE_VALUE];
	size_t k = r->text_len - 2;
	memcpy(s->unit, r->text + 2, k);
	memcpy(s->unit + k, "/s", 3);
	r->text = s->unit;
	r->text_len = k + 2;
}

/* A header rule: its FIELD__u groups set the units of the block's rows. */
static void take_header(const struct attempt *a)
{
	struct tp_rules_scratch *s = a->s;
	s->nhunits = 0;
	for (size_t i = 0; i < a->ru->ncaps && s->nhunits < MAX_HEADER_UNITS; i++) {
		const char *p;
		size_t n;
		double u;
		const struct capture *c = &a->ru->caps[i];
		if (!c->unit_of || !group_text(a, c->group, &p, &n) || !whole_time_unit(p, n, &u))
			continue;
		/* the unit name is "FIELD__u"; rows look it up by FIELD */
		size_t k = (size_t)(strstr(c->unit_name, "__") - c->unit_name);
		s->hunits[s->nhunits++] = (struct hunit){ c->unit_name, k, u };
	}
}

/* A cell of a table line: [p, p + n). */
struct cell {
	const char *p;
	size_t n;
};

/*
 * Splits a table line into cells: at '|' when the line has one (outer
 * borders dropped), else at runs of two or more blanks or a tab, so that
 * "CPU total %" stays one cell. Returns the number of cells (at most max).
 */
static int split_cells(const char *s, size_t n, struct cell *out, int max)
{
	const char *e = s + n;
	int bars = memchr(s, '|', n) != NULL, k = 0;
	s = tp_skip_blanks(s, e);
	while (e > s && tp_is_blank(e[-1]))
		e--;
	/* '|' at both ends are borders; one at one end only stands beside a
	 * blank first or last cell (Compare's heading of its row labels, a row
	 * whose last column was not measured) */
	if (bars && e - s > 1 && *s == '|' && e[-1] == '|') {
		s++;
		e--;
	}
	while (s <= e && k < max) {
		const char *q = s;
		if (bars && !(q = memchr(s, '|', (size_t)(e - s))))
			q = e;
		else if (!bars)
			while (q < e && !(*q == '\t' || (*q == ' ' && q + 1 < e && tp_is_blank(q[1]))))
				q++;
		const char *a = tp_skip_blanks(s, q), *b = q;
		while (b > a && tp_is_blank(b[-1]))
			b--;
		out[k++] = (struct cell){ a, (size_t)(b - a) };
		if (q >= e)
			break;
		s = tp_skip_blanks(q + (bars ? 1 : 0), e);
	}
	return k;
}

/* A @columns header: the names of the open block's columns, and the unit of
 * a bare number in each when the name ends in one, as "time (us)". */
static void take_columns(const struct attempt *a)
{
	struct tp_rules_scratch *s = a->s;
	struct cell c[MAX_COLUMNS];
	int n = split_cells(a->line, a->n, c, MAX_COLUMNS);
	s->nhcols = 0;
	for (int i = 0; i < n; i++) {
		struct hcol *h = &s->hcols[s->nhcols++];
		size_t k = c[i].n < COLUMN_NAME_MAX ? c[i].n : COLUMN_NAME_MAX;
		memcpy(h->name, c[i].p, k);
		h->name[k] = 0;
		const char *open = k > 2 && h->name[k - 1] == ')' ? memrchr(h->name, '(', k) : NULL;
		double u;
		h->unit = open && whole_time_unit(open + 1, (size_t)(h->name + k - 1 - (open + 1)), &u) ? u : 0;
	}
}

/* Is name one of the '|'-separated names in alts? */
static int column_named(const char *alts, const char *name)
{
	size_t n = strlen(name);
	for (const char *a = alts;; a++) {
		const char *bar = strchr(a, '|');
		size_t k = bar ? (size_t)(bar - a) : strlen(a);
		if (k == n && !memcmp(a, name, n))
			return 1;
		if (!bar)
			return 0;
		a = bar;
	}
}

/* ---- hold blocks: records that wait for the block's end ---------------------- */

/* Copies [p, p + n) into the held text: its offset, or SIZE_MAX for none. */
static size_t held_str(struct tp_rules_scratch *s, const char *p, size_t n)
{
	if (!p)
		return SIZE_MAX;
	size_t off = s->held_text.len;
	strbuf_add(&s->held_text, p, n);
	strbuf_addch(&s->held_text, '\0');
	return off;
}

/* Keeps r (strings copied) until its block ends; bare: its slots that hold
 * a plain number, which the block's end line may give a unit. */
static void hold(const struct attempt *a, const struct tp_record *r, unsigned bare)
{
	struct tp_rules_scratch *s = a->s;
	if (s->nheld >= MAX_HELD) {
		if (!s->held_dropped++) {
			strbuf_addf(warn_start(a), "a hold block keeps %d records: the rows past them are "
						   "left out", MAX_HELD);
			warn_send(a);
		}
		return;
	}
	ALLOC_GROW(s->held, s->nheld + 1, s->held_alloc);
	struct held *h = &s->held[s->nheld++];
	h->r = *r;
	if (h->r.rank < 0)
		h->r.rank = a->ln->rank;
	const char *ts = r->ts ? r->ts : a->ln->ts;
	h->name = held_str(s, r->name, r->name_len);
	h->text = held_str(s, r->text, r->text_len);
	h->ts = held_str(s, ts, ts ? strlen(ts) : 0);
	h->parent = held_str(s, r->parent, r->parent_len);
	h->bare = bare;
}

/* @add: r's numbers (and text) go to the last held record of its type,
 * into the fields it does not have yet; 0 when there is none, or when it
 * has them all (the line is not this rule's). */
static int add_to_held(const struct attempt *a, const struct tp_record *r, unsigned bare)
{
	struct tp_rules_scratch *s = a->s;
	if (!s->nheld || s->held[s->nheld - 1].r.type != r->type)
		return 0;
	struct held *h = &s->held[s->nheld - 1];
	int added = 0;
	for (int k = 0; k < TP_NUM_SLOTS; k++)
		if (tp_has(r, k) && !tp_has(&h->r, k)) {
			tp_set(&h->r, k, r->num[k]);
			h->bare |= bare & (1u << k);
			added = 1;
		}
	if (r->text && h->text == SIZE_MAX) {
		h->text = held_str(s, r->text, r->text_len);
		h->r.text_len = r->text_len;
		added = 1;
	}
	return added;
}

/* The held records of the open block go to sink, in order, and the block
 * forgets them. A block whose end line gives the unit of its numbers and
 * that ended without it leaves out the records still waiting for one. */
static void flush_held(const struct tp_rules *rs, struct tp_rules_scratch *s, const struct tp_sink *sink)
{
	int need_unit = s->open_block >= 0 && rs->blocks[s->open_block].end_units;
	const char *t = s->held_text.buf;
	for (size_t i = 0; i < s->nheld; i++) {
		struct held *h = &s->held[i];
		struct tp_record r = h->r;
		r.name = h->name == SIZE_MAX ? NULL : t + h->name;
		r.text = h->text == SIZE_MAX ? NULL : t + h->text;
		r.ts = h->ts == SIZE_MAX ? NULL : t + h->ts;
		r.parent = h->parent == SIZE_MAX ? NULL : t + h->parent;
		if (need_unit && h->bare) {
			if (sink->warn)
				sink->warn(sink->ctx, r.file, r.line,
					   "the table ended without the line that gives the unit of its "
					   "numbers: this row is left out");
			continue;
		}
		sink->emit(sink->ctx, &r);
	}
	s->nheld = 0;
	s->held_dropped = 0;
	strbuf_reset(&s->held_text);
}

/* An end rule's FIELD__u groups: the unit of the held records' plain numbers. */
static void units_to_held(const struct attempt *a)
{
	struct tp_rules_scratch *s = a->s;
	for (size_t i = 0; i < a->ru->ncaps; i++) {
		const struct capture *c = &a->ru->caps[i];
		const char *p;
		size_t n;
		double u, target;
		int slot;
		if (!c->unit_of || !group_text(a, c->group, &p, &n) || !whole_time_unit(p, n, &u))
			continue;
		size_t k = (size_t)(strstr(c->unit_name, "__") - c->unit_name);
		for (size_t j = 0; j < s->nheld; j++) {
			struct held *h = &s->held[j];
			if (!tp_rules_duration_field(h->r.type, c->unit_name, k, &slot, &target) ||
			    !(h->bare & (1u << slot)))
				continue;
			h->r.num[slot] = tp_rules_rescale(h->r.num[slot], u, target);
			h->bare &= ~(1u << slot);
		}
	}
}

/* A record made: held while its hold block is open, else emitted. */
static void deliver(const struct attempt *a, struct tp_record *r, unsigned bare)
{
	per_second(a->s, r);
	if (a->ru->block >= 0 && a->rs->blocks[a->ru->block].hold && a->s->open_block == a->ru->block)
		hold(a, r, bare);
	else
		a->sink->emit(a->sink->ctx, r);
}

/*
 * The fields of a @columns row from its cells (c, n of them) under the
 * header's names: 1, 0 when the line is not a row of that table (another
 * number of cells, or no header yet), -1 after warning about a value. A
 * column the header does not have leaves its field out (another version of
 * the table). *each: the rule's FIELD=@* reference, if it has one.
 */
static int fill_columns(const struct attempt *a, struct tp_record *r, int *dropped, unsigned *bare,
			struct cell *c, const struct colref **each)
{
	const struct tp_rules_scratch *s = a->s;
	*each = NULL;
	if (!s->nhcols || split_cells(a->line, a->n, c, MAX_COLUMNS) != s->nhcols)
		return 0;
	for (size_t i = 0; i < a->ru->ncolrefs; i++) {
		const struct colref *cr = &a->ru->colrefs[i];
		if (cr->each) {
			*each = cr;
			continue;
		}
		int j = 0;
		while (j < s->nhcols && !column_named(cr->col, s->hcols[j].name))
			j++;
		if (j == s->nhcols || !c[j].n)
			continue;
		struct value v;
		if (!tp_rules_read_value(&cr->f, c[j].p, c[j].n, s->hcols[j].unit, &v, a->s->ts)) {
			warn_value(a, &cr->f, c[j].p, c[j].n);
			return -1;
		}
		if (is_numeric(cr->f.conv) && !isfinite(v.num)) {
			(*dropped)++;
			continue;
		}
		if ((cr->f.conv == CV_SEC || cr->f.conv == CV_MS) && !s->hcols[j].unit && plain_number(c[j].p, c[j].n))
			*bare |= 1u << cr->f.slot;
		store_value(r, &cr->f, &v);
	}
	return 1;
}

/* FIELD=@*: a record per column that no other field names, the field its
 * cell (a number with a note after it, "90 (! 14%)", reads as the number)
 * and the type's text field its heading; blank cells make none. */
static void each_column(const struct attempt *a, const struct tp_record *row, unsigned bare,
			const struct cell *c, const struct colref *each)
{
	const struct tp_rules_scratch *s = a->s;
	const struct tp_schema *sc = &tp_schemas[row->type];
	int text = 0;
	for (int i = 0; i < sc->nfields; i++)
		text |= sc->fields[i].kind == TP_F_TEXT;
	for (int j = 0; j < s->nhcols; j++) {
		int named = 0;
		for (size_t i = 0; i < a->ru->ncolrefs && !named; i++)
			named = !a->ru->colrefs[i].each && column_named(a->ru->colrefs[i].col, s->hcols[j].name);
		if (named || !c[j].n)
			continue;
		struct value v;
		size_t n = c[j].n;
		const char *note = memmem(c[j].p, n, " (", 2);
		if (!tp_rules_read_value(&each->f, c[j].p, n, s->hcols[j].unit, &v, a->s->ts) &&
		    (!note || !tp_rules_read_value(&each->f, c[j].p, n = (size_t)(note - c[j].p),
						   s->hcols[j].unit, &v, a->s->ts))) {
			warn_value(a, &each->f, c[j].p, c[j].n);
			continue;
		}
		if (is_numeric(each->f.conv) && !isfinite(v.num))
			continue;
		struct tp_record r = *row;
		unsigned b = bare;
		store_value(&r, &each->f, &v);
		if ((each->f.conv == CV_SEC || each->f.conv == CV_MS) && !s->hcols[j].unit &&
		    plain_number(c[j].p, n))
			b |= 1u << each->f.slot;
		if (text && !r.text) {
			r.text = s->hcols[j].name;
			r.text_len = strlen(s->hcols[j].name);
		}
		deliver(a, &r, b);
	}
}

/* What a matched pseudo rule does; 1: the line is taken. */
static int pseudo(const struct attempt *a)
{
	struct tp_rules_scratch *s = a->s;
	switch (a->ru->kind) {
	case RK_START:
		if (s->open_block >= 0)
			flush_held(a->rs, s, a->sink);
		s->open_block = a->ru->block;
		s->misses = 0;
		s->nhunits = 0;
		s->nhcols = 0;
		if (a->ru->flags & RF_COLUMNS) /* a table whose first line is its heading */
			take_columns(a);
		break;
	case RK_END:
		units_to_held(a);
		flush_held(a->rs, s, a->sink);
		s->open_block = -1;
		break;
	case RK_HEADER:
		take_header(a);
		if (a->ru->flags & RF_COLUMNS)
			take_columns(a);
		break;
	case RK_CONTEXT: {
		struct tp_record r;
		int dropped = 0;
		unsigned bare = 0;
		s->ctx_len = 0;
		for (size_t i = 0; i < a->ru->nconsts; i++)
			if (a->ru->consts[i].f.conv == CV_CTX) {
				size_t k = a->ru->consts[i].v.len;
				k = k < CTX_MAX ? k : CTX_MAX;
				memcpy(s->ctx, a->ru->consts[i].v.str, k);
				s->ctx_len = k;
			}
		record_init(&r, a);
		(void)fill_captures(a, &r, &dropped, &bare);
		s->ctx_line = a->ln->lineno;
		break;
	}
	default:
		break;
	}
	return 1;
}

/* Builds and emits (or holds, or adds) the record of the current match; 1,
 * 0 (not this rule's line after all), or -1 (warned). */
static int make_record(const struct attempt *a)
{
	struct tp_record r;
	int dropped = 0;
	unsigned bare = 0;
	struct cell c[MAX_COLUMNS];
	const struct colref *each = NULL;
	record_init(&r, a);
	if (fill_captures(a, &r, &dropped, &bare) < 0)
		return -1;
	if (a->ru->flags & RF_COLUMNS) {
		int rc = fill_columns(a, &r, &dropped, &bare, c, &each);
		if (rc <= 0)
			return rc;
	}
	finish_name(a, &r);
	finish_parent(a, &r);
	if (a->ru->flags & RF_ADD)
		return add_to_held(a, &r, bare);
	if (a->ru->block >= 0 && a->rs->blocks[a->ru->block].one && a->s->nheld)
		return 0; /* the block's one record is made */
	if (a->ru->name_id >= 0 && !r.name_len) {
		strbuf_addf(warn_start(a), "matched but its '%s' is empty",
			    tp_schemas[a->ru->type].fields[a->ru->name_id].name);
		warn_send(a);
		return -1;
	}
	if (each) {
		each_column(a, &r, bare, c, each);
		return 1;
	}
	if (dropped && !r.has) {
		strbuf_addstr(warn_start(a), "every number on the line is nan or inf: no record");
		warn_send(a);
		return -1;
	}
	deliver(a, &r, bare);
	return 1;
}

/*
 * JIT-compiles a rule's pattern before its first match. The parser's
 * threads share the rules: the flag is set only once the code is compiled,
 * and no thread matches with code another is compiling. JIT is an
 * optimisation: where it is unavailable, pcre2_match interprets.
 */
static void jit_once(const struct tp_rules *rs, const struct rule *ru)
{
	struct rule *w = (struct rule *)ru; /* the rules are heap objects: only the flag changes */
	if (atomic_load_explicit(&w->jitted, memory_order_acquire))
		return;
	pthread_mutex_lock(rs->jit_lock);
	if (!atomic_load_explicit(&w->jitted, memory_order_relaxed)) {
		(void)pcre2_jit_compile(w->code, PCRE2_JIT_COMPLETE);
		atomic_store_explicit(&w->jitted, 1, memory_order_release);
	}
	pthread_mutex_unlock(rs->jit_lock);
}

/* Tries one rule: 1 emitted/taken, 0 no match, -1 bad value, -2 PCRE2 gave up. */
static int match_rule(const struct attempt *a)
{
	PCRE2_SIZE start = 0;
	int result = 0;
	jit_once(a->rs, a->ru);
	for (;;) {
		int rc = pcre2_match(a->ru->code, (PCRE2_SPTR)a->line, a->n, start, 0, a->s->md,
				     a->s->mctx);
		if (rc == PCRE2_ERROR_NOMATCH)
			return result;
		if (rc < 0) {
			warn_pcre2(a, rc);
			return result ? result : -2;
		}
		if (a->ru->kind != RK_RECORD)
			return pseudo(a);
		int made = make_record(a);
		if (result <= 0)
			result = made;
		if (!(a->ru->flags & RF_EACH))
			return result;
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(a->s->md);
		start = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
		if (start > a->n)
			return result;
	}
}

/* Scans the line's markers into the gate; 1 if any group's is there.
 * The gate is then fresh for the rest of this call. */
static int gate_any(const struct tp_rules *rules, struct tp_rules_scratch *s,
		    const struct tp_rules_line *ln)
{
	int any = 0;
	for (size_t w = 0; w < s->gate_words; w++)
		s->gate[w] = 0;
	tp_gate_scan(rules->mset, ln->line, ln->n, s->gate);
	for (size_t w = 0; w < s->gate_words; w++)
		any |= s->gate[w] != 0;
	s->gate_fresh = any;
	return any;
}

/* Finds the groups whose markers are on the line (once per call). */
static void scan_gate(const struct attempt *a)
{
	struct tp_rules_scratch *s = a->s;
	for (size_t w = 0; w < s->gate_words; w++)
		s->gate[w] = 0;
	/* markers are looked for in the message, after the prefixes */
	tp_gate_scan(a->rs->mset, a->ln->line, a->ln->n, s->gate);
}

static int gate_open(const struct tp_rules_scratch *s, size_t gi)
{
	return (s->gate[gi / 64] >> (gi % 64)) & 1u;
}

/* memchr then memcmp: for a short literal in a short line this beats
 * memmem's two-way search several times over. */
static int has_literal(const char *s, size_t n, const char *lit, size_t k)
{
	const char *e = s + n;
	while ((size_t)(e - s) >= k) {
		const char *q = memchr(s, lit[0], (size_t)(e - s) - k + 1);
		if (!q)
			return 0;
		if (!memcmp(q, lit, k))
			return 1;
		s = q + 1;
	}
	return 0;
}

/* Which text rule ru sees on this segment, or 0 if it is not tried. */
static int rule_text(const struct attempt *a, const struct rule *ru, const char **t, size_t *n)
{
	const struct tp_rules_line *ln = a->ln;
	if (!!(ru->flags & RF_BAR) != !!ln->bar)
		return 0;
	if (ru->flags & (RF_RAW | RF_BAR)) {
		*t = ln->raw;
		*n = ln->raw_n;
	} else {
		*t = ln->line;
		*n = ln->n;
	}
	if (ru->need && !has_literal(*t, *n, ru->need, ru->need_len))
		return 0;
	return 1;
}

/* May ru be tried now: its block's state and its group's markers (gate:
 * the group's markers are on the line, or it has none; bars ignore it). */
static int rule_live(const struct attempt *a, const struct rule *ru, int gate)
{
	if (ru->block >= 0 && ru->kind != RK_START)
		return a->s->open_block == ru->block; /* rows: the block is the gate */
	if (ru->kind == RK_START && a->s->open_block == ru->block)
		return 0;
	return gate || (ru->flags & RF_BAR);
}

/* Tries rules [from, to); *stop when a rule without @more matched. */
static int try_rules(struct attempt *a, size_t from, size_t to, int gate, int *stop,
		     int *block_hit)
{
	int result = 0;
	const struct tp_rules *rs = a->rs;
	for (size_t i = from; i < to && !*stop; i++) {
		a->ru = &rs->rules[i];
		if (!rule_live(a, a->ru, gate) || !rule_text(a, a->ru, &a->line, &a->n))
			continue;
		int rc = match_rule(a);
		if (rc == -2) {
			result = result ? result : -1; /* warned; a later rule may still match */
			continue;
		}
		if (rc == 0)
			continue;
		if (a->ln->hits && i < TP_RULE_STATS)
			a->ln->hits[i]++;
		*block_hit |= a->ru->block >= 0 && a->ru->block == a->s->open_block;
		*block_hit |= a->ru->kind == RK_END;
		if (result <= 0)
			result = rc;
		if (!(a->ru->flags & RF_MORE))
			*stop = 1;
	}
	return result;
}

/* Nothing in this pass can match: no bar rule for a bar, no marker, no
 * open block, no ungated group. The common case for a log line. */
static int nothing_to_try(const struct tp_rules *rs, const struct tp_rules_scratch *s, int pass,
			  int bar)
{
	if (bar)
		return !rs->has_bar[pass];
	if (s->open_block >= 0 || rs->ungated[pass])
		return 0;
	if (!rs->gated[pass])
		return 1;
	for (size_t w = 0; w < s->gate_words; w++)
		if (s->gate[w])
			return 0;
	return 1;
}

/* Group g's marker was on line lineno and none of its rules read it: the
 * first four such groups of the line are kept, each once. */
static void note_missed(struct tp_rules_scratch *scratch, uint64_t lineno, int g)
{
	if (scratch->missed_line != lineno) {
		scratch->missed_line = lineno;
		scratch->nmissed = 0;
	}
	for (int i = 0; i < scratch->nmissed; i++)
		if (scratch->missed_group[i] == g)
			return;
	if (scratch->nmissed < (int)ARRAY_SIZE(scratch->missed_group))
		scratch->missed_group[scratch->nmissed++] = g;
}

int tp_rules_match_pass(const struct tp_rules *rules, struct tp_rules_scratch *scratch, int pass,
			const struct tp_rules_line *ln, const struct tp_sink *sink)
{
	pass = pass ? 1 : 0;
	if (!rules || !rules->has_pass[pass])
		return 0;
	/* the common case first: a line of no pack, in no block */
	if (scratch && scratch->rules == rules && !ln->bar && !rules->ungated[pass] &&
	    scratch->open_block < 0 && ln->line &&
	    (!rules->gated[pass] || ln->n < rules->min_marker || ln->no_marker || !gate_any(rules, scratch, ln)))
		return 0;
	struct tp_rules_scratch *own = NULL;
	if (!scratch || scratch->rules != rules) /* a scratch is sized for its rules */
		scratch = own = tp_rules_scratch_new(rules);
	struct tp_rules_line l = *ln;
	if (!l.line)
		l.line = "", l.n = 0;
	if (!l.raw)
		l.raw = l.line, l.raw_n = l.n;
	if (l.n && l.line[l.n - 1] == '\r')
		l.n--;
	struct attempt a = { rules, NULL, scratch, NULL, 0, &l, sink };
	if (!l.bar && rules->gated[pass] && !scratch->gate_fresh)
		scan_gate(&a);
	scratch->gate_fresh = 0;
	int result = 0, stop = 0, block_hit = 0, open = scratch->open_block;
	if (l.bar) {
		/* progress bars: only the @bar rules, in order */
		for (size_t k = 0; k < rules->nbar && !stop; k++) {
			size_t i = rules->bar_rules[k];
			if (group_pass(&rules->groups[rules->rules[i].group]) != pass)
				continue;
			int rc = try_rules(&a, i, i + 1, 1, &stop, &block_hit);
			if (result <= 0 && rc)
				result = rc;
		}
	} else if (!nothing_to_try(rules, scratch, pass, 0)) {
		for (size_t g = 0; g < rules->ngroups && !stop; g++) {
			const struct rgroup *gr = &rules->groups[g];
			int gate = !gr->nmarkers || gate_open(scratch, g);
			int in_open = open >= 0 && rules->blocks[open].group == (int)g;
			if (group_pass(gr) != pass || (!gate && !in_open && !l.bar))
				continue;
			int rc = try_rules(&a, gr->first, gr->end, gate, &stop, &block_hit);
			if (result <= 0 && rc)
				result = rc;
			if (!rc && gr->nmarkers && gate && !in_open)
				note_missed(scratch, l.lineno, (int)g);
		}
	}
	/* a block closes after lines that none of its rules read */
	if (open >= 0 && scratch->open_block == open && !l.bar &&
	    group_pass(&rules->groups[rules->blocks[open].group]) == pass) {
		if (block_hit) {
			scratch->misses = 0;
		} else if (++scratch->misses >= rules->blocks[open].lines) {
			flush_held(rules, scratch, sink);
			scratch->open_block = -1;
		}
	}
	tp_rules_scratch_free(own);
	return result;
}

int tp_rules_match(const struct tp_rules *rules, struct tp_rules_scratch *scratch,
		   const char *line, size_t n, const char *file, uint64_t lineno,
		   const struct tp_sink *sink)
{
	struct tp_rules_line ln = { line, n, line, n, 0, file, lineno, NULL, 0, -1, NULL };
	return tp_rules_match_pass(rules, scratch, 0, &ln, sink);
}

int tp_rules_missed(const struct tp_rules *rules, const struct tp_rules_scratch *scratch, uint64_t lineno,
		    struct strbuf *names)
{
	if (!rules || !scratch || scratch->rules != rules || !lineno || scratch->missed_line != lineno)
		return 0;
	for (int i = 0; i < scratch->nmissed; i++)
		strbuf_addf(names, "%s'%s'", !i ? "" : i + 1 < scratch->nmissed ? ", " : " and ",
			    rules->groups[scratch->missed_group[i]].name);
	return scratch->nmissed;
}

void tp_rules_finish(const struct tp_rules *rules, struct tp_rules_scratch *scratch,
		     const struct tp_sink *sink)
{
	if (!rules || !scratch || scratch->rules != rules)
		return;
	if (scratch->open_block >= 0)
		flush_held(rules, scratch, sink);
	scratch->open_block = -1;
}
