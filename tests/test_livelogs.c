/*
 * test_livelogs.c - the packs on live output of today's frameworks (issue 25).
 *
 * tests/data/live/ holds the output of tiny real runs captured on an NVIDIA
 * H100 on 2026-11-27 (PyTorch 2.11.0, transformers 5.17.0, Lightning 2.6.6;
 * bench/live/capture.sh made them, as users capture theirs: `python3 run.py
 * > run.log 2>&1`), and beside each log the framework's own figures for that
 * run (NAME.expected.json): the profiler's key_averages(), each benchmark
 * Measurement, the Trainer's log_history, the SimpleProfiler's recorded
 * durations, the torchrun job's own step times. Each test reads the log with
 * every pack, as tprof-parse does, and holds every value the log prints against those figures, to
 * the precision the framework printed it with: a format change in a new
 * release shows here as a failing test, not as a silent drop.
 */
#include "packtest.h"

#include "base/json.h"
#include "parse/input/driver.h"

struct live {
	struct collector c;
	struct strbuf json;
	struct json_doc doc;
};

/*
 * Reads tests/data/live/NAME.log as a user runs tprof-parse (every pack,
 * discovery and progress on, one thread), and NAME.expected.json.
 */
static void live_open(struct live *l, const char *name)
{
	char path[256];
	memset(l, 0, sizeof(*l));
	snprintf(path, sizeof(path), "tests/data/live/%s.log", name);
	struct tp_run_opts o = { .threads = 1, .fmt = -1 };
	struct strbuf err = STRBUF_INIT;
	o.sink = collect_sink(&l->c);
	struct tp_rules *rs = all_packs();
	o.rules = rs;
	struct tp_stats st = { 0 };
	cr_assert_eq(tp_run_file(path, NULL, &o, &st, &err), 0, "%s: %s", path, err.buf ? err.buf : "");
	strbuf_release(&err);
	tp_rules_free(rs);
	cr_expect_eq(l->c.nwarn, 0, "%s: %zu warnings, first: %s", name, l->c.nwarn,
		     l->c.nwarn ? l->c.warnings[0] : "");
	snprintf(path, sizeof(path), "tests/data/live/%s.expected.json", name);
	cr_assert_eq(tu_slurp(path, &l->json), 0, "cannot read %s", path);
	struct json_error je;
	l->doc = (struct json_doc)JSON_DOC_INIT;
	cr_assert_eq(json_parse(l->json.buf, l->json.len, &l->doc, &je), 0, "%s: %s", path, je.msg);
}

static void live_close(struct live *l)
{
	collector_free(&l->c);
	json_free(&l->doc);
	strbuf_release(&l->json);
}

static double jnum(const struct json_value *o, const char *key)
{
	const struct json_value *v = json_get(o, key);
	cr_assert(v && v->kind == JSON_NUM, "no number '%s'", key);
	return v->num.v;
}

static const char *jstr(const struct json_value *o, const char *key)
{
	const struct json_value *v = json_get(o, key);
	cr_assert(v && v->kind == JSON_STR, "no string '%s'", key);
	return v->str.s;
}

/* got (seconds) is want (microseconds) as the profiler prints it: "%.3f" in us, ms or s. */
static void expect_printed_us(double got_s, double want_us, const char *what)
{
	double unit = want_us >= 999999.5 ? 1e6 : want_us >= 999.9995 ? 1e3 : 1;
	cr_expect(fabs(got_s * 1e6 - want_us) <= 0.0005 * unit + 1e-9, "%s: read %.9g s, key_averages %.6f us", what,
		  got_s, want_us);
}

/* got is want printed to `digits` significant digits. */
static void expect_sig(double got, double want, int digits, const char *what)
{
	double tol = 0.5 * pow(10, floor(log10(fabs(want))) - digits + 1);
	cr_expect(fabs(got - want) <= tol * (1 + 1e-9), "%s: read %.9g, the framework's %.9g (%d digits)", what, got,
		  want, digits);
}

/* The row of key_averages() a table row shows: the name cut to 52 bytes and "..." past 55. */
static const struct json_value *profiler_row(const struct json_value *rows, const char *name, int device)
{
	size_t n = strlen(name);
	int cut = n == 55 && strcmp(name + 52, "...") == 0;
	for (size_t i = 0; i < rows->arr.n; i++) {
		const struct json_value *r = &rows->arr.items[i];
		const char *key = jstr(r, "key");
		int dev = strstr(jstr(r, "device_type"), "CUDA") != NULL;
		if (dev == device && (cut ? strncmp(key, name, 52) == 0 : strcmp(key, name) == 0))
			return r;
	}
	return NULL;
}

