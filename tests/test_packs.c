/*
 * test_packs.c - the format packs (the formats directory, compiled in) on their
 * golden logs (tests/data/packs/PACK.log, written by tests/gen-packs.sh
 * with each framework's own format strings): every pack loads, declares
 * its markers, and reads the known values into the fields that mean them.
 * Also the marker scanner against a plain search, and the CLI switches
 * (--list-formats, --formats, --no-formats, --explain).
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "packtest.h"

/* The k-th batch record (from 0) has that index, duration and loss. */
static void expect_batch(const struct collector *c, size_t k, double index, double seconds, double loss)
{
	const struct tp_record *b = nth(c, TP_BATCH, k);
	EQ(num(b, S_BAT_INDEX), index);
	EQ(num(b, S_SECONDS), seconds);
	EQ(num(b, S_BAT_LOSS), loss);
}

Test(packs, every_pack_loads_with_markers_and_a_description)
{
	struct tp_rules *rs = all_packs();
	cr_assert_eq(tp_rules_groups(rs), tp_npacks);
	size_t nm;
	const struct tp_rmarker *m = tp_rules_markers(rs, &nm);
	for (size_t g = 0; g < tp_npacks; g++) {
		cr_expect_str_eq(tp_rules_group_name(rs, g), tp_packs[g].name,
				 "@format of %s differs from its file name", tp_packs[g].source);
		cr_expect_gt(strlen(tp_rules_group_desc(rs, g)), 0, "%s has no @describe", tp_packs[g].name);
		size_t k = 0;
		for (size_t i = 0; i < nm; i++)
			k += m[i].group == g;
		/* tqdm is gated by progress bars instead (its one rule is @bar) */
		if (strcmp(tp_packs[g].name, "tqdm"))
			cr_expect_gt(k, 0, "%s declares no @marker", tp_packs[g].name);
	}
	tp_rules_free(rs);
}

/* Every pack proves itself: its @sample lines give its @expect records
 * with every pack loaded, as a user's run would read them. A new pack is
 * its rules file alone: this test reads its samples. */
Test(packs, every_pack_carries_samples_that_give_its_expected_records)
{
	struct tp_rules *rs = all_packs();
	size_t n;
	const struct tp_rsample *v = tp_rules_samples(rs, &n);
	for (size_t g = 0; g < tp_npacks; g++) {
		size_t k = 0, e = 0;
		for (size_t i = 0; i < n; i++)
			if (v[i].group == g)
				k++, e += v[i].nexpect;
		cr_expect_gt(k, 0, "%s has no @sample", tp_packs[g].name);
		cr_expect_geq(e, k, "%s: a sample without @expect loaded", tp_packs[g].name);
	}
	struct strbuf err = STRBUF_INIT;
	cr_expect_eq(tp_rules_check_samples(rs, 1, &err), 0, "%s", err.buf ? err.buf : "");
	/* users' files only: the packs are skipped */
	cr_expect_eq(tp_rules_check_samples(rs, 0, &err), 0);
	strbuf_release(&err);
	tp_rules_free(rs);
}

/* A pack whose sample no longer gives what it says fails, naming the @expect line and the record. */
Test(packs, a_sample_that_differs_is_named_with_its_line)
{
	static const char text[] = "@format mine\n"
				   "@marker \"ms/iter\"\n"
				   "batch ^\\[train\\] iter (?<index>\\d+): loss (?<loss>[\\d.]+) (?<seconds>\\d+ ms)/iter$\n"
				   "@sample [train] iter 10: loss 8.6864 9240 ms/iter\n"
				   "@expect batch index=10 loss=8.6864 seconds=9.24\n"
				   "@sample [train] iter 20: loss 8.1 9300 ms/iter\n"
				   "@expect batch index=20 seconds=9.31\n"
				   "@sample [val] nothing to read\n"
				   "@expect nothing\n"
				   "@sample [train] iter 30: loss 8.0 9100 ms/iter\n"
				   "@expect nothing\n";
	struct strbuf err = STRBUF_INIT;
	struct tp_rules *rs = tp_rules_compile(text, sizeof(text) - 1, "mine.rules", &err);
	cr_assert_not_null(rs, "%s", err.buf ? err.buf : "");
	size_t n;
	const struct tp_rsample *v = tp_rules_samples(rs, &n);
	cr_assert_eq(n, 4);
	cr_expect_eq(v[0].lineno, 4);
	cr_expect_eq(v[0].expect[0].nkv, 3);
	cr_expect_eq(v[2].expect[0].type, -1);
	cr_expect_eq(tp_rules_check_samples(rs, 0, &err), 2, "%s", err.buf);
	cr_expect_not_null(strstr(err.buf, "mine.rules:7: @expect wants seconds=9.31; the @sample (line 6) gives "
					   "{\"type\":\"batch\""), "%s", err.buf);
	cr_expect_not_null(strstr(err.buf, "mine.rules:10: the @sample gives a record no @expect names"), "%s",
			   err.buf);
	cr_expect_null(strstr(err.buf, "mine.rules:4"), "the first sample holds: %s", err.buf);
	strbuf_release(&err);
	tp_rules_free(rs);
}

/* The loader refuses what cannot be checked, with file:line:col. */
Test(packs, sample_and_expect_syntax_errors)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "@expect batch index=1\n", "x.rules:1:1: @expect without an @sample before it" },
		{ "@sample a\n", "x.rules:1: @sample without @expect" },
		{ "@sample a\n@expect batch foo=1\n", "x.rules:2:15: batch has no field 'foo'" },
		{ "@sample a\n@expect widget\n", "x.rules:2:9: @expect wants a record type" },
		{ "@sample a\n@expect batch role=boss\n", "x.rules:2:20: 'boss' is not a role" },
		{ "@sample a\n@expect nothing\n@expect batch\n", "x.rules:3:9: @expect after @expect nothing" },
		{ "@sample a\n@expect batch index\n", "x.rules:2:15: @expect wants FIELD=VALUE" },
		{ "@sample a\n@expect timing name=\"open\n", "x.rules:2:21: unterminated" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct strbuf err = STRBUF_INIT;
		struct tp_rules *rs = tp_rules_compile(bad[i].text, strlen(bad[i].text), "x.rules", &err);
		cr_expect_null(rs, "%s", bad[i].text);
		cr_expect_not_null(err.buf ? strstr(err.buf, bad[i].msg) : NULL, "%s: got %s", bad[i].msg,
				   err.buf ? err.buf : "");
		tp_rules_free(rs);
		strbuf_release(&err);
	}
}

Test(packs, hf_trainer)
{
	struct collector c = { 0 };
	parse_pack_log("hf-trainer", &c);
	/* *_runtime: the Trainer's own report of a call, a row of its "train metrics", never a stage */
	EQ(num(nth(&c, TP_SUMMARY, 0), S_SECONDS), 12.3456);       /* eval_runtime in a log dict */
	EQ(num(nth(&c, TP_SUMMARY, 1), S_SECONDS), 1477.1115);     /* train_runtime */
	EQ(num(nth(&c, TP_SUMMARY, 2), S_SECONDS), 1477.1115);     /* quoted '1477.1115' */
	EQ(num(nth(&c, TP_SUMMARY, 3), S_SECONDS), 24 * 60 + 37.11); /* 0:24:37.11 */
	cr_expect_str_eq(nth(&c, TP_SUMMARY, 3)->ts, "2024-05-01T12:00:00.123");
	EQ(num(nth(&c, TP_SUMMARY, 4), S_SECONDS), 86401.5);       /* 1 day, 0:00:01.50 */
	cr_expect_str_eq(nth(&c, TP_SUMMARY, 1)->text ? nth(&c, TP_SUMMARY, 1)->text : "", "train metrics");
	cr_expect_eq(collected_count(&c, TP_TIMING), 0, "no *_runtime is a [TIMING] stage");
	const struct tp_record *r = named(&c, TP_RATE, "train_samples_per_second");
	EQ(num(r, S_RATE_VALUE), 16.248);
	cr_expect_str_eq(r->text, "samples/s");
	EQ(num(named(&c, TP_RATE, "train_tokens_per_second"), S_RATE_VALUE), 4567.8);
	/* transformers 5.x: every number quoted, an exponent, the dict padded */
	EQ(num(nth(&c, TP_SUMMARY, 5), S_SECONDS), 20350);
	EQ(num(named_nth(&c, TP_RATE, "train_steps_per_second", 1), S_RATE_VALUE), 0.061);
	size_t meta = 0;
	for (size_t i = 0; i < c.n; i++)
		meta += c.v[i].rec.type == TP_META && strncmp(c.v[i].rec.name, "log ", 4) != 0;
	cr_expect_eq(meta, 0, "metrics rows read as meta (the log's span aside)");
	collector_free(&c);
}

Test(packs, tqdm_final_rate_and_seconds_per_item)
{
	struct collector c = { 0 };
	parse_pack_log("tqdm", &c);
	cr_assert_eq(collected_count(&c, TP_RATE), 5, "one rate per finished bar, none for the bars at 37 and 90%%");
	EQ(num(nth(&c, TP_RATE, 0), S_RATE_VALUE), 1.67);
	EQ(num(nth(&c, TP_RATE, 1), S_RATE_VALUE), 1 / 3.20); /* 3.20s/it */
	cr_expect_str_eq(nth(&c, TP_RATE, 1)->text, "it/s");
	EQ(num(nth(&c, TP_RATE, 2), S_RATE_VALUE), 9583.41); /* datasets' unit " examples" */
	cr_expect_str_eq(nth(&c, TP_RATE, 2)->text, "examples/s");
	EQ(num(nth(&c, TP_RATE, 3), S_RATE_VALUE), 612000); /* unit_scale: 612kit/s */
	cr_expect_str_eq(nth(&c, TP_RATE, 3)->text, "it/s");
	EQ(num(nth(&c, TP_RATE, 4), S_RATE_VALUE), 1 / 3.38); /* a message glued after the redraw */
	cr_expect_eq(nth(&c, TP_RATE, 4)->line, 7);
	collector_free(&c);
}

