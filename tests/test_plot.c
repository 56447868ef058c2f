/*
 * test_plot.c - tprof-plot and the HTML report: every chart renders a PNG
 * of the asked size from the samples, SVG and PDF outputs, --script keeps
 * the script and its data, a missing or failing gnuplot (exit 5, install
 * hint, script still written), the naming of several charts, atomic
 * output; the injection test (log text with backquotes, system(), quotes,
 * control bytes, pipes and markup never runs and never reaches a script);
 * the HTML report (escaping, no script, inline SVG, a note without
 * gnuplot) and, where chromium is installed, the report in a real
 * headless browser. Unit tests of the text cleaning of gnuplot.c.
 *
 * Run from the repository root (make check does), after make; $TPROF_BIN
 * names another directory of tools ($B in the commands: absolute; $R: the
 * repository root).
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "render/gpint.h"
#include "testutil.h"
#include "base/util.h"

#define result tu_result
#define run tu_run
#define result_free tu_result_free
#define slurp tu_slurp





static char *tmpdir(void)
{
	char *d = tu_tmpdir("plot-test");
	cr_assert_not_null(d, "cannot make a directory in /tmp");
	return d;
}

#define rmtree tu_rmtree

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "wb");
	cr_assert_not_null(fp, "%s", path);
	cr_assert_eq(fwrite(text, 1, strlen(text), fp), strlen(text));
	cr_assert_eq(fclose(fp), 0);
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The file is a PNG of w x h pixels. */
static void assert_png(const char *path, uint32_t w, uint32_t h)
{
	struct strbuf sb = STRBUF_INIT;
	cr_assert_eq(slurp(path, &sb), 0, "%s was not written", path);
	cr_assert_gt(sb.len, 33, "%s is too short for a PNG", path);
	cr_assert(!memcmp(sb.buf, "\x89PNG\r\n\x1a\n", 8), "%s: no PNG signature", path);
	const unsigned char *p = (const unsigned char *)sb.buf;
	cr_assert(!memcmp(p + 12, "IHDR", 4), "%s: no IHDR first", path);
	cr_assert_eq(be32(p + 16), w, "%s: width %u, not %u", path, be32(p + 16), w);
	cr_assert_eq(be32(p + 20), h, "%s: height %u, not %u", path, be32(p + 20), h);
	strbuf_release(&sb);
}

static int file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* Files in dir whose names end in sfx. */
static int count_files(const char *dir, const char *sfx)
{
	struct result r = run("ls -A '%s' | grep -c -- '%s$'", dir, sfx);
	int n = atoi(r.out.buf);
	result_free(&r);
	return n;
}

/* ---- every chart, every format ------------------------------------------ */

static const struct {
	const char *chart, *args;
} chart_inputs[] = {
	{ "stages", "samples/pde-physical.log" },
	{ "batches", "samples/pde-physical.log" },
	{ "gpm", "samples/graph-llava-pretrain.log" },
	{ "scaling", "samples/graph-transformer-profile.log" },
	{ "compare", "--label before samples/pde-physical.log --label after - < samples/pde-physical.log" },
	{ "timeline", "samples/graph-llava-pretrain.log" },
	{ "memory", "samples/ddp-4rank.log" },
};

Test(plot, every_chart_renders_a_png_of_the_asked_size)
{
	char *d = tmpdir();
	for (size_t i = 0; i < ARRAY_SIZE(chart_inputs); i++) {
		struct result r = run("$B/tprof-plot -q --%s --size 640,400 -o %s/%s.png %s", chart_inputs[i].chart, d,
				      chart_inputs[i].chart, chart_inputs[i].args);
		cr_assert_eq(r.status, 0, "%s: exit %d: %s", chart_inputs[i].chart, r.status, r.err.buf);
		char path[256];
		snprintf(path, sizeof(path), "%s/%s.png", d, chart_inputs[i].chart);
		assert_png(path, 640, 400);
		result_free(&r);
	}
	cr_assert_eq(count_files(d, ".tmp.*"), 0, "no temporary file is left");
	rmtree(d);
}

