/*
 * test_hostile.c - hostile and broken input, end to end: the built tools
 * (tprof-parse, tprof-analyze) run on random bytes, NUL bytes, invalid
 * UTF-8, files cut mid-line and mid-gzip, directories, FIFOs, /dev/zero,
 * numbers that overflow, negative and NaN durations, deeply nested and huge
 * JSON, broken CSV quoting, a 100 MB line and a million distinct names.
 *
 * Each test states the exit status and message it expects (exit status of
 * every tool: 0 ok, 1 warnings with --strict, 2 bad input, 3 output error)
 * and, where memory is the point, the peak RSS of the tool (wait4's
 * ru_maxrss of the command, which covers the processes it waited for).
 * Every command runs under timeout(1), every test under a Criterion timeout.
 *
 * Suites: "hostile" is quick; "hostile_big" writes 100 MB files or a
 * million lines and checks memory bounds (make check-asan leaves it out:
 * ASan multiplies memory and time). Tests marked BUG assert the behaviour
 * that is right and are disabled until the bug (reported with the test) is
 * fixed; enable them then.
 *
 * The tools are taken from $TPROF_BIN (default bin); run from the
 * repository root (make check does). Files go to a fresh directory under
 * /tmp per test, removed at its end.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "base/util.h"

/* ---- helpers ---------------------------------------------------------- */

static char dir[64]; /* this test's scratch directory */

static void make_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/tprof-hostile-XXXXXX");
	if (!mkdtemp(dir))
		cr_assert_fail("mkdtemp: %s", strerror(errno));
}

static void remove_dir(void)
{
	char cmd[128];
	if (!dir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "test_hostile: could not remove %s\n", dir);
}

/* The path of a file in the scratch directory (a static buffer per call slot). */
static const char *at(const char *name)
{
	static char bufs[8][256];
	static int next;
	char *b = bufs[next++ % 8];
	snprintf(b, 256, "%s/%s", dir, name);
	return b;
}

struct result {
	int status;       /* exit status, or 128 + signal */
	struct strbuf out, err;
	long maxrss_mb;   /* peak RSS of the command's processes */
};

static void slurp(const char *path, struct strbuf *sb)
{
	FILE *fp = fopen(path, "rb");
	char buf[65536];
	size_t n;
	strbuf_addstr(sb, "");
	if (!fp)
		return;
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(sb, buf, n);
	fclose(fp);
}

/*
 * Runs a shell command (printf-style) with B set to the tools' directory,
 * from the repository root; captures stdout, stderr, the exit status and
 * the peak RSS. Commands with big output redirect it themselves.
 */
__attribute__((format(printf, 1, 2))) static struct result run(const char *fmt, ...)
{
	struct result r = { 0, STRBUF_INIT, STRBUF_INIT, 0 };
	struct strbuf cmd = STRBUF_INIT;
	va_list ap;
	strbuf_addstr(&cmd, "B=${TPROF_BIN:-bin}; ");
	va_start(ap, fmt);
	strbuf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	const char *outp = at(".stdout"), *errp = at(".stderr");
	pid_t pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		int fo = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int fe = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int fi = open("/dev/null", O_RDONLY);
		if (fo < 0 || fe < 0 || fi < 0)
			_exit(120);
		dup2(fi, 0);
		dup2(fo, 1);
		dup2(fe, 2);
		execl("/bin/sh", "sh", "-c", cmd.buf, (char *)NULL);
		_exit(127);
	}
	int st;
	struct rusage ru;
	cr_assert_eq(wait4(pid, &st, 0, &ru), pid);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r.maxrss_mb = ru.ru_maxrss / 1024;
	slurp(outp, &r.out);
	slurp(errp, &r.err);
	strbuf_release(&cmd);
	return r;
}

static void result_free(struct result *r)
{
	strbuf_release(&r->out);
	strbuf_release(&r->err);
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *fp = fopen(path, "wb");
	cr_assert_not_null(fp, "%s: %s", path, strerror(errno));
	cr_assert_eq(fwrite(p, 1, n, fp), n);
	cr_assert_eq(fclose(fp), 0);
}

#define WRITE_LIT(path, lit) write_file((path), (lit), sizeof(lit) - 1)

