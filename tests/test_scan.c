/*
 * test_scan.c - the candidate search (parse/scan/scan.c, parse/scan/markers.c):
 * the lines it finds, and that parsing with it gives byte for byte the
 * records, warnings and statistics of the plain per-line path, on every
 * test log and sample and on lines built to sit at its edges.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FUZZ_NO_MAIN
#include "../fuzz/fuzz_scan.c"
#include "base/base.h"
#include "parse/input/driver.h"
#include "parse/emit.h"
#include "parse/lines/parser.h"
#include "parse/record.h"
#include "parse/rules/rules.h"
#include "parse/scan/scan.h"

/* fz_scan_pass_rules: parses a buffer with a scanner (NULL: the plain path)
 * into a trace of records (NDJSON) and warnings, and statistics. */
#define parse_with(buf, n, sc, trace, st) fz_scan_pass_rules(buf, n, NULL, sc, trace, st)

static struct tp_scanner *scanner(enum tp_scan_backend b)
{
	struct strbuf err = STRBUF_INIT;
	struct tp_scanner *sc = tp_scanner_new(&tp_builtin_markers, 1, b, &err);
	cr_assert(sc || b == TP_SCAN_VECTORSCAN || b == TP_SCAN_TEDDY || b == TP_SCAN_TEDDY_AVX2,
		  "scanner: %s", err.buf ? err.buf : "");
	strbuf_release(&err);
	return sc;
}

/* Every matcher: one not built in or not run by this CPU gives no scanner
 * and is skipped. */
static const enum tp_scan_backend kinds[] = { TP_SCAN_VECTORSCAN, TP_SCAN_TEDDY, TP_SCAN_TEDDY_AVX2,
					      TP_SCAN_PORTABLE };

/* Asserts that every matcher gives the plain path's output; returns the
 * number of records. */
static uint64_t assert_same(const char *what, const char *buf, size_t n)
{
	struct strbuf plain = STRBUF_INIT;
	struct tp_stats sp;
	parse_with(buf, n, NULL, &plain, &sp);
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

/* A line of progress bar redraws longer than TP_MAX_LINE: every redraw is
 * read, the finished bar at its end too (gaussian-splatting's 450 KB line),
 * as on the plain path; a redraw itself is read on its first TP_MAX_LINE
 * bytes. */
Test(scan, a_long_line_of_redraws_is_read_whole)
{
	struct strbuf log = STRBUF_INIT;
	for (int i = 1; i <= 2000; i++)
		strbuf_addf(&log, "%sTraining progress: %3d%%|%-10.*s| %d/2000 [%02d:%02d<00:10, 12.%dit/s, Loss=0.%02d]",
			    i > 1 ? "\r" : "", i * 100 / 2000, i * 10 / 2000, "##########", i, i / 60, i % 60, i % 10,
			    i % 97);
	cr_assert_gt(log.len, 2 * TP_MAX_LINE);
	strbuf_addstr(&log, "\n[STAGE] after\n");
	assert_same("long redraws", log.buf, log.len);
	struct strbuf out = STRBUF_INIT;
	struct tp_stats st;
	parse_with(log.buf, log.len, NULL, &out, &st);
	cr_expect_eq(st.records[TP_PROGRESS], 2000);
	cr_expect_eq(st.long_lines, 1);
	cr_expect(strstr(out.buf, "\"n\":2000,\"total\":2000"), "the finished bar past TP_MAX_LINE");
	strbuf_release(&out);
	strbuf_release(&log);
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
	cr_assert_null(tp_scanner_for_run(NULL));
	setenv("TPROF_PLAIN", "0", 1);
	struct tp_scanner *sc = tp_scanner_for_run(NULL);
	cr_assert_not_null(sc);
	tp_scanner_free(sc);
	struct strbuf err = STRBUF_INIT;
	static const char any[] = "timing name=\"t\" took (?<seconds>\\d+)s\n";
	struct tp_rules *r = tp_rules_compile(any, sizeof(any) - 1, "t.rules", &err);
	cr_assert_not_null(r);
	cr_assert_null(tp_scanner_for_run(r), "a rule may match any line");
	/* a group with markers (a format pack) joins the candidate search */
	static const char gated[] = "@marker \"[step]\"\ntiming name=\"t\" took (?<seconds>\\d+)s\n";
	struct tp_rules *g = tp_rules_compile(gated, sizeof(gated) - 1, "g.rules", &err);
	cr_assert_not_null(g);
	sc = tp_scanner_for_run(g);
	cr_assert_not_null(sc);
	tp_scanner_free(sc);
	tp_rules_free(r);
	tp_rules_free(g);
	strbuf_release(&err);
	unsetenv("TPROF_PLAIN");
}

static int sb_write(void *ctx, const char *buf, size_t n)
{
	strbuf_add(ctx, buf, n);
	return 0;
}

/* Runs the driver on path as tprof-parse does; out gets the NDJSON and
 * the warnings. */
static void run_driver(const char *path, int threads, size_t chunk, const struct tp_scanner *sc,
		       struct strbuf *out, struct tp_stats *st)
{
	struct tp_run_opts o = { .threads = threads, .fmt = TP_OUT_NDJSON, .chunk = chunk };
	struct strbuf err = STRBUF_INIT;
	o.scanner = sc;
	o.write = sb_write;
	o.ctx = out;
	/* warnings after the records: the driver delivers them apart */
	struct strbuf warns = STRBUF_INIT;
	o.sink.warn = fz_scan_warn;
	o.sink.ctx = &warns;
	memset(st, 0, sizeof(*st));
	cr_assert_eq(tp_run_file(path, NULL, &o, st, &err), 0, "%s", err.buf ? err.buf : "");
	strbuf_add(out, warns.buf ? warns.buf : "", warns.len);
	strbuf_release(&warns);
	strbuf_release(&err);
}

/* Writes n bytes to a new temporary file; its name goes into path. */
static void write_tmp(char path[], const char *buf, size_t n)
{
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, buf, n), (ssize_t)n);
	close(fd);
}