Test(plot, svg_and_pdf_outputs)
{
	char *d = tmpdir();
	struct strbuf sb = STRBUF_INIT;
	char path[256];
	for (size_t i = 0; i < ARRAY_SIZE(chart_inputs); i++) {
		struct result r = run("$B/tprof-plot -q --%s -o %s/%s.svg %s && $B/tprof-plot -q --%s -o %s/%s.pdf %s",
				      chart_inputs[i].chart, d, chart_inputs[i].chart, chart_inputs[i].args,
				      chart_inputs[i].chart, d, chart_inputs[i].chart, chart_inputs[i].args);
		cr_assert_eq(r.status, 0, "%s: %s", chart_inputs[i].chart, r.err.buf);
		result_free(&r);
		snprintf(path, sizeof(path), "%s/%s.svg", d, chart_inputs[i].chart);
		strbuf_reset(&sb);
		cr_assert_eq(slurp(path, &sb), 0);
		cr_assert(!strncmp(sb.buf, "<?xml", 5) || !strncmp(sb.buf, "<svg", 4), "%s", path);
		cr_assert(strstr(sb.buf, "</svg>"), "%s is complete", path);
		cr_assert_null(strstr(sb.buf, "<script"), "%s has no script", path);
		snprintf(path, sizeof(path), "%s/%s.pdf", d, chart_inputs[i].chart);
		strbuf_reset(&sb);
		cr_assert_eq(slurp(path, &sb), 0);
		cr_assert(!strncmp(sb.buf, "%PDF-", 5), "%s", path);
	}
	strbuf_release(&sb);
	rmtree(d);
}

Test(plot, script_dir_keeps_script_and_data)
{
	char *d = tmpdir();
	struct result r = run("$B/tprof-plot -q --batches --script %s/gp -o %s/b.png samples/ddp-4rank.log", d, d);
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	result_free(&r);
	char path[256];
	snprintf(path, sizeof(path), "%s/gp", d);
	cr_assert_eq(count_files(path, "batches.gp"), 1);
	cr_assert_geq(count_files(path, ".dat"), 4, "one data file per rank, one of outliers");
	/* the kept script draws the chart again by itself */
	r = run("cd %s/gp && rm -f batches.png && gnuplot -d batches.gp </dev/null && test -s batches.png", d);
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	result_free(&r);
	rmtree(d);
}

/* ddp-4rank's ranks hold 1432.6..1435.6 MB of GPU memory throughout: four flat
 * lines make no panel, the CPU panel's title says it; the key keeps off the x label */
Test(plot, flat_gpu_memory_is_a_title_not_a_panel)
{
	char *d = tmpdir();
	struct result r = run("$B/tprof-plot -q --memory --script %s/gp -o %s/m.png samples/ddp-4rank.log", d, d);
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	result_free(&r);
	char path[256];
	struct strbuf sb = STRBUF_INIT;
	snprintf(path, sizeof(path), "%s/gp/memory.gp", d);
	cr_assert_eq(slurp(path, &sb), 0);
	cr_assert(strstr(sb.buf, "set title 'CPU memory per batch (GPU memory constant: 1432.6 to 1435.6 MB)'"),
		  "%s", sb.buf);
	cr_assert_null(strstr(sb.buf, "GPU memory (MB)"), "no GPU panel");
	cr_assert_null(strstr(sb.buf, "multiplot"), "one panel");
	cr_assert(strstr(sb.buf, "set key below height 1.5"));
	strbuf_release(&sb);
	rmtree(d);
}

Test(plot, several_charts_are_named_after_the_output)
{
	char *d = tmpdir();
	struct result r = run("$B/tprof-plot -q --stages --batches --memory -o %s/run.png samples/pde-physical.log; "
			      "ls %s",
			      d, d);
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert_str_eq(r.out.buf, "run-batches.png\nrun-memory.png\nrun-stages.png\n");
	result_free(&r);
	/* no chart option: every chart the input has data for */
	r = run("cd %s && $B/tprof-plot -q $R/samples/graph-llava-pretrain.log; ls", d);
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, "gpm.png\n") && strstr(r.out.buf, "stages.png\n") &&
		  strstr(r.out.buf, "timeline.png\n"), "%s", r.out.buf);
	result_free(&r);
	rmtree(d);
}