Test(packs, lightning_simple_and_advanced)
{
	struct collector c = { 0 };
	parse_pack_log("lightning", &c);
	/* 2.x extended table */
	const struct tp_record *t = named(&c, TP_AGGREGATE, "Total");
	EQ(num(t, S_AGG_TOTAL_S), 64.068);
	EQ(num(t, S_AGG_COUNT), 6262);
	const struct tp_record *r = named(&c, TP_AGGREGATE, "run_training_epoch");
	EQ(num(r, S_AGG_MEAN_S), 31.69);
	EQ(num(r, S_AGG_COUNT), 2);
	EQ(num(r, S_AGG_TOTAL_S), 63.38);
	EQ(num(named(&c, TP_AGGREGATE, "run_training_batch"), S_AGG_COUNT), 3126);
	r = named(&c, TP_AGGREGATE, "[_TrainingEpochLoop].train_dataloader_next");
	EQ(num(r, S_AGG_MEAN_S), 1.2345e-05); /* f"{x:.5}" prints exponents */
	EQ(num(r, S_AGG_TOTAL_S), 9.876e-05);
	/* AdvancedProfiler: the name comes from the line before, " rank: 0" left out */
	EQ(num(named(&c, TP_TIMING, "run_training_epoch"), S_SECONDS), 63.38);
	EQ(num(named(&c, TP_TIMING, "[_TrainingEpochLoop].train_dataloader_next"), S_SECONDS), 6.729);
	/* extended=False: mean and total only */
	r = named(&c, TP_AGGREGATE, "[Strategy]SingleDeviceStrategy.test_step");
	EQ(num(r, S_AGG_MEAN_S), 0.0034567);
	EQ(num(r, S_AGG_TOTAL_S), 1.0818);
	cr_expect(!tp_has(r, S_AGG_COUNT));
	cr_expect_eq(collected_count(&c, TP_AGGREGATE), 7, "the pstats rows are no aggregates");
	/* cProfile's own dump, with no profiler report around it */
	EQ(num(named(&c, TP_TIMING, "cProfile"), S_SECONDS), 156.669);
	/* RichProgressBar: finished bars only */
	cr_assert_eq(collected_count(&c, TP_EPOCH), 3, "469/938 is not a finished epoch");
	EQ(num(nth(&c, TP_EPOCH, 0), S_SECONDS), 12); /* elapsed 0:00:12 */
	cr_expect_eq(named_count(&c, TP_RATE, "train"), 3);
	EQ(num(named(&c, TP_RATE, "train"), S_RATE_VALUE), 75.83);
	EQ(num(named(&c, TP_RATE, "Testing DataLoader 0"), S_RATE_VALUE), 250.41);
	EQ(num(named(&c, TP_TIMING, "Testing DataLoader 0 elapsed"), S_SECONDS), 1);
	EQ(num(named(&c, TP_RATE, "Validation"), S_RATE_VALUE), 2.32);
	EQ(num(named(&c, TP_TIMING, "Validation elapsed"), S_SECONDS), 3);
	/* drawn once, 80 columns wide, its cells wrapped under it */
	EQ(num(nth(&c, TP_EPOCH, 1), S_SECONDS), 48);
	EQ(num(named_nth(&c, TP_RATE, "train", 1), S_RATE_VALUE), 0.48);
	/* the remaining time wrapped onto the next line */
	EQ(num(nth(&c, TP_EPOCH, 2), S_SECONDS), 72);
	EQ(num(named_nth(&c, TP_RATE, "train", 2), S_RATE_VALUE), 83.10);
	cr_expect_eq(collected_count(&c, TP_TIMING), 5);
	collector_free(&c);
}

Test(packs, lightning_1x_rows_without_the_leading_bar)
{
	struct collector c = { 0 };
	parse_pack_log("lightning-1.x", &c);
	/* 1.0-1.2 rows without the leading "|", Total with calls "_" */
	const struct tp_record *t = named(&c, TP_AGGREGATE, "Total");
	EQ(num(t, S_AGG_TOTAL_S), 120.5);
	cr_expect(!tp_has(t, S_AGG_COUNT), "\"_\" is no count");
	const struct tp_record *r = named(&c, TP_AGGREGATE, "run_training_epoch");
	EQ(num(r, S_AGG_MEAN_S), 59.8);
	EQ(num(r, S_AGG_TOTAL_S), 119.6);
	EQ(num(named(&c, TP_AGGREGATE, "model_forward"), S_AGG_COUNT), 6252);
	cr_expect_eq(collected_count(&c, TP_AGGREGATE), 3);
	collector_free(&c);
}

Test(packs, megatron_iterations_and_timers)
{
	struct collector c = { 0 };
	parse_pack_log("megatron", &c);
	cr_assert_eq(collected_count(&c, TP_BATCH), 3);
	const struct tp_record *b = nth(&c, TP_BATCH, 1);
	EQ(num(b, S_BAT_INDEX), 2);
	EQ(num(b, S_SECONDS), 19.1328); /* 19132.8 ms */
	EQ(num(b, S_BAT_LOSS), 10.43862);
	cr_expect_str_eq(b->ts, "2025-08-01T07:19:32");
	const struct tp_record *r = nth(&c, TP_RATE, 2);
	EQ(num(r, S_RATE_VALUE), 113.5);
	cr_expect_str_eq(r->text, "TFLOP/s/GPU");
	const struct tp_record *t = named(&c, TP_RUNTIME, "forward-backward");
	EQ(num(t, S_RT_MIN_MS), 19100.12);
	EQ(num(t, S_RT_MAX_MS), 19100.45);
	EQ(num(named(&c, TP_RUNTIME, "optimizer"), S_RT_MAX_MS), 36.75);
	collector_free(&c);
}

/* Megatron-DeepSpeed's iteration line (samples per second, TFLOPs) and
 * the timers logged with log_option 'max' */
Test(packs, megatron_older_fields_and_max_timers)
{
	struct collector c = { 0 };
	parse_pack_log("megatron-variants", &c);
	cr_assert_eq(collected_count(&c, TP_BATCH), 3);
	/* print_datetime's milestones: time stamps for the wall */
	cr_assert_eq(collected_count(&c, TP_META), 2);
	cr_expect_str_eq(named(&c, TP_META, "after training is done")->ts, "2025-12-22T22:04:38");
	expect_batch(&c, 1, 200, 1.5224, 6.123452);
	const struct tp_record *r = named_nth(&c, TP_RATE, "samples per second", 1);
	EQ(num(r, S_RATE_VALUE), 332.09);
	cr_expect_str_eq(r->text, "samples/s");
	r = named_nth(&c, TP_RATE, "TFLOPs", 0);
	EQ(num(r, S_RATE_VALUE), 141.27);
	cr_expect_str_eq(r->text, "TFLOP/s/GPU");
	const struct tp_record *t = named(&c, TP_RUNTIME, "forward-backward");
	EQ(num(t, S_RT_MAX_MS), 1498.2);
	cr_expect(!tp_has(t, S_RT_MIN_MS), "max-only timers have no min");
	EQ(num(named(&c, TP_RUNTIME, "optimizer"), S_RT_MAX_MS), 12.34);
	/* "elapsed time per iteration (s):", behind torchrun --tee's prefix */
	expect_batch(&c, 2, 10, 35.8651, 13.32803);
	cr_expect_eq(nth(&c, TP_BATCH, 2)->rank, 3);
	EQ(num(named_nth(&c, TP_RATE, "samples per second", 2), S_RATE_VALUE), 28.551);
	EQ(num(named_nth(&c, TP_RATE, "TFLOPs", 2), S_RATE_VALUE), 199.03);
	collector_free(&c);
}

Test(packs, deepspeed_timers_throughput_and_flops_profiler)
{
	struct collector c = { 0 };
	parse_pack_log("deepspeed", &c);
	EQ(num(named(&c, TP_TIMING, "fwd_microstep"), S_SECONDS), 0.4123);
	EQ(num(named(&c, TP_TIMING, "bwd_microstep"), S_SECONDS), 0.8901);
	EQ(num(named(&c, TP_TIMING, "bwd_allreduce_microstep"), S_SECONDS), 0.04005);
	EQ(num(named(&c, TP_TIMING, "step_microstep"), S_SECONDS), 0.012);
	EQ(num(named(&c, TP_TIMING, "fwd"), S_SECONDS), 4.12302);
	EQ(num(named(&c, TP_TIMING, "step"), S_SECONDS), 0.12);
	EQ(num(named(&c, TP_TIMING, "forward_microstep"), S_SECONDS), 0.1011); /* "rank=0 time (ms)" */
	EQ(num(named(&c, TP_RATE, "RunningAvgSamplesPerSec"), S_RATE_VALUE), 31.54212345678901);
	EQ(num(named(&c, TP_RATE, "CurrSamplesPerSec"), S_RATE_VALUE), 32.1);
	EQ(num(named_nth(&c, TP_RATE, "CurrSamplesPerSec", 1), S_RATE_VALUE), 26.01); /* "0/10, ..." */
	/* the timer's line is a batch at its stamp: global_step, or the step count of "0/10" */
	cr_assert_eq(collected_count(&c, TP_BATCH), 2);
	EQ(num(nth(&c, TP_BATCH, 0), S_BAT_INDEX), 10);
	cr_expect(!tp_has(nth(&c, TP_BATCH, 0), S_SECONDS), "the timer prints no step duration");
	cr_expect_str_eq(nth(&c, TP_BATCH, 0)->ts, "2024-01-01T12:00:01.123");
	EQ(num(nth(&c, TP_BATCH, 1), S_BAT_INDEX), 10);
	/* the flops profiler summary */
	EQ(num(named(&c, TP_TIMING, "fwd latency"), S_SECONDS), 0.4123);
	EQ(num(named(&c, TP_TIMING, "bwd latency"), S_SECONDS), 0.8901);
	EQ(num(named(&c, TP_TIMING, "step latency"), S_SECONDS), 0.012);
	EQ(num(named(&c, TP_TIMING, "iter latency"), S_SECONDS), 1.31);
	EQ(num(named_nth(&c, TP_TIMING, "iter latency", 1), S_SECONDS), 456.7e-6);
	const struct tp_record *r = named(&c, TP_RATE, "fwd FLOPS per GPU");
	EQ(num(r, S_RATE_VALUE), 13.53e12);
	cr_expect_str_eq(r->text, "FLOP/s");
	EQ(num(named(&c, TP_RATE, "fwd+bwd FLOPS per GPU"), S_RATE_VALUE), 12.85e12);
	EQ(num(named(&c, TP_RATE, "FLOPS per GPU"), S_RATE_VALUE), 12.74e12);
	EQ(num(named(&c, TP_RATE, "samples/second"), S_RATE_VALUE), 97.38);
	EQ(num(named_nth(&c, TP_RATE, "samples/second", 1), S_RATE_VALUE), 123.45);
	EQ(num(named(&c, TP_RATE, "fwd FLOPS per device"), S_RATE_VALUE), 43.68e12);
	EQ(num(named_nth(&c, TP_TIMING, "fwd latency", 2), S_SECONDS), 9.34);
	/* a timer that did not run prints negative latencies and rates: none read */
	cr_expect_eq(named_count(&c, TP_TIMING, "bwd latency"), 1);
	cr_expect_eq(named_count(&c, TP_RATE, "FLOPS per GPU"), 1);
	cr_expect_eq(named_count(&c, TP_RATE, "samples/second"), 2);
	cr_expect_eq(collected_count(&c, TP_RUNTIME), 0, "latencies are timings, not runtimes");
	cr_expect_eq(collected_count(&c, TP_TIMING), 20, "per-module latencies are not the run's");
	collector_free(&c);
}