/* Appends every .log of dir to sb. */
static void add_logs(struct strbuf *sb, const char *dir)
{
	DIR *d = opendir(dir);
	cr_assert(d, "cannot open %s", dir);
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name), n;
		if (l < 5 || strcmp(de->d_name + l - 4, ".log"))
			continue;
		char path[1024];
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		char *buf = slurp(path, &n);
		strbuf_add(sb, buf, n);
		free(buf);
	}
	closedir(d);
}

Test(scan, driver_gives_the_plain_output_on_any_threads_and_chunks)
{
	/* every log, four times over, with the edge lines; the last line has
	 * no line end; small chunks put cuts inside tables and pending records */
	struct strbuf all = STRBUF_INIT;
	for (int i = 0; i < 4; i++) {
		add_logs(&all, "tests/data");
		add_logs(&all, "samples");
		strbuf_add(&all, edges, sizeof(edges) - 1);
		strbuf_addch(&all, '\n');
	}
	strbuf_add(&all, "[STAGE] last", 12);
	char path[] = "/tmp/tprof-scan-XXXXXX";
	write_tmp(path, all.buf, all.len);
	/* the threaded reader cuts a line longer than its buffer into parts
	 * anywhere (the plain one at '\r'): keep lines shorter than 1024 */
	size_t longest = 0, cur = 0;
	for (size_t i = 0; i < all.len; i++)
		cur = all.buf[i] == '\n' ? 0 : cur + 1, longest = cur > longest ? cur : longest;
	cr_assert_lt(longest, 1024);

	struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	struct tp_stats sw, sg;
	run_driver(path, 1, 0, NULL, &want, &sw);
	uint64_t total = 0;
	for (int t = 0; t < TP_NTYPES; t++)
		total += sw.records[t];
	cr_assert_gt(total, 1900, "%llu records", (unsigned long long)total);
	cr_assert_gt(sw.records[TP_SUMMARY], 100, "rows of tables whose rows hold no marker");
	struct tp_scanner *sc[] = { scanner(TP_SCAN_VECTORSCAN), scanner(TP_SCAN_TEDDY),
				    scanner(TP_SCAN_TEDDY_AVX2), scanner(TP_SCAN_PORTABLE) };
	size_t chunks[] = { 1024, 4096, 65536 };
	int threads[] = { 1, 2, 3 };
	for (size_t k = 0; k < ARRAY_SIZE(sc); k++) {
		if (!sc[k])
			continue;
		for (size_t c = 0; c < ARRAY_SIZE(chunks); c++)
			for (size_t t = 0; t < ARRAY_SIZE(threads); t++) {
				strbuf_reset(&got);
				run_driver(path, threads[t], chunks[c], sc[k], &got, &sg);
				cr_assert_eq(got.len, want.len, "%s, %d threads, chunk %zu",
					     tp_scanner_backend(sc[k]), threads[t], chunks[c]);
				cr_assert(!memcmp(got.buf, want.buf, want.len), "%s, %d threads, chunk %zu",
					  tp_scanner_backend(sc[k]), threads[t], chunks[c]);
				cr_assert(!memcmp(&sg, &sw, sizeof(sw)), "statistics: %s, %d threads, chunk %zu",
					  tp_scanner_backend(sc[k]), threads[t], chunks[c]);
			}
		tp_scanner_free(sc[k]);
	}
	unlink(path);
	strbuf_release(&want);
	strbuf_release(&got);
	strbuf_release(&all);
}

