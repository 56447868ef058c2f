/*
 * test_cli.c - end-to-end tests of bin/tprof-parse and bin/tprof: inputs
 * (files, stdin, gzip), errors and their exit codes, output formats read
 * back, and the thread-count invariance of the driver.
 *
 * Run from the repository root (make check does). The tools are taken from
 * $TPROF_BIN (default bin; make check-asan sets bin-asan).
 */
#include <criterion/criterion.h>
#include <csv.h>
#include <stdio.h>
#include <sys/wait.h>
#include <zlib.h>

#include "parse/input/driver.h"
#include "testutil.h"

#define result tu_result
#define run tu_run
#define result_free tu_result_free
#define slurp tu_slurp





static size_t count_lines(const char *s)
{
	size_t n = 0;
	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

static const char timing_log[] = "[2024-10-13 22:30:01] [TIMING] Argument parsing: 0.12s\n"
				 "[2024-10-13 22:30:45] [TIMING] LLM model loading: 44.23s\n";

static void write_file(const char *path, const char *text, size_t n)
{
	FILE *fp = fopen(path, "wb");
	cr_assert_not_null(fp);
	cr_assert_eq(fwrite(text, 1, n, fp), n);
	cr_assert_eq(fclose(fp), 0);
}

Test(cli, files_keep_their_names_and_stdin_works)
{
	write_file("/tmp/tprof-a.log", timing_log, sizeof(timing_log) - 1);
	struct result r = run("$B/tprof-parse /tmp/tprof-a.log - < /tmp/tprof-a.log");
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert_eq(count_lines(r.out.buf), 4);
	cr_assert(strstr(r.out.buf, "\"file\":\"/tmp/tprof-a.log\",\"line\":2"));
	cr_assert(strstr(r.out.buf, "\"file\":\"(stdin)\",\"line\":1"));
	cr_assert(strstr(r.out.buf, "\"seconds\":44.23"));
	result_free(&r);
	r = run("printf '[STAGE] x\\n' | $B/tprof-parse");
	cr_assert_eq(r.status, 0);
	cr_assert_str_eq(r.out.buf, "{\"type\":\"stage\",\"file\":\"(stdin)\",\"line\":1,\"name\":\"x\"}\n");
	result_free(&r);
}

Test(cli, gzip_input_equals_plain)
{
	gzFile gz = gzopen("/tmp/tprof-b.log.gz", "wb");
	cr_assert_not_null(gz);
	gzwrite(gz, timing_log, sizeof(timing_log) - 1);
	gzclose(gz);
	write_file("/tmp/tprof-b.log", timing_log, sizeof(timing_log) - 1);
	struct result a = run("$B/tprof-parse -f csv /tmp/tprof-b.log | sed 's/tprof-b.log//'");
	struct result b = run("$B/tprof-parse -f csv /tmp/tprof-b.log.gz | sed 's/tprof-b.log.gz//'");
	cr_assert_eq(b.status, 0, "%s", b.err.buf);
	cr_assert_str_eq(a.out.buf, b.out.buf);
	result_free(&a);
	result_free(&b);
	/* gzip piped through standard input is detected by its magic bytes */
	b = run("$B/tprof-parse --count < /tmp/tprof-b.log.gz");
	cr_assert(strstr(b.out.buf, "timing     2"), "%s", b.out.buf);
	result_free(&b);
}

Test(cli, corrupt_and_truncated_gzip_exit_2_keep_records)
{
	static char big[200000];
	for (size_t i = 0; i + sizeof(timing_log) < sizeof(big); i += sizeof(timing_log) - 1)
		memcpy(big + i, timing_log, sizeof(timing_log) - 1);
	gzFile gz = gzopen("/tmp/tprof-c.log.gz", "wb");
	gzwrite(gz, big, (unsigned)strlen(big));
	gzclose(gz);
	struct result r = run("head -c 600 /tmp/tprof-c.log.gz > /tmp/tprof-cut.gz && "
			      "$B/tprof-parse /tmp/tprof-cut.gz");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err.buf, "/tmp/tprof-cut.gz: truncated gzip data"), "%s", r.err.buf);
	cr_assert_gt(count_lines(r.out.buf), 10, "records before the cut are kept");
	result_free(&r);
	r = run("(head -c 300 /tmp/tprof-c.log.gz; head -c 3000 /dev/urandom) > /tmp/tprof-bad.gz && "
		"$B/tprof-parse --count /tmp/tprof-bad.gz");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err.buf, "gzip data"), "%s", r.err.buf);
	result_free(&r);
}