static size_t count_lines(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Whether s[0..n) is well-formed UTF-8 (no overlongs, no surrogates). */
static int valid_utf8(const unsigned char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		unsigned c = s[i];
		size_t k;
		unsigned cp;
		if (c < 0x80) {
			i++;
			continue;
		} else if (c >= 0xc2 && c <= 0xdf) {
			k = 1, cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			k = 2, cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			k = 3, cp = c & 0x07;
		} else {
			return 0;
		}
		for (size_t j = 1; j <= k; j++) {
			if (i + j >= n || (s[i + j] & 0xc0) != 0x80)
				return 0;
			cp = (cp << 6) | (s[i + j] & 0x3f);
		}
		if ((k == 2 && cp < 0x800) || (k == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += k + 1;
	}
	return 1;
}

/* A deterministic byte stream (xorshift64*), for "random" input. */
static void random_bytes(unsigned char *p, size_t n, uint64_t seed)
{
	uint64_t x = seed;
	for (size_t i = 0; i < n; i++) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		p[i] = (unsigned char)((x * 2685821657736338717ULL) >> 56);
	}
}

/* Writes head, then n bytes of fill, then tail. */
static void write_padded(const char *path, const char *head, int fill, size_t n, const char *tail)
{
	static char block[1 << 20];
	FILE *fp = fopen(path, "wb");
	cr_assert_not_null(fp);
	memset(block, fill, sizeof(block));
	cr_assert_eq(fputs(head, fp) >= 0, 1);
	while (n) {
		size_t k = n < sizeof(block) ? n : sizeof(block);
		cr_assert_eq(fwrite(block, 1, k, fp), k);
		n -= k;
	}
	cr_assert_eq(fputs(tail, fp) >= 0, 1);
	cr_assert_eq(fclose(fp), 0);
}

TestSuite(hostile, .init = make_dir, .fini = remove_dir, .timeout = 20);
TestSuite(hostile_big, .init = make_dir, .fini = remove_dir, .timeout = 20);

/* ---- garbage ---------------------------------------------------------- */

/* 4 MB of random bytes: no records, no warnings, exit 0; analyze gives an
 * empty report (documented: no records, no run), exit 0. */
Test(hostile, random_bytes_are_no_records, .timeout = 20)
{
	static unsigned char junk[4 << 20];
	random_bytes(junk, sizeof(junk), 42);
	write_file(at("junk.log"), junk, sizeof(junk));
	struct result r = run("timeout 15 $B/tprof-parse --strict --count --stats %s", at("junk.log"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert_str_eq(r.out.buf, "total      0\n");
	cr_assert(strstr(r.err.buf, "records:             0\n"), "%s", r.err.buf);
	cr_assert(strstr(r.err.buf, "malformed markers:   0\n"), "%s", r.err.buf);
	result_free(&r);
	r = run("timeout 15 $B/tprof-analyze -f json %s", at("junk.log"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strncmp(r.out.buf, "{\"tool\":\"tprof-analyze\"", 23) == 0, "%.200s", r.out.buf);
	cr_assert_null(strstr(r.out.buf, "\"rows\":[["), "no table has rows");
	cr_assert_str_eq(r.err.buf, "");
	result_free(&r);
	/* the same through a pipe (the one-thread stream reader) */
	r = run("timeout 15 cat %s | timeout 15 $B/tprof-parse --count", at("junk.log"));
	cr_assert_eq(r.status, 0);
	cr_assert_str_eq(r.out.buf, "total      0\n");
	result_free(&r);
}

/* NUL bytes inside and around a record: the record is read, its name keeps
 * the NUL as \u0000 in NDJSON and U+FFFD in CSV; 1 MB of NULs is one long
 * unrecognized line. */
Test(hostile, nul_bytes, .timeout = 20)
{
	write_padded(at("nul.log"), "", 0, 1 << 20, "\n");
	struct result r = run("printf '[TIMING] a\\000b: 1s\\n' > %s && cat %s >> %s && "
			      "printf '[STAGE] after\\n' >> %s && timeout 15 $B/tprof-parse --stats %s",
			      at("t.log"), at("nul.log"), at("t.log"), at("t.log"), at("t.log"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, "\"line\":1,\"name\":\"a\\u0000b\",\"seconds\":1}\n"), "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, "\"line\":3,\"name\":\"after\"}\n"), "%s", r.out.buf);
	cr_assert_eq(count_lines(r.out.buf), 2);
	cr_assert(strstr(r.err.buf, "lines read:          3\n"), "%s", r.err.buf);
	cr_assert(strstr(r.err.buf, "overlong lines:      1 (parsed on their first 64 KiB)"), "%s",
		  r.err.buf);
	result_free(&r);
	r = run("timeout 15 $B/tprof-parse -f csv %s", at("t.log"));
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out.buf, ",a\xef\xbf\xbd" "b,"), "%s", r.out.buf);
	result_free(&r);
}

/* Invalid UTF-8 is replaced by U+FFFD in every output format: the output is
 * always valid UTF-8; a cut multi-byte sequence at the end of the file too. */
Test(hostile, invalid_utf8_is_replaced, .timeout = 20)
{
	WRITE_LIT(at("u.log"), "[STAGE] \xff\xfe bad \xc0\x80 \xed\xa0\x80\n"
			       "[TIMING] \xe2\x82: 1.5s\n"
			       "[STAGE] caf\xc3");
	static const char *fmts[] = { "ndjson", "csv", "table" };
	for (int i = 0; i < 3; i++) {
		struct result r = run("timeout 15 $B/tprof-parse -f %s %s", fmts[i], at("u.log"));
		cr_assert_eq(r.status, 0, "%s: %s", fmts[i], r.err.buf);
		cr_assert(valid_utf8((const unsigned char *)r.out.buf, r.out.len),
			  "%s output is not UTF-8: %s", fmts[i], r.out.buf);
		cr_assert(strstr(r.out.buf, "\xef\xbf\xbd\xef\xbf\xbd bad"), "%s: %s", fmts[i],
			  r.out.buf);
		cr_assert(strstr(r.out.buf, "caf\xef\xbf\xbd"), "%s: %s", fmts[i], r.out.buf);
		result_free(&r);
	}
	struct result r = run("timeout 15 $B/tprof-analyze -f json %s", at("u.log"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(valid_utf8((const unsigned char *)r.out.buf, r.out.len), "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, "\"\xef\xbf\xbd\xef\xbf\xbd\""), "the [TIMING] stage: %s",
		  r.out.buf);
	result_free(&r);
}

/* ---- truncated input -------------------------------------------------- */

/* A file cut mid-line: the last line is read as it is; cut inside a number
 * it is a warning ("line without a readable 'name: duration'"), --strict
 * exit 1. A table cut mid-row keeps its complete rows and warns about the
 * cut one ("TIMING SUMMARY row without a readable duration"). */
Test(hostile, file_cut_mid_line, .timeout = 20)
{
	WRITE_LIT(at("a.log"), "[TIMING] a: 1s\n[TIMING] b: 2.5s");
	struct result r = run("timeout 15 $B/tprof-parse %s", at("a.log"));
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out.buf, "\"line\":2,\"name\":\"b\",\"seconds\":2.5}"), "%s", r.out.buf);
	result_free(&r);
	WRITE_LIT(at("b.log"), "[TIMING] a: 1s\n[TIMING] c: 2.");
	r = run("timeout 15 $B/tprof-parse --strict %s", at("b.log"));
	cr_assert_eq(r.status, 1);
	cr_assert_eq(count_lines(r.out.buf), 1);
	cr_assert(strstr(r.err.buf, "b.log:2: warning: [TIMING] line without a readable 'name: duration'"),
		  "%s", r.err.buf);
	result_free(&r);
	WRITE_LIT(at("c.log"), "[TIMING SUMMARY]\n  Stage A : 1.0s ( 50.0%)\n  Stage B : 1.0s (");
	r = run("timeout 15 $B/tprof-parse %s", at("c.log"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, "\"name\":\"Stage A\",\"seconds\":1,\"percent\":50}"), "%s", r.out.buf);
	cr_assert_eq(count_lines(r.out.buf), 1, "%s", r.out.buf);
	cr_assert(strstr(r.err.buf, "c.log:3: warning: TIMING SUMMARY row without a readable duration\n"),
		  "%s", r.err.buf);
	result_free(&r);
}

