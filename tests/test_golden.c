/*
 * test_golden.c - the golden logs of seeds 000, 001 and 004 (written by
 * tests/golden/gen_seed*.c from the real print statements, checked in under
 * tests/data/golden/): every printed value is read, record by record, and
 * every figure the seed code computes is reproduced by the analysis (or
 * differs on purpose, asserted with both figures). Then the regressions of
 * issue 12's groups 1, 2, 3, 5 and 9 on small inputs.
 *
 * The seeds' own figures come from the generators' inputs: S1 prints
 * shares 39.5/28.1/32.3 %, 35.27 s per dataset, speedups 1.40/1.22 against
 * the slowest and 0.87/0.71 against SIREN, a 72.2 % and a -6.5 % warmup
 * overhead; S4 prints a 65.6 % BOTTLENECK, a 2.5x variance ratio of
 * its last epoch and aggregate means; S0 prints 99.0 % for the
 * training loop.
 */
#include "golden.h"

/* ---- S1: madoc section1/utils/timing.py ---- */

Test(seed001, every_printed_value_is_read)
{
	struct collector c = { 0 };
	golden_records("seed001.log", &c);
	cr_assert_eq(c.nwarn, 0, "%s", c.nwarn ? c.warnings[0] : "");

	cr_assert_eq(collected_count(&c, TP_COMPLETE), 5);
	GOLDEN_NUM(collected_find(&c, TP_COMPLETE, "MLP training"), S_SECONDS, 125.45);
	GOLDEN_NUM(collected_find(&c, TP_COMPLETE, "SIREN training"), S_SECONDS, 89.32);
	GOLDEN_NUM(collected_find(&c, TP_COMPLETE, "KAN training"), S_SECONDS, 102.67);
	const struct tp_record *r = collected_find(&c, TP_COMPLETE, "KAN grid search");
	GOLDEN_NUM(r, S_SECONDS, 12.45);
	GOLDEN_NUM(r, S_CPL_GPU_PEAK_MB, 1024.3);
	r = collected_find(&c, TP_COMPLETE, "Model");
	GOLDEN_NUM(r, S_SECONDS, 45.32);
	GOLDEN_NUM(r, S_CPL_PEAK_MB, 234.5);

	/* TIMING SUMMARY - Section 1.1 and the Detailed Breakdown */
	static const struct {
		const char *name, *section;
		double s, pct;
	} rows[] = {
		{ "MLP training", "Section 1.1", 125.45, 39.5 },   { "SIREN training", "Section 1.1", 89.32, 28.1 },
		{ "KAN training", "Section 1.1", 102.67, 32.3 },   { "backward_pass", "Training", 12.45, 55.2 },
		{ "forward_pass", "Training", 8.34, 37.0 },        { "data_loading", "Training", 1.76, 7.8 },
	};
	cr_assert_eq(collected_count(&c, TP_SUMMARY), 7);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		r = collected_find(&c, TP_SUMMARY, rows[i].name);
		cr_assert_not_null(r, "%s", rows[i].name);
		cr_assert_str_eq(r->text, rows[i].section);
		GOLDEN_NUM(r, S_SECONDS, rows[i].s);
		GOLDEN_NUM(r, S_SUM_PERCENT, rows[i].pct);
	}
	GOLDEN_NUM(collected_find(&c, TP_SUMMARY, "TOTAL"), S_SECONDS, 317.44);
	GOLDEN_NUM(collected_find(&c, TP_META, "Average per dataset"), S_META_VALUE, 35.27);

	/* two SPEEDUP ANALYSIS blocks: against the slowest, then against SIREN */
	static const struct {
		const char *name, *base;
		double f, base_s;
	} sp[] = { { "SIREN training", "MLP training", 1.40, 125.45 },
		   { "KAN training", "MLP training", 1.22, 125.45 },
		   { "KAN training", "SIREN training", 0.87, 89.32 },
		   { "MLP training", "SIREN training", 0.71, 89.32 } };
	cr_assert_eq(collected_count(&c, TP_SPEEDUP), 4);
	for (size_t i = 0; i < ARRAY_SIZE(sp); i++) {
		r = golden_nth(&c, TP_SPEEDUP, i);
		cr_assert_str_eq(r->name, sp[i].name);
		cr_assert_str_eq(r->text, sp[i].base);
		GOLDEN_NUM(r, S_SPD_FACTOR, sp[i].f); /* "0.71x slower" is factor 0.71 */
		GOLDEN_NUM(r, S_SPD_BASELINE_S, sp[i].base_s);
	}

	r = collected_find(&c, TP_LATENCY, "KAN");
	GOLDEN_NUM(r, S_LAT_MEAN_MS, 2.345);
	GOLDEN_NUM(r, S_LAT_MIN_MS, 2.123);
	GOLDEN_NUM(r, S_LAT_MAX_MS, 3.456);
	GOLDEN_NUM(r, S_LAT_THROUGHPUT, 426.3);

	r = collected_find(&c, TP_WARMUP, "MLP");
	GOLDEN_NUM(r, S_WU_FIRST_S, 5.2);
	GOLDEN_NUM(r, S_WU_STEADY_S, 3.02);
	GOLDEN_NUM(r, S_WU_OVERHEAD_S, 2.18);
	GOLDEN_NUM(r, S_WU_OVERHEAD_PCT, 72.2);
	r = collected_find(&c, TP_WARMUP, "SIREN"); /* a negative overhead, read without a warning */
	GOLDEN_NUM(r, S_WU_FIRST_S, 2.9);
	GOLDEN_NUM(r, S_WU_STEADY_S, 3.1);
	GOLDEN_NUM(r, S_WU_OVERHEAD_S, -0.2);
	GOLDEN_NUM(r, S_WU_OVERHEAD_PCT, -6.5);
	collector_free(&c);
}