Test(plot, reads_ndjson_and_standard_input_like_analyze)
{
	char *d = tmpdir(), png[256];
	struct result r = run("$B/tprof-parse samples/pde-physical.log 2>/dev/null | "
			      "$B/tprof-plot -q --stages --size 300,200 -o %s/s.png && "
			      "$B/tprof-plot -q --batches --size 300,200 -o %s/b.png - < samples/pde-physical.log",
			      d, d);
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	result_free(&r);
	snprintf(png, sizeof(png), "%s/s.png", d);
	assert_png(png, 300, 200);
	snprintf(png, sizeof(png), "%s/b.png", d);
	assert_png(png, 300, 200);
	rmtree(d);
}

/* ---- errors and exit codes ---------------------------------------------- */

Test(plot, missing_gnuplot_exits_5_with_hint_and_keeps_script)
{
	char *d = tmpdir();
	struct result r = run("$B/tprof-plot -q --stages --timeline --gnuplot /nonexistent/gnuplot --script %s/gp "
			      "-o %s/x.png samples/graph-llava-pretrain.log",
			      d, d);
	cr_assert_eq(r.status, 5, "%s", r.err.buf);
	cr_assert(strstr(r.err.buf, "apt-get install gnuplot-nox"), "%s", r.err.buf);
	char path[256];
	snprintf(path, sizeof(path), "%s/gp", d);
	cr_assert_eq(count_files(path, ".gp"), 2, "both scripts are written");
	cr_assert_geq(count_files(path, ".dat"), 2);
	snprintf(path, sizeof(path), "%s/x-stages.png", d);
	cr_assert(!file_exists(path), "no chart without gnuplot");
	cr_assert_eq(count_files(d, ".png"), 0);
	result_free(&r);
	/* without --script the hint says how to keep the script */
	r = run("PATH=/nonexistent $B/tprof-plot -q --stages -o %s/x.png samples/pde-physical.log "
		"2>&1 || echo \"exit $?\"",
		d);
	cr_assert(strstr(r.out.buf, "gnuplot-nox") && strstr(r.out.buf, "--script DIR") &&
		  strstr(r.out.buf, "exit 5"), "%s", r.out.buf);
	result_free(&r);
	rmtree(d);
}

Test(plot, failing_or_hanging_gnuplot_exits_5_and_writes_nothing)
{
	char *d = tmpdir(), fake[256];
	snprintf(fake, sizeof(fake), "%s/fake-gnuplot", d);
	write_file(fake, "#!/bin/sh\necho 'line 1: something is wrong' >&2\nexit 1\n");
	chmod(fake, 0755);
	struct result r = run("$B/tprof-plot -q --stages --gnuplot %s -o %s/x.png samples/pde-physical.log", fake, d);
	cr_assert_eq(r.status, 5, "%s", r.err.buf);
	cr_assert(strstr(r.err.buf, "something is wrong"), "gnuplot's message is shown: %s", r.err.buf);
	cr_assert_eq(count_files(d, ".png"), 0);
	result_free(&r);
	write_file(fake, "#!/bin/sh\nsleep 30\n");
	r = run("start=$(date +%%s); $B/tprof-plot -q --stages --timeout 1 --gnuplot %s -o %s/x.png "
		"samples/pde-physical.log; echo \"exit $? after $(( $(date +%%s) - start ))\"",
		fake, d);
	cr_assert(strstr(r.out.buf, "exit 5 after"), "%s %s", r.out.buf, r.err.buf);
	cr_assert_lt(atoi(strstr(r.out.buf, "after") + 6), 10, "killed after the timeout: %s", r.out.buf);
	cr_assert(strstr(r.err.buf, "within 1 s"), "%s", r.err.buf);
	cr_assert_eq(count_files(d, ".png"), 0);
	result_free(&r);
	rmtree(d);
}

