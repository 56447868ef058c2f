/*
 * test_scan.c - the candidate search (parse/scan.c, parse/markers.c):
 * the lines it finds, and that parsing with it gives byte for byte the
 * records, warnings and statistics of the plain per-line path, on every
 * test log and sample and on lines built to sit at its edges.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_NO_MAIN
#include "../fuzz/fuzz_scan.c"
#include "base/base.h"
#include "parse/emit.h"
#include "parse/parser.h"
#include "parse/record.h"
#include "parse/scan.h"

/* fz_scan_pass: parses a buffer with a scanner (NULL: the plain path) into
 * a trace of records (NDJSON) and warnings, and statistics. */
#define parse_with fz_scan_pass

static struct tp_scanner *scanner(enum tp_scan_backend b)
{
	struct strbuf err = STRBUF_INIT;
	struct tp_scanner *sc = tp_scanner_new(&tp_builtin_markers, 1, b, &err);
	cr_assert(sc || b == TP_SCAN_VECTORSCAN, "scanner: %s", err.buf ? err.buf : "");
	strbuf_release(&err);
	return sc;
}

/* Asserts that both matchers give the plain path's output; returns the
 * number of records. */
static uint64_t assert_same(const char *what, const char *buf, size_t n)
{
	struct strbuf plain = STRBUF_INIT;
	struct tp_stats sp;
	parse_with(buf, n, NULL, &plain, &sp);
	enum tp_scan_backend kinds[] = { TP_SCAN_VECTORSCAN, TP_SCAN_PORTABLE };
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		struct tp_scanner *sc = scanner(kinds[i]);
		if (!sc)
			continue;
		struct strbuf fast = STRBUF_INIT;
		struct tp_stats sf;
		parse_with(buf, n, sc, &fast, &sf);
		cr_assert_eq(fast.len, plain.len, "%s (%s): %zu bytes of records, plain %zu\nfast:\n%s\nplain:\n%s",
			     what, tp_scanner_backend(sc), fast.len, plain.len, fast.buf ? fast.buf : "",
			     plain.buf ? plain.buf : "");
		cr_assert(!plain.len || !memcmp(fast.buf, plain.buf, plain.len), "%s (%s): records differ", what,
			  tp_scanner_backend(sc));
		cr_assert_eq(sf.lines, sp.lines, "%s: lines", what);
		cr_assert_eq(sf.unrecognized, sp.unrecognized, "%s (%s): unrecognized %llu vs %llu", what,
			     tp_scanner_backend(sc), (unsigned long long)sf.unrecognized,
			     (unsigned long long)sp.unrecognized);
		cr_assert_eq(sf.long_lines, sp.long_lines, "%s: long lines", what);
		cr_assert_eq(sf.bytes, sp.bytes, "%s: bytes", what);
		cr_assert_eq(sf.malformed, sp.malformed, "%s: warnings", what);
		cr_assert(!memcmp(sf.records, sp.records, sizeof(sp.records)), "%s: record counts", what);
		strbuf_release(&fast);
		tp_scanner_free(sc);
	}
	uint64_t total = 0;
	for (int t = 0; t < TP_NTYPES; t++)
		total += sp.records[t];
	strbuf_release(&plain);
	return total;
}

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	cr_assert(f, "cannot open %s", path);
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t r;
	while ((r = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, r);
	fclose(f);
	*n = sb.len;
	return sb.buf ? sb.buf : xstrdup("");
}

/* Every .log of a directory; returns the records read from all. */
static uint64_t same_on_dir(const char *dir, int *files)
{
	DIR *d = opendir(dir);
	cr_assert(d, "cannot open %s", dir);
	uint64_t total = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l < 5 || strcmp(de->d_name + l - 4, ".log"))
			continue;
		char path[1024];
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		size_t n;
		char *buf = slurp(path, &n);
		total += assert_same(path, buf, n);
		free(buf);
		(*files)++;
	}
	closedir(d);
	return total;
}

Test(scan, same_records_on_every_test_log_and_sample)
{
	int files = 0;
	uint64_t recs = same_on_dir("tests/data", &files) + same_on_dir("samples", &files);
	cr_assert_geq(files, 7, "only %d logs found", files);
	cr_assert_gt(recs, 400, "only %llu records in all the logs", (unsigned long long)recs);
}

/* Lines at the edges of the search: values whose only marker is their
 * unit at the segment's end, markers split by colour escapes, a table whose
 * rows hold no marker, a [Performance] line continued on the next. */