Test(seed001, exports_are_read)
{
	static const char *const docs[] = { "seed001_timing.csv", "seed001_timing.json" };
	for (size_t d = 0; d < ARRAY_SIZE(docs); d++) {
		struct collector c = { 0 };
		golden_doc(docs[d], &c);
		cr_assert_eq(c.n, 3, "%s", docs[d]);
		GOLDEN_NUM(collected_find(&c, TP_SUMMARY, "MLP training"), S_SECONDS, 125.45);
		GOLDEN_NUM(collected_find(&c, TP_SUMMARY, "SIREN training"), S_SECONDS, 89.32);
		GOLDEN_NUM(collected_find(&c, TP_SUMMARY, "KAN training"), S_SECONDS, 102.67);
		cr_assert_str_eq(collected_find(&c, TP_SUMMARY, "KAN training")->text, "Section 1.1");
		collector_free(&c);
	}
}

Test(seed001, nested_gpu_and_memory_export_is_read)
{
	struct collector c = { 0 };
	golden_doc("seed001_gpu_timing.json", &c);
	cr_assert_eq(c.n, 2);
	const struct tp_record *r = collected_find(&c, TP_SUMMARY, "KAN grid search");
	cr_assert_str_eq(r->text, "Section 1.2");
	cr_assert_str_eq(r->ts, "2024-11-24T12:30:00");
	GOLDEN_NUM(r, S_SECONDS, 12.45);
	GOLDEN_NUM(r, S_SUM_GPU_MB, 512.1);      /* allocated_mb */
	GOLDEN_NUM(r, S_SUM_GPU_PEAK_MB, 1024.3); /* max_allocated_mb */
	r = collected_find(&c, TP_SUMMARY, "Model");
	GOLDEN_NUM(r, S_SECONDS, 45.32);
	GOLDEN_NUM(r, S_SUM_CPU_MB, 234.5); /* peak_memory_mb */
	collector_free(&c);
}

