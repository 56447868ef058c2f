/*
 * fuzz_common.h - what every tprof fuzz target shares: a sink that checks
 * each record against the contract of record.h (and writes it in all three
 * output formats, so the writers are fuzzed too), checks that the NDJSON
 * written reads back to the same record, and helpers to split an input
 * into separately allocated lines (so that reading past a line's end is an
 * ASan error, not a silent read of the next line).
 *
 * A broken invariant is reported with fz_fail(), which prints the reason
 * and aborts: libFuzzer saves the input as a crash, and the regression
 * suite (tests/test_regress.c, which includes the targets) sees a signal.
 *
 * Everything is static (the targets are also compiled together into one
 * test binary), names start with fz_.
 */
#ifndef TPROF_FUZZ_COMMON_H
#define TPROF_FUZZ_COMMON_H

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/emit.h"
#include "base/json.h"
#include "parse/input/ndjson_in.h"
#include "parse/lines/parser.h"
#include "parse/record.h"
#include "base/util.h"

__attribute__((format(printf, 1, 2), noreturn, unused)) static void fz_fail(const char *fmt, ...)
{
	va_list ap;
	fputs("fuzz invariant broken: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* Touches every byte of [s, s+n) so that ASan checks the whole range. */
static inline unsigned fz_touch(const char *s, size_t n)
{
	unsigned h = 0;
	for (size_t i = 0; i < n; i++)
		h = h * 31u + (unsigned char)s[i];
	return h;
}

static inline int fz_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "YYYY-MM-DDTHH:MM:SS" optionally followed by '.' and digits. */
static inline int fz_ts_ok(const char *ts)
{
	static const char pat[] = "dddd-dd-ddTdd:dd:dd";
	char full[64];
	/* a date without a year, as ISO 8601 writes one: "--MM-DDTHH:MM:SS" */
	if (ts[0] == '-' && ts[1] == '-' && strlen(ts) < sizeof(full) - 4) {
		snprintf(full, sizeof(full), "2000%s", ts + 1);
		ts = full;
	} else if (ts[0] == 'T' && strlen(ts) < sizeof(full) - 12) {
		/* a time of day alone: "THH:MM:SS" */
		snprintf(full, sizeof(full), "2000-01-01%s", ts);
		ts = full;
	}
	size_t n = strlen(ts);
	if (n < sizeof(pat) - 1)
		return 0;
	for (size_t i = 0; i < sizeof(pat) - 1; i++)
		if (pat[i] == 'd' ? !fz_is_digit(ts[i]) : ts[i] != pat[i])
			return 0;
	if (n == sizeof(pat) - 1)
		return 1;
	if (ts[sizeof(pat) - 1] != '.' || n == sizeof(pat))
		return 0;
	for (size_t i = sizeof(pat); i < n; i++)
		if (!fz_is_digit(ts[i]))
			return 0;
	return 1;
}

/* Printable ASCII only: then the NDJSON must hold the string unchanged. */
static inline int fz_plain(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return 0;
	return 1;
}

struct fz_sink {
	struct strbuf out;     /* formatted records (reset per record) */
	struct json_doc doc;   /* for reading the NDJSON back */
	struct strbuf err;
	uint64_t records, warnings;
	uint64_t max_line;     /* records and warnings must not be past this line (0: any) */
	int allow_nonfinite;   /* 1: numbers may be nan/inf (NDJSON read back: never) */
	int check_roundtrip;   /* 1: NDJSON written must read back to the same record */
	int all_formats;       /* 1: write each record as NDJSON, CSV and table */
	int any_ts;            /* 1: ts may be any text (NDJSON read back is not checked) */
	size_t max_records;    /* ask the producer to stop after this many (0: never) */
	struct strbuf *trace;  /* optional: every record's NDJSON and warning, in order */
	unsigned hash;         /* sum of the bytes touched (keeps the reads from being optimized out) */
};

static inline void fz_sink_init(struct fz_sink *s)
{
	struct json_doc d = JSON_DOC_INIT;
	memset(s, 0, sizeof(*s));
	s->doc = d;
	s->check_roundtrip = 1;
	s->all_formats = 1;
}

static inline void fz_sink_free(struct fz_sink *s)
{
	strbuf_release(&s->out);
	strbuf_release(&s->err);
	json_free(&s->doc);
}

/* Whether records of type t write their name (not all types have one). */
static inline int fz_has_name(enum tp_type t)
{
	for (int i = 0; i < tp_schemas[t].nfields; i++)
		if (tp_schemas[t].fields[i].kind == TP_F_NAME)
			return 1;
	return 0;
}

/* The NDJSON of r read back must give the same type, position and numbers. */
static inline void fz_roundtrip(struct fz_sink *s, const struct tp_record *r)
{
	struct json_error je;
	struct tp_record b;

	strbuf_reset(&s->out);
	tp_record_to_json(r, &s->out);
	if (json_parse(s->out.buf, s->out.len, &s->doc, &je) < 0)
		fz_fail("tp_record_to_json wrote invalid JSON (%s at col %u): %s", je.msg,
			(unsigned)je.col, s->out.buf);
	strbuf_reset(&s->err);
	if (tp_record_from_json(s->doc.root, &b, &s->err) < 0)
		fz_fail("NDJSON written does not read back (%s): %s", s->err.buf ? s->err.buf : "?",
			s->out.buf);
	if (b.type != r->type || b.line != r->line || b.rank != r->rank)
		fz_fail("NDJSON read back: type/line/rank differ: %s", s->out.buf);
	if (!!b.ts != !!r->ts || (r->ts && strcmp(b.ts, r->ts) != 0))
		fz_fail("NDJSON read back: ts differs: %s", s->out.buf);
	if (b.has != r->has)
		fz_fail("NDJSON read back: fields present differ (%#x vs %#x): %s", b.has, r->has,
			s->out.buf);
	for (int i = 0; i < TP_NUM_SLOTS; i++)
		if (tp_has(r, i) && tp_has(&b, i) && isfinite(r->num[i]) && b.num[i] != r->num[i])
			fz_fail("NDJSON read back: slot %d is %.17g, was %.17g: %s", i, b.num[i],
				r->num[i], s->out.buf);
	if (r->name && fz_has_name(r->type) && fz_plain(r->name, r->name_len) &&
	    (!b.name || b.name_len != r->name_len || memcmp(b.name, r->name, r->name_len) != 0))
		fz_fail("NDJSON read back: name differs: %s", s->out.buf);
}

static inline void fz_check_record(struct fz_sink *s, const struct tp_record *r)
{
	if ((unsigned)r->type >= TP_NTYPES)
		fz_fail("record type %d out of range", (int)r->type);
	if (!r->file)
		fz_fail("record with a NULL file");
	s->hash += fz_touch(r->file, strlen(r->file));
	if (r->line == 0 || (s->max_line && r->line > s->max_line))
		fz_fail("record line %llu outside 1..%llu", (unsigned long long)r->line,
			(unsigned long long)s->max_line);
	if (r->rank < -1)
		fz_fail("record rank %d", r->rank);
	if (r->ts && !s->any_ts && !fz_ts_ok(r->ts))
		fz_fail("record ts '%s' is not [YYYY]-MM-DDTHH:MM:SS[.fff]", r->ts);
	if (r->name)
		s->hash += fz_touch(r->name, r->name_len);
	else if (r->name_len)
		fz_fail("name_len %zu without a name", r->name_len);
	if (r->text)
		s->hash += fz_touch(r->text, r->text_len);
	else if (r->text_len)
		fz_fail("text_len %zu without a text", r->text_len);
	if (r->has >> TP_NUM_SLOTS)
		fz_fail("has %#x sets bits past TP_NUM_SLOTS", r->has);
	for (int i = 0; i < TP_NUM_SLOTS; i++)
		if (tp_has(r, i) && !s->allow_nonfinite && !isfinite(r->num[i]))
			fz_fail("record %s slot %d is not finite (%g)", tp_schemas[r->type].type_name,
				i, r->num[i]);
	for (int f = TP_OUT_NDJSON; s->all_formats && f <= TP_OUT_TABLE; f++) {
		strbuf_reset(&s->out);
		tp_emit_record((enum tp_out_format)f, r, &s->out);
		if (!s->out.len)
			fz_fail("format %d wrote nothing for a record", f);
	}
	if (s->check_roundtrip)
		fz_roundtrip(s, r);
}

static int fz_emit(void *ctx, const struct tp_record *r)
{
	struct fz_sink *s = ctx;
	fz_check_record(s, r);
	s->records++;
	return s->max_records && s->records >= s->max_records;
}

static void fz_warn(void *ctx, const char *file, uint64_t line, const char *msg)
{
	struct fz_sink *s = ctx;
	if (!file || !msg)
		fz_fail("warning with a NULL file or message");
	if (s->max_line && line > s->max_line)
		fz_fail("warning at line %llu past the input's %llu lines", (unsigned long long)line,
			(unsigned long long)s->max_line);
	s->hash += fz_touch(msg, strlen(msg)) + fz_touch(file, strlen(file));
	s->warnings++;
}

static inline struct tp_sink fz_tp_sink(struct fz_sink *s)
{
	struct tp_sink k = { fz_emit, fz_warn, s };
	return k;
}

/* Number of '\n'-separated lines of buf (a last line without '\n' counts). */
static inline uint64_t fz_count_lines(const char *buf, size_t n)
{
	uint64_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += buf[i] == '\n';
	return k + (n && buf[n - 1] != '\n');
}

/* A private copy of s[0..n) in its own allocation of exactly n bytes. */
static inline char *fz_copy(const char *s, size_t n)
{
	char *c = malloc(n ? n : 1);
	if (!c)
		abort();
	if (n)
		memcpy(c, s, n);
	return c;
}

#endif