static void write_gzip_log(const char *path, int lines)
{
	gzFile gz = gzopen(path, "wb");
	cr_assert_not_null(gz);
	for (int i = 0; i < lines; i++)
		cr_assert_gt(gzprintf(gz, "[TIMING] stage%d: 1.%ds\n", i % 7, i), 0);
	cr_assert_eq(gzclose(gz), Z_OK);
}

/* gzip cut in the middle of the stream or of its header: exit 2 with
 * "NAME: truncated gzip data (the file ends inside the stream)"; the
 * records inflated before the cut are kept (tprof-parse). */
Test(hostile, gzip_cut_mid_stream, .timeout = 20)
{
	write_gzip_log(at("full.gz"), 20000);
	struct result r = run("head -c 20000 %s > %s && head -c 5 %s > %s", at("full.gz"),
			      at("cut.gz"), at("full.gz"), at("hdr.gz"));
	cr_assert_eq(r.status, 0);
	result_free(&r);
	r = run("timeout 15 $B/tprof-parse %s", at("cut.gz"));
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err.buf, "cut.gz: truncated gzip data (the file ends inside the stream)"),
		  "%s", r.err.buf);
	size_t kept = count_lines(r.out.buf);
	cr_assert(kept > 100 && kept < 20000, "%zu records kept", kept);
	result_free(&r);
	r = run("timeout 15 $B/tprof-parse %s", at("hdr.gz"));
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err.buf, "hdr.gz: truncated gzip data"), "%s", r.err.buf);
	cr_assert_str_eq(r.out.buf, "");
	result_free(&r);
	r = run("timeout 15 $B/tprof-analyze %s > /dev/null", at("cut.gz"));
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err.buf, "tprof-analyze: "), "%s", r.err.buf);
	cr_assert(strstr(r.err.buf, "cut.gz: truncated gzip data (the file ends inside the stream)"),
		  "%s", r.err.buf);
	result_free(&r);
	/* through a pipe: the same message, with the pipe's name */
	r = run("timeout 15 $B/tprof-parse --count < %s", at("cut.gz"));
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err.buf, "(stdin): truncated gzip data"), "%s", r.err.buf);
	result_free(&r);
}

/* ---- things that are not files ---------------------------------------- */

/* A directory, also one named like a document: exit 2, "NAME: is a
 * directory", from both tools. */