/*
 * PyTorch 2.11: two tables of one profile (by device time, then by CPU
 * time), a record_function("step") range with its GPU-side row ("step
 * (device)", whose Self CUDA is 393.36 % of the kernels-only footer), zero
 * cells printed 0.000us, names cut at 55 characters.
 */
Test(livelogs, torch_profiler_2_11_every_cell_is_key_averages)
{
	struct live l;
	live_open(&l, "profiler_dev");
	const struct json_value *rows = json_get(l.doc.root, "rows");
	cr_assert_str_eq(jstr(l.doc.root, "torch"), "2.11.0+cu130");
	size_t seen = 0;
	for (size_t i = 0; i < l.c.n; i++) {
		const struct tp_record *r = &l.c.v[i].rec;
		if (r->type != TP_AGGREGATE)
			continue;
		char name[128];
		snprintf(name, sizeof(name), "%s", r->name);
		char *dev = strstr(name, " (device)");
		if (dev)
			*dev = '\0';
		const struct json_value *want = profiler_row(rows, name, dev != NULL);
		cr_assert_not_null(want, "line %llu: no key_averages() row '%s'", (unsigned long long)r->line, r->name);
		cr_expect_eq(num(r, S_AGG_COUNT), jnum(want, "count"), "%s: calls", r->name);
		expect_printed_us(num(r, S_AGG_SELF_S), jnum(want, "self_cpu_us"), r->name);
		expect_printed_us(num(r, S_AGG_TOTAL_S), jnum(want, "cpu_total_us"), r->name);
		expect_printed_us(num(r, S_AGG_DEV_SELF_S), jnum(want, "self_device_us"), r->name);
		expect_printed_us(num(r, S_AGG_DEV_TOTAL_S), jnum(want, "device_total_us"), r->name);
		expect_printed_us(num(r, S_AGG_DEV_MEAN_S), jnum(want, "device_total_us") / jnum(want, "count"),
				  r->name);
		seen++;
	}
	cr_expect_eq(seen, 30, "15 rows in each of the two tables, %zu read", seen);
	cr_expect_str_eq(named_nth(&l.c, TP_AGGREGATE, "step (device)", 0)->parent, "self CUDA time total");
	EQ(num(named_nth(&l.c, TP_AGGREGATE, "step (device)", 0), S_AGG_DEV_SELF_PCT), 393.36);
	/* the footers: the CPU one is the sum of every event's self CPU time */
	double self_cpu = 0;
	for (size_t i = 0; i < rows->arr.n; i++)
		self_cpu += jnum(&rows->arr.items[i], "self_cpu_us");
	cr_expect_eq(named_count(&l.c, TP_SUMMARY, "self CPU time total"), 2, "one per table");
	expect_printed_us(num(named(&l.c, TP_SUMMARY, "self CPU time total"), S_SECONDS), self_cpu, "CPU footer");
	EQ(num(named(&l.c, TP_SUMMARY, "self CUDA time total"), S_SECONDS), 435.365e-6);
	live_close(&l);
}

/* A Measurement's title line: "matmul: x @ y" then its description ("64") on the next. */
static const struct tp_record *measurement(const struct collector *c, const char *name, const char *desc, int cell)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct tp_record *r = &c->v[i].rec;
		if (r->type == TP_RUNTIME && !strcmp(r->name, name) && r->text && !strcmp(r->text, desc) &&
		    tp_has(r, S_RT_RUNS) != cell)
			return r;
	}
	cr_assert_fail("no runtime '%s' for '%s'%s", name, desc, cell ? " in the Compare table" : "");
	return NULL;
}

/*
 * torch.utils.benchmark on PyTorch 2.11: each Measurement under its label
 * and statement, the size in its case; the median, and where four or more
 * measurements were taken the IQR and quartiles; then the Compare table,
 * its unit from the footer.
 */