Test(cli, unreadable_inputs_exit_2)
{
	/* a file of its own: the suites run tests in parallel */
	write_file("/tmp/tprof-unread.log", timing_log, sizeof(timing_log) - 1);
	struct result r = run("$B/tprof-parse /nonexistent/x.log /tmp/tprof-unread.log");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err.buf, "tprof-parse: /nonexistent/x.log: cannot open: No such file"), "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, "LLM model loading"), "the other file is still read");
	result_free(&r);
	r = run("$B/tprof-parse /tmp");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err.buf, "/tmp: is a directory"));
	result_free(&r);
	r = run("timeout 10 $B/tprof-parse /dev/zero");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err.buf, "/dev/zero: not a regular file or a pipe"));
	result_free(&r);
	r = run("$B/tprof-parse --format xml /tmp/tprof-unread.log");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err.buf, "unknown format 'xml'"));
	result_free(&r);
}

Test(cli, write_errors_and_closed_pipes)
{
	write_file("/tmp/tprof-a2.log", timing_log, sizeof(timing_log) - 1);
	struct result r = run("$B/tprof-parse /tmp/tprof-a2.log > /dev/full");
	cr_assert_eq(r.status, 3);
	cr_assert(strstr(r.err.buf, "cannot write standard output: No space left on device"), "%s", r.err.buf);
	result_free(&r);
	r = run("$B/tprof-parse -o /nonexistent-dir/out.ndjson /tmp/tprof-a2.log");
	cr_assert_eq(r.status, 3);
	result_free(&r);
	/* many records into head: ends quietly */
	r = run("for i in $(seq 3000); do cat /tmp/tprof-a2.log; done > /tmp/tprof-many.log; "
		"$B/tprof-parse /tmp/tprof-many.log | head -1; exit ${PIPESTATUS:-0}");
	cr_assert_eq(count_lines(r.out.buf), 1);
	cr_assert_str_eq(r.err.buf, "");
	result_free(&r);
}

Test(cli, output_file_is_atomic)
{
	write_file("/tmp/tprof-a3.log", timing_log, sizeof(timing_log) - 1);
	struct result r = run("rm -f /tmp/tprof-o.csv && $B/tprof-parse -f csv -o /tmp/tprof-o.csv "
			      "/tmp/tprof-a3.log && ls /tmp/tprof-o.csv* | wc -l");
	cr_assert_eq(r.status, 0);
	cr_assert_str_eq(r.out.buf, "1\n", "no temporary file is left");
	result_free(&r);
	/* a failed run leaves the previous file alone */
	r = run("$B/tprof-parse -o /tmp/tprof-o.csv /nonexistent.log; wc -l < /tmp/tprof-o.csv");
	cr_assert_str_eq(r.out.buf, "3\n");
	result_free(&r);
}

struct csv_rows {
	size_t rows, field;
	char cell[8][128];
	int want_row;
};

static void on_field(void *s, size_t n, void *ctx)
{
	struct csv_rows *c = ctx;
	if ((int)c->rows == c->want_row && c->field < 8) {
		size_t k = n < 127 ? n : 127;
		memcpy(c->cell[c->field], s, k);
		c->cell[c->field][k] = '\0';
	}
	c->field++;
}

static void on_row(int ch, void *ctx)
{
	struct csv_rows *c = ctx;
	(void)ch;
	c->rows++;
	c->field = 0;
}

Test(cli, csv_reads_back_and_never_holds_formulas)
{
	static const char evil[] = "[TIMING] =HYPERLINK(\"http://x\",\"y\"), a: 2s\n[STAGE] @SUM(A1)\n";
	write_file("/tmp/tprof-evil.log", evil, sizeof(evil) - 1);
	struct result r = run("$B/tprof-parse -f csv /tmp/tprof-evil.log");
	cr_assert_eq(r.status, 0);
	struct csv_parser p;
	struct csv_rows rows = { .want_row = 1 };
	cr_assert_eq(csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL), 0);
	cr_assert_eq(csv_parse(&p, r.out.buf, r.out.len, on_field, on_row, &rows), r.out.len);
	cr_assert_eq(csv_fini(&p, on_field, on_row, &rows), 0);
	csv_free(&p);
	cr_assert_eq(rows.rows, 3);
	cr_assert_str_eq(rows.cell[0], "timing");
	cr_assert_str_eq(rows.cell[6], "'=HYPERLINK(\"http://x\",\"y\"), a");
	cr_assert(strstr(r.out.buf, "\"'@SUM(A1)\""));
	result_free(&r);
}