Test(packs, nanogpt)
{
	struct collector c = { 0 };
	parse_pack_log("nanogpt", &c);
	cr_assert_eq(collected_count(&c, TP_BATCH), 2);
	expect_batch(&c, 1, 10, 0.12345, 9.1234);
	/* the running MFU in percent, not a rate; its -100.00% placeholder is not kept */
	cr_assert_eq(collected_count(&c, TP_META), 1);
	const struct tp_record *m = named(&c, TP_META, "mfu");
	EQ(num(m, S_META_VALUE), 31.2);
	cr_expect_eq(m->line, 3);
	cr_expect_eq(collected_count(&c, TP_RATE), 0, "mfu is not a rate");
	collector_free(&c);
}

Test(packs, yolox)
{
	struct collector c = { 0 };
	parse_pack_log("yolox", &c);
	cr_assert_eq(collected_count(&c, TP_BATCH), 2);
	expect_batch(&c, 0, 10, 0.487, 10.7);
	expect_batch(&c, 1, 20, 0.191, 10.0);
	cr_expect_str_eq(nth(&c, TP_BATCH, 0)->ts, "2021-09-03T20:17:51.976");
	const struct tp_record *d = named_nth(&c, TP_TIMING, "data_time", 0);
	EQ(num(d, S_SECONDS), 0.002);
	cr_expect_eq(d->role, TP_ROLE_COMPONENT, "data_time is a part of the step");
	cr_expect_str_eq(d->parent, "step");
	collector_free(&c);
}

/* OLMo: the step line a batch at its time stamp, the speed monitor's
 * window rates below it (thousands separators, a step rate over 1/s) */
Test(packs, olmo)
{
	struct collector c = { 0 };
	parse_pack_log("olmo", &c);
	cr_assert_eq(collected_count(&c, TP_BATCH), 3);
	EQ(num(nth(&c, TP_BATCH, 1), S_BAT_INDEX), 2);
	cr_expect(!tp_has(nth(&c, TP_BATCH, 1), S_SECONDS), "the step line prints no duration");
	cr_expect_str_eq(nth(&c, TP_BATCH, 1)->ts, "2025-12-12T11:05:05.850");
	cr_assert_eq(collected_count(&c, TP_RATE), 4);
	const struct tp_record *r = named(&c, TP_RATE, "batches_per_second");
	EQ(num(r, S_RATE_VALUE), 0.2605);
	cr_expect_str_eq(r->text, "steps/s");
	EQ(num(named_nth(&c, TP_RATE, "batches_per_second", 1), S_RATE_VALUE), 4.075);
	EQ(num(named(&c, TP_RATE, "tokens_per_second"), S_RATE_VALUE), 68289);
	EQ(num(named_nth(&c, TP_RATE, "tokens_per_second", 1), S_RATE_VALUE), 1068170);
	collector_free(&c);
}

/* MXNet: the Speedometer's speed (both batch forms), fit's epoch time, the
 * examples' batch size; analyzed, batch / speed is the step */
Test(packs, mxnet)
{
	struct collector c = { 0 };
	parse_pack_log("mxnet", &c);
	cr_assert_eq(collected_count(&c, TP_RATE), 2);
	EQ(num(nth(&c, TP_RATE, 0), S_RATE_VALUE), 142.33);
	cr_expect_str_eq(nth(&c, TP_RATE, 0)->text, "samples/s");
	EQ(num(nth(&c, TP_RATE, 1), S_RATE_VALUE), 160); /* "Batch [20-40]" */
	cr_assert_eq(collected_count(&c, TP_EPOCH), 1);
	EQ(num(nth(&c, TP_EPOCH, 0), S_SECONDS), 140.990);
	EQ(num(named(&c, TP_META, "batch_size"), S_META_VALUE), 32);
	collector_free(&c);
	struct tu_result r = tu_run("$B/tprof-analyze -f json tests/data/packs/mxnet.log");
	cr_expect(strstr(r.out.buf, "\"step\":\"batch_size/Speed\",\"step_median\":0.2"), "%s", r.out.buf);
	tu_result_free(&r);
}

/* Home-grown loops' "batch time:0.3074, data time:0.0003": the batch and its
 * data wait; "batch_time=0.31s"; a word that only holds the key is none */
Test(packs, batch_time)
{
	struct collector c = { 0 };
	parse_pack_log("batch-time", &c);
	cr_assert_eq(collected_count(&c, TP_BATCH), 3);
	EQ(num(nth(&c, TP_BATCH, 1), S_SECONDS), 0.3074);
	EQ(num(nth(&c, TP_BATCH, 2), S_SECONDS), 0.31);
	cr_assert_eq(collected_count(&c, TP_TIMING), 2);
	const struct tp_record *d = named_nth(&c, TP_TIMING, "data time", 0);
	EQ(num(d, S_SECONDS), 1.6631);
	cr_expect_eq(d->role, TP_ROLE_COMPONENT);
	cr_expect_str_eq(d->parent, "step");
	collector_free(&c);
}

/* torchvision's MetricLogger: a training line's time (a mean of 20) is the
 * batch's and its data a part; an evaluation line's are running means;
 * each loop's Total time a phase inside the run's Training time; analyzed,
 * the evaluations' share of the wall is the top finding */
Test(packs, metriclogger)
{
	struct collector c = { 0 };
	parse_pack_log("metriclogger", &c);
	cr_assert_eq(collected_count(&c, TP_BATCH), 6, "training lines only");
	EQ(num(nth(&c, TP_BATCH, 1), S_BAT_INDEX), 50);
	EQ(num(nth(&c, TP_BATCH, 1), S_SECONDS), 0.5);
	EQ(num(nth(&c, TP_BATCH, 1), S_BAT_GPU_MB), 1928);
	const struct tp_record *d = named_nth(&c, TP_TIMING, "data", 0);
	EQ(num(d, S_SECONDS), 0.02);
	cr_expect_eq(d->role, TP_ROLE_COMPONENT);
	const struct tp_record *t = named_nth(&c, TP_TIMING, "evaluation time", 1);
	EQ(num(t, S_SECONDS), 0.2);
	cr_expect_eq(t->role, TP_ROLE_RUNNING);
	const struct tp_record *l = named_nth(&c, TP_TIMING, "training loops", 1);
	EQ(num(l, S_SECONDS), 50);
	cr_expect_eq(l->role, TP_ROLE_PHASE);
	cr_expect_str_eq(l->parent, "training time");
	EQ(num(named_nth(&c, TP_TIMING, "evaluation loops", 0), S_SECONDS), 10);
	EQ(num(named_nth(&c, TP_TIMING, "training per iteration", 0), S_SECONDS), 0.5);
	EQ(num(named_nth(&c, TP_TIMING, "training time", 0), S_SECONDS), 120);
	collector_free(&c);
	struct tu_result r = tu_run("$B/tprof-analyze -q -f json tests/data/packs/metriclogger.log");
	cr_expect(strstr(r.out.buf, "\"wall\":120,\"wall_from\":\"phases\""), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "\"kind\":\"evaluation\",\"finding\":\"evaluation ('evaluation loops') took 20 s, "
				    "16.7% of the wall"), "%s", r.out.buf);
	tu_result_free(&r);
}

/* The sixth unseen set's frameworks, on their real logs: PySlowFast's
 * json_stats, RLlib's result dumps and status, a TF1 Estimator's hooks,
 * JoeyNMT's reports, Chainer's ProgressBar and PrintReport; analyzed,
 * each run's step is the log's own (bench/unseen6-logs.tsv: 1.215, 1.327,
 * 1.4445, 0.348 and 0.3158 s), to the digits printed */