Test(livelogs, torch_benchmark_2_11_measurements_and_compare)
{
	struct live l;
	live_open(&l, "benchmark_dev");
	const struct json_value *ms = json_get(l.doc.root, "measurements");
	cr_assert_eq(ms->arr.n, 6);
	for (size_t i = 0; i < ms->arr.n; i++) {
		const struct json_value *m = &ms->arr.items[i];
		char name[64];
		snprintf(name, sizeof(name), "matmul: %s", jstr(m, "stmt"));
		const char *desc = jstr(m, "description");
		const struct tp_record *r = measurement(&l.c, name, desc, 0);
		expect_sig(num(r, S_RT_MEDIAN_MS) * 1e-3, jnum(m, "median"), 4, name);
		cr_expect_eq(num(r, S_RT_RUNS), jnum(m, "runs"), "%s %s: measurements", name, desc);
		cr_expect_eq(num(r, S_RT_THREADS), 1, "%s %s: '..., 1 thread'", name, desc);
		if (jnum(m, "runs") >= 4) {
			/* printed as "%.2f us" beside the median's unit */
			cr_expect(fabs(num(r, S_RT_IQR_MS) * 1e-3 - jnum(m, "iqr")) <= 0.0051e-6, "%s %s: IQR", name,
				  desc);
			expect_sig(num(r, S_RT_Q1_MS) * 1e-3, jnum(m, "p25"), 4, "q1");
			expect_sig(num(r, S_RT_Q3_MS) * 1e-3, jnum(m, "p75"), 4, "q3");
		} else {
			cr_expect(!tp_has(r, S_RT_IQR_MS), "%s %s: no IQR printed under 4 measurements", name, desc);
		}
		/* the Compare table: one decimal of a microsecond */
		r = measurement(&l.c, name, desc, 1);
		cr_expect(fabs(num(r, S_RT_MEDIAN_MS) * 1e3 - jnum(m, "median") * 1e6) <= 0.051, "%s %s: cell", name,
			  desc);
	}
	cr_expect_eq(collected_count(&l.c, TP_RUNTIME), 12);
	live_close(&l);
}

/* The k-th record of type t named name holds want, printed as "%.4g". */
static void expect_hf(const struct collector *c, enum tp_type t, const char *name, size_t k, double want)
{
	const struct tp_record *r = named_nth(c, t, name, k);
	expect_sig(r->num[t == TP_RATE ? S_RATE_VALUE : S_SECONDS], want, 4, name);
}

/*
 * transformers 5.17's Trainer: its metrics dicts print every number as a
 * quoted "%.4g" string, glued after tqdm redraws on one line; the nested
 * evaluation bar ends each redraw with ESC[A. Every *_runtime and
 * *_per_second of trainer.state.log_history is read, in order.
 */
Test(livelogs, hf_trainer_5_17_log_history)
{
	struct live l;
	live_open(&l, "hf_trainer_dev");
	cr_assert_str_eq(jstr(l.doc.root, "transformers"), "5.17.0");
	const struct json_value *h = json_get(l.doc.root, "log_history");
	size_t eval = 0, train = 0;
	for (size_t i = 0; i < h->arr.n; i++) {
		const struct json_value *e = &h->arr.items[i];
		const char *p = json_get(e, "eval_runtime") ? "eval" : json_get(e, "train_runtime") ? "train" : NULL;
		if (!p)
			continue;
		size_t k = *p == 'e' ? eval++ : train++;
		char key[64];
		snprintf(key, sizeof(key), "%s_runtime", p);
		expect_hf(&l.c, TP_SUMMARY, key, k, jnum(e, key));
		snprintf(key, sizeof(key), "%s_samples_per_second", p);
		expect_hf(&l.c, TP_RATE, key, k, jnum(e, key));
		snprintf(key, sizeof(key), "%s_steps_per_second", p);
		expect_hf(&l.c, TP_RATE, key, k, jnum(e, key));
	}
	cr_expect_eq(eval, 4, "three evaluations while training, one after");
	cr_expect_eq(train, 1);
	cr_expect_eq(named_count(&l.c, TP_SUMMARY, "eval_runtime"), 4);
	/* the training bar's 300 steps, redrawn in place: every redraw a progress record */
	size_t redraws = 0;
	for (size_t i = 0; i < l.c.n; i++)
		redraws += l.c.v[i].rec.type == TP_PROGRESS && tp_has(&l.c.v[i].rec, S_PRG_TOTAL) &&
			   l.c.v[i].rec.num[S_PRG_TOTAL] == 300;
	cr_expect_geq(redraws, 40, "%zu redraws of the 300-step bar", redraws);
	live_close(&l);
}

/*
 * Lightning 2.6.6, its default bar where rich is installed: stdout a file,
 * the Rich bar drawn once and wrapped at 80 columns; the SimpleProfiler's
 * report, tab-separated, every action with its calls, mean and total.
 */
