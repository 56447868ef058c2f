/*
 * fuzz_scan.c - libFuzzer target for the candidate search (parse/scan.c,
 * issue 16): the input is parsed as one buffer three times, by the plain
 * per-line path and with the candidate search on each matcher (Vectorscan
 * where built in, and the portable one). Records (as NDJSON), warnings and
 * statistics must be the same byte for byte.
 *
 * Build and run: make fuzz (mk/fuzz.mk). tests/test_regress.c includes
 * this file with FUZZ_NO_MAIN defined and calls fuzz_scan_one().
 */
#include "fuzz_common.h"
#include "parse/scan.h"

static int fz_scan_emit(void *ctx, const struct tp_record *r)
{
	tp_record_to_json(r, ctx);
	strbuf_addch(ctx, '\n');
	return 0;
}

static void fz_scan_warn(void *ctx, const char *file, uint64_t line, const char *msg)
{
	(void)file;
	strbuf_addf(ctx, "W %llu %s\n", (unsigned long long)line, msg);
}

/* Parses buf with sc (NULL: plain) into trace and st. */
static void fz_scan_pass(const char *buf, size_t n, const struct tp_scanner *sc,
			 struct strbuf *trace, struct tp_stats *st)
{
	struct tp_sink k = { fz_scan_emit, fz_scan_warn, trace };
	struct tp_parser *p = tp_parser_new("fuzz.log", &k, NULL);
	tp_parser_set_scanner(p, sc);
	/* an exact-size copy: a read past the end is caught by ASan */
	char *c = fz_copy(buf, n);
	tp_parse_buffer(p, c, n);
	tp_parser_finish(p);
	free(c);
	memset(st, 0, sizeof(*st));
	tp_parser_take_stats(p, st);
	tp_parser_free(p);
}

/* Compiled once per process: a Vectorscan compile takes milliseconds. */
static struct tp_scanner *fz_scanners[3];
static int fz_scanner_tried[3];

static void fz_scan_compare(const char *buf, size_t n, enum tp_scan_backend b,
			    const struct strbuf *ta, const struct tp_stats *sa)
{
	struct strbuf tb = STRBUF_INIT;
	if (!fz_scanner_tried[b]) {
		struct strbuf err = STRBUF_INIT;
		fz_scanners[b] = tp_scanner_new(&tp_builtin_markers, 1, b, &err);
		fz_scanner_tried[b] = 1;
		strbuf_release(&err);
	}
	struct tp_scanner *sc = fz_scanners[b];
	if (!sc)
		return; /* this backend is not built in */
	struct tp_stats sb;
	fz_scan_pass(buf, n, sc, &tb, &sb);
	if (ta->len != tb.len || (ta->len && memcmp(ta->buf, tb.buf, ta->len) != 0))
		fz_fail("the %s candidate search reads other records or warnings:\nplain:\n%s\nfast:\n%s",
			tp_scanner_backend(sc), ta->buf ? ta->buf : "", tb.buf ? tb.buf : "");
	if (memcmp(sa, &sb, sizeof(sb)) != 0)
		fz_fail("the %s candidate search gives other statistics (lines %llu/%llu, "
			"unrecognized %llu/%llu, long %llu/%llu)",
			tp_scanner_backend(sc), (unsigned long long)sa->lines,
			(unsigned long long)sb.lines, (unsigned long long)sa->unrecognized,
			(unsigned long long)sb.unrecognized, (unsigned long long)sa->long_lines,
			(unsigned long long)sb.long_lines);
	strbuf_release(&tb);
}

static int fuzz_scan_one(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct strbuf ta = STRBUF_INIT;
	struct tp_stats sa;
	fz_scan_pass(buf, size, NULL, &ta, &sa);
	fz_scan_compare(buf, size, TP_SCAN_VECTORSCAN, &ta, &sa);
	fz_scan_compare(buf, size, TP_SCAN_PORTABLE, &ta, &sa);
	strbuf_release(&ta);
	return 0;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_scan_one(data, size);
}
#endif