Test(packs, video_rl_estimator_and_nmt_logs)
{
	static const struct {
		const char *file, *step_from, *step;
	} logs[] = {
		{ "pyslowfast-meccano", "batch time (epochs' first steps apart)", "1.2152" },
		{ "rllib-shogi-dqn", "time_this_iter_s", "1.3268" },
		{ "tf-estimator-bert-similarity", "1/global_step", "1.4444" },
		{ "joeynmt-pcm-en", "step (time stamps)", "0.3481" },
		{ "chainermn-vgg-4gpu", "1/iterations", "0.3150" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(logs); i++) {
		struct tu_result r = tu_run("$B/tprof-analyze -q -f json tests/data/unseen6/%s.log", logs[i].file);
		char want[160];
		snprintf(want, sizeof(want), "\"step\":\"%s\",\"step_median\":%s", logs[i].step_from, logs[i].step);
		cr_expect(strstr(r.out.buf, want), "%s: %s in %.300s", logs[i].file, want, strstr(r.out.buf, "\"runs\""));
		tu_result_free(&r);
	}
	/* Chainer's PrintReport rows, read in a block its header opens: the
	 * last elapsed_time is the wall (32347.6 s) */
	struct tu_result r = tu_run("$B/tprof-analyze -q -f json tests/data/unseen6/chainermn-vgg-4gpu.log");
	cr_expect(strstr(r.out.buf, "\"wall\":32347.6,\"wall_from\":\"clock\""), "%.300s", strstr(r.out.buf, "\"runs\""));
	tu_result_free(&r);
	r = tu_run("$B/tprof-parse -q -c tests/data/unseen6/pyslowfast-meccano.log");
	cr_expect(strstr(r.out.buf, "batch      631\n"), "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-parse -q -t timing tests/data/unseen6/joeynmt-pcm-en.log");
	cr_expect(strstr(r.out.buf, "\"role\":\"phase\",\"name\":\"validation\",\"seconds\":90.9818}"), "%s", r.out.buf);
	tu_result_free(&r);
}

Test(packs, mmengine_and_mmcv)
{
	struct collector c = { 0 };
	parse_pack_log("mmengine", &c);
	cr_assert_eq(collected_count(&c, TP_BATCH), 5, "training lines only");
	const struct tp_record *b = nth(&c, TP_BATCH, 0);
	EQ(num(b, S_BAT_INDEX), 50);
	EQ(num(b, S_SECONDS), 0.4432);
	EQ(num(b, S_BAT_GPU_MB), 3456);
	EQ(num(b, S_BAT_LOSS), 1.2345);
	EQ(num(nth(&c, TP_BATCH, 1), S_BAT_INDEX), 200); /* Iter(train) */
	EQ(num(nth(&c, TP_BATCH, 2), S_SECONDS), 0.512); /* mmcv Epoch [1][50/1251] */
	EQ(num(nth(&c, TP_BATCH, 3), S_BAT_INDEX), 100); /* mmcv Iter [100/160000] */
	EQ(num(nth(&c, TP_BATCH, 3), S_BAT_LOSS), 1.2345);
	EQ(num(nth(&c, TP_BATCH, 4), S_SECONDS), 0.498); /* mmcv 0.x, lr: 0.02000 */
	EQ(num(named_nth(&c, TP_TIMING, "data_time", 2), S_SECONDS), 0.051);
	cr_expect_eq(named_count(&c, TP_TIMING, "data_time"), 5);
	EQ(num(named(&c, TP_TIMING, "val time"), S_SECONDS), 0.1201);
	EQ(num(named(&c, TP_TIMING, "val data_time"), S_SECONDS), 0.0021);
	EQ(num(named(&c, TP_TIMING, "val epoch mean time"), S_SECONDS), 0.1187);
	EQ(num(named(&c, TP_TIMING, "val epoch mean data_time"), S_SECONDS), 0.0025);
	EQ(num(named_nth(&c, TP_TIMING, "val time", 1), S_SECONDS), 0.082); /* Iter(val) */
	EQ(num(named(&c, TP_TIMING, "test epoch mean time"), S_SECONDS), 0.119);
	/* ProgressBar: only the full bar */
	cr_expect_eq(named_count(&c, TP_RATE, "progress"), 2);
	const struct tp_record *r = named(&c, TP_RATE, "progress");
	EQ(num(r, S_RATE_VALUE), 11.4);
	cr_expect_str_eq(r->text, "task/s");
	EQ(num(named(&c, TP_TIMING, "progress elapsed"), S_SECONDS), 44);
	EQ(num(named_nth(&c, TP_TIMING, "progress elapsed", 1), S_SECONDS), 244);
	collector_free(&c);
}

Test(packs, keras)
{
	struct collector c = { 0 };
	parse_pack_log("keras", &c);
	/* line 3 is an unfinished epoch (an ETA): no record */
	cr_assert_eq(collected_count(&c, TP_EPOCH), 8);
	cr_assert_eq(collected_count(&c, TP_TIMING), 7);
	EQ(num(nth(&c, TP_EPOCH, 0), S_SECONDS), 5);    /* Keras 2 verbose=1 */
	EQ(num(nth(&c, TP_TIMING, 0), S_SECONDS), 0.003);
	EQ(num(nth(&c, TP_EPOCH, 1), S_SECONDS), 7);    /* Keras 3 verbose=1, bold and coloured */
	EQ(num(nth(&c, TP_TIMING, 1), S_SECONDS), 0.004);
	cr_expect_eq(nth(&c, TP_EPOCH, 1)->line, 2);
	EQ(num(nth(&c, TP_EPOCH, 2), S_SECONDS), 6);    /* Keras 3 verbose=2 */
	EQ(num(nth(&c, TP_EPOCH, 3), S_SECONDS), 5);    /* tf.keras verbose=2: 5s/epoch, not "- 6s" */
	EQ(num(nth(&c, TP_TIMING, 3), S_SECONDS), 0.003);
	EQ(num(nth(&c, TP_TIMING, 4), S_SECONDS), 850e-6); /* 850us/step */
	EQ(num(nth(&c, TP_TIMING, 5), S_SECONDS), 83e-6);  /* 83us/sample */
	EQ(num(nth(&c, TP_EPOCH, 6), S_SECONDS), 0.412);   /* 412ms/epoch */
	EQ(num(nth(&c, TP_TIMING, 6), S_SECONDS), 0.006);
	EQ(num(nth(&c, TP_EPOCH, 7), S_SECONDS), 5);       /* Keras 2.0: no time per step */
	collector_free(&c);
}

Test(packs, nccl_tests_units_from_the_header)
{
	struct collector c = { 0 };
	parse_pack_log("nccl-tests", &c);
	EQ(num(named(&c, TP_TIMING, "out-of-place 8388608B"), S_SECONDS), 123.4e-6);
	EQ(num(named(&c, TP_TIMING, "in-place 8388608B"), S_SECONDS), 122.9e-6);
	EQ(num(named(&c, TP_RATE, "algbw out-of-place 8388608B"), S_RATE_VALUE), 67.98);
	EQ(num(named(&c, TP_RATE, "busbw out-of-place 8388608B"), S_RATE_VALUE), 127.46);
	EQ(num(named(&c, TP_RATE, "busbw in-place 8388608B"), S_RATE_VALUE), 127.96);
	EQ(num(named(&c, TP_TIMING, "in-place 8589934592B"), S_SECONDS), 0.034525); /* "%7.0f" */
	EQ(num(named_nth(&c, TP_RATE, "avg busbw", 0), S_RATE_VALUE), 297.303);
	/* nccl-tests 2.10: no root column, "error" as 2e-06 or N/A */
	EQ(num(named(&c, TP_TIMING, "out-of-place 1073741824B"), S_SECONDS), 0.079531);
	EQ(num(named(&c, TP_RATE, "busbw in-place 1073741824B"), S_RATE_VALUE), 26.63);
	EQ(num(named(&c, TP_TIMING, "in-place 1024B"), S_SECONDS), 42.48e-6);
	EQ(num(named(&c, TP_RATE, "algbw in-place 1024B"), S_RATE_VALUE), 0.02);
	EQ(num(named_nth(&c, TP_RATE, "avg busbw", 1), S_RATE_VALUE), 13.3125);
	cr_expect_eq(collected_count(&c, TP_TIMING), 8, "two timings per row, nothing from the headers");
	collector_free(&c);
}

Test(packs, llama_cpp)
{
	struct collector c = { 0 };
	parse_pack_log("llama-cpp", &c);
	/* March 2023: "%8.2f ms", "ms per run" */
	EQ(num(named_nth(&c, TP_TIMING, "load_time", 0), S_SECONDS), 1.23456);
	EQ(num(named(&c, TP_TIMING, "eval_time_per_run"), S_SECONDS), 0.08818);
	EQ(num(named_nth(&c, TP_TIMING, "total_time", 0), S_SECONDS), 13.7);
	/* llama_print_timings */
	EQ(num(named_nth(&c, TP_TIMING, "prompt_eval_time", 0), S_SECONDS), 0.12345);
	EQ(num(named_nth(&c, TP_TIMING, "prompt_eval_time_per_token", 0), S_SECONDS), 0.01029);
	EQ(num(named_nth(&c, TP_TIMING, "eval_time", 1), S_SECONDS), 2.34567);
	EQ(num(named_nth(&c, TP_RATE, "eval_time", 0), S_RATE_VALUE), 26.86);
	EQ(num(named_nth(&c, TP_TIMING, "total_time", 1), S_SECONDS), 2.60012);
	/* llama_perf_sampler_print, llama_perf_context_print */
	EQ(num(named(&c, TP_RATE, "sampling_time"), S_RATE_VALUE), 12190.48);
	EQ(num(named_nth(&c, TP_TIMING, "load_time", 2), S_SECONDS), 0.81234);
	EQ(num(named_nth(&c, TP_RATE, "eval_time", 1), S_RATE_VALUE), 102.87);
	/* common_perf_print behind the common log's "0.01.234.567 I " */
	EQ(num(named(&c, TP_TIMING, "samplers_time"), S_SECONDS), 0.0105);
	EQ(num(named(&c, TP_TIMING, "unaccounted_time"), S_SECONDS), 0.02);
	/* llama-bench: the model and the test label name the rate */
	EQ(num(named(&c, TP_RATE, "llama 7B Q4_0 pp512"), S_RATE_VALUE), 2345.67);
	EQ(num(named(&c, TP_RATE, "llama 7B Q4_0 pp512+tg128"), S_RATE_VALUE), 450.12);
	EQ(num(named(&c, TP_RATE, "qwen2 7B Q4_K - Medium pp512 @ d512"), S_RATE_VALUE), 6425.91);
	EQ(num(named(&c, TP_RATE, "llama 7B mostly Q4_0 tg 128"), S_RATE_VALUE), 131.42);
	EQ(num(named(&c, TP_TIMING, "sample_time_per_token"), S_SECONDS), 0.00036);
	EQ(num(named_nth(&c, TP_TIMING, "sample_time_per_token", 1), S_SECONDS), 0.00038); /* April 2023 */
	cr_expect_eq(collected_count(&c, TP_TIMING), 27, "graphs reused is a count, not a timing");
	collector_free(&c);
}

Test(packs, imagenet_example)
{
	struct collector c = { 0 };
	parse_pack_log("imagenet", &c);
	cr_assert_eq(collected_count(&c, TP_BATCH), 4);
	EQ(num(nth(&c, TP_BATCH, 1), S_BAT_INDEX), 11);
	EQ(num(nth(&c, TP_BATCH, 1), S_SECONDS), 0.345); /* not the average in parentheses */
	EQ(num(nth(&c, TP_BATCH, 1), S_BAT_LOSS), 6.9078);
	EQ(num(nth(&c, TP_BATCH, 2), S_SECONDS), 12.345); /* "Time 12.345 ( 1.456)" */
	EQ(num(nth(&c, TP_BATCH, 3), S_SECONDS), 0.12);   /* before 2019 */
	EQ(num(nth(&c, TP_BATCH, 3), S_BAT_LOSS), 2.1);
	EQ(num(named_nth(&c, TP_TIMING, "data", 1), S_SECONDS), 0.012);
	EQ(num(named_nth(&c, TP_TIMING, "test", 1), S_SECONDS), 0.21);
	EQ(num(named_nth(&c, TP_TIMING, "test", 2), S_SECONDS), 0.101);
	/* the running averages in parentheses, as running means */
	const struct tp_record *m = named_nth(&c, TP_TIMING, "time (mean)", 1);
	EQ(num(m, S_SECONDS), 0.456);
	cr_expect_eq(m->role, TP_ROLE_RUNNING);
	EQ(num(named_nth(&c, TP_TIMING, "data (mean)", 1), S_SECONDS), 0.013);
	EQ(num(named_nth(&c, TP_TIMING, "test (mean)", 1), S_SECONDS), 0.25);
	cr_expect_eq(collected_count(&c, TP_TIMING), 18, "the ' *' summary holds no time");
	collector_free(&c);
}

Test(packs, detectron2_and_pycocotools_context)
{
	struct collector c = { 0 };
	parse_pack_log("detectron2", &c);
	cr_assert_eq(collected_count(&c, TP_BATCH), 2, "no batch without last_time");
	const struct tp_record *b = nth(&c, TP_BATCH, 0);
	EQ(num(b, S_BAT_INDEX), 19);
	EQ(num(b, S_SECONDS), 0.45); /* last_time, not the mean since the start */
	EQ(num(b, S_BAT_GPU_MB), 3456);
	EQ(num(b, S_BAT_LOSS), 2.123);
	EQ(num(nth(&c, TP_BATCH, 1), S_SECONDS), 0.4301);
	EQ(num(named(&c, TP_TIMING, "time (mean since start)"), S_SECONDS), 0.4567);
	EQ(num(named_nth(&c, TP_TIMING, "time (mean since start)", 2), S_SECONDS), 0.3001);
	EQ(num(named(&c, TP_TIMING, "data_time (mean of 20)"), S_SECONDS), 0.0123);
	EQ(num(named(&c, TP_TIMING, "last_data_time"), S_SECONDS), 0.01);
	EQ(num(named(&c, TP_TIMING, "training"), S_SECONDS), 9 * 3600 + 52 * 60 + 28);
	EQ(num(named(&c, TP_TIMING, "training per iteration"), S_SECONDS), 0.3951);
	EQ(num(named(&c, TP_TIMING, "total training"), S_SECONDS), 10 * 3600 + 2 * 60 + 13);
	EQ(num(named(&c, TP_TIMING, "hooks"), S_SECONDS), 9 * 60 + 45);
	EQ(num(named(&c, TP_TIMING, "inference"), S_SECONDS), 232.140625);
	EQ(num(named(&c, TP_TIMING, "inference per iteration"), S_SECONDS), 0.046474);
	EQ(num(named(&c, TP_TIMING, "inference pure compute"), S_SECONDS), 220);
	EQ(num(named(&c, TP_TIMING, "inference pure compute per iteration"), S_SECONDS), 0.044123);
	EQ(num(named_nth(&c, TP_TIMING, "inference per iteration", 1), S_SECONDS), 0.13); /* "s / img" */
	EQ(num(named(&c, TP_TIMING, "coco load results"), S_SECONDS), 2.38);
	EQ(num(named(&c, TP_TIMING, "coco evaluate"), S_SECONDS), 20.47); /* COCOeval_opt */
	EQ(num(named(&c, TP_TIMING, "coco accumulate"), S_SECONDS), 2.4);
	EQ(num(named(&c, TP_TIMING, "coco load annotations"), S_SECONDS), 0.81);
	EQ(num(named_nth(&c, TP_TIMING, "coco evaluate", 1), S_SECONDS), 7.07);
	EQ(num(named_nth(&c, TP_TIMING, "coco accumulate", 1), S_SECONDS), 1.23);
	EQ(num(named_nth(&c, TP_TIMING, "training", 1), S_SECONDS), 29 * 60 + 5); /* log.txt's "name INFO:" */
	/* the evaluator's progress: four means per line, averages of the inference */
	const struct tp_record *r = named(&c, TP_TIMING, "Inference per iteration");
	cr_assert_not_null(r);
	cr_expect_eq(r->role, TP_ROLE_AVERAGE);
	cr_expect(r->parent && r->parent_len == 9 && !memcmp(r->parent, "inference", 9));
	cr_expect_gt(collected_count(&c, TP_TIMING), 26, "'Inference done' averages are read");
	collector_free(&c);
}

Test(packs, modded_nanogpt)
{
	struct collector c = { 0 };
	parse_pack_log("modded-nanogpt", &c);
	cr_assert_eq(collected_count(&c, TP_METRIC), 5);
	const struct tp_record *m = nth(&c, TP_METRIC, 1);
	EQ(num(m, S_MET_STEP), 20);
	EQ(num(m, S_MET_TOTAL_S), 2.468);
	EQ(num(m, S_MET_AVG_S), 0.1234);
	EQ(num(nth(&c, TP_METRIC, 2), S_MET_TOTAL_S), 0); /* step 0's validation */
	EQ(num(nth(&c, TP_METRIC, 3), S_MET_AVG_S), 0.15234); /* train_loss: before train_time */
	m = nth(&c, TP_METRIC, 4); /* 2024: train_time in seconds on validations */
	EQ(num(m, S_MET_STEP), 250);
	EQ(num(m, S_MET_TOTAL_S), 30.123);
	EQ(num(m, S_MET_AVG_S), 0.12551);
	collector_free(&c);
}

Test(packs, ollama_go_durations)
{
	struct collector c = { 0 };
	parse_pack_log("ollama", &c);
	EQ(num(named(&c, TP_TIMING, "total_duration"), S_SECONDS), 128.77); /* 2m8.77s */
	EQ(num(named(&c, TP_TIMING, "load_duration"), S_SECONDS), 0.0680198);
	EQ(num(named(&c, TP_TIMING, "eval_duration"), S_SECONDS), 2.345);
	EQ(num(named(&c, TP_RATE, "eval_rate"), S_RATE_VALUE), 26.86);
	EQ(num(named(&c, TP_RATE, "prompt_eval_rate"), S_RATE_VALUE), 97.21);
	EQ(num(named_nth(&c, TP_TIMING, "total_duration", 1), S_SECONDS), 5.123456789);
	EQ(num(named_nth(&c, TP_TIMING, "prompt_eval_duration", 1), S_SECONDS), 512.345e-6); /* µs */
	cr_expect_eq(collected_count(&c, TP_RUNTIME), 0, "read by the pack, not as 'Label: N ms' runtimes");
	collector_free(&c);
}

/* fastai's epoch table as fastprogress prints it to a log file: each row's
 * time (mm:ss, h:mm:ss from an hour) a training phase under the header's
 * "time" column, wherever it stands; v1's table without one, then its
 * total. Analyzed, the epochs stand for the steps (no finer time). */
Test(packs, fastai)
{
	struct collector c = { 0 };
	parse_pack_log("fastai", &c);
	cr_assert_eq(named_count(&c, TP_TIMING, "epoch"), 3);
	EQ(num(named_nth(&c, TP_TIMING, "epoch", 0), S_SECONDS), 95);
	EQ(num(named_nth(&c, TP_TIMING, "epoch", 2), S_SECONDS), 3725);
	cr_expect_eq(named_nth(&c, TP_TIMING, "epoch", 1)->line, 4);
	cr_expect_eq(named_nth(&c, TP_TIMING, "epoch", 0)->role, TP_ROLE_PHASE);
	EQ(num(named(&c, TP_TIMING, "fit (Total time)"), S_SECONDS), 178);
	cr_assert_eq(collected_count(&c, TP_TIMING), 4);
	collector_free(&c);
	struct tu_result r = tu_run("$B/tprof-parse -c tests/data/packs/fastai.log");
	cr_expect(r.status == 0 && !strstr(r.err.buf, "warning"), "%s", r.err.buf);
	tu_result_free(&r);
}

/* Sockeye's Speedometer (1.x and 3.x) and checkpoint lines as its code
 * prints them behind its logger's "[date:time:LEVEL:logger:function]":
 * the stamp, the batch index, three rates, the checkpoint's Time-cost a
 * training phase (its name holds no "checkpoint") and its rate */
Test(packs, sockeye)
{
	struct collector c = { 0 };
	parse_pack_log("sockeye", &c);
	cr_assert_eq(collected_count(&c, TP_BATCH), 3);
	EQ(num(nth(&c, TP_BATCH, 1), S_BAT_INDEX), 100);
	cr_expect_str_eq(nth(&c, TP_BATCH, 1)->ts, "2018-08-28T13:02:00");
	EQ(num(nth(&c, TP_BATCH, 2), S_BAT_INDEX), 200);
	EQ(num(named(&c, TP_RATE, "samples"), S_RATE_VALUE), 256);
	EQ(num(named(&c, TP_RATE, "tokens"), S_RATE_VALUE), 5120.5);
	EQ(num(named_nth(&c, TP_RATE, "updates", 2), S_RATE_VALUE), 1.21);
	cr_expect_str_eq(named(&c, TP_RATE, "updates")->text, "steps/s");
	const struct tp_record *r = named(&c, TP_TIMING, "training (Time-cost)");
	EQ(num(r, S_SECONDS), 2000);
	cr_expect_eq(r->role, TP_ROLE_PHASE);
	EQ(num(named(&c, TP_RATE, "updates (Time-cost)"), S_RATE_VALUE), 2);
	cr_expect_eq(named_count(&c, TP_RATE, "samples"), 3);
	collector_free(&c);
	struct tu_result t = tu_run("$B/tprof-analyze -q -f json tests/data/packs/sockeye.log");
	cr_expect(strstr(t.out.buf, "\"step\":\"1/updates\",\"step_median\":0.5,"), "%.400s",
		  strstr(t.out.buf, "\"runs\""));
	tu_result_free(&t);
}

Test(packs, timm)
{
	struct collector c = { 0 };
	parse_pack_log("timm", &c);
	cr_assert_eq(collected_count(&c, TP_BATCH), 3);
	EQ(num(nth(&c, TP_BATCH, 1), S_BAT_INDEX), 50);
	EQ(num(nth(&c, TP_BATCH, 1), S_SECONDS), 0.345);
	EQ(num(nth(&c, TP_BATCH, 1), S_BAT_LOSS), 6.91);
	EQ(num(nth(&c, TP_BATCH, 2), S_BAT_LOSS), 5.12); /* CE and KD follow the loss */
	EQ(num(named_nth(&c, TP_RATE, "train", 1), S_RATE_VALUE), 742.1);
	EQ(num(named_nth(&c, TP_TIMING, "data", 1), S_SECONDS), 0.012);
	cr_expect_eq(named_count(&c, TP_TIMING, "test"), 3);
	EQ(num(named_nth(&c, TP_TIMING, "test", 1), S_SECONDS), 0.103);
	EQ(num(named_nth(&c, TP_TIMING, "test", 2), S_SECONDS), 0.311); /* validate.py "0.311s (" */
	EQ(num(named(&c, TP_TIMING, "test (EMA)"), S_SECONDS), 0.101);
	collector_free(&c);
}

Test(packs, fairseq)
{
	struct collector c = { 0 };
	parse_pack_log("fairseq", &c);
	/* simple, end-of-epoch, json inner, json end-of-epoch, 0.9 simple and end-of-epoch, 1e+06 */
	static const double wps[] = { 12345.6, 12001.3, 12345.6, 12001.3, 23163, 23010, 1.23457e+06 };
	static const double wall[] = { 60, 305, 60, 305, 34, 372, 1.23457e+06 };
	/* a log interval's train_wall is inside its epoch's: two names, never added */
	static const double train_wall[] = { 45, 45, 28, 9 }, epochs[] = { 290, 290, 318 };
	cr_assert_eq(named_count(&c, TP_RATE, "wps"), 7);
	cr_assert_eq(named_count(&c, TP_TIMING, "wall"), 7);
	cr_assert_eq(named_count(&c, TP_TIMING, "train_wall"), 4);
	cr_assert_eq(named_count(&c, TP_TIMING, "train_wall (epochs)"), 3);
	for (size_t k = 0; k < 7; k++) {
		EQ(num(named_nth(&c, TP_RATE, "wps", k), S_RATE_VALUE), wps[k]);
		EQ(num(named_nth(&c, TP_TIMING, "wall", k), S_SECONDS), wall[k]);
		cr_expect_eq(named_nth(&c, TP_TIMING, "wall", k)->role, TP_ROLE_CLOCK);
	}
	for (size_t k = 0; k < 4; k++) {
		const struct tp_record *r = named_nth(&c, TP_TIMING, "train_wall", k);
		EQ(num(r, S_SECONDS), train_wall[k]);
		cr_expect_eq(r->role, TP_ROLE_PHASE);
		cr_expect_str_eq(r->parent, "train_wall (epochs)");
	}
	for (size_t k = 0; k < 3; k++)
		EQ(num(named_nth(&c, TP_TIMING, "train_wall (epochs)", k), S_SECONDS), epochs[k]);
	EQ(num(named(&c, TP_RATE, "ups"), S_RATE_VALUE), 3.4);
	cr_expect_str_eq(named(&c, TP_RATE, "ups")->text, "updates/s");
	/* an epoch's ups is a mean over the epoch, named apart from the intervals' */
	EQ(num(named(&c, TP_RATE, "ups (epochs)"), S_RATE_VALUE), 3.31);
	EQ(num(named_nth(&c, TP_RATE, "ups (epochs)", 1), S_RATE_VALUE), 3.31); /* "train_ups": "3.31" */
	cr_expect_eq(named(&c, TP_RATE, "ups (epochs)")->role, TP_ROLE_AVERAGE);
	cr_expect_eq(named_count(&c, TP_RATE, "ups"), 4, "the log intervals' ups alone");
	cr_expect_eq(named_count(&c, TP_RATE, "valid wps"), 2, "the 0.9 valid line prints no wps");
	EQ(num(named_nth(&c, TP_RATE, "valid wps", 1), S_RATE_VALUE), 57640.1);
	EQ(num(named(&c, TP_RATE, "test wps"), S_RATE_VALUE), 15479.1);      /* "test_wps": "15479.1" */
	EQ(num(named_nth(&c, TP_RATE, "test wps", 1), S_RATE_VALUE), 56001.2); /* valid on 'test' subset */
	collector_free(&c);
}

/* ---- the marker scanner ---------------------------------------------------- */

static int plain_has(const char *s, size_t n, const struct tp_rmarker *m)
{
	return memmem(s, n, m->lit, m->len) != NULL;
}

Test(packs, marker_scan_agrees_with_a_plain_search)
{
	struct tp_rules *rs = all_packs();
	size_t nm;
	const struct tp_rmarker *m = tp_rules_markers(rs, &nm);
	struct tp_gate *ms = tp_gate_new(m, nm);
	char buf[300];
	unsigned seed = 12345;
	for (int iter = 0; iter < 20000; iter++) {
		size_t n = (size_t)(rand_r(&seed) % 200);
		for (size_t i = 0; i < n; i++)
			buf[i] = "ab _:( )=|\tT"[rand_r(&seed) % 12];
		/* plant a marker at a random place, often near the ends */
		const struct tp_rmarker *pm = &m[(size_t)rand_r(&seed) % nm];
		if (n >= pm->len && rand_r(&seed) % 2) {
			size_t at = rand_r(&seed) % 3 == 0 ? n - pm->len : (size_t)rand_r(&seed) % (n - pm->len + 1);
			memcpy(buf + at, pm->lit, pm->len);
		}
		uint64_t got[2] = { 0, 0 }, want[2] = { 0, 0 };
		tp_gate_scan(ms, buf, n, got);
		for (size_t i = 0; i < nm; i++)
			if (plain_has(buf, n, &m[i]))
				want[m[i].group / 64] |= (uint64_t)1 << (m[i].group % 64);
		cr_assert(got[0] == want[0] && got[1] == want[1], "length %zu: %llx != %llx", n,
			  (unsigned long long)got[0], (unsigned long long)want[0]);
	}
	tp_gate_free(ms);
	tp_rules_free(rs);
}

/* Can this machine run the Teddy matcher (an x86 CPU with AVX2)? */
static int tu_have_teddy(void)
{
	struct strbuf err = STRBUF_INIT;
	struct tp_scanner *sc = tp_scanner_new(&tp_builtin_markers, 1, TP_SCAN_TEDDY, &err);
	strbuf_release(&err);
	tp_scanner_free(sc);
	return sc != NULL;
}

static void assert_same_records(const struct collector *a, const struct collector *b, const char *what)
{
	cr_assert_eq(a->n, b->n, "%s: %zu records, plain %zu", what, a->n, b->n);
	cr_assert_eq(a->nwarn, b->nwarn, "%s: warnings", what);
	for (size_t i = 0; i < a->n; i++) {
		const struct collected *x = &a->v[i], *y = &b->v[i];
		cr_assert_eq(x->rec.type, y->rec.type, "%s: record %zu", what, i);
		cr_assert_eq(x->rec.line, y->rec.line, "%s: record %zu", what, i);
		cr_assert_str_eq(x->name ? x->name : "", y->name ? y->name : "", "%s: record %zu", what, i);
		for (int k = 0; k < TP_NUM_SLOTS; k++)
			cr_assert(tp_has(&x->rec, k) == tp_has(&y->rec, k) &&
					  (!tp_has(&x->rec, k) || x->rec.num[k] == y->rec.num[k]),
				  "%s: record %zu slot %d", what, i, k);
	}
}

/*
 * The candidate search tells the packs' gate which lines hold none of their
 * markers (Vectorscan's hits of the second marker set), so that the gate
 * does not look again: every pack log, and pack lines beside the built-in
 * readers' lines (the same line, the next, a long run of lines), read the
 * same records through it as plainly.
 */
Test(packs, the_candidate_search_reads_what_the_plain_path_reads)
{
	struct strbuf all = STRBUF_INIT;
	/* the first TP_CONFIG_LINES lines are all read plainly: the search starts after */
	for (int i = 0; i < TP_CONFIG_LINES + 3000; i++) {
		strbuf_addf(&all, "  Batch %d: 0.%03ds, GPU 10.0MB, CPU 20.0MB, loss=0.5\n", i, 100 + i % 50);
		if (i % 7 == 0 && i > TP_CONFIG_LINES)
			strbuf_addf(&all, "iter %d: loss 2.5000, time %d.50ms, mfu 31.20%%\n", i, 100 + i % 9);
		if (i % 11 == 0 && i > TP_CONFIG_LINES) /* a pack marker on a line a built-in marker made a candidate */
			strbuf_addf(&all, "[TIMING] step %d: 0.5s step_avg:12.5ms\n", i);
		if (i % 13 == 0 && i > TP_CONFIG_LINES) /* redraws, unfinished and finished */
			strbuf_addf(&all, " 10%%|#         | 1/10 [00:01<00:09,  1.00it/s]\r%s\n",
				    i % 2 ? "100%|##########| 10/10 [00:10<00:00,  1.25it/s]" : " 50%|#####     | 5/10");
		if (i % 17 == 0 && i > TP_CONFIG_LINES) /* a finished bar the terminal wrapped */
			strbuf_addstr(&all, "100%|#########\n#| 10/10 [00:10<00:00,  2.50it/s]\n");
		if (i % 19 == 0 && i > TP_CONFIG_LINES) /* a built-in block opened by a line's end */
			strbuf_addstr(&all, "KAN Inference Benchmark:\n----------------------------------------\n"
					    "  Mean latency:        4.016 ms\n  Throughput:          249.0 samples/sec\n");
	}
	/* every pack's golden log where it has one, and the samples it carries */
	struct tp_rules *rs = all_packs();
	size_t nsm;
	const struct tp_rsample *sm = tp_rules_samples(rs, &nsm);
	for (size_t g = 0; g < tp_npacks; g++) {
		char path[256];
		snprintf(path, sizeof(path), "tests/data/packs/%s.log", tp_packs[g].name);
		if (access(path, R_OK) == 0)
			cr_assert_eq(tu_slurp(path, &all), 0, "cannot read %s", path);
		for (size_t i = 0; i < nsm; i++)
			if (sm[i].group == g)
				strbuf_add(&all, sm[i].text, sm[i].len);
	}
	tp_rules_free(rs);
	static const char *const backends[] = { "vectorscan", "teddy", "teddy-avx2", "portable" };
	struct collector plain = { 0 };
	parse_packs_with("mixed.log", all.buf, all.len, NULL, &plain);
	/* a pack's block ends: the built-in readers get the lines after it */
	cr_assert_gt(plain.n, TP_CONFIG_LINES + 3000, "%zu records", plain.n);
	for (size_t b = 0; b < ARRAY_SIZE(backends); b++) {
		struct strbuf err = STRBUF_INIT;
		struct tp_scanner *vs = tp_scanner_new(&tp_builtin_markers, 1, TP_SCAN_VECTORSCAN, &err);
		strbuf_release(&err);
		tp_scanner_free(vs);
		if (!vs && !strcmp(backends[b], "vectorscan"))
			continue; /* built without Vectorscan */
		if (!strncmp(backends[b], "teddy", 5) && !tu_have_teddy())
			continue; /* not an x86 CPU with AVX2 */
		struct collector c = { 0 };
		parse_packs_with("mixed.log", all.buf, all.len, backends[b], &c);
		assert_same_records(&c, &plain, backends[b]);
		collector_free(&c);
	}
	collector_free(&plain);
	strbuf_release(&all);
}

/*
 * A line that a built-in marker makes a candidate (a colour escape at its
 * start) and whose pack marker comes later, at every alignment to the
 * search's 64-byte blocks and across them: Teddy follows the listed line
 * to its end for the packs' markers, or the gate would never see it.
 */
Test(packs, a_pack_marker_after_a_built_in_one_is_seen_at_every_alignment)
{
	if (!tu_have_teddy())
		return; /* not an x86 CPU with AVX2 */
	struct strbuf all = STRBUF_INIT;
	for (int i = 0; i < TP_CONFIG_LINES; i++)
		strbuf_addstr(&all, "noise\n");
	int lines = 0;
	for (int pad = 0; pad < 140; pad++, lines++) {
		strbuf_addf(&all, "%.*s\n", pad, "................................................................"
						      "................................................................"
						      "................");
		strbuf_addf(&all, "\x1b[32m%*sEpoch: [0][%4d/5005]\tTime  0.%03d ( 0.456)\tData  0.012 ( 0.013)\n",
			    pad % 70, "", pad + 1, 100 + pad);
	}
	struct collector plain = { 0 };
	parse_packs_with("aligned.log", all.buf, all.len, NULL, &plain);
	size_t batches = 0;
	for (size_t i = 0; i < plain.n; i++)
		batches += plain.v[i].rec.type == TP_BATCH;
	cr_assert_eq(batches, (size_t)lines, "%zu batch records of %d lines", batches, lines);
	static const char *const kinds[] = { "teddy", "teddy-avx2" };
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		struct collector fast = { 0 };
		parse_packs_with("aligned.log", all.buf, all.len, kinds[k], &fast);
		assert_same_records(&fast, &plain, kinds[k]);
		collector_free(&fast);
	}
	collector_free(&plain);
	strbuf_release(&all);
}