Test(hostile, directory, .timeout = 20)
{
	cr_assert_eq(mkdir(at("d.json"), 0700), 0);
	const char *tools[] = { "tprof-parse", "tprof-analyze" };
	for (int i = 0; i < 2; i++) {
		struct result r = run("timeout 15 $B/%s %s", tools[i], dir);
		cr_assert_eq(r.status, 2, "%s", tools[i]);
		cr_assert(strstr(r.err.buf, ": is a directory"), "%s: %s", tools[i], r.err.buf);
		result_free(&r);
		r = run("timeout 15 $B/%s %s", tools[i], at("d.json"));
		cr_assert_eq(r.status, 2, "%s", tools[i]);
		cr_assert(strstr(r.err.buf, "d.json: is a directory"), "%s: %s", tools[i], r.err.buf);
		result_free(&r);
	}
}

/* A FIFO with a writer is read like a file, by both tools. */
Test(hostile, fifo_with_writer, .timeout = 20)
{
	cr_assert_eq(mkfifo(at("f.log"), 0600), 0);
	struct result r = run("(printf '[TIMING] a: 1.5s\\n' > %s &) ; timeout 15 $B/tprof-parse %s",
			      at("f.log"), at("f.log"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, "\"line\":1,\"name\":\"a\",\"seconds\":1.5}\n"), "%s", r.out.buf);
	result_free(&r);
	r = run("(printf '[TIMING] a: 1.5s\\n[TIMING] b: 0.5s\\n' > %s &) ; "
		"timeout 15 $B/tprof-analyze -f csv %s", at("f.log"), at("f.log"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, "breakdown,breakdown,1,share,%,75\r\n"), "%s", r.out.buf);
	result_free(&r);
}

/*
 * BUG (reported): a FIFO named *.json or *.csv whose content is a log.
 * tp_doc_load (parse/input/docinput.c) reads the FIFO to its end to sniff a
 * document, finds none and returns TP_DOC_NONE; the log reader then opens
 * the FIFO again and blocks for ever (the writer is gone, the data was
 * consumed). Right: the log is read from the bytes already read (or a
 * FIFO is never sniffed as a document): exit 0 with the record.
 */
Test(hostile, fifo_named_json_holding_a_log, .timeout = 20)
{
	cr_assert_eq(mkfifo(at("f.json"), 0600), 0);
	struct result r = run("(printf '[TIMING] a: 1.5s\\n' > %s &) ; timeout 5 $B/tprof-parse %s",
			      at("f.json"), at("f.json"));
	cr_assert_eq(r.status, 0, "exit %d (124: hung): %s", r.status, r.err.buf);
	cr_assert(strstr(r.out.buf, "\"name\":\"a\",\"seconds\":1.5}"), "%s", r.out.buf);
	result_free(&r);
}

/* A FIFO named .json holding a document is read as the document. */
Test(hostile, fifo_named_json_holding_a_document, .timeout = 20)
{
	cr_assert_eq(mkfifo(at("f.json"), 0600), 0);
	struct result r = run("(cat samples/kan-timing.json > %s &) ; timeout 15 $B/tprof-parse --count %s",
			      at("f.json"), at("f.json"));
	/* documents are read from regular files only: a FIFO is always a log
	 * (so that a log in a FIFO named .json is never lost), and this JSON
	 * holds no log lines */
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert_str_eq(r.out.buf, "total      0\n");
	result_free(&r);
}

/* /dev/zero (a device that never ends) is refused: exit 2, "NAME: not a
 * regular file or a pipe". A pipe of 50 MB of NULs is one overlong line:
 * exit 0, no records, bounded memory. */
Test(hostile, dev_zero, .timeout = 20)
{
	const char *tools[] = { "tprof-parse", "tprof-analyze" };
	for (int i = 0; i < 2; i++) {
		struct result r = run("timeout 15 $B/%s /dev/zero", tools[i]);
		cr_assert_eq(r.status, 2, "%s", tools[i]);
		cr_assert(strstr(r.err.buf, "/dev/zero: not a regular file or a pipe"), "%s: %s",
			  tools[i], r.err.buf);
		result_free(&r);
	}
	struct result r = run("head -c 50000000 /dev/zero | timeout 15 $B/tprof-parse --count --stats");
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert_str_eq(r.out.buf, "total      0\n");
	cr_assert(strstr(r.err.buf, "lines read:          1\n"), "%s", r.err.buf);
	cr_assert(strstr(r.err.buf, "overlong lines:      1"), "%s", r.err.buf);
	result_free(&r);
}

/*
 * BUG (reported): standard input that is /dev/zero is read for ever (one
 * endless line) although tp_input_open refuses the same device by name;
 * input.h's contract is that a device that is not a pipe is refused.
 * Right: exit 2 with "(stdin): not a regular file or a pipe" (a terminal
 * stays accepted).
 */
Test(hostile, dev_zero_on_stdin, .timeout = 20)
{
	const char *tools[] = { "tprof-parse", "tprof-analyze" };
	for (int i = 0; i < 2; i++) {
		struct result r = run("timeout 5 $B/%s - < /dev/zero", tools[i]);
		cr_assert_eq(r.status, 2, "%s: exit %d (124: hung)", tools[i], r.status);
		cr_assert(strstr(r.err.buf, "(stdin): not a regular file or a pipe"), "%s: %s",
			  tools[i], r.err.buf);
		result_free(&r);
	}
}

