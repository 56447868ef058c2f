/*
 * test_summary.c - answers first (issue 14): on every sample the first
 * screen of the terminal report (24 lines at 100 columns) states the
 * largest time at stake with its advice, and fits the width; the summary's
 * figures on the DDP sample; comparisons that never drop a series (a
 * [rank0] prefix against none, a series in one run only, 30 %-slower
 * batches trip the gate, two 50,000-line logs are not "faster overall", an
 * empty comparison is an error); findings a person can trust (no warmup
 * on flat data, drift bounded at -100 %, no zero-slope drift rows, no
 * advice on experiment tables, one finding per fact over ranks).
 *
 * Run from the repository root (make check does), after make.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "testutil.h"
#include "base/util.h"

static char *tmpdir(void)
{
	char *d = tu_tmpdir("summary-test");
	cr_assert_not_null(d);
	return d;
}

static void write_text(const char *dir, const char *name, const struct strbuf *text)
{
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s", dir, name);
	FILE *fp = fopen(path.buf, "wb");
	cr_assert_not_null(fp, "%s", path.buf);
	cr_assert_eq(fwrite(text->buf, 1, text->len, fp), text->len);
	cr_assert_eq(fclose(fp), 0);
	strbuf_release(&path);
}

/* Collapses runs of white space into one space (wrapped text reads as one line). */
static void squash(const char *s, size_t n, struct strbuf *out)
{
	int space = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == ' ' || s[i] == '\n') {
			space = 1;
			continue;
		}
		if (space && out->len)
			strbuf_addch(out, ' ');
		space = 0;
		strbuf_addch(out, s[i]);
	}
	if (!out->buf)
		strbuf_addstr(out, "");
}