Test(seed001, the_seed_figures_are_reproduced)
{
	struct an_model m;
	struct report rep;
	an_model_init(&m, NAN);
	golden_model("seed001.log", &m);
	golden_analyze(&m, &rep);

	/* print_timing_summary's shares: elapsed / total * 100 */
	const struct rtable *t = table(&rep, "breakdown", "'Section 1.1'");
	cr_assert_not_null(t);
	cr_assert_float_eq(cell(t, "stage", "MLP training", "share"), 100 * 125.45 / 317.44, 1e-9);
	cr_assert_float_eq(cell(t, "stage", "SIREN training", "share"), 100 * 89.32 / 317.44, 1e-9);
	cr_assert_float_eq(cell(t, "stage", "KAN training", "share"), 100 * 102.67 / 317.44, 1e-9);
	t = table(&rep, "breakdown", "'Training'");
	cr_assert_not_null(t);
	cr_assert_float_eq(cell(t, "stage", "backward_pass", "share"), 100 * 12.45 / 22.55, 1e-9);
	cr_assert_null(finding(&rep, "inconsistent", NULL), "the real code's tables are consistent");

	/* calculate_speedup_ratios: baseline_time / elapsed, the slowest by default */
	t = table(&rep, "speedup", "against MLP training");
	cr_assert_not_null(t);
	cr_assert_float_eq(cell(t, "name", "SIREN training", "speedup"), 125.45 / 89.32, 1e-9);
	cr_assert_float_eq(cell(t, "name", "KAN training", "speedup"), 125.45 / 102.67, 1e-9);
	/* both printed blocks are kept: KAN is 1.22 against MLP and 0.87 against SIREN */
	t = table(&rep, "speedup-printed", NULL);
	cr_assert_not_null(t);
	cr_assert_eq(t->nrows, 4);
	long k0 = golden_row(t, "name", "KAN training", 0), k1 = golden_row(t, "name", "KAN training", 1);
	cr_assert(k0 >= 0 && k1 >= 0);
	cr_assert_float_eq(rt_cell(t, (size_t)k0, (size_t)col(t, "printed"))->v, 1.22, 1e-9);
	cr_assert_float_eq(rt_cell(t, (size_t)k1, (size_t)col(t, "printed"))->v, 0.87, 1e-9);
	cr_assert_float_eq(cell(t, "name", "MLP training", "printed"), 0.71, 1e-9);
	/* and recomputed from the times: baseline_time / elapsed */
	cr_assert_float_eq(cell(t, "name", "MLP training", "recomputed"), 89.32 / 125.45, 1e-9);
	cr_assert_float_eq(rt_cell(t, (size_t)k1, (size_t)col(t, "recomputed"))->v, 89.32 / 102.67, 1e-9);
	cr_assert_float_eq(rt_cell(t, (size_t)k0, (size_t)col(t, "recomputed"))->v, 125.45 / 102.67, 1e-9);

	/* track_warmup_timing's figures as printed */
	t = table(&rep, "warmup-printed", NULL);
	cr_assert_not_null(t);
	cr_assert_float_eq(cell(t, "name", "MLP", "overhead"), 2.18, 1e-9);
	cr_assert_float_eq(cell(t, "name", "MLP", "overhead_pct"), 72.2, 1e-9);
	cr_assert_float_eq(cell(t, "name", "SIREN", "overhead"), -0.2, 1e-9);
	report_free(&rep);
	an_model_free(&m);
}

/* ---- S4: HYCO-PhiFlow memory_monitor.py through its logger ---- */