Test(cli, strict_stats_count_and_type_filter)
{
	static const char text[] = "[TIMING] broken\n[TIMING] ok: 1s\n[STAGE] s\n";
	write_file("/tmp/tprof-w.log", text, sizeof(text) - 1);
	struct result r = run("$B/tprof-parse /tmp/tprof-w.log");
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.err.buf, "tprof-parse: /tmp/tprof-w.log:1: warning: [TIMING] line"), "%s", r.err.buf);
	result_free(&r);
	r = run("$B/tprof-parse --strict -q /tmp/tprof-w.log");
	cr_assert_eq(r.status, 1);
	cr_assert_str_eq(r.err.buf, "");
	result_free(&r);
	r = run("$B/tprof-parse --count --stats -q /tmp/tprof-w.log");
	cr_assert_str_eq(r.out.buf, "stage      1\ntiming     1\ntotal      2\n");
	cr_assert(strstr(r.err.buf, "lines read:          3"));
	cr_assert(strstr(r.err.buf, "unrecognized lines:  1"));
	cr_assert(strstr(r.err.buf, "malformed markers:   1"));
	result_free(&r);
	r = run("$B/tprof-parse -q --type stage /tmp/tprof-w.log");
	cr_assert_eq(count_lines(r.out.buf), 1);
	cr_assert(strstr(r.out.buf, "\"type\":\"stage\""));
	result_free(&r);
	r = run("$B/tprof-parse --type bogus /tmp/tprof-w.log");
	cr_assert_eq(r.status, 2);
	result_free(&r);
}

Test(cli, rules_and_documents)
{
	static const char rules[] = "timing ^\\[TIME\\] (?<name>\\w+)=(?<seconds>\\S+)$\n";
	static const char bad[] = "timing (?<name>x\n";
	static const char log[] = "[TIME] stage=1.234s\n";
	write_file("/tmp/tprof.rules", rules, sizeof(rules) - 1);
	write_file("/tmp/tprof-bad.rules", bad, sizeof(bad) - 1);
	write_file("/tmp/tprof-r.log", log, sizeof(log) - 1);
	struct result r = run("$B/tprof-parse --rules /tmp/tprof.rules /tmp/tprof-r.log");
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, "\"name\":\"stage\",\"seconds\":1.234"), "%s", r.out.buf);
	result_free(&r);
	r = run("$B/tprof-parse --rules /tmp/tprof-bad.rules /tmp/tprof-r.log");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err.buf, "/tmp/tprof-bad.rules:1:"), "%s", r.err.buf);
	result_free(&r);
	r = run("$B/tprof-parse samples/graph-transformer-report.json");
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out.buf, "\"type\":\"runtime\""));
	cr_assert(strstr(r.out.buf, "\"type\":\"flops\""));
	result_free(&r);
}

Test(cli, dispatcher)
{
	struct result r = run("$B/tprof --version");
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out.buf, "tprof " TPROF_VERSION));
	result_free(&r);
	r = run("$B/tprof parse --version");
	cr_assert(strstr(r.out.buf, "tprof-parse " TPROF_VERSION));
	result_free(&r);
	r = run("$B/tprof help parse");
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out.buf, "usage: tprof-parse"));
	result_free(&r);
	r = run("$B/tprof frobnicate");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err.buf, "'frobnicate' is not a tprof command"));
	result_free(&r);
}

/* ---- threads: same records, same order, same warnings as one thread ---- */

static int sb_write(void *ctx, const char *buf, size_t n)
{
	strbuf_add(ctx, buf, n);
	return 0;
}

static void sb_warn(void *ctx, const char *file, uint64_t line, const char *msg)
{
	(void)file;
	strbuf_addf(ctx, "%llu:%s\n", (unsigned long long)line, msg);
}

static void run_with(const char *path, int threads, size_t chunk, struct strbuf *out,
		     struct strbuf *warns, struct tp_stats *st)
{
	struct tp_run_opts o = { .threads = threads, .fmt = TP_OUT_NDJSON, .chunk = chunk };
	struct strbuf err = STRBUF_INIT;
	o.write = sb_write;
	o.ctx = out;
	o.sink.warn = sb_warn;
	o.sink.ctx = warns;
	cr_assert_eq(tp_run_file(path, NULL, &o, st, &err), 0, "%s", err.buf ? err.buf : "");
	strbuf_release(&err);
}

