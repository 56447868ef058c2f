/*
 * samples.c - a rules file proves itself: each @sample piece (rules.h) is
 * parsed as a log, with the whole rule set and the built-in readers as a
 * user's run would be, and its records are compared with the @expect
 * lines that follow it. The tools check users' files as they load them,
 * the tests check every format pack; so a pack carries its own proof and
 * needs no test file of its own (lnav's format files do the same).
 */
#include "parser.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse/emit.h"
#include "parse/rules/rules.h"

struct checking {
	const struct tp_rsample *sm;
	size_t seen;        /* records so far */
	unsigned line;      /* of the first difference: an @expect's, or the piece's */
	struct strbuf why;  /* the first difference */
};

static int same_text(const char *want, const char *s, size_t n)
{
	return s && strlen(want) == n && !memcmp(want, s, n);
}

static int same_number(const char *want, double v)
{
	char *end;
	double w = strtod(want, &end);
	if (end == want || *end)
		return 0;
	return fabs(w - v) <= 1e-9 * (fabs(w) + fabs(v)) || w == v;
}

/* Whether field key of r has the value want. */
static int field_is(const struct tp_record *r, const char *key, const char *want)
{
	if (!strcmp(key, "ts"))
		return same_text(want, r->ts, r->ts ? strlen(r->ts) : 0);
	if (!strcmp(key, "rank"))
		return same_number(want, r->rank);
	if (!strcmp(key, "role"))
		return !strcmp(want, tp_role_name(r->role));
	if (!strcmp(key, "parent"))
		return same_text(want, r->parent, r->parent_len);
	int i = tp_field_index(r->type, key, strlen(key));
	if (i < 0)
		return 0;
	const struct tp_field *f = &tp_schemas[r->type].fields[i];
	int present = f->kind != TP_F_NAME && f->kind != TP_F_TEXT && tp_has(r, f->slot);
	switch (f->kind) {
	case TP_F_NAME: return same_text(want, r->name, r->name_len);
	case TP_F_TEXT: return same_text(want, r->text, r->text_len);
	case TP_F_VALUE:
		return present ? same_number(want, r->num[f->slot]) : same_text(want, r->text, r->text_len);
	default: return present && same_number(want, r->num[f->slot]);
	}
}

static int check_record(void *ctx, const struct tp_record *r)
{
	struct checking *c = ctx;
	size_t k = c->seen++;
	if (c->why.len)
		return 0;
	const struct tp_rexpect *e = k < c->sm->nexpect ? &c->sm->expect[k] : NULL;
	if (!e || e->type < 0) {
		c->line = c->sm->lineno;
		strbuf_addstr(&c->why, "the @sample gives a record no @expect names: ");
	} else if ((int)r->type != e->type) {
		c->line = e->lineno;
		strbuf_addf(&c->why, "@expect wants a %s; the @sample (line %u) gives ", tp_schemas[e->type].type_name,
			    c->sm->lineno);
	} else {
		for (size_t i = 0; i < e->nkv && !c->why.len; i++)
			if (!field_is(r, e->keys[i], e->vals[i])) {
				c->line = e->lineno;
				strbuf_addf(&c->why, "@expect wants %s=%s; the @sample (line %u) gives ", e->keys[i],
					    e->vals[i], c->sm->lineno);
			}
		if (!c->why.len)
			return 0;
	}
	tp_record_to_json(r, &c->why);
	return 0;
}

static void check_warning(void *ctx, const char *file, uint64_t line, const char *msg)
{
	struct checking *c = ctx;
	(void)file;
	if (!c->why.len) {
		c->line = c->sm->lineno;
		strbuf_addf(&c->why, "line %llu of the @sample gives a warning: %s", (unsigned long long)line, msg);
	}
}

/* The first difference of one piece into why (empty: none). */
static void check_one(const struct tp_rules *rules, const struct tp_rsample *sm, struct checking *c)
{
	struct tp_sink sink = { check_record, check_warning, c };
	struct tp_parser *p = tp_parser_new(sm->source, &sink, rules);
	for (const char *s = sm->text, *end = sm->text + sm->len; s < end;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		tp_parser_line(p, s, (size_t)(nl - s));
		s = nl + 1;
	}
	tp_parser_finish(p);
	tp_parser_free(p);
	size_t want = sm->nexpect && sm->expect[0].type >= 0 ? sm->nexpect : 0;
	if (!c->why.len && c->seen < want) {
		c->line = sm->lineno;
		strbuf_addf(&c->why, "the @sample gives %zu record(s), its @expect lines %zu", c->seen, want);
	}
}

size_t tp_rules_check_samples(const struct tp_rules *rules, int packs, struct strbuf *err)
{
	size_t n, bad = 0;
	const struct tp_rsample *v = tp_rules_samples(rules, &n);
	for (size_t i = 0; i < n; i++) {
		if (v[i].pack && !packs)
			continue;
		struct checking c = { &v[i], 0, 0, STRBUF_INIT };
		check_one(rules, &v[i], &c);
		if (c.why.len) {
			strbuf_addf(err, "%s%s:%u: %s", bad ? "\n" : "", v[i].source, c.line, c.why.buf);
			bad++;
		}
		strbuf_release(&c.why);
	}
	return bad;
}