static void seed004_records(const char *file)
{
	struct collector c = { 0 };
	golden_records(file, &c);
	cr_assert_eq(c.nwarn, 0, "%s: %s", file, c.nwarn ? c.warnings[0] : "");

	/* verbose_batches=5 of 8 batches in each of 2 epochs */
	cr_assert_eq(collected_count(&c, TP_BATCH), 10, "%s", file);
	const struct tp_record *r = golden_nth(&c, TP_BATCH, 0);
	GOLDEN_NUM(r, S_BAT_INDEX, 0);
	GOLDEN_NUM(r, S_SECONDS, 0.538);
	GOLDEN_NUM(r, S_BAT_GPU_MB, 23.1);
	GOLDEN_NUM(r, S_BAT_CPU_MB, 1648.9);
	GOLDEN_NUM(r, S_BAT_LOSS, 0.009458);
	r = golden_nth(&c, TP_BATCH, 9);
	GOLDEN_NUM(r, S_BAT_INDEX, 4);
	GOLDEN_NUM(r, S_SECONDS, 0.189);
	GOLDEN_NUM(r, S_BAT_CPU_MB, 1691.7);
	GOLDEN_NUM(r, S_BAT_LOSS, 0.013058);

	cr_assert_eq(collected_count(&c, TP_EPOCH), 2);
	r = golden_nth(&c, TP_EPOCH, 1);
	GOLDEN_NUM(r, S_SECONDS, 1.561);
	GOLDEN_NUM(r, S_EP_GPU_MB, 14.4);
	GOLDEN_NUM(r, S_EP_RESERVED_MB, 3236.0);
	GOLDEN_NUM(r, S_EP_PEAK_MB, 2880.0);

	/* "Batch timing:" of each epoch, then the AGGREGATE STATISTICS rows */
	cr_assert_eq(collected_count(&c, TP_AGGREGATE), 4);
	r = golden_nth(&c, TP_AGGREGATE, 0);
	GOLDEN_NUM(r, S_AGG_MEAN_S, 0.230);
	GOLDEN_NUM(r, S_AGG_MIN_S, 0.182);
	GOLDEN_NUM(r, S_AGG_MAX_S, 0.538);
	r = golden_nth(&c, TP_AGGREGATE, 1);
	GOLDEN_NUM(r, S_AGG_MEAN_S, 0.220);
	GOLDEN_NUM(r, S_AGG_MAX_S, 0.452);
	r = collected_find(&c, TP_AGGREGATE, "batch_forward");
	GOLDEN_NUM(r, S_AGG_COUNT, 3);
	GOLDEN_NUM(r, S_AGG_TOTAL_S, 0.622);
	GOLDEN_NUM(r, S_AGG_MEAN_S, 0.207);
	GOLDEN_NUM(r, S_AGG_MIN_S, 0.095);
	GOLDEN_NUM(r, S_AGG_MAX_S, 0.425);
	r = collected_find(&c, TP_AGGREGATE, "batch_backward");
	GOLDEN_NUM(r, S_AGG_TOTAL_S, 0.218);
	GOLDEN_NUM(r, S_AGG_MEAN_S, 0.073);

	/* [Performance] and its "GPU peak:" line, both behind the prefix */
	r = collected_find(&c, TP_PERF, "critical_operation");
	GOLDEN_NUM(r, S_SECONDS, 1.234);
	GOLDEN_NUM(r, S_PERF_CPU_DELTA_MB, 250.5);
	GOLDEN_NUM(r, S_PERF_GPU_DELTA_MB, 512.0);
	GOLDEN_NUM(r, S_PERF_GPU_PEAK_MB, 1024.3);

	/* one PERFORMANCE SUMMARY row per track() call, then the TOTAL */
	cr_assert_eq(collected_count(&c, TP_SUMMARY), 9);
	r = golden_nth(&c, TP_SUMMARY, 1);
	cr_assert_str_eq(r->name, "batch_forward");
	GOLDEN_NUM(r, S_SECONDS, 0.425);
	GOLDEN_NUM(r, S_SUM_CPU_MB, 12.3);
	GOLDEN_NUM(r, S_SUM_GPU_MB, 250.4);
	GOLDEN_NUM(r, S_SUM_GPU_PEAK_MB, 880.2);
	GOLDEN_NUM(collected_find(&c, TP_SUMMARY, "optimization"), S_SECONDS, 2.361);
	GOLDEN_NUM(collected_find(&c, TP_SUMMARY, "TOTAL"), S_SECONDS, 3.597);
	collector_free(&c);
}

Test(seed004, console_handler_prefix)
{
	seed004_records("seed004_console.log");
}

Test(seed004, file_handler_prefix)
{
	seed004_records("seed004_file.log");
	struct collector c = { 0 };
	golden_records("seed004_file.log", &c);
	const struct tp_record *r = golden_nth(&c, TP_BATCH, 0);
	cr_assert_str_eq(r->ts, "2024-11-24T12:00:01"); /* asctime is the record's time */
	collector_free(&c);
}

Test(seed004, printed_conclusions_are_read)
{
	struct collector c = { 0 };
	golden_records("seed004_console.log", &c);
	GOLDEN_NUM(collected_find(&c, TP_META, "BOTTLENECK: optimization"), S_META_VALUE, 65.6);
	GOLDEN_NUM(collected_find(&c, TP_META, "Average batch time"), S_META_VALUE, 0.220);
	GOLDEN_NUM(collected_find(&c, TP_META, "Min batch time"), S_META_VALUE, 0.183);
	GOLDEN_NUM(collected_find(&c, TP_META, "Max batch time"), S_META_VALUE, 0.452);
	GOLDEN_NUM(collected_find(&c, TP_META, "High variance"), S_META_VALUE, 2.5);
	GOLDEN_NUM(collected_find(&c, TP_META, "Optimal batch size"), S_META_VALUE, 32);
	collector_free(&c);
}