struct thread_run {
	int threads;
	size_t chunk;
};

/* Parses path on one thread into ref, then with each of runs: the records,
 * warnings and statistics must be the same bytes. */
static void same_as_one_thread(const char *path, const struct thread_run *runs, size_t n,
			       struct strbuf *ref)
{
	struct strbuf w1 = STRBUF_INIT, o2 = STRBUF_INIT, w2 = STRBUF_INIT;
	struct tp_stats s1 = { 0 }, s2 = { 0 };
	run_with(path, 1, 0, ref, &w1, &s1);
	for (size_t i = 0; i < n; i++) {
		memset(&s2, 0, sizeof(s2));
		strbuf_reset(&o2);
		strbuf_reset(&w2);
		run_with(path, runs[i].threads, runs[i].chunk, &o2, &w2, &s2);
		cr_assert_eq(o2.len, ref->len, "threads %d chunk %zu", runs[i].threads, runs[i].chunk);
		cr_assert(memcmp(ref->buf, o2.buf, ref->len) == 0, "threads %d chunk %zu",
			  runs[i].threads, runs[i].chunk);
		cr_assert_str_eq(w1.buf ? w1.buf : "", w2.buf ? w2.buf : "");
		cr_assert(memcmp(&s1, &s2, sizeof(s1)) == 0, "stats differ");
	}
	strbuf_release(&o2);
	strbuf_release(&w1);
	strbuf_release(&w2);
}

Test(threads, identical_to_one_thread_with_tables_across_cuts)
{
	/* every sample, repeated, with a malformed line: small chunks put many
	 * cuts inside tables and pending [Performance] records */
	char path[96];
	snprintf(path, sizeof(path), "/tmp/tprof-threads-%ld.log", (long)getpid());
	struct result r = run("for i in 1 2 3 4 5 6; do cat samples/*.log; "
			      "printf '[TIMING] broken\\n'; done > %s", path);
	cr_assert_eq(r.status, 0);
	result_free(&r);
	struct thread_run runs[9];
	size_t chunks[] = { 509, 4096, 65536 };
	int threads[] = { 2, 3, 7 };
	for (size_t i = 0; i < 9; i++)
		runs[i] = (struct thread_run){ threads[i % 3], chunks[i / 3] };
	struct strbuf ref = STRBUF_INIT;
	same_as_one_thread(path, runs, ARRAY_SIZE(runs), &ref);
	cr_assert_gt(count_lines(ref.buf), 1000);
	strbuf_release(&ref);
	unlink(path);
}

/* The threads read their pieces of a round themselves and count its line
 * ends there: lines longer than a piece, a piece without a line end, a
 * cut on a piece's first byte, and a last line without a line end must
 * still get their true numbers. */
Test(threads, pieces_read_in_parallel_keep_line_numbers)
{
	char path[96];
	snprintf(path, sizeof(path), "/tmp/tprof-pieces-%ld.log", (long)getpid());
	FILE *f = fopen(path, "w");
	cr_assert(f);
	for (int i = 0; i < 400; i++) {
		int pad = (i * 37) % 1500; /* 0 to 1499 bytes of noise before the marker */
		for (int k = 0; k < pad; k++)
			fputc(k % 61 ? 'x' : ' ', f);
		fprintf(f, "%s[TIMING] step_%d: %d.%03d ms\n", pad ? " " : "", i % 7, i, i % 1000);
		if (i % 5 == 0)
			fputs("\n\n", f); /* empty lines move the numbers */
	}
	fputs("[TIMING] last: 1.5 ms", f); /* no line end */
	cr_assert_eq(fclose(f), 0);
	/* pieces shorter than the longest line, rounds longer than it (a line
	 * longer than a round is read in parts past TP_MAX_LINE only) */
	const struct thread_run runs[] = { { 2, 1000 }, { 3, 600 },  { 7, 256 },
					   { 7, 509 },  { 2, 8192 }, { 3, 65536 } };
	struct strbuf ref = STRBUF_INIT;
	same_as_one_thread(path, runs, ARRAY_SIZE(runs), &ref);
	cr_assert_eq(count_lines(ref.buf), 401);
	cr_assert(strstr(ref.buf, "\"line\":561,"), "%s", ref.buf); /* 400 + 2 x 80 empty lines + 1 */
	strbuf_release(&ref);
	unlink(path);
}