Test(livelogs, lightning_2_6_simple_profiler_and_rich_bar)
{
	struct live l;
	live_open(&l, "lightning_dev");
	cr_assert_str_eq(jstr(l.doc.root, "lightning"), "2.6.6");
	cr_assert_str_eq(jstr(l.doc.root, "bar"), "RichProgressBar");
	const struct json_value *rec = json_get(l.doc.root, "recorded");
	cr_assert(rec && rec->kind == JSON_OBJ);
	size_t rows = 0;
	for (size_t i = 0; i < l.c.n; i++) {
		const struct tp_record *r = &l.c.v[i].rec;
		if (r->type != TP_AGGREGATE || !strcmp(r->name, "Total"))
			continue;
		const struct json_value *a = json_get(rec, r->name);
		cr_assert_not_null(a, "line %llu: no recorded action '%s'", (unsigned long long)r->line, r->name);
		cr_expect_eq(num(r, S_AGG_COUNT), jnum(a, "calls"), "%s: calls", r->name);
		expect_sig(num(r, S_AGG_MEAN_S), jnum(a, "mean_s"), 5, r->name);
		expect_sig(num(r, S_AGG_TOTAL_S), jnum(a, "total_s"), 5, r->name);
		rows++;
	}
	cr_expect_eq(rows, rec->obj.n, "every recorded action is a row: %zu of %zu", rows, (size_t)rec->obj.n);
	EQ(num(named(&l.c, TP_AGGREGATE, "Total"), S_AGG_TOTAL_S), 2.2427);
	/* the Rich bar: its last epoch, 100 of 100 at 242.37 it/s */
	EQ(num(named(&l.c, TP_RATE, "train"), S_RATE_VALUE), 242.37);
	cr_expect_eq(collected_count(&l.c, TP_EPOCH), 1);
	live_close(&l);
}

/*
 * A torchrun job (four ranks, --tee=3): every line behind the launcher's
 * "[defaultN]:", then Python logging's stamp and "- INFO - train -", then
 * "step    5 | loss 0.2 | step_time 2.7 ms | data 0.14 ms | samples/s 23562".
 * Each rank's steps are its own, as the script measured them.
 */
Test(livelogs, torchrun_logging_every_rank_its_steps)
{
	struct live l;
	live_open(&l, "ddp_dev");
	const struct json_value *ranks = json_get(l.doc.root, "ranks");
	cr_assert_eq(ranks->arr.n, 4);
	for (size_t rk = 0; rk < ranks->arr.n; rk++) {
		const struct json_value *steps = &ranks->arr.items[rk];
		size_t k = 0;
		for (size_t i = 0; i < l.c.n; i++) {
			const struct tp_record *r = &l.c.v[i].rec;
			if (r->type != TP_TIMING || r->rank != (int)rk || r->role != TP_ROLE_STEP)
				continue;
			cr_assert_lt(k, steps->arr.n, "rank %zu: more steps than it logged", rk);
			const struct json_value *s = &steps->arr.items[k++];
			cr_expect_str_eq(r->name, "step_time");
			EQ(num(r, S_SECONDS), jnum(s, "step_time_ms") / 1e3);
			cr_expect_not_null(r->ts, "rank %zu step %zu: the logging stamp", rk, k);
		}
		cr_expect_eq(k, steps->arr.n, "rank %zu: %zu of %zu steps", rk, k, steps->arr.n);
	}
	size_t parts = 0;
	for (size_t i = 0; i < l.c.n; i++) {
		const struct tp_record *r = &l.c.v[i].rec;
		if (r->type == TP_TIMING && r->role == TP_ROLE_COMPONENT) {
			parts++;
			cr_expect_str_eq(r->name, "data");
			cr_expect_str_eq(r->parent, "step_time");
		}
	}
	cr_expect_eq(parts, 48);
	cr_expect_eq(named_count(&l.c, TP_RATE, "samples"), 48);
	live_close(&l);
}

/* tprof-analyze -f json on a live log: the run's wall, step and top finding. */
struct answer {
	double wall, step;
	char wall_from[32], top[32];
	size_t clock_warnings;
};