Test(seed004, the_seed_figures_are_reproduced)
{
	struct an_model m;
	struct report rep;
	an_model_init(&m, NAN);
	golden_model("seed004_console.log", &m);
	golden_analyze(&m, &rep);

	/* get_operation_time(op) / get_total_time(): repeated rows are summed */
	const struct rtable *t = table(&rep, "breakdown", "'PERFORMANCE SUMMARY'");
	cr_assert_not_null(t);
	cr_assert_float_eq(cell(t, "stage", "batch_forward", "seconds"), 0.622, 1e-9);
	cr_assert_float_eq(cell(t, "stage", "batch_forward", "share"), 100 * 0.622 / 3.597, 1e-9);
	cr_assert_float_eq(cell(t, "stage", "batch_backward", "share"), 100 * 0.218 / 3.597, 1e-9);
	cr_assert_float_eq(cell(t, "stage", "optimization", "share"), 100 * 2.361 / 3.597, 1e-9);
	cr_assert_null(finding(&rep, "inconsistent", NULL));
	cr_assert_null(finding(&rep, "unaccounted", NULL));

	/* Strategy 1's verdict: "BOTTLENECK: optimization (65.6%)" */
	const struct finding *f = finding(&rep, "bottleneck", "'optimization' is 65.6%");
	cr_assert_not_null(f);
	cr_assert_eq(f->sev, SEV_CRITICAL);
	cr_assert_null(finding(&rep, "optimize", NULL), "no operation between 20 and 50 %%");
	t = table(&rep, "printed-conclusions", NULL);
	cr_assert_not_null(t);
	cr_assert_float_eq(cell(t, "conclusion", "BOTTLENECK: optimization", "printed"), 65.6, 1e-9);
	cr_assert_float_eq(cell(t, "conclusion", "BOTTLENECK: optimization", "tprof_share"),
			   100 * 2.361 / 3.597, 1e-9);

	/*
	 * Strategy 2's variance ratio differs on purpose: the seed divides the
	 * last epoch's max by its min over all 8 batches (0.452 / 0.183 = 2.5x);
	 * tprof sees the batches the monitor printed (5 per epoch, both epochs):
	 * 0.538 / 0.182. Both are in the report.
	 */
	cr_assert_float_eq(cell(t, "conclusion", "High variance", "printed"), 2.5, 1e-9);
	t = table(&rep, "variance", NULL);
	cr_assert_not_null(t);
	cr_assert_float_eq(cell(t, "series", "batch time", "max/min_all"), 0.538 / 0.182, 1e-9);
	report_free(&rep);
	an_model_free(&m);
}

/* ---- S0: Graph-LLaVA TimeProfiler ---- */

Test(seed000, every_printed_value_is_read)
{
	struct collector c = { 0 };
	golden_records("seed000.log", &c);
	cr_assert_eq(c.nwarn, 0, "%s", c.nwarn ? c.warnings[0] : ""); /* the banner is no warning */
	cr_assert_eq(collected_count(&c, TP_STAGE), 8);
	cr_assert_str_eq(golden_nth(&c, TP_STAGE, 0)->name, "=== TRAINING PIPELINE START ===");
	cr_assert_eq(collected_count(&c, TP_TIMING), 7);
	const struct tp_record *r = collected_find(&c, TP_TIMING, "Main training loop");
	GOLDEN_NUM(r, S_SECONDS, 6234.56); /* "6234.56s (1.73h)" */
	cr_assert_str_eq(r->ts, "2024-10-13T23:44:59");
	GOLDEN_NUM(collected_find(&c, TP_TIMING, "Graph tower initialization (gpm)"), S_SECONDS, 2.45);
	cr_assert_eq(collected_count(&c, TP_SUMMARY), 8);
	r = collected_find(&c, TP_SUMMARY, "Main training loop");
	GOLDEN_NUM(r, S_SECONDS, 6234.56);
	GOLDEN_NUM(r, S_SUM_PERCENT, 99.0);
	GOLDEN_NUM(collected_find(&c, TP_SUMMARY, "LLM model loading"), S_SUM_PERCENT, 0.7);
	GOLDEN_NUM(collected_find(&c, TP_SUMMARY, "TOTAL"), S_SECONDS, 6298.82);
	/* the Trainer's header behind transformers' "[INFO|trainer.py:2135] ts >> " */
	cr_assert_eq(collected_count(&c, TP_META), 6);
	r = collected_find(&c, TP_META, "Num examples");
	GOLDEN_NUM(r, S_META_VALUE, 10000);
	cr_assert_str_eq(r->ts, "2024-10-13T22:01:05.120");
	GOLDEN_NUM(collected_find(&c, TP_META, "Num Epochs"), S_META_VALUE, 2);
	GOLDEN_NUM(collected_find(&c, TP_META, "Total optimization steps"), S_META_VALUE, 625);
	GOLDEN_NUM(collected_find(&c, TP_META, "Total train batch size (w. parallel, distributed & accumulation)"),
		   S_META_VALUE, 32);
	collector_free(&c);
}