static size_t columns(const char *s, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

static const char *jtext(const struct json_value *v)
{
	return v && v->kind == JSON_STR ? v->str.s : NULL;
}

static double jnum(const struct json_value *v)
{
	return v && v->kind == JSON_NUM ? v->num.v : NAN;
}

/* The first `words` words of s, squashed. */
static void first_words(const char *s, int words, struct strbuf *out)
{
	struct strbuf sq = STRBUF_INIT;
	squash(s, strlen(s), &sq);
	const char *p = sq.buf;
	for (int w = 0; *p && w < words; w++) {
		size_t n = strcspn(p, " ");
		if (w)
			strbuf_addch(out, ' ');
		strbuf_add(out, p, n);
		p += n + (p[n] == ' ');
	}
	strbuf_release(&sq);
}

static void first_screen(const char *args)
{
	struct tu_result js = tu_run("\"$B/tprof-analyze\" -q -f json %s", args);
	struct tu_result tx = tu_run("COLUMNS=100 \"$B/tprof-analyze\" -q %s", args);
	cr_assert_eq(js.status, 0, "%s: %s", args, js.err.buf);
	cr_assert_eq(tx.status, 0, "%s: %s", args, tx.err.buf);
	struct json_doc doc = JSON_DOC_INIT;
	struct json_error je;
	cr_assert_eq(json_parse(js.out.buf, js.out.len, &doc, &je), 0, "%s: %s", args, je.msg);
	const struct json_value *top = json_get_path(doc.root, "summary.top");
	cr_assert(top && top->kind == JSON_ARR && top->arr.n > 0, "%s: no top finding", args);
	/* the first is the one with most at stake */
	double best = jnum(json_get(&top->arr.items[0], "at_stake"));
	for (size_t i = 1; i < top->arr.n; i++)
		cr_assert(!(jnum(json_get(&top->arr.items[i], "at_stake")) > best), "%s: top findings out of order", args);
	/* 24 lines of at most 100 columns */
	const char *p = tx.out.buf;
	for (int l = 0; l < 24 && *p; l++) {
		size_t n = strcspn(p, "\n");
		cr_assert_leq(columns(p, n), 100, "%s: line %d is %zu columns: %.*s", args, l + 1, columns(p, n),
			      (int)n, p);
		p += n + (p[n] == '\n');
	}
	struct strbuf screen = STRBUF_INIT, want = STRBUF_INIT;
	squash(tx.out.buf, (size_t)(p - tx.out.buf), &screen);
	cr_assert(strstr(screen.buf, "== Summary =="), "%s: no summary first:\n%s", args, tx.out.buf);
	first_words(jtext(json_get(&top->arr.items[0], "finding")), 8, &want);
	cr_assert(strstr(screen.buf, want.buf), "%s: the first screen lacks the top finding '%s':\n%.*s", args,
		  want.buf, (int)(p - tx.out.buf), tx.out.buf);
	const char *advice = jtext(json_get(&top->arr.items[0], "advice"));
	cr_assert_not_null(advice, "%s: the top finding has no advice", args);
	strbuf_reset(&want);
	strbuf_addstr(&want, "advice: ");
	first_words(advice, 6, &want);
	cr_assert(strstr(screen.buf, want.buf), "%s: the first screen lacks the advice '%s'", args, want.buf);
	if (!isnan(best)) {
		char stake[32];
		snprintf(stake, sizeof(stake), "%.3g s at stake", best);
		if (best >= 1000)
			snprintf(stake, sizeof(stake), "%.0f s at stake", best);
		cr_assert(strstr(screen.buf, stake), "%s: no '%s' on the first screen", args, stake);
	}
	strbuf_release(&screen);
	strbuf_release(&want);
	json_free(&doc);
	tu_result_free(&js);
	tu_result_free(&tx);
}

Test(summary, first_screen_of_every_sample_states_the_answer)
{
	static const char *const samples[] = {
		"samples/ddp-4rank.log",	 "samples/graph-llava-pretrain.log",
		"samples/graph-transformer-profile.log", "samples/kan-experiments.log",
		"samples/pde-physical.log",	 "samples/ssm-training.log",
		"samples/custom-format.log", /* without its rules: says what it read, and what to do */
		"-r samples/rules/custom.rules samples/custom-format.log",
		"samples/kan-timing.json",	 "samples/kan-timing.csv",
		"samples/graph-transformer-report.json",
	};
	for (size_t i = 0; i < ARRAY_SIZE(samples); i++)
		first_screen(samples[i]);
}

/* The report of args as JSON (exit status status). */
static struct json_doc analyze_json(const char *args, int status)
{
	struct tu_result r = tu_run("\"$B/tprof-analyze\" -q -f json %s", args);
	cr_assert_eq(r.status, status, "%s: status %d: %s", args, r.status, r.err.buf);
	struct json_doc doc = JSON_DOC_INIT;
	struct json_error je;
	cr_assert_eq(json_parse(r.out.buf, r.out.len, &doc, &je), 0, "%s: %s", args, je.msg);
	tu_result_free(&r);
	return doc;
}

/* The table of that id: its columns and rows. */
static const struct json_value *jtable(const struct json_value *root, const char *id)
{
	const struct json_value *secs = json_get(root, "sections");
	for (size_t i = 0; secs && i < secs->arr.n; i++) {
		const struct json_value *tabs = json_get(&secs->arr.items[i], "tables");
		for (size_t k = 0; tabs && k < tabs->arr.n; k++)
			if (!strcmp(jtext(json_get(&tabs->arr.items[k], "id")), id))
				return &tabs->arr.items[k];
	}
	return NULL;
}

static int jcol(const struct json_value *t, const char *name)
{
	const struct json_value *cols = json_get(t, "columns");
	for (size_t c = 0; c < cols->arr.n; c++)
		if (!strcmp(jtext(json_get(&cols->arr.items[c], "name")), name))
			return (int)c;
	cr_assert_fail("no column %s", name);
	return -1;
}

static const struct json_value *jcell(const struct json_value *t, size_t row, const char *col)
{
	const struct json_value *rows = json_get(t, "rows");
	return &rows->arr.items[row].arr.items[jcol(t, col)];
}

/* The row whose column key holds text val; -1 if none. */
static long jrow(const struct json_value *t, const char *key, const char *val)
{
	const struct json_value *rows = json_get(t, "rows");
	for (size_t r = 0; rows && r < rows->arr.n; r++) {
		const char *s = jtext(jcell(t, r, key));
		if (s && !strcmp(s, val))
			return (long)r;
	}
	return -1;
}

static size_t count_findings(const struct json_value *root, const char *kind, const char *needle, int merged)
{
	size_t n = 0;
	const struct json_value *secs = json_get(root, "sections");
	for (size_t i = 0; i < secs->arr.n; i++) {
		const struct json_value *fs = json_get(&secs->arr.items[i], "findings");
		for (size_t k = 0; k < fs->arr.n; k++) {
			const struct json_value *f = &fs->arr.items[k];
			const struct json_value *m = json_get(f, "merged");
			if (!strcmp(jtext(json_get(f, "kind")), kind) &&
			    (!needle || strstr(jtext(json_get(f, "message")), needle)) &&
			    (merged < 0 || (m && m->boolean == merged)))
				n++;
		}
	}
	return n;
}

Test(summary, ddp_figures_and_one_finding_per_fact)
{
	struct json_doc d = analyze_json("samples/ddp-4rank.log", 0);
	const struct json_value *run = &json_get(d.root, "runs")->arr.items[0];
	cr_assert_str_eq(jtext(json_get(run, "step")), "batch time");
	cr_assert_float_eq(jnum(json_get(run, "step_median")), 0.227, 1e-9); /* rank 3, the slowest */
	cr_assert_float_eq(jnum(json_get(run, "steps")), 37, 0);
	cr_assert_str_eq(jtext(json_get(run, "file")), "samples/ddp-4rank.log");
	/* line 372's Batch line has no readable duration: counted in the run's block */
	cr_assert_float_eq(jnum(json_get(run, "parse_warnings")), 1, 0);
	cr_assert_float_eq(jnum(json_get(d.root, "schema")), 3, 0);
	const struct json_value *top = &json_get_path(d.root, "summary.top")->arr.items[0];
	cr_assert_str_eq(jtext(json_get(top, "kind")), "straggler");
	/* rank 3's median 0.227 s against the median rank's 0.182 s, over its 37 batches */
	cr_assert_float_eq(jnum(json_get(top, "at_stake")), (0.227 - 0.182) * 37, 1e-6);
	cr_assert_str_eq(jtext(json_get(top, "where")), "samples/ddp-4rank.log:157");
	/* the slow first batch of four ranks: one finding that speaks for them */
	cr_assert_eq(count_findings(d.root, "first-batch", NULL, 0), 1);
	cr_assert_eq(count_findings(d.root, "first-batch", NULL, 1), 3);
	cr_assert_eq(count_findings(d.root, "first-batch", "ranks 0-3 alike", 0), 1);
	/* variance after warmup: the first batch makes no "high variance" */
	cr_assert_eq(count_findings(d.root, "high-variance", NULL, -1), 0);
	/* MSER on rank 0 saw 8 warmup samples where 1..39 are flat: 1 now */
	const struct json_value *w = jtable(d.root, "warmup");
	long r = jrow(w, "series", "batch time [rank 0]");
	cr_assert_geq(r, 0);
	cr_assert_float_eq(jnum(jcell(w, (size_t)r, "warmup_ends_at")), 1, 0);
	/* the variance table speaks of the same steady state: rank 0's 40 batches less the first */
	const struct json_value *v = jtable(d.root, "variance");
	r = jrow(v, "series", "batch time [rank 0]");
	cr_assert_geq(r, 0);
	cr_assert_float_eq(jnum(jcell(v, (size_t)r, "n")), 39, 0);
	cr_assert_float_eq(jnum(jcell(v, (size_t)r, "warmup")), 1, 0);
	cr_assert_lt(jnum(jcell(v, (size_t)r, "max/min")), 1.5);
	cr_assert_gt(jnum(jcell(v, (size_t)r, "max/min_all")), 2.5); /* the 0.53 s first batch */
	json_free(&d);
}

static void batches(struct strbuf *sb, const char *prefix, int n, double base, uint32_t *seed)
{
	for (int i = 0; i < n; i++) {
		*seed = *seed * 1664525u + 1013904223u;
		double noise = ((*seed >> 8) & 0xffff) / 65536.0 - 0.5;
		strbuf_addf(sb, "%sBatch %d: %.4fs, GPU 100.0MB, CPU 2000.0MB, loss=%.4f\n", prefix, i,
			    base * (1 + 0.1 * noise), 1.0 / (i + 1));
	}
}

Test(compare, rank0_prefix_and_none_are_one_series_and_the_gate_trips)
{
	char *dir = tmpdir();
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	uint32_t seed = 5;
	batches(&a, "[rank0]:", 100, 0.20, &seed);
	batches(&b, "", 100, 0.26, &seed);
	write_text(dir, "a.log", &a);
	write_text(dir, "b.log", &b);
	struct tu_result r = tu_run("cd %s && \"$B/tprof-analyze\" -q --compare --fail-on-regression 10 a.log b.log", dir);
	cr_assert_eq(r.status, 1, "30 %% slower batches trip the gate (status %d)\n%s", r.status, r.out.buf);
	cr_assert(strstr(r.out.buf, "tripped by: batch time (+"), "%s", r.out.buf);
	cr_assert(strstr(r.err.buf, "tripped by: batch time (+"), "and on stderr, for CI logs: %s", r.err.buf);
	cr_assert(strstr(r.out.buf, "b.log is 1.3"), "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, "slower than a.log"), "%s", r.out.buf);
	tu_result_free(&r);
	strbuf_release(&a);
	strbuf_release(&b);
	tu_rmtree(dir);
}

Test(compare, a_series_in_one_run_only_is_listed)
{
	char *dir = tmpdir();
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	uint32_t seed = 9;
	batches(&a, "", 50, 0.20, &seed);
	strbuf_addstr(&a, "[TIMING] warm cache: 3.0s\n");
	batches(&b, "", 50, 0.20, &seed);
	strbuf_addstr(&b, "[TIMING] cold cache: 4.0s\n");
	write_text(dir, "a.log", &a);
	write_text(dir, "b.log", &b);
	struct strbuf args = STRBUF_INIT;
	strbuf_addf(&args, "--compare %s/a.log %s/b.log", dir, dir);
	struct json_doc d = analyze_json(args.buf, 0);
	const struct json_value *t = jtable(d.root, "compare");
	cr_assert_not_null(t);
	long ra = jrow(t, "item", "stage warm cache"), rb = jrow(t, "item", "stage cold cache");
	cr_assert(ra >= 0 && rb >= 0, "both one-run stages are listed");
	char want[512];
	snprintf(want, sizeof(want), "only in %s/a.log", dir);
	cr_assert_str_eq(jtext(jcell(t, (size_t)ra, "verdict")), want);
	snprintf(want, sizeof(want), "only in %s/b.log", dir);
	cr_assert_str_eq(jtext(jcell(t, (size_t)rb, "verdict")), want);
	cr_assert_geq(jrow(t, "item", "batch time"), 0, "the shared series is compared");
	cr_assert_eq(count_findings(d.root, "unmatched", "2 series are in only one", 0), 1);
	json_free(&d);
	/* mapped by hand, the renamed stage is compared */
	strbuf_reset(&args);
	strbuf_addf(&args, "--compare --match 'stage warm cache=stage cold cache' %s/a.log %s/b.log", dir, dir);
	d = analyze_json(args.buf, 0);
	t = jtable(d.root, "compare");
	long rm = jrow(t, "item", "stage warm cache");
	cr_assert_geq(rm, 0);
	cr_assert_float_eq(jnum(jcell(t, (size_t)rm, "ratio")), 4.0 / 3.0, 1e-3);
	cr_assert_eq(jrow(t, "item", "stage cold cache"), -1);
	json_free(&d);
	strbuf_release(&args);
	strbuf_release(&a);
	strbuf_release(&b);
	tu_rmtree(dir);
}

Test(compare, fifty_thousand_lines_30_percent_slower_are_not_faster_overall)
{
	char *dir = tmpdir();
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	uint32_t seed = 11;
	/* single-number stages that got faster must not outvote the batches */
	strbuf_addstr(&a, "[TIMING] setup: 100.0s\n[TIMING] data prep: 50.0s\n");
	strbuf_addstr(&b, "[TIMING] setup: 10.0s\n[TIMING] data prep: 5.0s\n");
	batches(&a, "", 49998, 0.20, &seed);
	batches(&b, "", 49998, 0.26, &seed);
	write_text(dir, "a.log", &a);
	write_text(dir, "b.log", &b);
	struct strbuf args = STRBUF_INIT;
	strbuf_addf(&args, "--fail-on-regression 10 %s/a.log %s/b.log", dir, dir);
	struct json_doc d = analyze_json(args.buf, 1);
	const struct json_value *t = jtable(d.root, "compare");
	long g = jrow(t, "item", "(geometric mean of ratios)");
	cr_assert_geq(g, 0);
	cr_assert_str_eq(jtext(jcell(t, (size_t)g, "verdict")), "slower overall");
	cr_assert_float_eq(jnum(jcell(t, (size_t)g, "ratio")), 1.3, 0.02);
	const char *h = jtext(json_get_path(d.root, "summary.headline"));
	cr_assert(h && strstr(h, "slower than"), "%s", h);
	json_free(&d);
	strbuf_release(&args);
	strbuf_release(&a);
	strbuf_release(&b);
	tu_rmtree(dir);
}

Test(compare, an_empty_comparison_is_an_error)
{
	char *dir = tmpdir();
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	strbuf_addstr(&a, "[TIMING] alpha: 1.0s\n");
	strbuf_addstr(&b, "[TIMING] beta: 2.0s\n");
	write_text(dir, "a.log", &a);
	write_text(dir, "b.log", &b);
	struct tu_result r = tu_run("cd %s && \"$B/tprof-analyze\" -q --compare a.log b.log", dir);
	cr_assert_eq(r.status, 2, "status %d", r.status);
	cr_assert(strstr(r.err.buf, "nothing to compare"), "%s", r.err.buf);
	tu_result_free(&r);
	r = tu_run("cd %s && \"$B/tprof-analyze\" -q --fail-on-regression 5 a.log b.log", dir);
	cr_assert_eq(r.status, 2, "a gate that compared nothing does not pass (status %d)", r.status);
	tu_result_free(&r);
	strbuf_release(&a);
	strbuf_release(&b);
	tu_rmtree(dir);
}

Test(findings, flat_data_has_no_warmup_and_drift_is_bounded)
{
	char *dir = tmpdir();
	struct strbuf flat = STRBUF_INIT, fall = STRBUF_INIT;
	uint32_t seed = 3;
	batches(&flat, "", 40, 0.20, &seed); /* GPU memory constant: no drift row */
	for (int i = 0; i < 60; i++)          /* falls to a floor: the fitted line goes below zero */
		strbuf_addf(&fall, "Batch %d: %.4fs, GPU 100.0MB, CPU 2000.0MB, loss=0.5\n", i,
			    i < 30 ? 1.0 - 0.033 * i : 0.01);
	write_text(dir, "flat.log", &flat);
	write_text(dir, "fall.log", &fall);
	struct strbuf args = STRBUF_INIT;
	strbuf_addf(&args, "%s/flat.log", dir);
	struct json_doc d = analyze_json(args.buf, 0);
	const struct json_value *w = jtable(d.root, "warmup");
	cr_assert_float_eq(jnum(jcell(w, (size_t)jrow(w, "series", "batch time"), "warmup_ends_at")), 0, 0);
	cr_assert_eq(count_findings(d.root, "warmup", NULL, -1), 0);
	cr_assert_eq(count_findings(d.root, "first-batch", NULL, -1), 0);
	const struct json_value *dr = jtable(d.root, "drift");
	cr_assert(!dr || jrow(dr, "series", "GPU memory") < 0, "a constant series has no drift row");
	json_free(&d);
	strbuf_reset(&args);
	strbuf_addf(&args, "%s/fall.log", dir);
	d = analyze_json(args.buf, 0);
	dr = jtable(d.root, "drift");
	double change = jnum(jcell(dr, (size_t)jrow(dr, "series", "batch time"), "change_over_run"));
	cr_assert(change >= -100 && change < -50, "change_over_run %g", change);
	json_free(&d);
	strbuf_release(&args);
	strbuf_release(&flat);
	strbuf_release(&fall);
	tu_rmtree(dir);
}

Test(findings, no_optimize_advice_on_experiment_tables)
{
	struct json_doc d = analyze_json("samples/kan-experiments.log", 0);
	cr_assert_eq(count_findings(d.root, "optimize", "SIREN", -1), 0);
	cr_assert_eq(count_findings(d.root, "optimize", "'KAN'", -1), 0);
	cr_assert_eq(count_findings(d.root, "optimize", "backward_pass", -1), 1, "pipeline stages keep theirs");
	json_free(&d);
}

Test(charts, comparison_is_a_ratio_chart_and_batches_have_a_robust_range)
{
	char *dir = tmpdir();
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, gp = STRBUF_INIT, dat = STRBUF_INIT, path = STRBUF_INIT;
	uint32_t seed = 21;
	batches(&a, "", 100, 0.20, &seed);
	strbuf_addstr(&a, "[TIMING] setup: 4.4s\n");
	batches(&b, "", 100, 0.26, &seed);
	strbuf_addstr(&b, "[TIMING] setup: 4.0s\n");
	write_text(dir, "a.log", &a);
	write_text(dir, "b.log", &b);
	struct tu_result r = tu_run("cd %s && \"$B/tprof-plot\" -q --compare --batches --gnuplot /bin/true --script . "
				    "-o x.svg a.log b.log", dir);
	tu_result_free(&r);
	strbuf_addf(&path, "%s/compare.gp", dir);
	cr_assert_eq(tu_slurp(path.buf, &gp), 0, "%s", path.buf);
	/* one shared logarithmic scale of ratios, 1 marked, the title names the run */
	cr_assert(strstr(gp.buf, "set logscale x"), "%s", gp.buf);
	cr_assert(strstr(gp.buf, "set arrow from 1, graph 0 to 1, graph 1"), "%s", gp.buf);
	cr_assert(strstr(gp.buf, "against a.log (ratio, 95% interval): b.log"), "%s", gp.buf);
	cr_assert(strstr(gp.buf, "with xerrorbars"), "%s", gp.buf);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/compare-d0.dat", dir);
	cr_assert_eq(tu_slurp(path.buf, &dat), 0);
	/* stage (no samples: no interval) and batch time, both as ratios */
	cr_assert(strstr(dat.buf, "stage setup\t0.909"), "%s", dat.buf);
	const char *bt = strstr(dat.buf, "batch time\t");
	cr_assert_not_null(bt, "%s", dat.buf);
	double ratio, lo, hi;
	cr_assert_eq(sscanf(bt + 11, "%lf\t%lf\t%lf", &ratio, &lo, &hi), 3, "%s", bt);
	cr_assert_float_eq(ratio, 1.3, 0.03);
	cr_assert(lo < ratio && ratio < hi && lo > 1.2 && hi < 1.4, "interval %g..%g", lo, hi);
	strbuf_release(&gp);
	strbuf_release(&path);
	tu_rmtree(dir);
	/* a first batch 3x the rest does not set the range of the batch chart */
	dir = tmpdir();
	r = tu_run("cd %s && \"$B/tprof-plot\" -q --batches --gnuplot /bin/true --script . -o x.svg "
		   "\"$R/samples/ddp-4rank.log\"", dir);
	tu_result_free(&r);

	struct strbuf p2 = STRBUF_INIT, g2 = STRBUF_INIT;
	strbuf_addf(&p2, "%s/batches.gp", dir);
	cr_assert_eq(tu_slurp(p2.buf, &g2), 0);
	const char *yr = strstr(g2.buf, "set yrange [0:");
	cr_assert_not_null(yr, "%s", g2.buf);
	double top = strtod(yr + 14, NULL);
	cr_assert(top > 0.25 && top < 0.4, "range top %g: the steady state (0.18-0.23 s) fills the chart", top);
	cr_assert(strstr(g2.buf, "above the range") || strstr(g2.buf, "batches-d"), "%s", g2.buf);
	cr_assert(strstr(g2.buf, "Batch time per batch: "), "the title names the run");
	strbuf_release(&p2);
	strbuf_release(&g2);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&dat);
	tu_rmtree(dir);
}

Test(layout, significant_digits_no_single_run_column_and_step_metrics_charted)
{
	struct tu_result r = tu_run("COLUMNS=100 \"$B/tprof-analyze\" -q samples/graph-llava-pretrain.log");
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out.buf, "Main training loop                     2404 "), "4 significant digits:\n%s",
		  r.out.buf);
	cr_assert_null(strstr(r.out.buf, "2404.13"));
	tu_result_free(&r);
	r = tu_run("COLUMNS=100 \"$B/tprof-analyze\" -q samples/ddp-4rank.log");
	cr_assert(strstr(r.out.buf, "1.8e-53") && !strstr(r.out.buf, "1.795e-53"), "p-values in 3 digits");
	/* one run: no run column, no run before each finding */
	cr_assert_null(strstr(r.out.buf, "  run  "), "%s", r.out.buf);
	cr_assert_null(strstr(r.out.buf, "warning  samples/ddp-4rank.log:"), "%s", r.out.buf);
	tu_result_free(&r);
	/* ssm's per-step metrics get the batch chart */
	char *dir = tmpdir();
	r = tu_run("cd %s && \"$B/tprof-plot\" -q --batches --gnuplot /bin/true --script . -o x.svg "
		   "\"$R/samples/ssm-training.log\"", dir);
	struct strbuf gp = STRBUF_INIT, path = STRBUF_INIT;
	strbuf_addf(&path, "%s/batches.gp", dir);
	cr_assert_eq(tu_slurp(path.buf, &gp), 0, "%s", r.err.buf);
	cr_assert(strstr(gp.buf, "Step metrics per step: ") && strstr(gp.buf, "ssm-training.log'"), "%s", gp.buf);
	tu_result_free(&r);
	strbuf_release(&gp);
	strbuf_release(&path);
	tu_rmtree(dir);
}

Test(layout, csv_to_a_directory_is_one_wide_csv_per_table)
{
	char *dir = tmpdir();
	struct tu_result r = tu_run("\"$B/tprof-analyze\" -q -o %s/out/ samples/ddp-4rank.log", dir);
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	tu_result_free(&r);
	struct strbuf csv = STRBUF_INIT, path = STRBUF_INIT;
	strbuf_addf(&path, "%s/out/summary-top.csv", dir);
	cr_assert_eq(tu_slurp(path.buf, &csv), 0, "%s", path.buf);
	cr_assert(!strncmp(csv.buf, "rank,run,at_stake [s],severity,kind,finding,advice,where", 56), "%s", csv.buf);
	cr_assert(strstr(csv.buf, "\n1,samples/ddp-4rank.log,1.66"), "%s", csv.buf);
	strbuf_release(&csv);
	strbuf_release(&path);
	tu_rmtree(dir);
}