/* ---- numbers ---------------------------------------------------------- */

/* Overflowing and non-finite values: the record is kept without the field,
 * with the warning "timing seconds: inf is not a finite number, field left
 * empty"; negative durations are warned about ("negative value -1.5") and
 * kept; --strict makes any of them exit 1; no "inf"/"nan" in the output. */
Test(hostile, overflow_negative_and_nan_durations, .timeout = 20)
{
	WRITE_LIT(at("n.log"), "[TIMING] big: 1e999s\n"
			       "[TIMING] huge: 1e308 min\n"
			       "[TIMING] neg: -1.5s\n"
			       "[TIMING] n: nan s\n"
			       "[TIMING] i: -inf s\n"
			       "[TIMING] ok: 1.5s\n");
	struct result r = run("timeout 15 $B/tprof-parse %s", at("n.log"));
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out.buf, "\"line\":1,\"name\":\"big\"}\n"), "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, "\"line\":2,\"name\":\"huge\"}\n"), "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, "\"line\":3,\"name\":\"neg\",\"seconds\":-1.5}\n"), "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, "\"line\":4,\"name\":\"n\"}\n"), "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, "\"line\":5,\"name\":\"i\"}\n"), "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, "\"line\":6,\"name\":\"ok\",\"seconds\":1.5}\n"), "%s", r.out.buf);
	cr_assert_null(strstr(r.out.buf, "inf"));
	cr_assert_null(strstr(r.out.buf, "nan"));
	cr_assert(strstr(r.err.buf, "n.log:1: warning: timing seconds: inf is not a finite number, "
				    "field left empty\n"), "%s", r.err.buf);
	cr_assert(strstr(r.err.buf, "n.log:2: warning: timing seconds: inf is not a finite number"),
		  "%s", r.err.buf);
	cr_assert(strstr(r.err.buf, "n.log:3: warning: timing seconds: negative value -1.5\n"), "%s",
		  r.err.buf);
	cr_assert(strstr(r.err.buf, "n.log:4: warning: timing seconds: nan is not a finite number"),
		  "%s", r.err.buf);
	cr_assert(strstr(r.err.buf, "n.log:5: warning: timing seconds: inf is not a finite number"),
		  "%s", r.err.buf);
	result_free(&r);
	r = run("timeout 15 $B/tprof-parse --strict -q %s > /dev/null", at("n.log"));
	cr_assert_eq(r.status, 1);
	cr_assert_str_eq(r.err.buf, "");
	result_free(&r);
	/* analyze reads the same lines with the same warnings and no crash */
	r = run("timeout 15 $B/tprof-analyze -f json %s", at("n.log"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.err.buf, "tprof-analyze: "), "%s", r.err.buf);
	cr_assert(strstr(r.err.buf, "n.log:1: warning: timing seconds: inf is not a finite number"),
		  "%s", r.err.buf);
	cr_assert_null(strstr(r.out.buf, "inf"), "%s", r.out.buf);
	cr_assert_null(strstr(r.out.buf, "nan"), "%s", r.out.buf);
	result_free(&r);
}

/*
 * BUG (reported): a negative duration is warned about but still summed by
 * tprof-analyze's breakdown: with stages ok 1.5 s and neg -1.5 s the TOTAL
 * is 0.00 and no stage has a share. Right: a value the parser reported as
 * impossible is left out of the sums (ok is 100 % of 1.5 s).
 */