Test(seed000, the_seed_figures_are_reproduced)
{
	struct an_model m;
	struct report rep;
	an_model_init(&m, NAN);
	golden_model("seed000.log", &m);
	golden_analyze(&m, &rep);
	const struct rtable *t = table(&rep, "breakdown", "the stages");
	cr_assert_not_null(t);
	cr_assert_float_eq(cell(t, "stage", "Main training loop", "share"), 100 * 6234.56 / 6298.82, 1e-9);
	cr_assert_float_eq(cell(t, "stage", "LLM model loading", "share"), 100 * 44.23 / 6298.82, 1e-9);
	cr_assert_float_eq(cell(t, "stage", "TOTAL", "seconds"), 6298.82, 1e-9);
	cr_assert_null(finding(&rep, "inconsistent", NULL));
	cr_assert_null(finding(&rep, "clock", NULL));
	cr_assert_null(finding(&rep, "bottleneck", NULL), "the training loop is the run, not its bottleneck");
	const struct finding *f = finding(&rep, "loop", "'Main training loop' is 99.0%");
	cr_assert_not_null(f);
	cr_assert_eq(f->sev, SEV_INFO);
	/* examples x epochs and steps over the training loop's time */
	t = table(&rep, "throughput", NULL);
	cr_assert_not_null(t);
	cr_assert_float_eq(cell(t, "measure", "samples per second (examples x epochs / training loop)", "value"),
			   10000.0 * 2 / 6234.56, 1e-9);
	cr_assert_float_eq(cell(t, "measure", "optimization steps per second", "value"), 625 / 6234.56, 1e-9);
	report_free(&rep);
	an_model_free(&m);
}

Test(seed000, timing_data_total_time_is_wall_time)
{
	struct collector c = { 0 };
	golden_doc("seed000_timing_data.json", &c);
	cr_assert_eq(c.n, 8);
	const struct tp_record *r = collected_find(&c, TP_SUMMARY, "WALL");
	GOLDEN_NUM(r, S_SECONDS, 6304.76);
	cr_assert_null(collected_find(&c, TP_SUMMARY, "TOTAL"));

	struct an_model m;
	struct report rep;
	an_model_init(&m, NAN);
	for (size_t i = 0; i < c.n; i++)
		an_feed(&m, &c.v[i].rec);
	golden_analyze(&m, &rep);
	cr_assert_null(finding(&rep, "inconsistent", NULL));
	const struct finding *f = finding(&rep, "outside-stages", "5.94 s (0.1%) of the wall time 6304.76 s");
	cr_assert_not_null(f);
	const struct rtable *t = table(&rep, "breakdown", "'timing_data'");
	cr_assert_float_eq(cell(t, "stage", "(outside stages)", "seconds"), 6304.76 - 6298.82, 1e-6);
	cr_assert_float_eq(cell(t, "stage", "Main training loop", "share"), 100 * 6234.56 / 6304.76, 1e-9);
	report_free(&rep);
	an_model_free(&m);
	collector_free(&c);
}

/* ---- issue 12 regressions on small inputs ---- */

static void parse_str(const char *text, struct collector *c)
{
	golden_parse_text("t.log", text, strlen(text), c);
}