Test(cli, analyze_csv_dir_one_file_per_table)
{
	struct result r = run("rm -rf /tmp/tprof-csvdir && mkdir /tmp/tprof-csvdir && "
			      "$B/tprof-analyze -q --csv-dir /tmp/tprof-csvdir samples/pde-physical.log > /dev/null && "
			      "head -2 /tmp/tprof-csvdir/breakdown.csv && ls /tmp/tprof-csvdir | wc -l");
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, "run,stage,seconds [s],share [%],cumulative [%],line\r\n"), "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, "samples/pde-physical.log,optimization,2.51,"), "%s", r.out.buf);
	result_free(&r);
	r = run("$B/tprof-analyze -q --csv-dir /nonexistent-dir samples/pde-physical.log > /dev/null");
	cr_assert_eq(r.status, 3);
	cr_assert(strstr(r.err.buf, "--csv-dir"), "%s", r.err.buf);
	result_free(&r);
}

struct csv_find {
	const char *want;  /* a cell to look for */
	int found;
	size_t rows, fields_in_row, max_fields;
};

static void find_field(void *s, size_t n, void *ctx)
{
	struct csv_find *c = ctx;
	if (strlen(c->want) == n && !memcmp(s, c->want, n))
		c->found = 1;
	c->fields_in_row++;
}

static void find_row(int ch, void *ctx)
{
	struct csv_find *c = ctx;
	(void)ch;
	c->rows++;
	if (c->fields_in_row > c->max_fields)
		c->max_fields = c->fields_in_row;
	c->fields_in_row = 0;
}

Test(cli, analyze_csv_reads_back_without_formulas)
{
	static const char evil[] = "[2024-01-01 00:00:00] [TIMING] =cmd|' /C calc'!A0: 2s\n"
				   "[2024-01-01 00:00:03] [TIMING] @SUM(1+1): 1s\n";
	write_file("/tmp/tprof-evil2.log", evil, sizeof(evil) - 1);
	struct result r = run("$B/tprof-analyze -q -f csv /tmp/tprof-evil2.log");
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(!strncmp(r.out.buf, "section,table,row,column,unit,value\r\n", 37));
	struct csv_parser p;
	struct csv_find f = { .want = "'=cmd|' /C calc'!A0" };
	cr_assert_eq(csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL), 0);
	cr_assert_eq(csv_parse(&p, r.out.buf, r.out.len, find_field, find_row, &f), r.out.len);
	cr_assert_eq(csv_fini(&p, find_field, find_row, &f), 0);
	csv_free(&p);
	cr_assert(f.found, "the formula-looking stage name is a quoted text cell: %s", r.out.buf);
	cr_assert_eq(f.max_fields, 6, "every row has the six columns");
	cr_assert_gt(f.rows, 10);
	result_free(&r);
}

/* tprof's own records are read back as records; a log of JSON lines whose
 * "type" is its own (YOLACT's {"type": "session"}, {"type": "train"}) is a
 * log: before, every line was a warning of an unknown record type and
 * nothing was read. */
Test(cli, json_lines_of_a_trainer_are_a_log)
{
	static const char log[] =
		"{\"type\": \"session\", \"session\": 0, \"data\": {\"batch_size\": 5}, \"time\": 1607418494.8449097}\n"
		"{\"type\": \"train\", \"session\": 25, \"data\": {\"epoch\": 0, \"iter\": 0, \"elapsed\": 6.308651447296143}, \"time\": 1607422675.6658204}\n"
		"{\"type\": \"train\", \"session\": 25, \"data\": {\"epoch\": 0, \"iter\": 1, \"elapsed\": 0.36635422706604004}, \"time\": 1607422676.0319948}\n"
		"{\"type\": \"train\", \"session\": 25, \"data\": {\"epoch\": 0, \"iter\": 2, \"elapsed\": 0.19045352935791016}, \"time\": 1607422676.2224474}\n";
	write_file("/tmp/tprof-jsonl.log", log, sizeof(log) - 1);
	struct result r = run("$B/tprof-parse -c /tmp/tprof-jsonl.log");
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert_eq(r.err.len, 0, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, "timing     3\n"), "%s", r.out.buf);
	result_free(&r);
	r = run("$B/tprof-parse /tmp/tprof-jsonl.log | $B/tprof-parse -c -");
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, "timing     3\n"), "tprof's records read back: %s", r.out.buf);
	result_free(&r);
}