Test(hostile, analyze_leaves_out_negative_durations, .timeout = 20)
{
	WRITE_LIT(at("n.log"), "[TIMING] ok: 1.5s\n[TIMING] neg: -1.5s\n");
	struct result r = run("timeout 15 $B/tprof-analyze -q -f csv --breakdown %s", at("n.log"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, "breakdown,breakdown,1,stage,,ok\r\n"), "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, "breakdown,breakdown,1,share,%,100\r\n"), "%s", r.out.buf);
	cr_assert_null(strstr(r.out.buf, ",stage,,neg\r\n"), "%s", r.out.buf);
	result_free(&r);
}

/* A finite value no run lasts (1e308 s twice would sum to infinity, and
 * showed as a blank row with no word why) is left out, and said. */
Test(hostile, analyze_leaves_out_impossible_durations, .timeout = 20)
{
	WRITE_LIT(at("n.log"), "[TIMING] a: 1e308s\n[TIMING] a: 1e308s\n[TIMING] b: 1s\n");
	struct result r = run("timeout 15 $B/tprof-analyze -q -f csv --breakdown %s", at("n.log"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, "breakdown,breakdown,1,stage,,b\r\n"), "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, "breakdown,breakdown,1,share,%,100\r\n"), "%s", r.out.buf);
	cr_assert_null(strstr(r.out.buf, ",stage,,a\r\n"), "%s", r.out.buf);
	result_free(&r);
	r = run("timeout 15 $B/tprof-analyze -q %s", at("n.log"));
	cr_assert(strstr(r.out.buf, "2 time values over 1e+12 s (more than 30,000 years) left out: no duration"),
		  "%s", r.out.buf);
	result_free(&r);
	/* an epoch's and a batch's duration too: no wall of 1e35 s, no step
	 * time of 1e14 s; the batch's index still counts */
	WRITE_LIT(at("e.log"), "  Epoch |  Duration(s) | x\n------------\n"
			       "      0 |  99999999999999999999999999999999999 | 1\n");
	r = run("timeout 15 $B/tprof-analyze -q %s", at("e.log"));
	cr_assert(strstr(r.out.buf, "read 1 epoch (1 time value over 1e+12 s left out: no duration)"), "%s",
		  r.out.buf);
	cr_assert_null(strstr(r.out.buf, "1e+35"), "%s", r.out.buf);
	result_free(&r);
	WRITE_LIT(at("b.log"), "Epoch 1[1/50]: loss:0.5, lr:0.1, batch time:99999999999999, data time:0.1\n"
			       "Epoch 1[2/50]: loss:0.5, lr:0.1, batch time:0.4, data time:0.1\n"
			       "Epoch 1[3/50]: loss:0.5, lr:0.1, batch time:0.5, data time:0.1\n");
	r = run("timeout 15 $B/tprof-analyze -q %s", at("b.log"));
	cr_assert(strstr(r.out.buf, "batch time 0.45 s"), "%s", r.out.buf);
	cr_assert_null(strstr(r.out.buf, "99999999999998"), "%s", r.out.buf);
	/* no breakdown is printed, and what was left out is said all the same */
	cr_assert(strstr(r.out.buf, "1 time value over 1e+12 s (more than 30,000 years) left out: no "
				    "duration ("),
		  "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, "b.log:1)"), "%s", r.out.buf);
	result_free(&r);
	/* a pack's number with an exponent is read whole: 2.5e-1 is 0.25, not 2.5 */
	WRITE_LIT(at("x.log"), "Epoch 1[1/50]: loss:0.5, batch time:2.5e-1, data time:1e-2\n");
	r = run("timeout 15 $B/tprof-parse %s", at("x.log"));
	cr_assert(strstr(r.out.buf, "\"line\":1,\"seconds\":0.25}"), "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, "\"name\":\"data time\",\"seconds\":0.01}"), "%s", r.out.buf);
	result_free(&r);
}

/* ---- JSON and CSV documents ------------------------------------------- */

/* 100k '[' after a report key: exit 2, "x.json:1:267: invalid JSON: nesting
 * deeper than 256", no stack overflow; the same in an NDJSON line is a
 * warning for that line only. A top-level array is not a document. */
Test(hostile, deeply_nested_json, .timeout = 20)
{
	write_padded(at("deep.json"), "{\"runtime\":", '[', 100000, "");
	const char *tools[] = { "tprof-parse", "tprof-analyze" };
	for (int i = 0; i < 2; i++) {
		struct result r = run("timeout 15 $B/%s %s", tools[i], at("deep.json"));
		cr_assert_eq(r.status, 2, "%s: %s", tools[i], r.err.buf);
		cr_assert(strstr(r.err.buf, "deep.json:1:267: invalid JSON: nesting deeper than 256\n"),
			  "%s: %s", tools[i], r.err.buf);
		result_free(&r);
	}
	write_padded(at("deep.ndjson"), "{\"type\":\"timing\",\"name\":\"x\",\"seconds\":1,\"x\":", '[',
		     100000, "\n{\"type\":\"timing\",\"name\":\"ok\",\"seconds\":2,\"line\":2}\n");
	struct result r = run("timeout 15 $B/tprof-analyze -f csv %s", at("deep.ndjson"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.err.buf, "deep.ndjson:1: warning: nesting deeper than 256\n"), "%s", r.err.buf);
	cr_assert_eq(count_lines(r.err.buf), 1, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, "breakdown,breakdown,1,stage,,ok\r\n"), "%s", r.out.buf);
	result_free(&r);
	write_padded(at("arr.json"), "", '[', 100000, "");
	r = run("timeout 15 $B/tprof-parse --count %s", at("arr.json"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert_str_eq(r.out.buf, "total      0\n");
	result_free(&r);
}

/* Broken CSV quoting: exit 2, "FILE:LINE:COL: unterminated quoted CSV
 * field" / "broken CSV quoting"; the rows before the error are kept. */
Test(hostile, csv_broken_quoting, .timeout = 20)
{
	WRITE_LIT(at("a.csv"), "Section,Model,Time (s)\nS1,MLP,1.5\nS,\"unterminated,1.0\nS2,KAN,2\n");
	WRITE_LIT(at("b.csv"), "Section,Model,Time (s)\nS1,\"ML\"P\",1.5\n");
	struct result r = run("timeout 15 $B/tprof-parse %s", at("a.csv"));
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err.buf, "a.csv:3:3: unterminated quoted CSV field\n"), "%s", r.err.buf);
	cr_assert_eq(count_lines(r.out.buf), 1);
	cr_assert(strstr(r.out.buf, "\"line\":2,\"section\":\"S1\",\"name\":\"MLP\",\"seconds\":1.5}"),
		  "%s", r.out.buf);
	result_free(&r);
	r = run("timeout 15 $B/tprof-parse %s", at("b.csv"));
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err.buf, "b.csv:2:8: broken CSV quoting\n"), "%s", r.err.buf);
	result_free(&r);
	r = run("timeout 15 $B/tprof-analyze %s", at("a.csv"));
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err.buf, "a.csv:3:3: unterminated quoted CSV field\n"), "%s", r.err.buf);
	result_free(&r);
}