Test(plot, usage_input_and_output_errors)
{
	struct result r = run("$B/tprof-plot --gpm -o /tmp/tprof-plot-none.png samples/pde-physical.log");
	cr_assert_eq(r.status, 2, "no GPM windows in that log");
	cr_assert(strstr(r.err.buf, "no data for the gpm chart"), "%s", r.err.buf);
	result_free(&r);
	r = run("$B/tprof-plot --stages -o /tmp/x.jpg samples/pde-physical.log");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err.buf, ".png, .svg or .pdf"), "%s", r.err.buf);
	result_free(&r);
	r = run("$B/tprof-plot --stages --size 10x20 samples/pde-physical.log");
	cr_assert_eq(r.status, 2);
	result_free(&r);
	r = run("$B/tprof-plot --frobnicate samples/pde-physical.log");
	cr_assert_eq(r.status, 2);
	result_free(&r);
	r = run("$B/tprof-plot --stages -o /tmp/x.png /nonexistent.log");
	cr_assert_eq(r.status, 2);
	result_free(&r);
	/* ssm-training.log has per-step metrics, charted since issue 14: a log of memory peaks only has nothing */
	r = run("$B/tprof-plot -q samples/custom-format.log");
	cr_assert_eq(r.status, 2, "nothing to chart");
	cr_assert(strstr(r.err.buf, "nothing to chart"), "%s", r.err.buf);
	result_free(&r);
	r = run("$B/tprof-plot -q --stages -o /nonexistent-dir/x.png samples/pde-physical.log");
	cr_assert_eq(r.status, 3, "%s", r.err.buf);
	result_free(&r);
	r = run("$B/tprof-plot --help && $B/tprof-plot --version");
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out.buf, "usage: tprof-plot") && strstr(r.out.buf, "tprof-plot " TPROF_VERSION));
	result_free(&r);
}

Test(plot, a_failed_run_leaves_the_previous_chart)
{
	char *d = tmpdir();
	struct result r = run("$B/tprof-plot -q --stages -o %s/s.png samples/pde-physical.log && "
			      "cksum < %s/s.png && $B/tprof-plot -q --stages --gnuplot /bin/false -o %s/s.png "
			      "samples/pde-physical.log; cksum < %s/s.png; ls -A %s",
			      d, d, d, d, d);
	const char *nl = strchr(r.out.buf, '\n');
	cr_assert_not_null(nl);
	cr_assert(!strncmp(r.out.buf, nl + 1, (size_t)(nl - r.out.buf)), "unchanged: %s", r.out.buf);
	cr_assert(strstr(nl + 1, "\ns.png\n") && !strstr(r.out.buf, ".tmp"), "%s", r.out.buf);
	result_free(&r);
	rmtree(d);
}

/* ---- the injection test ------------------------------------------------- */

static const char evil_log[] = "[2024-10-13 22:30:00] [STAGE] start\n"
			       "[2024-10-13 22:30:01] [TIMING] `touch /tmp/tprof-pwned-1`: 1.00s\n"
			       "[2024-10-13 22:30:03] [TIMING] system(\"touch /tmp/tprof-pwned-2\"): 2.00s\n"
			       "[2024-10-13 22:30:06] [TIMING] it's a stage: 3.00s\n"
			       "[2024-10-13 22:30:10] [TIMING] form\x0c" "feed\x0bvt\xc2\x85nel: 4.00s\n"
			       "[2024-10-13 22:30:15] [TIMING] |touch /tmp/tprof-pwned-3: 5.00s\n"
			       "[2024-10-13 22:30:21] [TIMING] <cmd & \"q\" <script>alert(1)</script>: 6.00s\n"
			       "[2024-10-13 22:30:28] [TIMING] @x $(touch /tmp/tprof-pwned-4) `id`: 7.00s\n";

/* Pieces of the stage names that must never appear in a script. */
static const char *const evil_bits[] = {
	"touch /tmp/tprof-pwned", "`", "system(", "it's", "<cmd", "<script", "$(", "|touch", "feed", "\x0c",
};

static void assert_not_pwned(void)
{
	for (int i = 1; i <= 4; i++) {
		char p[64];
		snprintf(p, sizeof(p), "/tmp/tprof-pwned-%d", i);
		cr_assert(!file_exists(p), "%s exists: log text was run as a command", p);
	}
}

static void assert_clean_script(const char *dir, const char *chart)
{
	struct strbuf sb = STRBUF_INIT;
	char path[256];
	snprintf(path, sizeof(path), "%s/%s.gp", dir, chart);
	cr_assert_eq(slurp(path, &sb), 0, "%s", path);
	for (size_t i = 0; i < ARRAY_SIZE(evil_bits); i++)
		cr_assert_null(strstr(sb.buf, evil_bits[i]), "%s holds '%s'", path, evil_bits[i]);
	cr_assert_null(strstr(sb.buf, "\""), "%s has no double-quoted string", path);
	strbuf_release(&sb);
}