static const char edges[] =
	"noise line without anything\n"
	"L=6: 5.28 ms\n"
	"progress\rN=100: 2.31 \xc2\xb1 0.12 ms\r\n"
	"Peak memory: 512.00 MB (one-time)\n"
	"Total: 38.94 GFLOPs   \n"
	"PE precomputation: 12.34 ms (one-time)\n"
	"Warm: 2.3s (0.04min) (cached)\n"
	"\x1b[32m[TIM\x1b[0mING] colour: 1.5s\n"
	"[TIMING SUMMARY]\n"
	"load : 1.2s (40.0%)\n"
	"train : 1.8s (60.0%)\n"
	"==========\n"
	"[Performance] step: 1.0s, CPU +1.0MB, GPU +2.0MB\n"
	"GPU peak: 100.0MB\n"
	"Batch 3: oops\n"
	"nan: nan ms\n"
	"no end value: 5 ms then words\n"
	"last line 7 s";

Test(scan, same_records_on_edge_lines)
{
	uint64_t n = assert_same("edges", edges, sizeof(edges) - 1);
	/* L=6, N=100, memory, flops, PE, Warm(runtime? no: s is not a runtime
	 * unit), timing, 2 summary rows, perf, nan runtime */
	cr_assert_geq(n, 9, "%llu records", (unsigned long long)n);
}

Test(scan, finds_the_lines_with_markers)
{
	static const char buf[] = "a plain line\n"
				  "x [STAGE] load\n"
				  "ends in a unit: 5 ms\r\n"
				  "1.89s/it] not a unit at the end\n"
				  "tail\r\x1b[0m\n"
				  "Batch 1: 0.5s";
	enum tp_scan_backend kinds[] = { TP_SCAN_VECTORSCAN, TP_SCAN_PORTABLE };
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		struct tp_scanner *sc = scanner(kinds[i]);
		if (!sc)
			continue;
		struct tp_scan_scratch *ss = tp_scan_scratch_new(sc);
		const char *starts[8], *done;
		const char *e = buf + sizeof(buf) - 1;
		long k = tp_scan_lines(sc, ss, buf, e, starts, 8, &done);
		cr_assert_eq(k, 4, "%s: %ld lines", tp_scanner_backend(sc), k);
		cr_assert_eq(starts[0], strstr(buf, "x [STAGE]"));
		cr_assert_eq(starts[1], strstr(buf, "ends in"));
		cr_assert_eq(starts[2], strstr(buf, "tail"));
		cr_assert_eq(starts[3], strstr(buf, "Batch 1"));
		cr_assert_eq(done, e);
		/* with room for one line the search stops after it */
		k = tp_scan_lines(sc, ss, buf, e, starts, 2, &done);
		cr_assert_geq(k, 1);
		cr_assert_eq(starts[0], strstr(buf, "x [STAGE]"));
		cr_assert(done < e && done[-1] == '\n');
		tp_scan_scratch_free(ss);
		tp_scanner_free(sc);
	}
}

Test(scan, long_lines_are_cut_as_on_the_plain_path)
{
	/* a line longer than TP_MAX_LINE whose cut end looks like a value */
	size_t n = TP_MAX_LINE + 100;
	char *buf = xmalloc(n + 64);
	memset(buf, 'x', n);
	memcpy(buf + TP_MAX_LINE - 12, "Mem: 5 MB", 9);
	memcpy(buf + n, "\n[STAGE] after\n", 15);
	assert_same("long line", buf, n + 15);
	free(buf);
}

Test(scan, fuzz_target_accepts_the_edge_lines)
{
	cr_assert_eq(fuzz_scan_one((const uint8_t *)edges, sizeof(edges) - 1), 0);
}

Test(scan, counts_newlines)
{
	char buf[1000];
	uint64_t want = 0;
	for (size_t i = 0; i < sizeof(buf); i++) {
		buf[i] = (i * 7919) % 13 == 0 ? '\n' : 'a';
		want += buf[i] == '\n';
	}
	for (size_t off = 0; off < 40; off++)
		cr_assert_eq(tp_count_newlines(buf + off, buf + sizeof(buf)),
			     want - tp_count_newlines(buf, buf + off));
	cr_assert_eq(tp_count_newlines(buf, buf + sizeof(buf)), want);
	cr_assert_eq(want, 77);
}

Test(scan, plain_path_when_asked_or_with_rules)
{
	setenv("TPROF_PLAIN", "1", 1);
	cr_assert_null(tp_scanner_for_run(0));
	setenv("TPROF_PLAIN", "0", 1);
	struct tp_scanner *sc = tp_scanner_for_run(0);
	cr_assert_not_null(sc);
	tp_scanner_free(sc);
	cr_assert_null(tp_scanner_for_run(1), "a rule may match any line");
	unsetenv("TPROF_PLAIN");
}