static struct answer analyze_live(const char *name)
{
	struct answer a = { NAN, NAN, "", "", 0 };
	struct tu_result r = tu_run("$B/tprof-analyze -q -f json tests/data/live/%s.log", name);
	cr_assert_eq(r.status, 0, "%s: %s", name, r.err.buf);
	struct json_doc doc = JSON_DOC_INIT;
	struct json_error je;
	cr_assert_eq(json_parse(r.out.buf, r.out.len, &doc, &je), 0, "%s", je.msg);
	const struct json_value *run = &json_get(doc.root, "runs")->arr.items[0], *v;
	if ((v = json_get(run, "wall")) && v->kind == JSON_NUM)
		a.wall = v->num.v;
	if ((v = json_get(run, "step_median")) && v->kind == JSON_NUM)
		a.step = v->num.v;
	if ((v = json_get(run, "wall_from")) && v->kind == JSON_STR)
		snprintf(a.wall_from, sizeof(a.wall_from), "%s", v->str.s);
	const struct json_value *top = json_get(json_get(doc.root, "summary"), "top");
	if (top && top->arr.n && (v = json_get(&top->arr.items[0], "kind")) && v->kind == JSON_STR)
		snprintf(a.top, sizeof(a.top), "%s", v->str.s);
	a.clock_warnings = strstr(r.out.buf, "timestamp goes back") != NULL;
	json_free(&doc);
	tu_result_free(&r);
	return a;
}

/*
 * The SimpleProfiler's rows nest (an epoch holds its batches, a batch its
 * optimizer step): the wall is the Total (2.2427 s), the step the batch's
 * mean over its 300 calls, and the top cost the batch fetch's share of it
 * (0.0006249 of 0.0035722 s), never "BOTTLENECK: run_training_epoch".
 */
Test(livelogs, lightning_answers_from_nested_profiler_rows)
{
	struct answer a = analyze_live("lightning_dev");
	EQ(a.wall, 2.2427);
	cr_expect_str_eq(a.wall_from, "phases");
	cr_expect(fabs(a.step - 1.0717 / 300) < 1e-9, "step %.9g: the total over the calls", a.step);
	cr_expect_str_eq(a.top, "data-loading");
}

/* Four ranks' lines interleaved by the launcher: no clock goes back; each step 2.4 ms. */
Test(livelogs, torchrun_ranks_interleaved_are_no_clock_going_back)
{
	struct answer a = analyze_live("ddp_dev");
	cr_expect_eq(a.clock_warnings, 0, "a rank's stamp behind another's is no clock going back");
	cr_expect(fabs(a.step - 0.0024) < 0.00005, "step %.9g", a.step);
	cr_expect_str_eq(a.wall_from, "timestamps");
}

/* Two statements at three sizes: at 64 one is faster beyond the spread, at 256 and 1024 not. */
Test(livelogs, benchmark_answers_the_faster_statement)
{
	struct answer a = analyze_live("benchmark_dev");
	cr_expect_str_eq(a.top, "variants");
	struct tu_result r = tu_run("COLUMNS=100 $B/tprof-analyze -q tests/data/live/benchmark_dev.log");
	cr_expect(strstr(r.out.buf, "'matmul: torch.mm(x, y) (64)' is 1.41x faster than 'matmul: x @ y (64)'"), "%s",
		  r.out.buf);
	cr_expect(strstr(r.out.buf, "at 256 the 2 statements take the same time within their spread"), "%s", r.out.buf);
	cr_expect(!strstr(r.out.buf, "no stage, batch, epoch"), "%s", r.out.buf);
	tu_result_free(&r);
}

/*
 * 300 steps in 3.6 s: the bars' whole seconds measure nothing of a step
 * (the evaluation bars fill at 00:00), so the step is the Trainer's own
 * train_steps_per_second (83.12), not "0 s" from four evaluation bars.
 */
Test(livelogs, hf_trainer_short_run_step_from_its_own_rate)
{
	struct answer a = analyze_live("hf_trainer_dev");
	cr_expect(fabs(a.step - 1 / 83.12) < 1e-6, "step %.9g", a.step);
	EQ(a.wall, 3.609);
	cr_expect_str_eq(a.top, "steps");
}

/* A benchmark record with an empty name (NDJSON from elsewhere) on two thread counts: compared, not read before its key. */
Test(livelogs, threads_of_a_runtime_with_an_empty_name)
{
	char *d = tu_tmpdir("live-empty");
	struct tu_result r = tu_run("printf '%%s\\n' "
				    "'{\"type\":\"runtime\",\"file\":\"x\",\"line\":1,\"name\":\"\",\"median_ms\":1,\"runs\":4,\"threads\":1}' "
				    "'{\"type\":\"runtime\",\"file\":\"x\",\"line\":2,\"name\":\"\",\"median_ms\":0.5,\"runs\":4,\"threads\":4}' "
				    "> %s/e.ndjson && $B/tprof-analyze -q %s/e.ndjson",
				    d, d);
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.out.buf, "'' on 4 threads takes 0.5 ms against 1 ms on one: 2.00x faster"), "%s", r.out.buf);
	tu_result_free(&r);
	tu_rmtree(d);
}