static void assert_clean_data(const char *dir, const char *chart)
{
	struct strbuf sb = STRBUF_INIT;
	char path[256];
	snprintf(path, sizeof(path), "%s/%s-d0.dat", dir, chart);
	cr_assert_eq(slurp(path, &sb), 0, "%s", path);
	cr_assert(strstr(sb.buf, "`touch /tmp/tprof-pwned-1`"), "the names are in the data: %s", sb.buf);
	cr_assert(strstr(sb.buf, "form feed vt nel"), "control bytes became spaces: %s", sb.buf);
	cr_assert(strstr(sb.buf, "system('touch /tmp/tprof-pwned-2')"), "no double quote in data: %s", sb.buf);
	for (const char *p = sb.buf; *p; p++)
		cr_assert(*p == '\n' || *p == '\t' || (unsigned char)*p >= 0x20, "control byte %02x", *p);
	cr_assert_null(strstr(sb.buf, "\xc2\x85"), "no C1 control");
	strbuf_release(&sb);
}

Test(plot, log_text_never_becomes_gnuplot_code)
{
	char *d = tmpdir(), log[256], gp[256], png[256];
	snprintf(log, sizeof(log), "%s/evil.log", d);
	snprintf(gp, sizeof(gp), "%s/gp", d);
	write_file(log, evil_log);
	struct result r = run("rm -f /tmp/tprof-pwned-*; $B/tprof-plot -q --stages --timeline --size 800,500 "
			      "--script %s -o %s/evil.png %s",
			      gp, d, log);
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	result_free(&r);
	assert_not_pwned();
	snprintf(png, sizeof(png), "%s/evil-stages.png", d);
	assert_png(png, 800, 500);
	snprintf(png, sizeof(png), "%s/evil-timeline.png", d);
	assert_png(png, 800, 500);
	assert_clean_script(gp, "stages");
	assert_clean_script(gp, "timeline");
	assert_clean_data(gp, "stages");
	assert_clean_data(gp, "timeline");
	/* a --title from the command line is quoted too */
	r = run("$B/tprof-plot -q --stages --title \"it's \\`touch /tmp/tprof-pwned-1\\`\" --script %s -o %s/t.svg %s",
		gp, d, log);
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	result_free(&r);
	assert_not_pwned();
	rmtree(d);
}

Test(plot, html_report_escapes_log_text)
{
	char *d = tmpdir(), log[256], html[256];
	struct strbuf sb = STRBUF_INIT;
	snprintf(log, sizeof(log), "%s/evil.log", d);
	snprintf(html, sizeof(html), "%s/report.html", d);
	write_file(log, evil_log);
	struct result r = run("rm -f /tmp/tprof-pwned-*; $B/tprof-analyze -q -o %s %s", html, log);
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	result_free(&r);
	assert_not_pwned();
	cr_assert_eq(slurp(html, &sb), 0);
	cr_assert(!strncmp(sb.buf, "<!DOCTYPE html>", 15));
	cr_assert(strstr(sb.buf, "&lt;cmd &amp; &quot;q&quot; &lt;script&gt;"), "escaped in tables");
	cr_assert(strstr(sb.buf, "it&#39;s a stage"));
	for (size_t i = 0; i < sb.len; i++)
		cr_assert(strncasecmp(sb.buf + i, "<script", 7), "raw <script at %zu", i);
	cr_assert_null(strstr(sb.buf, "<?xml"), "the SVG prolog is stripped");
	cr_assert_null(strstr(sb.buf, "\x0c"));
	cr_assert(strstr(sb.buf, "<svg"), "charts are inline SVG");
	cr_assert(strstr(sb.buf, "id=\"chart-stages\"") && strstr(sb.buf, "id=\"chart-timeline\""));
	cr_assert(strstr(sb.buf, "Content-Security-Policy"));
	strbuf_release(&sb);
	rmtree(d);
}