static void analyze_str(const char *text, struct an_model *m, struct report *rep)
{
	struct tp_sink s = { golden_feed, NULL, m };
	an_model_init(m, NAN);
	struct tp_parser *p = tp_parser_new("t.log", &s, NULL);
	tp_parse_buffer(p, text, strlen(text));
	tp_parser_finish(p);
	tp_parser_free(p);
	golden_analyze(m, rep);
}

/* group 2: names holding ':' in complete, speedup and metric rows */
Test(issue12, names_with_colons)
{
	struct collector c = { 0 };
	parse_str("Epoch 1: MLP training complete: 45.32s total\n"
		  "\n"
		  "============================================================\n"
		  "SPEEDUP ANALYSIS\n"
		  "============================================================\n"
		  "Baseline: Epoch 1: KAN (150.00s)\n"
		  "------------------------------------------------------------\n"
		  "Epoch 1: MLP        :  1.25x faster\n"
		  "============================================================\n"
		  "\n"
		  "MLP - Warmup Analysis:\n"
		  "----------------------------------------\n"
		  "  First epoch:         5.200s\n"
		  "  Steady state:        3.020s\n"
		  "  Warmup overhead:     2.180s ( 72.2%)\n"
		  "----------------------------------------\n"
		  "--- Profiling Metrics (Step 5) ---\n"
		  "Epoch 1: forward: avg=0.0234s, total=2.34s, count=100\n"
		  "Epoch 1: backward: avg=0.0434s, total=4.34s, count=100\n",
		  &c);
	cr_assert_eq(c.nwarn, 0, "%s", c.nwarn ? c.warnings[0] : "");
	GOLDEN_NUM(collected_find(&c, TP_COMPLETE, "Epoch 1: MLP training"), S_SECONDS, 45.32);
	const struct tp_record *r = collected_find(&c, TP_SPEEDUP, "Epoch 1: MLP");
	GOLDEN_NUM(r, S_SPD_FACTOR, 1.25);
	cr_assert_str_eq(r->text, "Epoch 1: KAN");
	/* the SPEEDUP block ended: the warmup block after it is read */
	GOLDEN_NUM(collected_find(&c, TP_WARMUP, "MLP"), S_WU_OVERHEAD_S, 2.18);
	/* both metric rows keep the block's step */
	r = collected_find(&c, TP_METRIC, "Epoch 1: backward");
	GOLDEN_NUM(r, S_MET_STEP, 5);
	GOLDEN_NUM(r, S_MET_AVG_S, 0.0434);
	GOLDEN_NUM(collected_find(&c, TP_METRIC, "Epoch 1: forward"), S_MET_STEP, 5);
	collector_free(&c);
}

/* group 2: a line that is no speedup row does not stay in the block */
Test(issue12, speedup_block_does_not_swallow_the_next_block)
{
	struct collector c = { 0 };
	parse_str("SPEEDUP ANALYSIS\n"
		  "====\n"
		  "Baseline: KAN (150.00s)\n"
		  "MLP - Warmup Analysis:\n"
		  "----\n"
		  "  First epoch:         5.200s\n"
		  "  Steady state:        3.020s\n"
		  "----\n",
		  &c);
	cr_assert_eq(c.nwarn, 0, "%s", c.nwarn ? c.warnings[0] : "");
	GOLDEN_NUM(collected_find(&c, TP_WARMUP, "MLP"), S_WU_FIRST_S, 5.2);
	collector_free(&c);
}

/* group 3: "0.75x slower" is baseline/elapsed = 0.75; "2x slower" is 0.5 */
Test(issue12, slower_is_not_inverted)
{
	struct collector c = { 0 };
	parse_str("SPEEDUP ANALYSIS\n"
		  "====\n"
		  "Baseline: SIREN (90.00s)\n"
		  "----\n"
		  "MLP                 :  0.75x slower\n"
		  "KAN                 :  2.00x slower\n"
		  "====\n",
		  &c);
	GOLDEN_NUM(collected_find(&c, TP_SPEEDUP, "MLP"), S_SPD_FACTOR, 0.75);
	GOLDEN_NUM(collected_find(&c, TP_SPEEDUP, "KAN"), S_SPD_FACTOR, 0.5);
	collector_free(&c);
}