Test(scan, last_line_longer_than_the_buffer)
{
	/* 100 KB of short lines, then a line with no line end that runs past
	 * the threaded reader's buffer and past TP_MAX_LINE: it is counted as
	 * one long line, and read on its first TP_MAX_LINE bytes */
	size_t head = 100000, n = head + TP_MAX_LINE + 5000;
	char *buf = xmalloc(n);
	for (size_t i = 0; i < head; i++)
		buf[i] = i % 50 == 49 ? '\n' : 'x';
	memset(buf + head, 'a', n - head);
	memcpy(buf + head - 20, "[STAGE] x\n[STAGE] yy", 20);
	char path[] = "/tmp/tprof-scan-XXXXXX";
	write_tmp(path, buf, n);
	struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	struct tp_stats sw, sg;
	run_driver(path, 1, 0, NULL, &want, &sw);
	cr_assert_eq(sw.lines, head / 50 + 1);
	cr_assert_eq(sw.long_lines, 1);
	cr_assert_eq(sw.records[TP_STAGE], 2);
	struct tp_scanner *sc = scanner(TP_SCAN_PORTABLE);
	for (int threads = 1; threads <= 2; threads++) {
		strbuf_reset(&got);
		run_driver(path, threads, TP_MAX_LINE, sc, &got, &sg);
		cr_assert_eq(got.len, want.len, "%d threads", threads);
		cr_assert(!memcmp(got.buf, want.buf, want.len));
		cr_assert(!memcmp(&sg, &sw, sizeof(sw)), "%d threads: long %llu, unrecognized %llu",
			  threads, (unsigned long long)sg.long_lines, (unsigned long long)sg.unrecognized);
	}
	tp_scanner_free(sc);
	unlink(path);
	free(buf);
	strbuf_release(&want);
	strbuf_release(&got);
}

/* The matcher is built only when an input is read in chunks: a regular,
 * uncompressed file of at least twice the chunk (4 MiB by default). */
Test(scan, only_inputs_read_in_chunks_want_the_search)
{
	char big[64], gz[64];
	snprintf(big, sizeof(big), "/tmp/tprof-scan-big-%d.log", (int)getpid());
	snprintf(gz, sizeof(gz), "/tmp/tprof-scan-big-%d.log.gz", (int)getpid());
	FILE *f = fopen(big, "wb");
	cr_assert(f);
	for (int i = 0; i < 100000; i++)
		fprintf(f, "noise line %06d of a log that is large enough\n", i);
	cr_assert_eq(fclose(f), 0);
	char cmd[200];
	snprintf(cmd, sizeof(cmd), "gzip -c %s > %s", big, gz);
	cr_assert_eq(system(cmd), 0);
	char *small[] = { "samples/ddp-4rank.log", "-", "no/such/file.log" };
	cr_expect_eq(tp_inputs_want_scanner(small, 3, 0), 0, "small, standard input, missing");
	cr_expect_eq(tp_inputs_want_scanner(small, 1, 1024), 1, "twice a 1 KiB chunk");
	char *withbig[] = { "samples/ddp-4rank.log", big };
	cr_expect_eq(tp_inputs_want_scanner(withbig, 2, 0), 1);
	char *compressed[] = { gz };
	cr_expect_eq(tp_inputs_want_scanner(compressed, 1, 1024), 0, "gzip is read as a stream");
	cr_expect_eq(tp_inputs_want_scanner(NULL, 0, 0), 0);
	/* a FIFO is never opened: that would wait for a writer */
	char fifo[64];
	snprintf(fifo, sizeof(fifo), "/tmp/tprof-scan-fifo-%d", (int)getpid());
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	char *pipes[] = { fifo };
	cr_expect_eq(tp_inputs_want_scanner(pipes, 1, 1), 0);
	unlink(fifo);
	unlink(big);
	unlink(gz);
}