Test(plot, html_report_without_gnuplot_has_a_note)
{
	char *d = tmpdir();
	struct strbuf sb = STRBUF_INIT;
	char html[256];
	snprintf(html, sizeof(html), "%s/r.html", d);
	struct result r = run("PATH=/nonexistent $B/tprof-analyze -q -f html -o %s samples/pde-physical.log",
			      html);
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	result_free(&r);
	cr_assert_eq(slurp(html, &sb), 0);
	cr_assert_null(strstr(sb.buf, "<svg"));
	cr_assert(strstr(sb.buf, "class=\"note\"") && strstr(sb.buf, "apt-get install gnuplot-nox"));
	cr_assert(strstr(sb.buf, "<table>") && strstr(sb.buf, "optimization"), "the tables are there");
	cr_assert(strstr(sb.buf, "<th class=\"num\">seconds <span class=\"unit\">(s)</span></th>"), "units in headers");
	cr_assert(strstr(sb.buf, "<td class=\"num\">2.51</td>"), "numbers right-aligned");
	cr_assert_null(strstr(sb.buf, "Series points for charts"), "data-only tables are left out");
	cr_assert(strstr(sb.buf, "class=\"f sev-warning\""), "findings with their severity");
	strbuf_release(&sb);
	rmtree(d);
}

Test(plot, html_in_a_headless_browser)
{
	struct result r = run("command -v chromium");
	int have = r.status == 0;
	result_free(&r);
	if (!have)
		cr_skip_test("chromium is not installed (apt-get install chromium): the browser check is skipped");
	char *d = tmpdir(), html[256];
	snprintf(html, sizeof(html), "%s/report.html", d);
	r = run("$B/tprof-analyze -q -o %s samples/graph-llava-pretrain.log && "
		"timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking "
		"--disable-component-update --disable-sync --no-first-run --user-data-dir=%s/profile "
		"--dump-dom file://%s 2>/dev/null",
		html, d, html);
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert(strstr(r.out.buf, "<table>") && strstr(r.out.buf, "Main training loop"), "tables in the DOM");
	cr_assert(strstr(r.out.buf, "<svg"), "inline SVG in the DOM");
	cr_assert(strstr(r.out.buf, "id=\"chart-gpm\""), "the GPM chart");
	cr_assert_null(strstr(r.out.buf, "<script"));
	result_free(&r);
	rmtree(d);
}

/* ---- units of gnuplot.c ------------------------------------------------- */

Test(gnuplot, quoting_and_data_text)
{
	struct strbuf sb = STRBUF_INIT;
	gp_quote(&sb, "it's `x`\n\"y\"\x01");
	cr_assert_str_eq(sb.buf, "'it''s `x` \"y\" '");
	strbuf_reset(&sb);
	gp_dat_text(&sb, "a\tb\"c\r\nd\xff", 40);
	gp_dat_num(&sb, 1.5);
	gp_dat_num(&sb, NAN);
	gp_dat_row(&sb);
	cr_assert_str_eq(sb.buf, "a b'c  d\xef\xbf\xbd\t1.5\tNaN\n");
	strbuf_reset(&sb);
	gp_dat_text(&sb, "", 40);
	gp_dat_text(&sb, "\x1b", 40);
	gp_dat_text(&sb, "abcdef", 3);
	gp_dat_row(&sb);
	cr_assert_str_eq(sb.buf, "-\t-\tabc\xe2\x80\xa6\n", "no empty field; long names are cut");
	strbuf_release(&sb);
}

Test(gnuplot, names_and_extensions)
{
	for (int c = 0; c < GP_NCHARTS; c++)
		cr_assert_eq(gp_chart_lookup(gp_chart_name((enum gp_chart)c)), c);
	cr_assert_eq(gp_chart_lookup("pie"), -1);
	cr_assert_eq(gp_term_for_path("a/b.PNG"), GP_PNG);
	cr_assert_eq(gp_term_for_path("x.svg"), GP_SVG);
	cr_assert_eq(gp_term_for_path("x.pdf"), GP_PDF);
	cr_assert_eq(gp_term_for_path("x.png/y"), -1);
	cr_assert_eq(gp_term_for_path("x"), -1);
}

Test(gnuplot, an_empty_report_has_no_chart)
{
	struct report rep;
	struct gp_opts o;
	struct strbuf err = STRBUF_INIT;
	report_init(&rep);
	gp_opts_default(&o);
	for (int c = 0; c < GP_NCHARTS; c++) {
		cr_assert(!gp_has_data(&rep, (enum gp_chart)c, &o));
		cr_assert_eq(gp_write_script(&rep, (enum gp_chart)c, &o, "/nonexistent", &err), GP_NODATA);
	}
	report_free(&rep);
	strbuf_release(&err);
}

