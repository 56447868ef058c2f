/*
 * packtest.h - what the format packs' suites share (test_packs.c on the
 * golden logs printed by tests/gen-packs.sh, test_live.c on real runs'
 * logs): parsing with every pack, and finding records by type and name.
 */
#ifndef TPROF_TESTS_PACKTEST_H
#define TPROF_TESTS_PACKTEST_H

#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/parse.h"
#include "parse/rules/gate.h"
#include "parse/rules/packs.h"
#include "parse/scan/scan.h"
#include "testutil.h"

static inline struct tp_rules *all_packs(void)
{
	struct tp_rules *rs = NULL;
	struct strbuf err = STRBUF_INIT;
	struct tp_rules_opts o = { NULL, 0, NULL, 0 };
	cr_assert_eq(tp_rules_setup(&o, &rs, &err), 0, "%s", err.buf ? err.buf : "");
	cr_assert_not_null(rs);
	strbuf_release(&err);
	return rs;
}

/* Parses text, named file, with every pack, through the candidate search of
 * the named backend (NULL: the plain per-line path), into c. */
static inline void parse_packs_with(const char *file, const char *text, size_t n, const char *backend,
				    struct collector *c)
{
	struct tp_rules *rs = all_packs();
	struct tp_sink sink = collect_sink(c);
	struct tp_parser *p = tp_parser_new(file, &sink, rs);
	struct tp_scanner *sc = NULL;
	if (backend) {
		setenv("TPROF_SCAN", backend, 1);
		sc = tp_scanner_for_run(rs);
		unsetenv("TPROF_SCAN");
		cr_assert_not_null(sc, "no %s scanner for the packs", backend);
		tp_parser_set_scanner(p, sc);
	}
	char *copy = xmemdup(text, n); /* exact size: a read past the end is caught by ASan */
	tp_parse_buffer(p, copy, n);
	tp_parser_finish(p);
	tp_parser_free(p);
	tp_scanner_free(sc);
	tp_rules_free(rs);
	free(copy);
}

/* Parses tests/data/packs/NAME.log with every pack into c. */
static inline void parse_pack_log(const char *name, struct collector *c)
{
	char path[256];
	snprintf(path, sizeof(path), "tests/data/packs/%s.log", name);
	struct strbuf text = STRBUF_INIT;
	cr_assert_eq(tu_slurp(path, &text), 0, "cannot read %s (run tests/gen-packs.sh)", path);
	parse_packs_with(path, text.buf, text.len, NULL, c);
	strbuf_release(&text);
	cr_expect_eq(c->nwarn, 0, "%s: %zu warnings, first: %s", name, c->nwarn,
		     c->nwarn ? c->warnings[0] : "");
}

/* The k-th record (from 0) of type t, or a failed test. */
static inline const struct tp_record *nth(const struct collector *c, enum tp_type t, size_t k)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].rec.type == t && k-- == 0)
			return &c->v[i].rec;
	cr_assert_fail("no record %zu of type %s", k, tp_schemas[t].type_name);
	return NULL;
}

static inline const struct tp_record *named(const struct collector *c, enum tp_type t, const char *name)
{
	const struct tp_record *r = collected_find(c, t, name);
	cr_assert_not_null(r, "no %s record named '%s'", tp_schemas[t].type_name, name);
	return r;
}

/* The k-th record (from 0) of type t named name, or a failed test. */
static inline const struct tp_record *named_nth(const struct collector *c, enum tp_type t, const char *name,
						size_t k)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct tp_record *r = &c->v[i].rec;
		if (r->type == t && r->name && strcmp(r->name, name) == 0 && k-- == 0)
			return r;
	}
	cr_assert_fail("no record %zu of type %s named '%s'", k, tp_schemas[t].type_name, name);
	return NULL;
}

/* How many records of type t are named name. */
static inline size_t named_count(const struct collector *c, enum tp_type t, const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++)
		n += c->v[i].rec.type == t && c->v[i].rec.name && strcmp(c->v[i].rec.name, name) == 0;
	return n;
}

static inline double num(const struct tp_record *r, int slot)
{
	cr_assert(tp_has(r, slot), "%s record: slot %d not set", tp_schemas[r->type].type_name, slot);
	return r->num[slot];
}

#define EQ(a, b) cr_expect_float_eq((a), (double)(b), 1e-9 * (fabs((double)(b)) + 1), "%.17g != %.17g", (double)(a), (double)(b))

/* The k-th aggregate (from 0) named name: a profiler row's CPU cells. */
static inline void expect_cpu(const struct collector *c, const char *name, size_t k, double self_pct, double self_s,
			      double total_pct, double total_s, double mean_s)
{
	const struct tp_record *r = named_nth(c, TP_AGGREGATE, name, k);
	EQ(num(r, S_AGG_SELF_PCT), self_pct);
	EQ(num(r, S_AGG_SELF_S), self_s);
	EQ(num(r, S_AGG_TOTAL_PCT), total_pct);
	EQ(num(r, S_AGG_TOTAL_S), total_s);
	EQ(num(r, S_AGG_MEAN_S), mean_s);
}

/* The same row's device cells (2.x: Self CUDA, Self CUDA %, CUDA total, CUDA time avg). */
static inline void expect_device(const struct collector *c, const char *name, size_t k, double self_s,
				 double self_pct, double total_s, double mean_s)
{
	const struct tp_record *r = named_nth(c, TP_AGGREGATE, name, k);
	EQ(num(r, S_AGG_DEV_SELF_S), self_s);
	EQ(num(r, S_AGG_DEV_SELF_PCT), self_pct);
	EQ(num(r, S_AGG_DEV_TOTAL_S), total_s);
	EQ(num(r, S_AGG_DEV_MEAN_S), mean_s);
}

#endif