/*
 * BUG (reported): an NDJSON first line longer than the 1 MiB input buffer.
 * read_ndjson (analyze/load.c) starts with flags = START|END instead of the
 * flags of the first piece, so the first 1 MiB is parsed as a whole line
 * ("warning: unterminated string" at line 1) and every later line number
 * is off by one. Right: no warning for the valid first line, the broken
 * third line warned about as line 3.
 */
Test(hostile, ndjson_first_line_over_1mib, .timeout = 20)
{
	write_padded(at("long.ndjson"), "{\"type\":\"timing\",\"name\":\"a\",\"seconds\":1,\"pad\":\"", 'x',
		     2 << 20, "\"}\n{\"type\":\"timing\",\"name\":\"b\",\"seconds\":3}\n{broken\n");
	struct result r = run("timeout 15 $B/tprof-analyze -f csv %s", at("long.ndjson"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.err.buf, "long.ndjson:3: warning: "), "%s", r.err.buf);
	cr_assert_eq(count_lines(r.err.buf), 1, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, ",stage,,b\r\n"), "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, ",stage,,a\r\n"), "%s", r.out.buf);
	result_free(&r);
}

/* ---- big inputs: memory stays bounded --------------------------------- */

/* A 100 MB line: parsed on its first 64 KiB ("overlong lines: 1"), the next
 * line still read, in a few MB; from a file, a pipe, and by analyze. */
