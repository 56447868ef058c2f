/*
 * fuzz_scan.c - libFuzzer target for the candidate search (parse/scan/scan.c,
 * issue 16): the input is parsed as one buffer by the plain per-line path
 * and with the candidate search on each matcher (Vectorscan where built in,
 * Teddy where the CPU runs it, the portable one), with the built-in readers
 * alone and again with every format pack loaded (the packs' markers join
 * the search, and Teddy and Vectorscan tell the packs' gate which lines
 * hold none). Records (as NDJSON), warnings and statistics must be the
 * same byte for byte.
 *
 * Build and run: make fuzz (mk/fuzz.mk). tests/test_regress.c includes
 * this file with FUZZ_NO_MAIN defined and calls fuzz_scan_one().
 */
#include "fuzz_common.h"
#include "parse/rules/packs.h"
#include "parse/scan/scan.h"

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

/* Parses buf with rules rs and sc (NULL: plain) into trace and st. */
static void fz_scan_pass_rules(const char *buf, size_t n, const struct tp_rules *rs,
			       const struct tp_scanner *sc, struct strbuf *trace,
			       struct tp_stats *st)
{
	struct tp_sink k = { fz_scan_emit, fz_scan_warn, trace };
	struct tp_parser *p = tp_parser_new("fuzz.log", &k, rs);
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

/* Compiled once per process: a Vectorscan compile takes milliseconds.
 * [0][b]: the built-in markers, [1][b]: with every format pack's. */
static struct tp_scanner *fz_scanners[2][5];
static int fz_scanner_tried[2][5];
static struct tp_rules *fz_packs;
static int fz_packs_tried;

static const struct tp_rules *fz_scan_packs(void)
{
	if (!fz_packs_tried) {
		struct tp_rules_opts o = { 0 };
		struct strbuf err = STRBUF_INIT;
		if (tp_rules_setup(&o, &fz_packs, &err) < 0)
			fz_fail("the format packs do not load: %s", err.buf ? err.buf : "");
		strbuf_release(&err);
		fz_packs_tried = 1;
	}
	return fz_packs;
}

static void fz_scan_compare(const char *buf, size_t n, const struct tp_rules *rs,
			    enum tp_scan_backend b, const struct strbuf *ta, const struct tp_stats *sa)
{
	struct strbuf tb = STRBUF_INIT;
	int w = rs != NULL;
	if (!fz_scanner_tried[w][b]) {
		struct strbuf err = STRBUF_INIT;
		struct tp_marker_set sets[2] = { tp_builtin_markers };
		if (rs)
			sets[1] = *tp_rules_scan_markers(rs);
		fz_scanners[w][b] = tp_scanner_new(sets, rs ? 2 : 1, b, &err);
		fz_scanner_tried[w][b] = 1;
		strbuf_release(&err);
	}
	struct tp_scanner *sc = fz_scanners[w][b];
	if (!sc)
		return; /* this backend is not built in, or does not run here */
	struct tp_stats sb;
	fz_scan_pass_rules(buf, n, rs, sc, &tb, &sb);
	if (ta->len != tb.len || (ta->len && memcmp(ta->buf, tb.buf, ta->len) != 0))
		fz_fail("the %s candidate search%s reads other records or warnings:\nplain:\n%s\nfast:\n%s",
			tp_scanner_backend(sc), rs ? " with the packs" : "", ta->buf ? ta->buf : "",
			tb.buf ? tb.buf : "");
	if (memcmp(sa, &sb, sizeof(sb)) != 0)
		fz_fail("the %s candidate search%s gives other statistics (lines %llu/%llu, "
			"unrecognized %llu/%llu, long %llu/%llu)",
			tp_scanner_backend(sc), rs ? " with the packs" : "",
			(unsigned long long)sa->lines, (unsigned long long)sb.lines,
			(unsigned long long)sa->unrecognized, (unsigned long long)sb.unrecognized,
			(unsigned long long)sa->long_lines, (unsigned long long)sb.long_lines);
	strbuf_release(&tb);
}

static int fuzz_scan_one(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	static const enum tp_scan_backend kinds[] = { TP_SCAN_VECTORSCAN, TP_SCAN_PORTABLE,
						      TP_SCAN_TEDDY, TP_SCAN_TEDDY_AVX2 };
	for (int w = 0; w < 2; w++) {
		const struct tp_rules *rs = w ? fz_scan_packs() : NULL;
		if (w && !tp_rules_scan_safe(rs))
			break;
		struct strbuf ta = STRBUF_INIT;
		struct tp_stats sa;
		fz_scan_pass_rules(buf, size, rs, NULL, &ta, &sa);
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			fz_scan_compare(buf, size, rs, kinds[k], &ta, &sa);
		strbuf_release(&ta);
	}
	return 0;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_scan_one(data, size);
}
#endif