/* group 3: the same name in two blocks against other baselines: two rows */
Test(issue12, speedups_are_kept_per_block)
{
	struct an_model m;
	struct report rep;
	analyze_str("SPEEDUP ANALYSIS\n====\nBaseline: KAN (150.00s)\n----\n"
		    "MLP                 :  1.25x faster\n====\n"
		    "SPEEDUP ANALYSIS\n====\nBaseline: SIREN (90.00s)\n----\n"
		    "MLP                 :  0.75x slower\n====\n",
		    &m, &rep);
	const struct rtable *t = table(&rep, "speedup-printed", NULL);
	cr_assert_not_null(t);
	cr_assert_eq(t->nrows, 2);
	long a = golden_row(t, "name", "MLP", 0), b = golden_row(t, "name", "MLP", 1);
	cr_assert_float_eq(rt_cell(t, (size_t)a, (size_t)col(t, "printed"))->v, 1.25, 1e-9);
	cr_assert_str_eq(rt_cell(t, (size_t)a, (size_t)col(t, "baseline"))->s, "KAN");
	cr_assert_float_eq(rt_cell(t, (size_t)b, (size_t)col(t, "printed"))->v, 0.75, 1e-9);
	cr_assert_str_eq(rt_cell(t, (size_t)b, (size_t)col(t, "baseline"))->s, "SIREN");
	report_free(&rep);
	an_model_free(&m);
}

/* group 5: repeated rows are summed within a printing; a new printing replaces */
Test(issue12, perfsum_repeated_names)
{
	static const char once[] =
		"PERFORMANCE SUMMARY\n"
		"==========\n"
		"Operation                      Time (s)     CPU (MB)        GPU (MB)        GPU Peak    \n"
		"----------\n"
		"batch_forward                       1.000           +1.0           +2.0        10.0\n"
		"other                               1.000           +0.0           +0.0         1.0\n"
		"batch_forward                       3.000           +1.0           +2.0        30.0\n"
		"----------\n"
		"TOTAL                               5.000s\n"
		"==========\n";
	char twice[sizeof(once) * 2];
	snprintf(twice, sizeof(twice), "%s%s", once, once);
	for (int k = 0; k < 2; k++) {
		struct an_model m;
		struct report rep;
		analyze_str(k ? twice : once, &m, &rep);
		const struct rtable *t = table(&rep, "breakdown", "'PERFORMANCE SUMMARY'");
		cr_assert_not_null(t);
		cr_assert_float_eq(cell(t, "stage", "batch_forward", "seconds"), 4.0, 1e-9);
		cr_assert_float_eq(cell(t, "stage", "batch_forward", "share"), 80.0, 1e-9);
		cr_assert_null(finding(&rep, "inconsistent", NULL));
		cr_assert_null(finding(&rep, "unaccounted", NULL));
		report_free(&rep);
		an_model_free(&m);
	}
}

/* group 9: the banner, a negative warmup overhead, the conclusions */
Test(issue12, banner_and_negative_overhead_are_no_warnings)
{
	struct collector c = { 0 };
	parse_str("[2024-10-13 22:30:00] [TIMING] === TRAINING PIPELINE START ===\n"
		  "[2024-10-13 22:30:01] [TIMING] nothing readable here\n"
		  "SIREN - Warmup Analysis:\n"
		  "----\n"
		  "  First epoch:         2.900s\n"
		  "  Steady state:        3.100s\n"
		  "  Warmup overhead:    -0.200s ( -6.5%)\n"
		  "----\n",
		  &c);
	const struct tp_record *r = golden_nth(&c, TP_STAGE, 0);
	cr_assert_str_eq(r->name, "=== TRAINING PIPELINE START ===");
	cr_assert_str_eq(r->ts, "2024-10-13T22:30:00");
	GOLDEN_NUM(collected_find(&c, TP_WARMUP, "SIREN"), S_WU_OVERHEAD_S, -0.2);
	/* only the [TIMING] line without a duration is warned about */
	cr_assert_eq(c.nwarn, 1);
	cr_assert(strstr(c.warnings[0], "2: [TIMING] line without"), "%s", c.warnings[0]);
	collector_free(&c);

	struct collector d = { 0 };
	parse_str("WARM - Warmup Analysis:\n----\n  First epoch:        -1.000s\n----\n", &d);
	cr_assert_eq(d.nwarn, 1);
	cr_assert(strstr(d.warnings[0], "warmup first_s: negative value -1"), "%s", d.warnings[0]);
	collector_free(&d);
}