/* ---- the command line -------------------------------------------------------- */

Test(packs, cli_list_select_and_disable)
{
	struct tu_result r = tu_run("$B/tprof-parse --list-formats");
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out.buf, "megatron") && strstr(r.out.buf, "\"elapsed time per iteration (ms)\""),
		  "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-parse -c tests/data/packs/megatron.log");
	cr_expect(strstr(r.out.buf, "batch      3\n"), "%s", r.out.buf);
	tu_result_free(&r);
	/* without the pack (and discovery) only the log's span is read ("log
	 * start", "log end"); discovery alone reads its three iterations'
	 * times, their unit in brackets, and rates */
	r = tu_run("$B/tprof-parse -c --no-formats --no-discovery tests/data/packs/megatron.log");
	cr_expect(strstr(r.out.buf, "meta       2\n") && strstr(r.out.buf, "total      2\n"), "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-parse -c --formats=nanogpt --no-discovery tests/data/packs/megatron.log");
	cr_expect(strstr(r.out.buf, "meta       2\n") && strstr(r.out.buf, "total      2\n"), "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-parse -c --no-formats tests/data/packs/megatron.log");
	cr_expect(strstr(r.out.buf, "timing     3\n"), "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-parse -c --formats=nanogpt,megatron tests/data/packs/megatron.log");
	cr_expect(strstr(r.out.buf, "batch      3\n"), "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-parse --formats=nope tests/data/packs/megatron.log");
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err.buf, "unknown format 'nope'"), "%s", r.err.buf);
	tu_result_free(&r);
}