Test(hostile_big, line_of_100_mb, .timeout = 20)
{
	write_padded(at("big.log"), "[TIMING] long: 2s", ' ', 100000000, "\n[TIMING] after: 1.5s\n");
	struct result r = run("timeout 15 $B/tprof-parse --stats %s", at("big.log"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, "\"line\":1,\"name\":\"long\",\"seconds\":2}\n"), "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, "\"line\":2,\"name\":\"after\",\"seconds\":1.5}\n"), "%s", r.out.buf);
	cr_assert(strstr(r.err.buf, "overlong lines:      1 (parsed on their first 64 KiB)"), "%s",
		  r.err.buf);
	cr_assert_lt(r.maxrss_mb, 200, "tprof-parse used %ld MB", r.maxrss_mb);
	fprintf(stderr, "test_hostile: 100 MB line: tprof-parse %ld MB", r.maxrss_mb);
	result_free(&r);
	r = run("cat %s | timeout 15 $B/tprof-parse --count", at("big.log"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert_str_eq(r.out.buf, "timing     2\ntotal      2\n");
	cr_assert_lt(r.maxrss_mb, 200, "tprof-parse on a pipe used %ld MB", r.maxrss_mb);
	result_free(&r);
	r = run("timeout 15 $B/tprof-analyze -f csv %s", at("big.log"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, ",stage,,long\r\n"), "%s", r.out.buf);
	cr_assert_lt(r.maxrss_mb, 200, "tprof-analyze used %ld MB", r.maxrss_mb);
	fprintf(stderr, ", tprof-analyze %ld MB\n", r.maxrss_mb);
	result_free(&r);
	unlink(at("big.log")); /* big files go as soon as they are done with */
}

/*
 * BUG (reported): tprof-analyze holds a whole NDJSON line in memory, however
 * long (analyze/load.c read_ndjson appends every part to a strbuf, then
 * json_parse builds a DOM of it): a 100 MB line takes ~400 MB (file) to
 * ~500 MB (pipe) and is then rejected with a misleading "unterminated
 * string". Right: like the log reader, bounded memory: a line longer than
 * TP_MAX_LINE is skipped with a warning saying so, the rest is read.
 */
Test(hostile_big, ndjson_line_of_100_mb, .timeout = 20)
{
	write_padded(at("big.ndjson"), "{\"type\":\"timing\",\"name\":\"", 'x', 100000000,
		     "\",\"seconds\":1}\n{\"type\":\"timing\",\"name\":\"after\",\"seconds\":1.5}\n");
	struct result r = run("timeout 15 $B/tprof-analyze -f csv %s", at("big.ndjson"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, ",stage,,after\r\n"), "%.300s", r.out.buf);
	cr_assert(strstr(r.err.buf, "big.ndjson:1: warning: "), "%s", r.err.buf);
	cr_assert_lt(r.maxrss_mb, 200, "tprof-analyze used %ld MB", r.maxrss_mb);
	result_free(&r);
	unlink(at("big.ndjson"));
}

/* A million distinct stage names: tprof-parse streams them in a few MB;
 * tprof-analyze keeps one summary per name (measured: ~420 MB and ~4 s for
 * the table; -f csv writes 300 MB in ~650 MB), bounded here at 1 GB. */
Test(hostile_big, a_million_distinct_stage_names, .timeout = 20)
{
	FILE *fp = fopen(at("m.log"), "wb");
	cr_assert_not_null(fp);
	for (int i = 0; i < 1000000; i++)
		fprintf(fp, "[TIMING] stage_%07d: 1.%03ds\n", i, i % 1000);
	cr_assert_eq(fclose(fp), 0);
	struct result r = run("timeout 15 $B/tprof-parse --count %s", at("m.log"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert_str_eq(r.out.buf, "timing     1000000\ntotal      1000000\n");
	cr_assert_lt(r.maxrss_mb, 200, "tprof-parse used %ld MB", r.maxrss_mb);
	long parse_mb = r.maxrss_mb;
	result_free(&r);
	r = run("timeout 18 $B/tprof-analyze --breakdown %s > %s", at("m.log"), at("m.txt"));
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err.buf);
	cr_assert_lt(r.maxrss_mb, 1024, "tprof-analyze used %ld MB", r.maxrss_mb);
	fprintf(stderr, "test_hostile: a million names: tprof-parse %ld MB, tprof-analyze %ld MB\n",
		parse_mb, r.maxrss_mb);
	result_free(&r);
	unlink(at("m.log"));
	/* the 200 largest stages, then one row for the 999,800 others */
	r = run("grep -c '^  stage_[0-9]' %s; grep -c '(999800 other stages)' %s", at("m.txt"), at("m.txt"));
	cr_assert_str_eq(r.out.buf, "200\n1\n");
	result_free(&r);
	unlink(at("m.txt"));
}

/* A 19 MB JSON report (400,000 runtime entries) named .json: read whole, as
 * documented (measured ~150 MB); every entry is a record. */
Test(hostile_big, huge_json_document, .timeout = 20)
{
	FILE *fp = fopen(at("huge.json"), "wb");
	cr_assert_not_null(fp);
	fputs("{\"timestamp\":\"2024-01-01T12:00:00\",\"runtime\":{", fp);
	for (int i = 0; i < 400000; i++)
		fprintf(fp, "%s\"op_%06d\":{\"mean\":%d.5,\"std\":0.1,\"unit\":\"ms\"}", i ? "," : "", i,
			i % 100);
	fputs("}}\n", fp);
	cr_assert_eq(fclose(fp), 0);
	struct result r = run("timeout 15 $B/tprof-parse --count %s", at("huge.json"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert_str_eq(r.out.buf, "runtime    400000\ntotal      400000\n");
	cr_assert_lt(r.maxrss_mb, 400, "tprof-parse used %ld MB", r.maxrss_mb);
	fprintf(stderr, "test_hostile: 19 MB JSON report: tprof-parse %ld MB", r.maxrss_mb);
	result_free(&r);
	r = run("timeout 15 $B/tprof-analyze %s > /dev/null", at("huge.json"));
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert_lt(r.maxrss_mb, 600, "tprof-analyze used %ld MB", r.maxrss_mb);
	fprintf(stderr, ", tprof-analyze %ld MB\n", r.maxrss_mb);
	result_free(&r);
	unlink(at("huge.json"));
}

/*
 * BUG (reported, minor): "bytes read" counts one byte more than the file
 * holds when its last line has no '\n' (tp_parser_feed adds 1 for every
 * line end, also the virtual one at end of input). Right: the file's size.
 */
Test(hostile, stats_bytes_read_is_the_file_size, .timeout = 20)
{
	WRITE_LIT(at("a.log"), "[TIMING] a: 1s\n[TIMING] b: 2s");
	struct result r = run("timeout 15 $B/tprof-parse --count --stats %s", at("a.log"));
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.err.buf, "bytes read:          29\n"), "%s", r.err.buf);
	result_free(&r);
}

/* A hundred thousand declared phases, each with a time stamp and more
 * seconds than the one before: each would look through every phase for
 * those its span holds (10^10 steps); containers are few, and only the
 * first 64 look. */
Test(hostile_big, many_declared_phases_with_stamps, .timeout = 20)
{
	FILE *fp = fopen(at("phases.log"), "wb");
	cr_assert_not_null(fp);
	for (int i = 0; i < 100000; i++)
		fprintf(fp, "2024-01-%02d %02d:%02d:%02d - INFO - phase_%d took %d s\n", 1 + i / 86400, i / 3600 % 24,
			i / 60 % 60, i % 60, i, 1000 + i);
	cr_assert_eq(fclose(fp), 0);
	fp = fopen(at("phases.rules"), "wb");
	cr_assert_not_null(fp);
	fputs("timing role=\"phase\" name=\"{1}\" (phase_\\d+) took (?<seconds>\\d+) s$\n", fp);
	cr_assert_eq(fclose(fp), 0);
	struct result r = run("timeout 15 $B/tprof-analyze --no-formats -r %s -q %s", at("phases.rules"), at("phases.log"));
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err.buf);
	cr_assert(strstr(r.out.buf, "Where the time went: the phases of the run"), "%.300s", r.out.buf);
	result_free(&r);
	unlink(at("phases.log"));
	unlink(at("phases.rules"));
}