/* ---- the manual ---------------------------------------------------------- */

Test(plot, every_option_has_an_entry_in_the_manual)
{
	struct strbuf page = STRBUF_INIT, tag = STRBUF_INIT;
	cr_assert_eq(slurp("man/tprof-plot.1", &page), 0, "man/tprof-plot.1");
	const char *opts = strstr(page.buf, "\n.SH OPTIONS\n"), *end = opts ? strstr(opts + 1, "\n.SH ") : NULL;
	cr_assert(opts && end, "an OPTIONS section");
	struct result r = run("$B/tprof-plot --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u");
	cr_assert_eq(r.status, 0);
	int n = 0;
	for (char *line = r.out.buf, *nl; (nl = strchr(line, '\n')); line = nl + 1, n++) {
		*nl = '\0';
		strbuf_reset(&tag);
		strbuf_addstr(&tag, "\n.TP\n");
		for (const char *p = line; *p; p++)
			strbuf_addstr(&tag, *p == '-' ? "\\-" : (char[]){ *p, 0 });
		/* the tag line of a .TP entry starts with the option (after .B/.BI/.BR and a short one) */
		int found = 0;
		for (const char *p = opts; p < end && !found; p++) {
			p = strstr(p, "\n.TP\n");
			if (!p || p >= end)
				break;
			const char *eol = strchr(p + 5, '\n');
			const char *hit = strstr(p + 5, tag.buf + 5);
			found = hit && eol && hit < eol;
			if (found) { /* the whole option, not a prefix of a longer one */
				const char *after = hit + tag.len - 5;
				found = !isalnum((unsigned char)*after) && strncmp(after, "\\-", 2);
			}
		}
		cr_assert(found, "%s has no .TP entry under OPTIONS in man/tprof-plot.1", line);
	}
	cr_assert_gt(n, 15);
	result_free(&r);
	strbuf_release(&page);
	strbuf_release(&tag);
}

/* The HTML report in headless chromium at a desktop and a phone width:
 * a screenshot of the asked width each, the summary on top. */
Test(plot, html_screenshots_at_1400_and_420_px)
{
	struct result r = run("command -v chromium");
	int have = r.status == 0;
	result_free(&r);
	if (!have)
		cr_skip_test("chromium is not installed (sh scripts/deps.sh installs it): the screenshot test is skipped");
	char *d = tmpdir(), html[256];
	snprintf(html, sizeof(html), "%s/report.html", d);
	r = run("$B/tprof-analyze -q -o %s samples/ddp-4rank.log", html);
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	result_free(&r);
	struct strbuf page = STRBUF_INIT;
	cr_assert_eq(slurp(html, &page), 0);
	const char *sum = strstr(page.buf, "<section id=\"s-summary\""), *other = strstr(page.buf, "<section id=\"s-");
	cr_assert(sum && sum == other, "the summary is the first section");
	const char *phone = strstr(page.buf, "@media (max-width:600px)");
	cr_assert(phone, "a layout for phones");
	/* at 420 px a chart scales to the width (its viewBox keeps all of it), never cut at the right */
	cr_assert(strstr(phone, "figure.chart svg{width:100%;max-width:100%;height:auto}"), "%.300s", phone);
	cr_assert_null(strstr(page.buf, "width:640px"));
	cr_assert(strstr(page.buf, "viewBox=\"0 0 "), "the charts scale by their viewBox");
	strbuf_release(&page);
	static const int widths[] = { 1400, 420 };
	for (size_t i = 0; i < ARRAY_SIZE(widths); i++) {
		char png[300];
		snprintf(png, sizeof(png), "%s/shot-%d.png", d, widths[i]);
		r = run("timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking "
			"--disable-component-update --disable-sync --no-first-run --hide-scrollbars "
			"--user-data-dir=%s/profile --window-size=%d,1600 --screenshot=%s file://%s >/dev/null 2>&1",
			d, widths[i], png, html);
		result_free(&r);
		assert_png(png, (uint32_t)widths[i], 1600);
	}
	rmtree(d);
}