/*
 * tprof-analyze, tprof-plot and tprof-history read raw logs with the packs
 * too, and take --formats and --no-formats as tprof-parse does. (These
 * options once shared their keys with --breakdown and --bottlenecks of
 * tprof-analyze and with the first charts of tprof-plot: --no-formats
 * selected an analysis and the packs stayed on.)
 */
Test(packs, cli_formats_options_in_every_reading_tool)
{
	struct tu_result r = tu_run("$B/tprof-analyze -f json tests/data/packs/megatron.log");
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out.buf, "\"step\":\"batch time\",\"step_median\":19.1328,") &&
			  strstr(r.out.buf, "\"steps\":3,"),
		  "%s", r.out.buf);
	tu_result_free(&r);
	/* without the pack, discovery reads the line's "elapsed time per
	 * iteration (ms): 19131.8" (its unit in brackets), under its words */
	r = tu_run("$B/tprof-analyze --no-formats -f json tests/data/packs/megatron.log");
	cr_expect(strstr(r.out.buf, "\"step\":\"elapsed time per iteration\",\"step_median\":19.1328,") &&
			  !strstr(r.out.buf, "\"batch time\""),
		  "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-analyze --formats=nanogpt -f json tests/data/packs/megatron.log");
	cr_expect(strstr(r.out.buf, "\"step\":\"elapsed time per iteration\"") && !strstr(r.out.buf, "\"batch time\""),
		  "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-analyze --formats=megatron -f json tests/data/packs/megatron.log");
	cr_expect(strstr(r.out.buf, "\"step\":\"batch time\""), "%s", r.out.buf);
	tu_result_free(&r);
	static const char *const cmds[] = {
		"$B/tprof-analyze --formats=nope tests/data/packs/megatron.log",
		"$B/tprof-plot --formats=nope -o never-written.svg tests/data/packs/megatron.log",
		"$B/tprof-history --db :memory: --formats=nope add tests/data/packs/megatron.log",
	};
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		r = tu_run("%s", cmds[i]);
		cr_expect_eq(r.status, 2, "%s: %d", cmds[i], r.status);
		cr_expect(strstr(r.err.buf, "unknown format 'nope'"), "%s: %s", cmds[i], r.err.buf);
		tu_result_free(&r);
	}
	/* without the pack, discovery reads the log's times, and the pack's
	 * batch time is no series of the run stored */
	char *dir = tu_tmpdir("packs-history");
	cr_assert_not_null(dir);
	r = tu_run("$B/tprof-history --db %s/a.db --no-formats add tests/data/packs/megatron.log && "
		   "$B/tprof-history --db %s/a.db series",
		   dir, dir);
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(!strstr(r.out.buf, "batch time"), "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-history --db %s/b.db --formats=megatron add tests/data/packs/megatron.log && "
		   "$B/tprof-history --db %s/b.db series",
		   dir, dir);
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.out.buf, "batch time"), "%s", r.out.buf);
	tu_result_free(&r);
	tu_rmtree(dir);
}

Test(packs, cli_explain_names_the_rule)
{
	struct tu_result r = tu_run("$B/tprof-parse --explain tests/data/packs/nanogpt.log");
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out.buf, "nanogpt.log:1: - step 0: train loss"), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "nanogpt.log:3: formats/06-nanogpt.rules:"), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "\"index\":10"), "%s", r.out.buf);
	tu_result_free(&r);
}

/* ---- what analyze does with what the packs read -------------------------------- */

Test(packs, analyze_uses_rates_iterations_and_profiler_tables)
{
	struct tu_result r = tu_run("$B/tprof-analyze tests/data/packs/megatron.log");
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.out.buf, "throughput per GPU (mean of 3 printed"), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "112.5  TFLOP/s/GPU"), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "batch time 19.1 s"), "per-iteration times are the run's steps: %s", r.out.buf);
	cr_expect(strstr(r.out.buf, "batch time  s     3  19.13"), "per-iteration times feed variance: %s",
		  r.out.buf);
	tu_result_free(&r);
	/* Lightning's SimpleProfiler rows nest: the epochs, the batch (the
	 * step) and its parts say what they are, and only the other rows
	 * (hooks, callbacks) are a profiler table, as shares of the Total */
	r = tu_run("COLUMNS=100 $B/tprof-analyze tests/data/packs/lightning.log");
	cr_expect(strstr(r.out.buf, "run_training_batch 0.0123 s"), "the batch is the step: %s", r.out.buf);
	const char *tab = strstr(r.out.buf, "the profiler table of tests/data/packs/lightning.log");
	cr_expect(tab, "%s", r.out.buf);
	cr_expect(tab && !strstr(tab, "run_training_epoch "), "no epoch among the table's rows: %s", r.out.buf);
	cr_expect(!strstr(r.out.buf, "BOTTLENECK: 'run_training"), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "'[LightningModule]BoringModel.optimizer_step' is 44.2% of each step"), "%s",
		  r.out.buf);
	tu_result_free(&r);
}

Test(packs, analyze_compares_rates_lower_is_slower)
{
	char *dir = tu_tmpdir("rates");
	cr_assert_not_null(dir);
	struct tu_result r = tu_run(
		"for i in 1 2 3 4 5 6; do printf \"{'train_samples_per_second': 10$i.5, 'epoch': 1.0}\\n\"; done > %s/a.log && "
		"for i in 1 2 3 4 5 6; do printf \"{'train_samples_per_second': 8$i.5, 'epoch': 1.0}\\n\"; done > %s/b.log && "
		"$B/tprof-analyze --compare %s/a.log %s/b.log", dir, dir, dir, dir);
	/* 84 samples/s against 104: the ratio of rates 0.808, which makes b the slower run, 1.238x */
	const char *row = strstr(r.out.buf, "rate train_samples_per_second  samples/s");
	cr_assert(row, "%s", r.out.buf);
	const char *eol = strchr(row, '\n');
	char line[400];
	snprintf(line, sizeof(line), "%.*s", (int)(eol ? eol - row : 300), row);
	cr_expect(strstr(line, "0.808") && strstr(line, "-19.2") && strstr(line, "0.005") &&
		  strstr(line, "slower (significant)"), "%s", line);
	cr_expect(strstr(r.out.buf, "1.238        23.8           slower overall"), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "is 23.8% slower than"), "%s", r.out.buf);
	tu_result_free(&r);
	tu_rmtree(dir);
}

/* PyTorch 2.x (and 1.8 on) key_averages().table(): every cell of a row in
 * one record, by its heading; a range's GPU row and a kernel are the
 * device's; the totals are summary rows a later table replaces. */
Test(packs, torch_profiler_2x_every_column)
{
	struct collector c = { 0 };
	parse_pack_log("torch-profiler", &c);
	expect_cpu(&c, "aten::conv2d", 0, 0.25, 43e-6, 64.83, 0.011077, 553.850e-6);
	EQ(num(named_nth(&c, TP_AGGREGATE, "aten::conv2d", 0), S_AGG_COUNT), 20);
	expect_cpu(&c, "aten::batch_norm", 0, -0.05, -31e-6, 21.39, 0.003655, 182.750e-6);
	EQ(num(named_nth(&c, TP_AGGREGATE, "aten::batch_norm", 0), S_AGG_COUNT), 20); /* below zero, as printed */
	cr_expect(!tp_has(named(&c, TP_AGGREGATE, "aten::conv2d"), S_AGG_DEV_TOTAL_S), "a CPU-only table");
	/* the table with CUDA columns: a row's device side in the same record */
	expect_cpu(&c, "aten::conv2d", 2, 0.09, 43e-6, 11.45, 0.005475, 273.750e-6);
	EQ(num(named_nth(&c, TP_AGGREGATE, "aten::conv2d", 2), S_AGG_COUNT), 20);
	expect_device(&c, "aten::conv2d", 2, 0, 0, 0.008235, 411.750e-6); /* 0.000us is read */
	expect_device(&c, "cudaLaunchKernel", 0, 0, 0, 0, 0);
	/* with_function("model_inference"): its CPU row and its GPU row, which is the device's */
	expect_cpu(&c, "model_inference", 2, 2.41, 0.001152, 100, 0.047812, 0.047812);
	EQ(num(named_nth(&c, TP_AGGREGATE, "model_inference", 2), S_AGG_COUNT), 1);
	expect_device(&c, "model_inference", 2, 0, 0, 0.011666, 0.011666);
	expect_cpu(&c, "model_inference (device)", 0, 0, 0, 0, 0, 0);
	EQ(num(named_nth(&c, TP_AGGREGATE, "model_inference (device)", 0), S_AGG_COUNT), 1);
	expect_device(&c, "model_inference (device)", 0, 0.012519, 107.31, 0.012519, 0.012519);
	expect_device(&c, "sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f3... (device)", 0, 0.006245, 53.53,
		      0.006245, 312.250e-6);
	cr_expect_null(collected_find(&c, TP_AGGREGATE, "sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f3..."),
		       "a kernel is the device's");
	/* profile_memory: memory columns are not times */
	expect_cpu(&c, "aten::empty", 0, 3.95, 160e-6, 3.95, 160e-6, 1.739e-6);
	EQ(num(named_nth(&c, TP_AGGREGATE, "aten::empty", 0), S_AGG_COUNT), 92);
	cr_expect_eq(collected_count(&c, TP_AGGREGATE), 11);
	/* the totals: a section per device */
	const struct tp_record *t = named_nth(&c, TP_SUMMARY, "self CPU time total", 2);
	EQ(num(t, S_SECONDS), 0.047812);
	cr_expect_str_eq(t->text, "torch.profiler CPU");
	t = named(&c, TP_SUMMARY, "self CUDA time total");
	EQ(num(t, S_SECONDS), 0.011666);
	cr_expect_str_eq(t->text, "torch.profiler CUDA");
	cr_expect_eq(collected_count(&c, TP_SUMMARY), 5);
	cr_expect_eq(collected_count(&c, TP_TIMING) + collected_count(&c, TP_RUNTIME), 0, "read by the pack alone");
	collector_free(&c);
}

/* PyTorch 1.0-1.7: names left-aligned, "Self CPU total %", "CUDA total %",
 * "Number of Calls", and "CUDA time total:" after the table. */
Test(packs, torch_profiler_1x_headings)
{
	struct collector c = { 0 };
	parse_pack_log("torch-profiler-1.x", &c);
	expect_cpu(&c, "matmul", 0, 7.60, 0.003024, 7.60, 0.003024, 0.003024);
	EQ(num(named_nth(&c, TP_AGGREGATE, "matmul", 0), S_AGG_COUNT), 1);
	const struct tp_record *r = named(&c, TP_AGGREGATE, "matmul");
	EQ(num(r, S_AGG_DEV_TOTAL_PCT), 19.20);
	EQ(num(r, S_AGG_DEV_TOTAL_S), 0.001912);
	EQ(num(r, S_AGG_DEV_MEAN_S), 0.001912);
	cr_expect(!tp_has(r, S_AGG_DEV_SELF_S), "1.x has no device self time");
	expect_cpu(&c, "to", 1, 7.43, 0.002958, 7.43, 0.002958, 0.002958);
	EQ(num(named_nth(&c, TP_AGGREGATE, "to", 1), S_AGG_COUNT), 1); /* events, not averages: names repeat */
	EQ(num(named(&c, TP_SUMMARY, "self CPU time total"), S_SECONDS), 0.039803);
	r = named(&c, TP_SUMMARY, "CUDA time total");
	EQ(num(r, S_SECONDS), 0.009958);
	cr_expect_str_eq(r->text, "torch.profiler CUDA");
	cr_expect_eq(collected_count(&c, TP_RUNTIME), 0, "not the built-in 'Label: N ms' reader's");
	cr_expect_eq(c.n, 5);
	collector_free(&c);
}

/* A second table of the same profile (sorted otherwise) replaces the
 * first: its CPU total, a phase of the run, counts once (17.087 ms), another
 * profile's is added (47.812 ms, 4.050 ms); the device's total, beside the
 * CPU's, is its section's row, and the rows are components, not phases. */
Test(packs, torch_profiler_tables_again_replace_not_add)
{
	struct collector c = { 0 };
	parse_pack_log("torch-profiler", &c);
	const struct tp_record *t = named_nth(&c, TP_SUMMARY, "self CPU time total", 0);
	cr_expect_eq(t->role, TP_ROLE_PHASE);
	cr_expect_eq(named(&c, TP_SUMMARY, "self CUDA time total")->role, TP_ROLE_NONE);
	t = named(&c, TP_AGGREGATE, "model_inference (device)");
	cr_expect_eq(t->role, TP_ROLE_COMPONENT);
	cr_expect_eq(t->parent_len, strlen("self CUDA time total"));
	cr_expect(t->parent && !memcmp(t->parent, "self CUDA time total", t->parent_len));
	collector_free(&c);
	struct tu_result r = tu_run("$B/tprof-analyze --breakdown tests/data/packs/torch-profiler.log");
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.out.buf, "wall 0.0689 s (the phases), in stages 0.0689 s"), "%s", r.out.buf);
	const char *p = strstr(r.out.buf, "Where the time went: the phases of the run");
	cr_assert(p, "%s", r.out.buf);
	cr_expect(strstr(p, "self CPU time total         0.07      100.0"), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "'torch.profiler CUDA'"), "%s", r.out.buf);
	tu_result_free(&r);
}

/* Measurement printouts: one runtime record each, named by the title (the
 * statement or label), the description as its case; and Compare tables,
 * whose unit comes in their footer. */
Test(packs, torch_benchmark_measurements_and_compare_tables)
{
	struct collector c = { 0 };
	parse_pack_log("torch-benchmark", &c);
	const struct tp_record *r = named(&c, TP_RUNTIME, "batched_dot_mul_sum(x, x)");
	EQ(num(r, S_RT_MEDIAN_MS), 0.37929); /* one measurement: no "Median:" */
	EQ(num(r, S_RT_RUNS), 1);
	cr_expect(!tp_has(r, S_RT_IQR_MS), "no IQR below 4 measurements");
	r = named(&c, TP_RUNTIME, "batched_dot_bmm(x, x)");
	EQ(num(r, S_RT_MEDIAN_MS), 0.00662);
	EQ(num(r, S_RT_IQR_MS), 0.00013);
	EQ(num(r, S_RT_Q1_MS), 0.00656);
	EQ(num(r, S_RT_Q3_MS), 0.00669);
	EQ(num(r, S_RT_RUNS), 26);
	/* a setup of several lines, indented: the statement still names it */
	EQ(num(named(&c, TP_RUNTIME, "x * y"), S_RT_MEDIAN_MS), 0.00234);
	EQ(num(named(&c, TP_RUNTIME, "GEMM Benchmark: PyTorch Native Matmul"), S_RT_Q3_MS), 4.21);
	r = named(&c, TP_RUNTIME, "naive_allpole");
	cr_expect_str_eq(r->text, "Naive All-Pole Filter");
	EQ(num(r, S_RT_MEDIAN_MS), 168.93);
	EQ(num(r, S_RT_IQR_MS), 0.54);
	EQ(num(r, S_RT_RUNS), 6);
	cr_expect_null(collected_find(&c, TP_RUNTIME, "Naive All-Pole Filter"), "not named by the description");
	/* Compare: label: row, the column's heading as the case, the footer's unit */
	r = named_nth(&c, TP_RUNTIME, "matmul: mm", 1);
	cr_expect_str_eq(r->text, "1024");
	EQ(num(r, S_RT_MEDIAN_MS), 0.6105);
	cr_expect_eq(named_count(&c, TP_RUNTIME, "matmul: bmm"), 1, "a blank cell is no measurement");
	EQ(num(named_nth(&c, TP_RUNTIME, "matmul: einsum", 1), S_RT_MEDIAN_MS), 0.8802); /* "(! 14%)" */
	cr_expect_eq(collected_count(&c, TP_RUNTIME), 10);
	cr_expect_eq(c.n, 10, "the IQR, run counts and footers are in their records");
	collector_free(&c);
	/* the analysis shows the median and IQR, not a mean of 0 */
	struct tu_result a = tu_run("$B/tprof-analyze --breakdown tests/data/packs/torch-benchmark.log");
	cr_expect_eq(a.status, 0, "%s", a.err.buf);
	cr_expect(strstr(a.out.buf, "median [ms]  iqr [ms]"), "%s", a.out.buf);
	/* one row per statement, case and threads; times in significant digits */
	cr_expect(strstr(a.out.buf, "  naive_allpole (Naive All-Pole Filter, 4 threads)   "), "%s", a.out.buf);
	cr_expect(strstr(a.out.buf, "      6          169      0.54\n"), "%s", a.out.buf);
	cr_expect(strstr(a.out.buf, "'matmul: mm (256)' is 1.63x faster than 'matmul: einsum (256)'"), "%s", a.out.buf);
	tu_result_free(&a);
}

/* The Graph-LLaVA sample prints both [TIMING] stages and the Trainer's
 * train_runtime, which the "Main training loop" stage contains: the
 * stages still sum to their own total, never past it. */
Test(packs, trainer_runtime_is_not_summed_with_the_stages)
{
	struct tu_result r = tu_run("COLUMNS=120 $B/tprof-analyze --breakdown samples/graph-llava-pretrain.log");
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.out.buf, "in stages 2473 s"), "%s", r.out.buf);
	/* the Trainer's train() runs inside the seed's training loop: its share, not a sibling */
	cr_expect(strstr(r.out.buf, "Where the time went: within 'Main training loop'"), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "train_runtime         2398       99.7"), "%s", r.out.buf);
	cr_expect_null(strstr(r.out.buf, "-97.0"), "no negative unaccounted time: %s", r.out.buf);
	tu_result_free(&r);
}

/*
 * The packs of the thirtieth and thirty-third sets, on their real logs:
 * skorch's epoch tables (300 of them, one per cross-validation fit, rows
 * in ANSI colours and some without the checkpoint's '+'): every row's dur;
 * ms-swift's JSON lines: the global step, elapsed_time ("1m 42s") a
 * clock, train_speed(iter/s); LLaMA-Factory's trainer_log.jsonl: the step
 * and elapsed_time ("0:29:27"), a clock whose rises give the step.
 */
Test(packs, skorch_ms_swift_and_llamafactory)
{
	struct tu_result r = tu_run("$B/tprof-parse -q -c tests/data/unseen30/skorch-ffnn-sepsis-tune.log");
	cr_expect(strstr(r.out.buf, "epoch      5868\n"), "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-parse -q -t timing tests/data/unseen33/swift-qwen3-8b-lora-climate.log");
	cr_expect(strstr(r.out.buf, "\"line\":3,\"role\":\"clock\",\"name\":\"elapsed_time\",\"seconds\":102}"), "%s",
		  r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-parse -q -t rate tests/data/unseen33/swift-qwen3-8b-lora-climate.log");
	cr_expect(strstr(r.out.buf, "\"line\":3,\"role\":\"average\",\"name\":\"train_speed\",\"value\":0.195626,"
				    "\"unit\":\"it/s\"}"),
		  "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-parse -q -c tests/data/unseen33/llamafactory-qwen25-7b-medical.log");
	cr_expect(strstr(r.out.buf, "timing     689\nbatch      689\n"), "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-analyze -q -f json tests/data/unseen33/llamafactory-qwen25-7b-medical.log");
	cr_expect(strstr(r.out.buf, "\"wall\":24486,\"wall_from\":\"clock\""), "%.300s", strstr(r.out.buf, "\"runs\""));
	tu_result_free(&r);
}
