/*
 * test_discover.c - progress bars as time series (parse/discover/progress.c) and
 * timing templates discovered from repetition (parse/discover/discover.c), on real
 * logs committed to public repositories (tests/data/discover/README.md
 * names each source) and on the packs' logs of the frameworks' own format
 * strings (tests/data/packs/).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "parse/discover/discover.h"
#include "parse/input/driver.h"
#include "parse/parse.h"
#include "testutil.h"

#define DATA "tests/data/discover/"

/* Reads path through the driver with the format packs named (NULL: all,
 * "": none; discovery and progress on, as a user runs it) into c; o may
 * change the run, and with o->chunk set the candidate search chooses the
 * lines. */
static struct tp_stats read_log_with(const char *path, const char *formats, struct tp_run_opts *o,
				     struct collector *c)
{
	struct tp_run_opts d = { .threads = 1, .fmt = -1 };
	if (!o)
		o = &d;
	struct tp_rules *rs = NULL;
	struct strbuf err = STRBUF_INIT;
	struct tp_rules_opts ro = { NULL, 0, formats, 0 };
	cr_assert_eq(tp_rules_setup(&ro, &rs, &err), 0, "%s", err.buf ? err.buf : "");
	o->fmt = -1;
	o->sink = collect_sink(c);
	o->rules = rs;
	struct tp_scanner *sc = o->chunk ? tp_scanner_for(rs, tp_run_wants_progress(o)) : NULL;
	o->scanner = sc;
	struct tp_stats st = { 0 };
	cr_assert_eq(tp_run_file(path, NULL, o, &st, &err), 0, "%s: %s", path, err.buf ? err.buf : "");
	strbuf_release(&err);
	tp_scanner_free(sc);
	tp_rules_free(rs);
	return st;
}

static struct tp_stats read_log(const char *path, struct tp_run_opts *o, struct collector *c)
{
	return read_log_with(path, NULL, o, c);
}

static void write_text(const char *path, const char *text)
{
	FILE *fp = fopen(path, "wb");
	cr_assert_not_null(fp);
	cr_assert_eq(fputs(text, fp) >= 0, 1);
	cr_assert_eq(fclose(fp), 0);
}

/* The k-th record (from 0) of type t and name (NULL: any). */
static const struct tp_record *nth_named(const struct collector *c, enum tp_type t, const char *name, size_t k)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct tp_record *r = &c->v[i].rec;
		if (r->type == t && (!name || (r->name && !strcmp(r->name, name))) && k-- == 0)
			return r;
	}
	cr_assert_fail("no record %zu of type %s named %s", k, tp_schemas[t].type_name, name ? name : "-");
	return NULL;
}

static size_t count_named(const struct collector *c, enum tp_type t, const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++)
		n += c->v[i].rec.type == t && (!name || (c->v[i].rec.name && !strcmp(c->v[i].rec.name, name)));
	return n;
}

static double num(const struct tp_record *r, int slot)
{
	cr_assert(tp_has(r, slot), "%s record of line %llu lacks field %d", tp_schemas[r->type].type_name,
		  (unsigned long long)r->line, slot);
	return r->num[slot];
}

/* The k-th timing record named name: on line, of sec seconds, with role. */
static void expect_timing(const struct collector *c, const char *name, size_t k, uint64_t line, double sec,
			  enum tp_role role)
{
	const struct tp_record *r = nth_named(c, TP_TIMING, name, k);
	cr_assert_eq(r->line, line, "%s %zu: line %llu", name, k, (unsigned long long)r->line);
	cr_assert_float_eq(num(r, S_SECONDS), sec, 0, "%s %zu", name, k);
	cr_assert_eq(r->role, role, "%s %zu: role %d", name, k, (int)r->role);
}

/* The first n timing records named name: the values want, on lines
 * first, first + every, ... */
static void expect_series(const struct collector *c, const char *name, const double *want, size_t n,
			  uint64_t first, uint64_t every)
{
	for (size_t k = 0; k < n; k++) {
		const struct tp_record *r = nth_named(c, TP_TIMING, name, k);
		cr_assert_eq(r->line, first + every * k, "%s %zu: line %llu", name, k, (unsigned long long)r->line);
		cr_assert_float_eq(num(r, S_SECONDS), want[k], 0, "%s %zu", name, k);
	}
}

/* ---- progress records ------------------------------------------------ */

/* dhairyag/ImageNet1k_ResNet50 log_output.md: finished tqdm bars whose
 * description carries the epoch's running metrics. */
Test(progress, tqdm_finished_bars_of_a_real_log)
{
	struct collector c = { 0 };
	read_log(DATA "tqdm-imagenet1k.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_PROGRESS, NULL), 3);
	const struct tp_record *r = nth_named(&c, TP_PROGRESS, NULL, 0);
	cr_assert_eq(r->line, 4);
	cr_assert_str_eq(r->name, "Train Epoch: 1 Loss: 5.872 Acc@1 3.611 Acc@5 11.045");
	cr_assert_float_eq(num(r, S_PRG_N), 10010, 0);
	cr_assert_float_eq(num(r, S_PRG_TOTAL), 10010, 0);
	cr_assert_float_eq(num(r, S_PRG_ELAPSED_S), 3 * 3600 + 6 * 60 + 24, 0);
	cr_assert_float_eq(num(r, S_PRG_REMAINING_S), 0, 0);
	cr_assert_float_eq(num(r, S_PRG_RATE), 1 / 1.12, 1e-12); /* "1.12s/it" */
	cr_assert_str_eq(r->text, "it/s");
	r = nth_named(&c, TP_PROGRESS, NULL, 1);
	cr_assert_float_eq(num(r, S_PRG_ELAPSED_S), 59 * 60 + 42, 0);
	cr_assert_float_eq(num(r, S_PRG_RATE), 2.79, 0);
	/* the tqdm pack's rate of a finished bar is made as before */
	cr_assert_eq(count_named(&c, TP_RATE, "tqdm"), 3);
	collector_free(&c);
}

/* Redraws glued without their CR, a nested bar's cursor escape, a print
 * after the bar: tqdm's format_meter, as captured by nohup. */
Test(progress, tqdm_glued_redraws_and_cursor_escapes)
{
	struct collector c = { 0 };
	write_text("/tmp/tprof-disc-bars.log",
		   "  0%|          | 0/613 [00:00<?, ?it/s]  0%|          | 1/613 [03:12<32:40:54, 192.25s/it]"
		   "  0%|          | 2/613 [03:15<13:43:44, 80.89s/it] step=2 | loss=2.6\n"
		   "\r 20%|##        | 2/10 [00:00<00:01,  7.43it/s]\x1b[A\x1b[A\r 30%|###       | 3/10 "
		   "[00:00<00:01,  7.50it/s]\x1b[A\n"
		   "Map: 100%|##########| 25000/25000 [00:02<00:00, 9583.41 examples/s]\n"
		   "  5%|5         | 5.00k/100k [00:01<00:19, 4.98kit/s]\n");
	read_log("/tmp/tprof-disc-bars.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_PROGRESS, NULL), 7);
	const struct tp_record *r = nth_named(&c, TP_PROGRESS, NULL, 0);
	cr_assert_float_eq(num(r, S_PRG_N), 0, 0);
	cr_assert(!tp_has(r, S_PRG_REMAINING_S) && !tp_has(r, S_PRG_RATE)); /* "<?, ?it/s" */
	r = nth_named(&c, TP_PROGRESS, NULL, 1);
	cr_assert_float_eq(num(r, S_PRG_ELAPSED_S), 192, 0);
	cr_assert_float_eq(num(r, S_PRG_REMAINING_S), 32 * 3600 + 40 * 60 + 54, 0);
	cr_assert_float_eq(num(r, S_PRG_RATE), 1 / 192.25, 1e-15);
	r = nth_named(&c, TP_PROGRESS, NULL, 4);
	cr_assert_eq(r->line, 2);
	cr_assert_null(r->name); /* the escapes are not a description */
	cr_assert_float_eq(num(r, S_PRG_N), 3, 0);
	cr_assert_float_eq(num(r, S_PRG_RATE), 7.5, 0);
	r = nth_named(&c, TP_PROGRESS, "Map", 0);
	cr_assert_str_eq(r->text, "examples/s");
	cr_assert_float_eq(num(r, S_PRG_RATE), 9583.41, 0);
	r = nth_named(&c, TP_PROGRESS, NULL, 6);
	cr_assert_float_eq(num(r, S_PRG_N), 5000, 0);
	cr_assert_float_eq(num(r, S_PRG_TOTAL), 100000, 0);
	cr_assert_float_eq(num(r, S_PRG_RATE), 4980, 1e-9);
	collector_free(&c);
}

/* mmcv's ProgressBar, Lightning's RichProgressBar and Keras' Progbar, from
 * their format strings (tests/gen-packs.sh). */
Test(progress, mmcv_rich_and_keras_bars)
{
	struct collector c = { 0 };
	read_log("tests/data/packs/mmengine.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_PROGRESS, NULL), 4);
	const struct tp_record *r = nth_named(&c, TP_PROGRESS, NULL, 1);
	cr_assert_float_eq(num(r, S_PRG_N), 250, 0);
	cr_assert_float_eq(num(r, S_PRG_TOTAL), 500, 0);
	cr_assert_float_eq(num(r, S_PRG_ELAPSED_S), 22, 0);
	cr_assert_float_eq(num(r, S_PRG_REMAINING_S), 22, 0);
	cr_assert_float_eq(num(r, S_PRG_RATE), 11.2, 0);
	cr_assert_str_eq(r->text, "task/s");
	collector_free(&c);

	read_log("tests/data/packs/lightning.log", NULL, &c);
	r = nth_named(&c, TP_PROGRESS, "Epoch 3/9", 0);
	cr_assert_float_eq(num(r, S_PRG_N), 469, 0);
	cr_assert_float_eq(num(r, S_PRG_ELAPSED_S), 6, 0);
	cr_assert_float_eq(num(r, S_PRG_REMAINING_S), 6, 0);
	cr_assert_float_eq(num(r, S_PRG_RATE), 74.1, 0);
	collector_free(&c);

	read_log("tests/data/packs/keras.log", NULL, &c);
	r = nth_named(&c, TP_PROGRESS, NULL, 0); /* "- 5s 3ms/step" */
	cr_assert_float_eq(num(r, S_PRG_ELAPSED_S), 5, 0);
	cr_assert_float_eq(num(r, S_PRG_RATE), 1 / 0.003, 1e-9);
	cr_assert_str_eq(r->text, "step/s");
	r = nth_named(&c, TP_PROGRESS, NULL, 2); /* Keras 3 before the last step: an ETA */
	cr_assert_float_eq(num(r, S_PRG_N), 938, 0);
	cr_assert_float_eq(num(r, S_PRG_REMAINING_S), 3, 0);
	cr_assert(!tp_has(r, S_PRG_ELAPSED_S));
	/* the Keras pack's epoch records are made as before */
	cr_assert_float_eq(num(nth_named(&c, TP_EPOCH, NULL, 0), S_SECONDS), 5, 0);
	collector_free(&c);
}

Test(progress, turned_off)
{
	struct collector c = { 0 };
	struct tp_run_opts o = { .threads = 1, .no_progress = 1 };
	read_log(DATA "tqdm-imagenet1k.log", &o, &c);
	cr_assert_eq(count_named(&c, TP_PROGRESS, NULL), 0);
	cr_assert_eq(count_named(&c, TP_RATE, "tqdm"), 3);
	collector_free(&c);
}

/* ---- discovered templates -------------------------------------------- */

/* microsoft/DeepSpeedExamples, DeepSpeed-Chat step 3's training log,
 * without the packs (the deepspeed pack reads these lines): the durations
 * and their shares are the template's, the step named like one ("E2E") and
 * the durations with a share its components. */
Test(discover, deepspeed_chat_latencies_and_shares)
{
	struct collector c = { 0 };
	struct tp_stats st = read_log_with(DATA "deepspeed-chat-step3.log", "", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "E2E latency"), 12);
	const struct tp_record *r = nth_named(&c, TP_TIMING, "E2E latency", 0);
	cr_assert_eq(r->line, 16);
	cr_assert_float_eq(num(r, S_SECONDS), 7.99, 0);
	cr_assert_eq(r->role, TP_ROLE_STEP);
	r = nth_named(&c, TP_TIMING, "Generate time", 0);
	cr_assert_float_eq(num(r, S_SECONDS), 5.26, 0);
	cr_assert_eq(r->role, TP_ROLE_COMPONENT);
	cr_assert_str_eq(r->parent, "E2E latency");
	/* a bare number with a share takes the other shares' unit */
	r = nth_named(&c, TP_TIMING, "Others", 1);
	cr_assert_eq(r->line, 22);
	cr_assert_float_eq(num(r, S_SECONDS), 0.21, 0);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "Gather latency", 0), S_SECONDS), 0, 0);
	/* shares are not times; "CurSamplesPerSec=8.01" has no unit */
	cr_assert_eq(count_named(&c, TP_TIMING, NULL), 12 * 5);
	cr_assert_eq(count_named(&c, TP_RATE, NULL), 0);
	cr_assert_eq(st.disc_series, 1);
	cr_assert_eq(st.records[TP_TIMING], 60);
	collector_free(&c);
	/* with the packs the pack's records, and none of discovery's again
	 * (the template's values are all read: it lists none) */
	memset(&c, 0, sizeof(c));
	st = read_log(DATA "deepspeed-chat-step3.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "E2E latency"), 12);
	cr_assert_eq(count_named(&c, TP_TIMING, NULL), 12 * 5);
	cr_assert_float_eq(num(nth_named(&c, TP_RATE, "CurSamplesPerSec", 0), S_RATE_VALUE), 8.01, 0);
	collector_free(&c);
}

/* Roles where the values or words say them, on real logs of the answer
 * set (tests/data/real, sources in bench/real-logs.tsv). */
Test(discover, roles_from_values_and_words)
{
	/* modded-nanogpt's first steps ("step_avg:nanms"), without its pack:
	 * train_time rose and doubled, a time since the start; the line counts
	 * steps ("step:1/3200"), and says which one it is at */
	struct collector c = { 0 };
	read_log_with("tests/data/real/moddednanogpt-keller.log", "hf-trainer", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "train_time"), 3227);
	expect_timing(&c, "train_time", 0, 608, 0.487, TP_ROLE_CLOCK);
	expect_timing(&c, "train_time", 1, 609, 6.565, TP_ROLE_CLOCK);
	const struct tp_record *b = nth_named(&c, TP_BATCH, NULL, 1);
	cr_assert_eq(b->line, 609);
	cr_assert_float_eq(num(b, S_BAT_INDEX), 1, 0);
	cr_assert(!tp_has(b, S_SECONDS));
	collector_free(&c);
	/* with it, the pack reads them ("nanms": no mean yet), and discovery nothing */
	memset(&c, 0, sizeof(c));
	read_log("tests/data/real/moddednanogpt-keller.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "train_time"), 0);
	cr_assert_eq(count_named(&c, TP_BATCH, NULL), 0);
	cr_assert_float_eq(num(nth_named(&c, TP_METRIC, NULL, 1), S_MET_TOTAL_S), 6.565, 1e-12);
	cr_assert(!tp_has(nth_named(&c, TP_METRIC, NULL, 1), S_MET_AVG_S));
	collector_free(&c);
	/* detectron2's evaluator: times per iteration, none named like a step
	 * (its pack reads them now; discovery does so without it) */
	memset(&c, 0, sizeof(c));
	read_log_with("tests/data/real/detectron2-nyu.log", "", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "Dataloading"), 448);
	expect_timing(&c, "Total", 0, 925, 0.0402, TP_ROLE_AVERAGE);
	cr_assert_eq(nth_named(&c, TP_TIMING, "Inference", 0)->role, TP_ROLE_AVERAGE);
	collector_free(&c);
	/* an epoch's time is no step: no role, for the analysis to infer */
	memset(&c, 0, sizeof(c));
	read_log("tests/data/real/homegrown-transolver.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "epoch_time"), 200);
	cr_assert_eq(nth_named(&c, TP_TIMING, "epoch_time", 0)->role, TP_ROLE_NONE);
	collector_free(&c);
}

/* stark-sim/megatron-deepspeed-lock-clock (tests/data/real): DeepSpeed's
 * "iter time (s): 15.161 samples/sec: 1.055", a unit before its value as
 * a label: "samples/sec" is 1.055's, not 15.161's. */
Test(discover, a_unit_that_labels_the_next_value)
{
	struct collector c = { 0 };
	read_log("tests/data/real/megatron-deepspeed-starksim.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "iter time"), 500);
	cr_assert_eq(count_named(&c, TP_RATE, "samples"), 500);
	expect_timing(&c, "iter time", 0, 1565, 15.161, TP_ROLE_STEP);
	const struct tp_record *r = nth_named(&c, TP_RATE, "samples", 0);
	cr_assert_eq(r->line, 1565);
	cr_assert_float_eq(num(r, S_RATE_VALUE), 1.055, 0);
	cr_assert_str_eq(r->text, "samples/sec");
	collector_free(&c);
}

/* KyotoSunshine/CNN-for-handwritten-kanji: Keras 1's verbose=2 epoch lines. */
Test(discover, keras1_epoch_times)
{
	struct collector c = { 0 };
	read_log(DATA "keras1-kanji.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, NULL), 9);
	static const double want[] = { 224, 223, 225, 226, 226, 226, 226, 225, 225 };
	expect_series(&c, "time", want, 9, 3, 2);
	collector_free(&c);
}

/* gaggenwaschke/NoProp: a home-grown trainer; every fifth line adds an
 * accuracy (a share) and an inference time: two templates. */
Test(discover, home_grown_epoch_lines)
{
	struct collector c = { 0 };
	read_log(DATA "noprop-cifar100.log", NULL, &c);
	const struct tp_record *r = nth_named(&c, TP_TIMING, "train", 0);
	cr_assert_eq(r->line, 14);
	cr_assert_float_eq(num(r, S_SECONDS), 2.5, 0);
	cr_assert_eq(count_named(&c, TP_TIMING, "train"), 27);
	cr_assert_eq(count_named(&c, TP_TIMING, "infer"), 5);
	r = nth_named(&c, TP_TIMING, "infer", 0);
	cr_assert_eq(r->line, 18);
	cr_assert_float_eq(num(r, S_SECONDS), 4.5, 0);
	collector_free(&c);
}

/* derekchen14/snippet_rnn: "Model compiled in 3.91s" banners between Keras
 * 1 runs: "in" only joins the name to the value. */
Test(discover, names_without_a_joining_word)
{
	struct collector c = { 0 };
	read_log(DATA "keras1-snippet.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "time"), 3 * 15 + 3);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "time", 14), S_SECONDS), 65, 0);
	static const double compiled[] = { 3.91, 2.54, 4.30, 3.22 };
	cr_assert_eq(count_named(&c, TP_TIMING, "Model compiled"), 4);
	expect_series(&c, "Model compiled", compiled, 4, 2, 36);
	collector_free(&c);
}

/* Real logs whose times have no unit, named by a time word (each from
 * tests/data/unseen/README.md): HRNet's "Time: 8.32", the CycleGAN
 * trainer's "time: 1.294, data: 0.907", MXNet's "Epoch[5] Time
 * cost=1029.713"; read in seconds. A date after a time word, a threshold
 * printed once and a word that only contains "time" are no times. */
Test(discover, time_words_name_times_without_a_unit)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen/hrnet-seg-new.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "Time"), 1058);
	const struct tp_record *r = nth_named(&c, TP_TIMING, "Time", 0);
	cr_assert_eq(r->line, 77);
	cr_assert_float_eq(num(r, S_SECONDS), 8.32, 0);
	collector_free(&c);
	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen/cyclegan-synthrad.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "time"), 19);
	cr_assert_eq(count_named(&c, TP_TIMING, "data"), 19);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "data", 0), S_SECONDS), 0.907, 0);
	collector_free(&c);
	memset(&c, 0, sizeof(c));
	read_log_with("tests/data/unseen/mxnet-ssh-keypoint.log", "", NULL, &c); /* the mxnet pack reads it too */
	cr_assert_eq(count_named(&c, TP_TIMING, "Time cost"), 10);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "Time cost", 0), S_SECONDS), 1029.713, 0);
	collector_free(&c);
	write_text("/tmp/tprof-disc-timewords.log", "max_time: 3600\n"
						   "run time: 2024-10-17 12:00:01\nrun time: 2024-10-18 13:00:02\n"
						   "run time: 2024-10-19 14:00:03\n"
						   "runtime_budget: 5\nruntime_budget: 6\nruntime_budget: 7\n"
						   "data: 1\ndata: 2\ndata: 3\n");
	memset(&c, 0, sizeof(c));
	read_log("/tmp/tprof-disc-timewords.log", NULL, &c);
	cr_assert_eq(c.n, 0, "%zu records, the first %s", c.n, c.n ? c.v[0].name : "");
	collector_free(&c);
}

/* A line that counts iterations times one step, whatever the value's name
 * (tests/data/unseen2/README.md): a nanoGPT fork's "iter 10: loss 9.8940,
 * time 561.12ms" and ssd.pytorch's "iter 10010 || Loss: 3.6592 || timer:
 * 0.2051 sec."; its "timer: 7.2877 sec." without the count is no step. */
Test(discover, a_line_that_counts_iterations_times_a_step)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen2/nanogpt-sigmalyj.log", NULL, &c);
	const struct tp_record *r = nth_named(&c, TP_TIMING, "time", 0);
	cr_assert_eq(r->line, 5);
	cr_assert_float_eq(num(r, S_SECONDS), 0.56112, 1e-12);
	cr_assert_eq(r->role, TP_ROLE_STEP);
	collector_free(&c);
	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen2/ssd-pytorch.log", NULL, &c);
	size_t steps = 0, others = 0;
	for (size_t i = 0; i < c.n; i++)
		if (c.v[i].rec.type == TP_TIMING && c.v[i].name && !strcmp(c.v[i].name, "timer"))
			*(c.v[i].rec.role == TP_ROLE_STEP ? &steps : &others) += 1;
	cr_assert_gt(steps, 3000);
	cr_assert_lt(others, 10, "%zu 'timer' values without a count", others);
	collector_free(&c);
}

/* Names that carry their unit (tests/data/unseen3): LeRobot's "updt_s:0.504
 * data_s:0.083", parameter-golf's "train_time:122ms ... this_step:121.8ms";
 * a home-grown loop's "08:35:31  step=100 ... elapsed=71s" starts with its
 * time of day, no duration. */
Test(discover, names_with_their_unit_and_a_time_of_day)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen3/lerobot-train.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "updt_s"), 249);
	cr_assert_eq(count_named(&c, TP_TIMING, "data_s"), 249);
	const struct tp_record *r = nth_named(&c, TP_TIMING, "data_s", 0);
	cr_assert_float_eq(num(r, S_SECONDS), 0.083, 0);
	cr_assert_str_eq(r->ts, "2026-06-12T10:53:24");
	/* "step:400": the two durations of a line that counts steps are the step's parts */
	cr_assert_eq(r->role, TP_ROLE_COMPONENT);
	cr_assert(r->parent_len == 4 && !memcmp(r->parent, "step", 4));
	cr_assert_eq(nth_named(&c, TP_TIMING, "updt_s", 0)->role, TP_ROLE_COMPONENT);
	/* and the step it is at; "step:1K" (a rounded count) is no index */
	cr_assert_float_eq(num(nth_named(&c, TP_BATCH, NULL, 0), S_BAT_INDEX), 400, 0);
	cr_assert_float_eq(num(nth_named(&c, TP_BATCH, NULL, 2), S_BAT_INDEX), 800, 0);
	cr_assert_eq(count_named(&c, TP_BATCH, NULL), 3, "%zu", count_named(&c, TP_BATCH, NULL));
	collector_free(&c);
	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen3/homegrown-avpse.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "elapsed"), 740);
	/* "step=100 ... elapsed=71s": a clock and the step it is at, no time of day */
	cr_assert_eq(count_named(&c, TP_BATCH, NULL), 740);
	/* and the time of day that starts each line its stamp: the log's span */
	cr_assert_eq(c.n, 1480 + 2, "%zu records: a time of day read as a duration", c.n);
	cr_assert_str_eq(nth_named(&c, TP_TIMING, "elapsed", 0)->ts, "T08:35:31");
	cr_assert_float_eq(num(nth_named(&c, TP_BATCH, NULL, 0), S_BAT_INDEX), 100, 0);
	cr_assert_eq(nth_named(&c, TP_BATCH, NULL, 0)->line, nth_named(&c, TP_TIMING, "elapsed", 0)->line);
	collector_free(&c);
	write_text("/tmp/tprof-disc-suffix.log", "it 1 wall_ms:630990 x\nit 2 wall_ms:631990 x\nit 3 wall_ms:632990 x\n");
	memset(&c, 0, sizeof(c));
	read_log("/tmp/tprof-disc-suffix.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "wall_ms"), 3);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "wall_ms", 2), S_SECONDS), 632.99, 1e-9);
	collector_free(&c);
}

/* "Epoch: [0/25] [   1/ 273]", "Epoch: [0/520] Iter:[10/247]", "{ Epoch:[  1/
 * 3], step:[    2/ 3125]": the count after the epoch's is the iteration's,
 * with or without a colon after the word (the fifth and fourth unseen sets'
 * DCGAN, MindFormers) */
Test(discover, the_iteration_count_is_not_the_epochs)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen5/dcgan-tf-nohup.log", NULL, &c);
	cr_assert_float_eq(num(nth_named(&c, TP_BATCH, NULL, 1), S_BAT_INDEX), 1, 0);
	cr_assert_float_eq(num(nth_named(&c, TP_BATCH, NULL, 2), S_BAT_INDEX), 2, 0);
	collector_free(&c);
	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen4/mindformers-llama3-lora.log", NULL, &c);
	cr_assert_float_eq(num(nth_named(&c, TP_BATCH, NULL, 0), S_BAT_INDEX), 2, 0);
	collector_free(&c);
	write_text("/tmp/tprof-disc-epoch.log", "Epoch: [0/100]  [  10/1562]  loss: 1.5  elapsed 2.5s\n"
						 "Epoch: [0/100]  [  20/1562]  loss: 1.4  elapsed 5.1s\n"
						 "Epoch: [0/100]  [  30/1562]  loss: 1.3  elapsed 7.4s\n");
	memset(&c, 0, sizeof(c));
	read_log("/tmp/tprof-disc-epoch.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_BATCH, NULL), 3);
	cr_assert_float_eq(num(nth_named(&c, TP_BATCH, NULL, 2), S_BAT_INDEX), 30, 0);
	collector_free(&c);
}

/* The sixth unseen set's lessons: Chainer's ProgressBar "1.3921 iters/sec.
 * Estimated time to finish: 19:53:31.907530." is a rate and an estimate
 * (no time spent); a home-grown NER trainer's "| Time: 0:01:09 |", a clock a
 * time word names, is read with no other unit on its line; RLlib's
 * "mean_env_wait_ms: 0.66", read by its pack in seconds, is not read again. */
Test(discover, estimates_named_clocks_and_units_in_names)
{
	struct collector c = { 0 };
	read_log_with("tests/data/unseen6/chainermn-vgg-4gpu.log", "", NULL, &c); /* discovery, not the pack */
	cr_assert_eq(count_named(&c, TP_TIMING, "Estimated time to finish"), 0);
	cr_assert_eq(count_named(&c, TP_RATE, "iters"), 997);
	collector_free(&c);
	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen6/ner-bilstm-crf-medical.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "Time"), 1457);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "Time", 1), S_SECONDS), 69, 0);
	collector_free(&c);
	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen6/rllib-shogi-dqn.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "mean_env_wait"), 79);
	cr_assert_eq(count_named(&c, TP_TIMING, "mean_env_wait_ms"), 0, "read twice");
	collector_free(&c);
	/* a number is only taken for another reader's value in its name's
	 * unit ("data 0.01s" beside "step 36" read by a rule: 0.01 x 3600 is
	 * 36, and the data is still the template's) */
	write_text("/tmp/tprof-disc-seen.rules", "batch ^step (?<index>\\d+) time (?<seconds>[\\d.]+)s data [\\d.]+s$\n");
	struct strbuf log = STRBUF_INIT;
	for (int i = 30; i < 40; i++)
		strbuf_addf(&log, "step %d time %ss data 0.01s\n", i, i % 2 ? "1.0" : "1.5");
	write_text("/tmp/tprof-disc-seen.log", log.buf);
	strbuf_release(&log);
	struct tu_result r = tu_run("$B/tprof-parse --no-formats --rules /tmp/tprof-disc-seen.rules -c "
				    "/tmp/tprof-disc-seen.log");
	cr_assert(strstr(r.out.buf, "timing     10\n"), "%s", r.out.buf);
	tu_result_free(&r);
}

/* The vector test's hit is verified from the number before its word on,
 * and from the line's start where a bar opens before it: a bar is skipped
 * to its ']', which may lie past the hit (fuzz_discover's find: "7.50it/s]"
 * after a bar's "]" is inside the next bar). */
Test(discover, a_line_is_verified_as_a_whole)
{
	static const char bars[] = "  0%|        00<?, ?it/s]  0%|          | 1/613 [0<00:01,  7.50it/s]it/s]  "
				   "0%|          | 1/613 [0<00:01,  7.50it/s\x1b[A\nstep 3 took 12ms\n";
	const char *e = bars + sizeof(bars) - 1, *second = strchr(bars, '\n') + 1;
	cr_assert_eq(tp_disc_has_unit(bars, second - 1), 0);
	cr_assert_eq(tp_disc_next_line(bars, e, e, NULL), second);
	cr_assert_eq(tp_disc_next_line(bars, second - 1, e, NULL), second - 1, "no line of the bars holds a unit");
}

/* The scan over the lines between candidates counts their line ends on
 * its way (the parser's line numbers come from it), passes a Python path's
 * "/site-packages" and TensorFlow's "xla/service" (the bench log's noise:
 * a hit there once read the rest of its line), and stops at the line of
 * a unit in its last, short block. */
Test(discover, the_scan_counts_the_line_ends_it_passes)
{
	static const char noise[] = "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/activation.py:1160: "
				    "UserWarning: Converting mask\n"
				    "I0000 00:00:1729 external/xla/xla/service/gpu/nvptx_compiler.cc:390] ptxas\n"
				    "gpu-node07:2211843:2211843 [0] NCCL INFO comm 0x55d4c0a rank 0 nranks 8\n"
				    "\n"
				    "batch: 32 graphs, 5831 nodes, 7044 edges\n"
				    "step 3 took 12ms\n"
				    "tail\n";
	const char *e = noise + sizeof(noise) - 1, *unit = strstr(noise, "step 3");
	uint64_t ends = 99;
	cr_assert_eq(tp_disc_next_line(noise, e, e, &ends), unit);
	cr_assert_eq(ends, 5);
	cr_assert_eq(tp_disc_next_line(noise, unit, e, &ends), unit, "no line before it holds a unit");
	cr_assert_eq(ends, 5);
	const char *tail = strstr(noise, "tail");
	cr_assert_eq(tp_disc_next_line(tail, e, e, &ends), e);
	cr_assert_eq(ends, 1);
	/* the lines counted where the unit's line starts inside a block passed */
	char big[512];
	memset(big, 'x', sizeof(big));
	for (int i = 63; i < 450; i += 64)
		big[i] = '\n';
	memcpy(big + 448, "12 ms\n", 6);
	cr_assert_eq(tp_disc_next_line(big, big + 454, big + sizeof(big), &ends), big + 448);
	cr_assert_eq(ends, 7);
}

/* T2ICount's "Epoch 0 Train, ... Cost: 715.7 sec" and "Epoch 50 Val, ...
 * Cost 239.5 sec" / "Epoch 50 Test, ...": a name that says no phase takes
 * the line's word on its own that does (a template's wildcard read on each
 * line), so that the loops are three stages, not one; a phase word that
 * names a value of its own ("train 2.2s | ... | infer 4.5s", "Train Loss:
 * ... | Time: 0:01:09") does not. */
Test(discover, a_loop_word_qualifies_a_bare_name)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen6/t2icount-fsc147.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "Cost"), 0);
	cr_assert_eq(count_named(&c, TP_TIMING, "Train Cost"), 105);
	cr_assert_eq(count_named(&c, TP_TIMING, "Val Cost"), 55);
	cr_assert_eq(count_named(&c, TP_TIMING, "Test Cost"), 3);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "Val Cost", 0), S_SECONDS), 239.5, 0);
	collector_free(&c);
	memset(&c, 0, sizeof(c));
	read_log("tests/data/discover/noprop-cifar100.log", NULL, &c);
	cr_assert_gt(count_named(&c, TP_TIMING, "infer"), 0);
	collector_free(&c);
	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen6/ner-bilstm-crf-medical.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "Train Time"), 0);
	collector_free(&c);
}

/* PaddlePaddle's Model.fit prints 14 metrics and then the step time:
 * "step  10/614 - loss: 0.1637 - AUROC_...: 0.5273 - ... - 3s/step", more
 * tokens than a template holds; its end is kept after a gap. */
Test(discover, a_long_line_keeps_its_end)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen/paddle-hapi-chexnet.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "step"), 705);
	const struct tp_record *r = nth_named(&c, TP_TIMING, "step", 0);
	cr_assert_eq(r->line, 9);
	cr_assert_float_eq(num(r, S_SECONDS), 3, 0);
	cr_assert_eq(r->role, TP_ROLE_STEP);
	collector_free(&c);
}

/* detectron2's evaluator and the shapes of the issue (each as its
 * program prints it): per-item times, units after and before the value,
 * ms, an ETA left out. */
Test(discover, units_names_and_etas)
{
	struct collector c = { 0 };
	struct strbuf sb = STRBUF_INIT;
	for (int i = 1; i <= 4; i++) {
		strbuf_addf(&sb, "[06/11 13:51:4%d d2.evaluation.evaluator]: Inference done %d/22. Dataloading: 0.00%d5 "
			    "s/iter. Inference: 0.06%d1 s/iter. Eval: 0.0059 s/iter. Total: 0.07%d6 s/iter. ETA=0:00:0%d\n",
			    i, 11 * i, i, i, i, 9 - i);
		strbuf_addf(&sb, "[train] iter %d: loss 8.68%d4 92%d0 ms/iter\n", 10 * i, i, i);
		strbuf_addf(&sb, "step    %d | loss 0.02%d2 | step_time 18.%d ms | data 0.1%d ms | samples/s 353%d\n", i, i,
			    i, i, i);
	}
	write_text("/tmp/tprof-disc-units.log", sb.buf);
	strbuf_release(&sb);
	read_log_with("/tmp/tprof-disc-units.log", "", NULL, &c); /* discovery, not the detectron2 pack */
	const struct tp_record *r = nth_named(&c, TP_TIMING, "Dataloading", 1);
	cr_assert_float_eq(num(r, S_SECONDS), 0.0025, 0);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "Total", 3), S_SECONDS), 0.0746, 0);
	cr_assert_eq(count_named(&c, TP_TIMING, "ETA"), 0);
	cr_assert_eq(count_named(&c, TP_TIMING, NULL), 4 * 4 + 4 + 4 * 2);
	/* "9230 ms/iter": the item names it, after the line's "[train]" */
	r = nth_named(&c, TP_TIMING, "train iter", 2);
	cr_assert_float_eq(num(r, S_SECONDS), 9.23, 0);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "step_time", 0), S_SECONDS), 0.0181, 0);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "data", 3), S_SECONDS), 0.00014, 1e-18);
	r = nth_named(&c, TP_RATE, "samples", 0);
	cr_assert_float_eq(num(r, S_RATE_VALUE), 3531, 0);
	cr_assert_str_eq(r->text, "samples/s");
	collector_free(&c);
}

/* A value and its running mean, "X (Y)". */
Test(discover, value_and_running_mean)
{
	struct collector c = { 0 };
	write_text("/tmp/tprof-disc-mean.log", "Epoch: [0][ 10/500]  batch 0.231s (0.245s)  loss 6.91\n"
						 "Epoch: [0][ 20/500]  batch 0.228s (0.237s)  loss 6.88\n"
						 "Epoch: [0][ 30/500]  batch 0.229s (0.234s)  loss 6.85\n");
	read_log("/tmp/tprof-disc-mean.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "batch"), 3);
	const struct tp_record *r = nth_named(&c, TP_TIMING, "batch (mean)", 2);
	cr_assert_float_eq(num(r, S_SECONDS), 0.234, 0);
	cr_assert_eq(r->role, TP_ROLE_AVERAGE);
	cr_assert_str_eq(r->parent, "batch");
	collector_free(&c);
}

/* Fewer lines than --discover-min, or values that never change: nothing. */
Test(discover, repetition_and_variation_are_needed)
{
	struct collector c = { 0 };
	write_text("/tmp/tprof-disc-few.log", "warmup took 12.5s\n"
						"cache built in 3.2s\n"
						"The operation took 1.615775s\n"
						"The operation took 1.615775s\n"
						"The operation took 1.615775s\n"
						"The operation took 1.615775s\n"
						"warmup took 11.9s\n");
	struct tp_stats st = read_log("/tmp/tprof-disc-few.log", NULL, &c);
	cr_assert_eq(c.n, 0);
	cr_assert_eq(st.disc_templates, 3);
	cr_assert_eq(st.disc_series, 0);
	collector_free(&c);
	struct tp_run_opts o = { .threads = 1, .discover_min = 2 };
	read_log("/tmp/tprof-disc-few.log", &o, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "warmup"), 2);
	cr_assert_eq(nth_named(&c, TP_TIMING, "warmup", 0)->line, 1);
	collector_free(&c);
	o = (struct tp_run_opts){ .threads = 1, .no_discovery = 1 };
	st = read_log(DATA "keras1-kanji.log", &o, &c);
	cr_assert_eq(c.n, 0);
	cr_assert_eq(st.disc_lines, 0);
	collector_free(&c);
}

/* Memory is bounded by the number of templates: the least recently used
 * goes, and a template seen again still qualifies. */
Test(discover, templates_are_bounded)
{
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 3 * TP_DISC_MAX_TEMPLATES; i++) {
		strbuf_addf(&sb, "job%d finished in %d.5s\n", i, i % 7);
		if (i % 100 == 0)
			strbuf_addf(&sb, "sync %d took %d ms\n", i, i % 13 + 1);
	}
	write_text("/tmp/tprof-disc-many.log", sb.buf);
	strbuf_release(&sb);
	struct collector c = { 0 };
	struct tp_stats st = read_log("/tmp/tprof-disc-many.log", NULL, &c);
	cr_assert_eq(st.disc_templates, 3 * TP_DISC_MAX_TEMPLATES + 1);
	cr_assert_eq(st.disc_evicted, 2 * TP_DISC_MAX_TEMPLATES + 1);
	cr_assert_eq(count_named(&c, TP_TIMING, "sync"), 16);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "sync", 2), S_SECONDS), 0.006, 0);
	cr_assert_eq(count_named(&c, TP_TIMING, NULL), 16);
	collector_free(&c);
}

/* The output of several threads, and of the candidate search (whose
 * lines for the miner a vector test chooses), is that of one thread
 * reading every line, with templates that span the threads' pieces. */
static void records_as_json(const struct collector *c, struct strbuf *out)
{
	strbuf_reset(out);
	for (size_t i = 0; i < c->n; i++) {
		tp_record_to_json(&c->v[i].rec, out);
		strbuf_addch(out, '\n');
	}
}

Test(discover, threads_and_the_candidate_search_give_the_records_of_one)
{
	struct strbuf sb = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	const char *const logs[] = { "deepspeed-chat-step3.log", "keras1-kanji.log", "noprop-cifar100.log",
				     "tqdm-imagenet1k.log", "keras1-snippet.log" };
	for (int k = 0; k < 4; k++)
		for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
			char path[256];
			snprintf(path, sizeof(path), DATA "%s", logs[i]);
			cr_assert_eq(tu_slurp(path, &sb), 0);
		}
	cr_assert_eq(tu_slurp("tests/data/packs/tqdm.log", &sb), 0);
	/* times named by a time word (markers of their own), long lines */
	cr_assert_eq(tu_slurp("tests/data/unseen/cyclegan-synthrad.log", &sb), 0);
	cr_assert_eq(tu_slurp("tests/data/unseen/mxnet-ssh-keypoint.log", &sb), 0);
	cr_assert_eq(tu_slurp("tests/data/unseen/paddle-hapi-chexnet.log", &sb), 0);
	cr_assert_eq(tu_slurp("tests/data/unseen3/lerobot-train.log", &sb), 0);
	cr_assert_eq(tu_slurp("tests/data/unseen3/golf-gqa-ttt.log", &sb), 0);
	write_text("/tmp/tprof-disc-threads.log", sb.buf);
	for (int progress = 0; progress < 2; progress++)
		for (int run = 0; run < 4; run++) {
			/* one thread reading every line, then 1-3 threads with the search;
			 * chunks hold the longest line whole (the CycleGAN log's bar
			 * lines are 16 KB; a line never spans chunks of the default
			 * 4 MiB, TP_MAX_LINE being less) */
			struct collector c = { 0 };
			struct tp_run_opts o = { .threads = run ? run : 1, .chunk = run ? 70000 : 0,
						 .no_progress = !progress };
			read_log("/tmp/tprof-disc-threads.log", &o, &c);
			records_as_json(&c, run ? &b : &a);
			collector_free(&c);
			if (run)
				cr_assert_str_eq(b.buf, a.buf, "%d threads with the search differ (progress %d)", run,
						 progress);
		}
	cr_assert(strstr(a.buf, "\"name\":\"E2E latency\""));
	cr_assert(strstr(a.buf, "\"name\":\"Model compiled\""));
	cr_assert(strstr(a.buf, "\"name\":\"updt_s\""));
	cr_assert(strstr(a.buf, "\"name\":\"data\",\"seconds\":0.907"));
	strbuf_release(&sb);
	strbuf_release(&a);
	strbuf_release(&b);
}

/* --discover writes rules (and nothing else) that read the same values as
 * discovery (the packs off: they read the DeepSpeed-Chat lines); --explain
 * and --stats say what discovery did. */
Test(discover, rules_round_trip_explain_and_stats)
{
	const char *const logs[] = { "deepspeed-chat-step3.log", "keras1-kanji.log", "noprop-cifar100.log" };
	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		struct tu_result r = tu_run("$B/tprof-parse --no-formats --discover " DATA "%s > /tmp/tprof-disc.rules "
					    "&& grep -v '^#\\|^@format discovered$\\|^@marker \\|^timing @more \\|^$' /tmp/tprof-disc.rules",
					    logs[i]);
		cr_assert_eq(r.status, 1, "%s: %s", logs[i], r.out.buf);
		cr_assert_eq(r.out.len, 0, "%s: not a rule: %s", logs[i], r.out.buf);
		tu_result_free(&r);
		struct tu_result d = tu_run("$B/tprof-parse -q --no-formats -t timing " DATA "%s", logs[i]);
		struct tu_result u = tu_run("$B/tprof-parse -q --no-formats --no-discovery --rules /tmp/tprof-disc.rules "
					    "-t timing " DATA "%s | sed 's/,\"line\":[0-9]*//' | sort",
					    logs[i]);
		struct tu_result ds = tu_run("$B/tprof-parse -q --no-formats -t timing " DATA "%s | "
					     "sed 's/,\"line\":[0-9]*//' | sort",
					     logs[i]);
		cr_assert_eq(u.status, 0, "%s", u.err.buf);
		cr_assert_gt(d.out.len, 100);
		cr_assert_str_eq(u.out.buf, ds.out.buf, "%s: the rules read other values", logs[i]);
		tu_result_free(&d);
		tu_result_free(&u);
		tu_result_free(&ds);
	}
	struct tu_result r = tu_run("$B/tprof-parse --discover " DATA "deepspeed-chat-step3.log");
	cr_assert(strstr(r.out.buf, "deepspeed-chat-step3.log: 0 templates with a timing value\n# (none)\n"), "%s",
		  r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-parse --no-formats --discover " DATA "deepspeed-chat-step3.log");
	cr_assert(strstr(r.out.buf, "# template 1: 12 lines, 5 values, a series\n"), "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, "#   line 16: |E2E latency=7.99s |Gather latency=0.00s (0.00%)"));
	cr_assert(strstr(r.out.buf, "timing @more name=\"Generate time\" role=\"component\" parent=\"E2E latency\" ^"));
	tu_result_free(&r);
	r = tu_run("$B/tprof-parse --explain " DATA "keras1-kanji.log");
	cr_assert(strstr(r.out.buf, "keras1-kanji.log:5: template 1 (seen 2) - 223s - loss: 1.0899"), "%s", r.out.buf);
	cr_assert(strstr(r.out.buf, "keras1-kanji.log:3: template 1 (seen 3): <*>s - loss: <*> - acc: <*> - val_loss: "
				    "<*> - val_acc: <*> -> {\"type\":\"timing\",\"file\":\"" DATA "keras1-kanji.log\","
				    "\"line\":3,\"name\":\"time\",\"seconds\":224}"));
	tu_result_free(&r);
	r = tu_run("$B/tprof-parse --count --stats " DATA "keras1-kanji.log");
	cr_assert(strstr(r.err.buf, "discovery:           9 lines, 1 templates, 1 series, 0 evicted"), "%s", r.err.buf);
	tu_result_free(&r);
}

/* saforem2/vault's mlprof DeepSpeed log: one template, its op's name a word
 * of each line ("Time to load <*> op: <*> seconds"), the rules with it as
 * a name template. */
Test(discover, a_word_that_varies_names_each_line)
{
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 3; i++)
		strbuf_addf(&sb, ">     Time to load fused_adam op: %d.2980446815490%d seconds\n"
				 ">     Time to load utils op: 0.%d0232219696044922 seconds\n",
			    50 + i, i, 3 + i);
	write_text("/tmp/tprof-disc-wild.log", sb.buf);
	strbuf_release(&sb);
	struct collector c = { 0 };
	read_log("/tmp/tprof-disc-wild.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "Time to load fused_adam op"), 3);
	cr_assert_eq(count_named(&c, TP_TIMING, "Time to load utils op"), 3);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "Time to load utils op", 1), S_SECONDS), 0.40232219696044922, 0);
	collector_free(&c);
	struct tu_result r = tu_run("$B/tprof-parse --discover /tmp/tprof-disc-wild.log");
	cr_assert(strstr(r.out.buf, "timing @more name=\"Time to load {1} op\" ^>\\s*Time\\s+to\\s+load\\s+(\\S+?)\\s+op"),
		  "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-parse --discover /tmp/tprof-disc-wild.log > /tmp/tprof-disc-wild.rules && "
		   "$B/tprof-parse -q --no-discovery --rules /tmp/tprof-disc-wild.rules -t timing /tmp/tprof-disc-wild.log "
		   "| sort > /tmp/tprof-disc-wild.a && $B/tprof-parse -q -t timing /tmp/tprof-disc-wild.log | sort | "
		   "cmp - /tmp/tprof-disc-wild.a");
	cr_assert_eq(r.status, 0, "the rules read other records: %s", r.err.buf);
	tu_result_free(&r);
}

/* The fourth unseen set's shapes (tests/data/unseen4): names of times that
 * differ are series of their own (Coqui TTS), a signed change in brackets
 * is no mean, a unit written onto its number stays its own before a rate
 * (Marian), a rate per device (MindFormers' "samples/s/p") and the clock
 * after it, named by nothing but that unit, an ETA; names that say a rate
 * (PaddleNLP's "interval_samples_per_second"). */
Test(discover, the_fourth_sets_shapes)
{
	struct collector c = { 0 };
	/* without the coqui-trainer pack, which reads these lines now */
	read_log_with("tests/data/unseen4/coqui-vits-finetune.log", "", NULL, &c);
	const struct tp_record *r = nth_named(&c, TP_TIMING, "step_time", 0);
	cr_assert_float_eq(num(r, S_SECONDS), 1.3151, 1e-12);
	cr_assert_eq(r->line, 156);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "step_time (mean)", 0), S_SECONDS), 1.38766, 1e-12);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "loader_time", 0), S_SECONDS), 19.8131, 1e-12);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "avg_loader_time", 0), S_SECONDS), 0.22792, 1e-12);
	cr_assert_eq(count_named(&c, TP_TIMING, "avg_loader_time (mean)"), 0, "'(+0.00000)' is a change");
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen4/marian-opensub-fr.log", NULL, &c);
	r = nth_named(&c, TP_TIMING, "Time", 0);
	cr_assert_float_eq(num(r, S_SECONDS), 635.14, 1e-9);
	r = nth_named(&c, TP_RATE, "words", 0);
	cr_assert_float_eq(num(r, S_RATE_VALUE), 8999.23, 1e-9);
	cr_assert(r->text_len == 7 && !memcmp(r->text, "words/s", 7));
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen4/mindformers-llama3-lora.log", NULL, &c);
	/* the first, "0.03080 samples/s/p  28 days, 4:11:01 }", has the same
	 * template as the rest: the days are the clock's */
	r = nth_named(&c, TP_RATE, "samples", 0);
	cr_assert_float_eq(num(r, S_RATE_VALUE), 0.0308, 1e-9);
	cr_assert_eq(r->line, 838);
	r = nth_named(&c, TP_RATE, "samples", 1);
	cr_assert_float_eq(num(r, S_RATE_VALUE), 5.42694, 1e-9);
	cr_assert(r->text_len == 11 && !memcmp(r->text, "samples/s/p", 11));
	cr_assert_eq(count_named(&c, TP_TIMING, "samples/s/p"), 0, "'3:50:14 }' after the rate is what remains");
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen4/paddlenlp-fewclue-cmnli.log", NULL, &c);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "interval_runtime", 0), S_SECONDS), 6.8718, 1e-9);
	r = nth_named(&c, TP_RATE, "interval_samples_per_second", 0);
	cr_assert_float_eq(num(r, S_RATE_VALUE), 9.313, 1e-9);
	cr_assert(r->text_len == 9 && !memcmp(r->text, "samples/s", 9));
	r = nth_named(&c, TP_RATE, "interval_steps_per_second", 0);
	cr_assert(r->text_len == 7 && !memcmp(r->text, "steps/s", 7));
	collector_free(&c);
}

/* The fifth unseen set (tests/data/unseen5): DSFD's "Timer: 0.6654" on a
 * line of its own, a time named by "timer", read on the plain path and
 * through the candidate search alike (the scan's markers hold "timer:"). */
Test(discover, a_timer_names_a_time)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen5/dsfd-anime-face.log", NULL, &c);
	const struct tp_record *r = nth_named(&c, TP_TIMING, "Timer", 0);
	cr_assert_not_null(r);
	cr_assert_float_eq(num(r, S_SECONDS), 1.6476, 1e-12);
	cr_assert_eq(r->line, 16);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "Timer", 1), S_SECONDS), 0.6669, 1e-12);
	cr_assert_eq(count_named(&c, TP_TIMING, "Timer"), 598);
	collector_free(&c);
}

/* The shapes the seventh unseen set taught, on its real logs: "Epoch took
 * 00:01:10, predicted 00:05:50 left" (a verb of a span before a clock; the
 * word after a time that says it is to come), DeepSleepNet's epoch line of
 * 110 tokens whose validation time sits behind a dozen plain metrics, and
 * StarGAN-VC's "Time Elapsed for This Epoch: 00:03:04" */
Test(discover, the_seventh_sets_shapes)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen7/bioie-bert.log", NULL, &c);
	const struct tp_record *r = nth_named(&c, TP_TIMING, NULL, 0);
	cr_assert_not_null(r);
	cr_assert_eq(r->line, 27);
	cr_assert_float_eq(num(r, S_SECONDS), 70, 0);
	cr_assert_eq(count_named(&c, TP_TIMING, NULL), 990, "one time a line, no estimate");
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen7/deepsleepnet.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, NULL), 252);
	r = nth_named(&c, TP_TIMING, NULL, 1);
	cr_assert_eq(r->line, 2);
	cr_assert_float_eq(num(r, S_SECONDS), 3.22, 0);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen7/stargan_vc.log", NULL, &c);
	r = nth_named(&c, TP_TIMING, NULL, 0);
	cr_assert_not_null(r);
	cr_assert_eq(r->line, 245);
	cr_assert_float_eq(num(r, S_SECONDS), 184, 0);
	collector_free(&c);
}

/* A number's unit is part of a template's shape: Sockeye's Speedometer and
 * checkpoint lines behind a prefix nothing strips have one length and one
 * start, and were one template whose units were wildcards (no rate read);
 * a duration's unit may still change from line to line (IPython's %timeit
 * "576 ms" and "19.7 ms", then "369 µs") */
Test(discover, a_numbers_unit_is_its_templates_shape)
{
	struct collector c = { 0 };
	write_text("/tmp/tprof-disc-units.log",
		   "worker-1 | Epoch[0] Batch [50]\tSpeed: 76.66 samples/sec 1820.19 tokens/sec 0.35 updates/sec\tperplexity=1873.457714\n"
		   "worker-1 | Epoch[0] Batch [100]\tSpeed: 232.70 samples/sec 4790.23 tokens/sec 0.90 updates/sec\tperplexity=1309.283526\n"
		   "worker-1 | Checkpoint [1]\tUpdates=4000 Epoch=0 Samples=1070440 Time-cost=4626.838 Updates/sec=0.865\n"
		   "worker-1 | Epoch[0] Batch [150]\tSpeed: 268.26 samples/sec 5016.99 tokens/sec 0.92 updates/sec\tperplexity=1038.186040\n"
		   "worker-1 | Checkpoint [2]\tUpdates=8000 Epoch=0 Samples=2140880 Time-cost=4519.100 Updates/sec=0.885\n"
		   "worker-1 | Checkpoint [3]\tUpdates=12000 Epoch=1 Samples=3211320 Time-cost=4601.250 Updates/sec=0.869\n");
	read_log_with("/tmp/tprof-disc-units.log", "", NULL, &c);
	cr_assert_eq(count_named(&c, TP_RATE, NULL), 3 * 3 + 3, "every rate of both shapes");
	const struct tp_record *r = nth_named(&c, TP_RATE, NULL, 1);
	cr_assert_float_eq(num(r, S_RATE_VALUE), 1820.19, 0);
	cr_assert(r->text_len == 10 && !memcmp(r->text, "tokens/sec", 10), "%.*s", (int)r->text_len, r->text);
	cr_assert_eq(count_named(&c, TP_TIMING, NULL), 3);
	collector_free(&c);
	memset(&c, 0, sizeof(c));
	read_log("tests/data/real/benchmark-effdl-week01.log", NULL, &c);
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "time", 0), S_SECONDS), 0.576, 1e-12);
	collector_free(&c);
}

/* The k-th record (from 0) of type t on line `line`. */
static const struct tp_record *on_line(const struct collector *c, enum tp_type t, uint64_t line, size_t k)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct tp_record *r = &c->v[i].rec;
		if (r->type == t && r->line == line && k-- == 0)
			return r;
	}
	cr_assert_fail("no record of type %s on line %llu", tp_schemas[t].type_name, (unsigned long long)line);
	return NULL;
}

/*
 * The shapes the eighth unseen set taught, on its real logs:
 * - an AverageMeter's value and running mean with no unit, "time 0.0325
 *   (0.0623)" (Swin-Transformer), the step of a line that counts steps in
 *   "[2/150][920/924]" (the inner count);
 * - the pair "Time 0.112 (0.099)  Data 0.00119 (0.00123)" after a rank's
 *   "2: " (NVIDIA's GNMT): the data loading within the batch's time, and a
 *   rate with its mean, "Tok/s 57232 (60881)";
 * - JSON lines (YOLACT): "\"elapsed\": 0.366" on a line with "\"iter\": 1",
 *   the line's "\"time\": 1607422676.03" a stamp, never a value;
 * - "train_iter_items/sec: 5297.18" (NVIDIA's DLLogger), a key that names
 *   a rate: the epoch's "train_epoch_items/sec" is another template;
 * - HugeCTR's "Time(1000 iters): 3.878739s" on lines counting 1000 a line:
 *   a window of 1000 steps; "Eval Time for 681 iters: 3.22s" named by its
 *   words before "for".
 */
Test(discover, the_eighth_sets_shapes)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen8/swin-tumor.log", NULL, &c);
	const struct tp_record *r = on_line(&c, TP_TIMING, 356, 0);
	cr_assert_str_eq(r->name, "time");
	cr_assert_eq(r->role, TP_ROLE_STEP);
	cr_assert_float_eq(num(r, S_SECONDS), 0.0325, 0);
	r = on_line(&c, TP_TIMING, 356, 1);
	cr_assert_eq(r->role, TP_ROLE_AVERAGE);
	cr_assert_float_eq(num(r, S_SECONDS), 0.0623, 0);
	cr_assert_float_eq(num(on_line(&c, TP_BATCH, 356, 0), S_BAT_INDEX), 10, 0, "the step's count, not the epoch's");
	cr_assert_eq(count_named(&c, TP_TIMING, "time"), 2622);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen8/mlperf05-gnmt.log", NULL, &c);
	r = on_line(&c, TP_TIMING, 1151, 0);
	cr_assert_eq(r->rank, 2);
	cr_assert_str_eq(r->name, "Time");
	cr_assert_eq(r->role, TP_ROLE_STEP);
	r = on_line(&c, TP_TIMING, 1151, 2);
	cr_assert_str_eq(r->name, "Data");
	cr_assert_eq(r->role, TP_ROLE_COMPONENT);
	cr_assert(r->parent_len == 4 && !memcmp(r->parent, "Time", 4));
	cr_assert_float_eq(num(r, S_SECONDS), 0.00119, 0);
	r = on_line(&c, TP_RATE, 1151, 1);
	cr_assert_eq(r->role, TP_ROLE_AVERAGE);
	cr_assert_float_eq(num(r, S_RATE_VALUE), 60881, 0);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen8/yolact-hw3.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "elapsed"), 9643);
	cr_assert_eq(count_named(&c, TP_TIMING, NULL), 9643, "no Unix time read as a span");
	r = nth_named(&c, TP_TIMING, "elapsed", 1);
	cr_assert_eq(r->line, 28);
	cr_assert_eq(r->role, TP_ROLE_STEP);
	cr_assert_str_eq(r->ts, "2020-12-08T10:17:56.032");
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen8/lambda-waveglow.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_RATE, "train_iter_items"), 624, "both epochs' iterations");
	cr_assert_eq(count_named(&c, TP_TIMING, "iter_time"), 624);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen8/mlperf07-hugectr.log", NULL, &c);
	r = on_line(&c, TP_TIMING, 76, 0);
	cr_assert_str_eq(r->name, "Time(1000 iters)");
	cr_assert_eq(r->role, TP_ROLE_RUNNING);
	cr_assert_float_eq(num(r, S_SECONDS), 3.878739, 0);
	cr_assert_float_eq(num(r, S_TIM_COUNT), 1000, 0);
	cr_assert_str_eq(r->ts, "T02:08:28");
	r = on_line(&c, TP_TIMING, 84, 0);
	cr_assert_str_eq(r->name, "Eval Time");
	cr_assert_eq(r->role, TP_ROLE_NONE, "an evaluation's time is no step");
	cr_assert_float_eq(num(r, S_SECONDS), 3.223326, 0);
	collector_free(&c);
	/* its logger's "[HUGECTR][INFO]: " is no part of the template */
	struct tu_result t = tu_run("$B/tprof-parse --discover tests/data/unseen8/mlperf07-hugectr.log");
	cr_assert(strstr(t.out.buf, "\n#   Iter: <*> Time(<*> iters): <*>s Loss: <*> lr:<*>\n"), "%s", t.out.buf);
	tu_result_free(&t);
}

/* A sum written out is no time of the run's: the GRPO log's generated
 * answers, "Total time = 1 hour + 4 hours = 5 hours" and "Time = 120 miles
 * / 40 mph = 3 hours" (terms, and a result after a sum), were 195 of its
 * 239 false values; an operator needs blanks and a number after it, so
 * "12/50" and "0.5 s / iter" are none */
Test(discover, a_sum_written_out_is_no_time)
{
	struct collector c = { 0 };
	write_text("/tmp/tprof-disc-sum.log", "   - Total time = 1 hour + 4 hours = 5 hours\n"
					      "   - Total time = 3 hours + 3 hours = 6 hours\n"
					      "   - Total time = 2 hour + 2 hours = 4 hours\n"
					      "   - Time = 120 miles / 40 mph = 3 hours\n"
					      "   - Time = 12 miles / 12 mph = 1 hour\n"
					      "   - Time = 30 miles / 10 mph = 3 hour\n"
					      "step 10/50 time: 0.5 s / iter\n"
					      "step 20/50 time: 0.6 s / iter\n"
					      "step 30/50 time: 0.7 s / iter\n");
	read_log_with("/tmp/tprof-disc-sum.log", "", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, NULL), 3, "the steps' times alone");
	cr_assert_float_eq(num(nth_named(&c, TP_TIMING, "time", 2), S_SECONDS), 0.7, 0);
	collector_free(&c);
	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen7/grpo-gemma2.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "Total Time"), 0);
	cr_assert_eq(count_named(&c, TP_TIMING, "Backward"), 200);
	collector_free(&c);
}

/*
 * The shapes the ninth unseen set taught, on its real logs:
 * - DGL's sampling trainer: "| Time 0.9820 | Speed (samples/sec) 519.3363 |",
 *   a time with no unit that ends a field, on a line counting steps (the
 *   step), a rate whose unit is in brackets before it, and "nan" on the
 *   first line where the rate had no time yet (the template holds, no
 *   value); "Epoch Time(s): 390.0861", the unit in brackets after the name;
 * - Caffe's solver: "(2.95174 iter/s, 6.77566s/20 iters)", a window of 20
 *   steps written in the unit, and py-faster-rcnn's "speed: 0.350s / iter",
 *   a time per step with its unit written apart;
 * - a BYOL trainer's "Train epoch 8, total time 18.90, accuracy:12.23";
 * - "±": the mean before it, its deviation no value; "AUC = 0.7128 ±
 *   0.0590" no line of llama-bench's table (no warning).
 */
Test(discover, the_ninth_sets_shapes)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen9/dgl-gat-sampling.log", NULL, &c);
	const struct tp_record *r = on_line(&c, TP_TIMING, 6, 0);
	cr_assert_str_eq(r->name, "Time");
	cr_assert_eq(r->role, TP_ROLE_STEP);
	cr_assert_float_eq(num(r, S_SECONDS), 0.982, 0);
	r = on_line(&c, TP_RATE, 6, 0);
	cr_assert_str_eq(r->name, "Speed");
	cr_assert_float_eq(num(r, S_RATE_VALUE), 519.3363, 0);
	cr_assert(r->text_len == 11 && !memcmp(r->text, "samples/sec", 11));
	cr_assert_eq(count_named(&c, TP_RATE, "Speed"), 137 - 4, "every rate but the four 'nan'");
	cr_assert_float_eq(num(on_line(&c, TP_TIMING, 5, 0), S_SECONDS), 1.1543, 0, "the 'nan' line's time");
	r = on_line(&c, TP_TIMING, 60, 0);
	cr_assert_str_eq(r->name, "Epoch Time");
	cr_assert_float_eq(num(r, S_SECONDS), 390.0861, 0);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen9/caffe-frcnn.log", NULL, &c);
	r = on_line(&c, TP_TIMING, 1, 0);
	cr_assert_str_eq(r->name, "time(20 iters)");
	cr_assert_eq(r->role, TP_ROLE_RUNNING);
	cr_assert_float_eq(num(r, S_SECONDS), 6.77566, 0);
	cr_assert_float_eq(num(r, S_TIM_COUNT), 20, 0);
	r = on_line(&c, TP_TIMING, 39, 0);
	cr_assert_str_eq(r->name, "speed");
	cr_assert_eq(r->role, TP_ROLE_AVERAGE, "a time per step is no span");
	cr_assert_float_eq(num(r, S_SECONDS), 0.35, 0);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen9/byol-linear.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "total time"), 26);
	cr_assert_float_eq(num(on_line(&c, TP_TIMING, 353, 0), S_SECONDS), 21.53, 0);
	collector_free(&c);

	/* the window's count survives the way into a rules file */
	char *dir = tu_tmpdir("ninth");
	cr_assert_not_null(dir);
	struct tu_result t = tu_run("$B/tprof-parse --discover tests/data/unseen9/caffe-frcnn.log > %s/caffe.rules && "
				    "$B/tprof-parse --no-discovery --rules %s/caffe.rules tests/data/unseen9/caffe-frcnn.log "
				    "| grep -c '\"count\":20'",
				    dir, dir);
	cr_assert_str_eq(t.out.buf, "20\n", "%s", t.err.buf);
	tu_result_free(&t);
	tu_rmtree(dir);

	t = tu_run("printf 'step 1 time 1.2 \\302\\261 0.1 s\\nstep 2 time 1.3 \\302\\261 0.1 s\\n"
		   "step 3 time 1.1 \\302\\261 0.2 s\\n>>> PAPER: AUC = 0.7128 \\302\\261 0.0590\\n' | "
		   "$B/tprof-parse - | grep -o '\"line\":[0-9]*,\"role\":\"[a-z]*\",\"name\":\"[^\"]*\",\"seconds\":[0-9.]*'");
	cr_assert_str_eq(t.out.buf,
			 "\"line\":1,\"role\":\"step\",\"name\":\"time\",\"seconds\":1.2\n"
			 "\"line\":2,\"role\":\"step\",\"name\":\"time\",\"seconds\":1.3\n"
			 "\"line\":3,\"role\":\"step\",\"name\":\"time\",\"seconds\":1.1\n",
			 "%s", t.out.buf);
	cr_assert_str_eq(t.err.buf, "");
	tu_result_free(&t);
}

/*
 * The shapes the tenth unseen set taught, on its real logs:
 * - a Keras PSPNet trainer's "0/10105 in 0 epoch finished at time
 *   0:00:23.953285 from start": a clock after a time word and a blank;
 * - an SNN trainer's "Time elasped: 15.817720174789429": one word after
 *   the time word, however it is spelt ("time step: 5" is a count);
 * - ConcatBERT's "Time/Batch(ms) 691.84": a time's unit in brackets;
 * - a k-fold trainer's "speed 160 images/persec";
 * - Megatron's "elapsed time per iteration (ms): 12465.5", which its pack
 *   reads: in seconds, the same value, which discovery reads no second time.
 */
Test(discover, the_tenth_sets_shapes)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen10/keras-pspnet-ade20k.log", NULL, &c);
	const struct tp_record *r = on_line(&c, TP_TIMING, 5, 0);
	cr_assert_float_eq(num(r, S_SECONDS), 23.953285, 1e-9);
	cr_assert_eq(count_named(&c, TP_TIMING, r->name), 20210);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen10/asgl-snn-cifar100.log", NULL, &c);
	r = on_line(&c, TP_TIMING, 329, 0);
	cr_assert_str_eq(r->name, "Time elasped");
	cr_assert_float_eq(num(r, S_SECONDS), 15.817720174789429, 1e-12);
	cr_assert_eq(count_named(&c, TP_TIMING, "Time elasped"), 900);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen10/concatbert-mmimdb.log", NULL, &c);
	r = on_line(&c, TP_TIMING, 4, 0);
	cr_assert_str_eq(r->name, "Time/Batch");
	cr_assert_float_eq(num(r, S_SECONDS), 0.69184, 1e-12);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen10/torch-classifier-folds.log", NULL, &c);
	r = on_line(&c, TP_RATE, 44, 0);
	cr_assert_float_eq(num(r, S_RATE_VALUE), 160, 0);
	cr_assert(r->text_len == 13 && !memcmp(r->text, "images/persec", 13));
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/real/megatron-elena.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "elapsed time per iteration"), 0, "the pack's batch holds it");
	cr_assert_float_eq(num(on_line(&c, TP_BATCH, 24, 0), S_SECONDS), 12.4655, 1e-9);
	collector_free(&c);

	struct tu_result t = tu_run("printf 'time step: 5\\ntime step: 6\\ntime step: 7\\ntime step: 9\\n' | $B/tprof-parse -");
	cr_assert_str_eq(t.out.buf, "", "a count of time steps is no time");
	tu_result_free(&t);
}

/*
 * The shapes the eleventh unseen set taught, on its real logs:
 * - PaddleClas's "batch_cost: 6.33418s, reader_cost: 2.21849, ips: 20.2
 *   samples/s, eta: 1 day, 4:57:49" and PaddleOCR's "reader_cost: 2.98897 s,
 *   batch_cost: 5.33197 s, samples: 704, ips: 13.20337": reader_cost with
 *   no unit is a time, the data loading within batch_cost (whose name,
 *   qualified "Train batch_cost", its parent carries too); a bare "ips" is
 *   samples a second; the hours after "1 day," are no time of their own;
 * - a wait's noise rising on a template's first lines ("reader_cost:
 *   0.00027", 0.00028, 0.00085) is no clock, nor is "sample processed in
 *   74.50s" (the seventh set's GRPO log), a span by its words.
 */
Test(discover, the_eleventh_sets_shapes)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen11/paddleclas-cait.log", NULL, &c);
	const struct tp_record *r = on_line(&c, TP_TIMING, 776, 1);
	cr_assert_str_eq(r->name, "Train reader_cost");
	cr_assert_eq(r->role, TP_ROLE_COMPONENT);
	cr_assert(r->parent_len == 16 && !memcmp(r->parent, "Train batch_cost", 16));
	cr_assert_float_eq(num(r, S_SECONDS), 2.21849, 1e-12);
	cr_assert_eq(count_named(&c, TP_TIMING, "Train reader_cost"), 4127, "no clock among them");
	for (size_t k = 0; k < c.n; k++)
		cr_assert(!c.v[k].name || !strstr(c.v[k].name, "Train Train"), "line %llu: %s",
			  (unsigned long long)c.v[k].rec.line, c.v[k].name);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen11/paddleocr-carplate-rec.log", NULL, &c);
	r = on_line(&c, TP_RATE, 7688, 0);
	cr_assert_str_eq(r->name, "ips");
	cr_assert_float_eq(num(r, S_RATE_VALUE), 13.20337, 1e-12);
	cr_assert(r->text_len == 9 && !memcmp(r->text, "samples/s", 9));
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen7/grpo-gemma2.log", NULL, &c);
	r = nth_named(&c, TP_TIMING, "sample processed", 0);
	cr_assert_eq(r->role, TP_ROLE_NONE, "a span, not a clock");
	cr_assert_float_eq(num(r, S_SECONDS), 74.5, 1e-12);
	collector_free(&c);
}

/*
 * The shapes the twelfth unseen set taught, on its real logs:
 * - CIRKD's "Cost Time: 0:00:20 || Estimated Time: 11:13:35": an ETA
 *   however its words are capitalised, no value;
 * - PaddleDetection's "batch_cost: 1.4965 data_cost: 0.0003" (data_cost
 *   the data loading within the batch) and its evaluation's "average FPS:
 *   9.339532106662555", a rate with no unit.
 */
Test(discover, the_twelfth_sets_shapes)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen12/cirkd-deeplabv3-r18.log", NULL, &c);
	cr_assert_eq(count_named(&c, TP_TIMING, "Estimated Time"), 0);
	cr_assert_eq(count_named(&c, TP_TIMING, "Cost Time"), 2000);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen12/ppdet-rtdetr-ssdd.log", NULL, &c);
	const struct tp_record *r = on_line(&c, TP_TIMING, 23, 1);
	cr_assert_str_eq(r->name, "data_cost");
	cr_assert_eq(r->role, TP_ROLE_COMPONENT);
	cr_assert_float_eq(num(r, S_SECONDS), 0.0003, 1e-12);
	r = on_line(&c, TP_RATE, 66, 0);
	cr_assert_float_eq(num(r, S_RATE_VALUE), 9.339532106662555, 1e-12);
	collector_free(&c);
}

/*
 * The thirteenth and fourteenth sets' shapes (tests/data/unseen13, 14):
 * the shell's time report ("real    0m0.218s": real the command's span,
 * user and sys CPU time, no time of the run's), a compound written as one
 * word ("26m20.354s"), days before a clock ("took 0-00:00:28", XNMT's), a
 * word between a rate and its unit ("418028 effective words/s", gensim),
 * a unit in brackets after the number ("total used time 7.178 (s)"),
 * blanks after a time word ("cost time  1.44"), and a time word heading
 * labelled numbers ("cost time pnet-- 1.47   rnet-- 0.02").
 */
Test(discover, the_thirteenth_and_fourteenth_sets_shapes)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen13/ncrfpp-mysent-tagging.log", NULL, &c);
	const struct tp_record *r = on_line(&c, TP_TIMING, 195, 0);
	cr_assert_str_eq(r->name, "real");
	cr_assert_eq(r->role, TP_ROLE_PHASE);
	cr_assert_float_eq(num(r, S_SECONDS), 0.218, 1e-12);
	r = on_line(&c, TP_TIMING, 196, 0);
	cr_assert_str_eq(r->name, "user");
	cr_assert_eq(r->role, TP_ROLE_QUANTITY);
	cr_assert_eq(count_named(&c, TP_TIMING, "real"), 28);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen13/xnmt-medical-nmt.log", NULL, &c);
	cr_assert_float_eq(num(on_line(&c, TP_TIMING, 329, 0), S_SECONDS), 28, 1e-12);
	cr_assert_float_eq(num(on_line(&c, TP_TIMING, 396, 0), S_SECONDS), 26 * 60 + 20.354, 1e-9);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen13/gensim-word2vec-bilingual.log", NULL, &c);
	r = on_line(&c, TP_RATE, 111, 0);
	cr_assert_float_eq(num(r, S_RATE_VALUE), 418028, 1e-9);
	cr_assert_str_eq(r->text, "words/s");
	cr_assert_float_eq(num(on_line(&c, TP_TIMING, 111, 0), S_SECONDS), 23.5, 1e-12);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen14/prednet-paddle-kitti.log", NULL, &c);
	r = on_line(&c, TP_TIMING, 25, 0);
	cr_assert_str_eq(r->name, "total used time");
	cr_assert_float_eq(num(r, S_SECONDS), 7.178124904632568, 1e-12);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen14/mtcnn-wider.log", NULL, &c);
	cr_assert_float_eq(num(on_line(&c, TP_TIMING, 741, 0), S_SECONDS), 1.4422030448913574, 1e-12);
	r = on_line(&c, TP_TIMING, 14700, 1);
	cr_assert_str_eq(r->name, "rnet");
	cr_assert_float_eq(num(r, S_SECONDS), 0.020955324172973633, 1e-12);
	cr_assert_eq(count_named(&c, TP_TIMING, "cost time"), 12879);
	collector_free(&c);
}

/*
 * The fifteenth and sixteenth sets' shapes (tests/data/unseen15, 16): a
 * verb between a time's name and its number ("time consumption is
 * 1.32521653,"), an SI letter on a rate's number ("113.4k tok/s": 113,400
 * tokens a second), and the tokens a step trains on from the log's
 * header ("Tokens / optimizer step : 32,768", nanoGPT's "tokens per
 * iteration will be: 491,520"), a config record.
 */
Test(discover, the_fifteenth_and_sixteenth_sets_shapes)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen16/east-evjeny-icdar.log", NULL, &c);
	const struct tp_record *r = on_line(&c, TP_TIMING, 4, 0);
	cr_assert_str_eq(r->name, "time consumption");
	cr_assert_float_eq(num(r, S_SECONDS), 1.32521653, 1e-12);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen15/qwen3-pretrain.log", NULL, &c);
	r = on_line(&c, TP_RATE, 20, 0);
	cr_assert_float_eq(num(r, S_RATE_VALUE), 113400, 1e-6);
	cr_assert_str_eq(r->name, "tok");
	cr_assert_str_eq(r->text, "tok/s");
	r = collected_find(&c, TP_CONFIG, "tokens_per_step");
	cr_assert_not_null(r);
	cr_assert_eq(r->line, 14);
	cr_assert_float_eq(num(r, S_META_VALUE), 32768, 1e-9);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	write_text("/tmp/tprof-disc-tokens.log", "tokens per iteration will be: 491,520\nTokens per step: 1e6\n");
	read_log("/tmp/tprof-disc-tokens.log", NULL, &c);
	r = collected_find(&c, TP_CONFIG, "tokens_per_step");
	cr_assert_not_null(r);
	cr_assert_float_eq(num(r, S_META_VALUE), 491520, 1e-9);
	cr_assert_eq(collected_count(&c, TP_CONFIG), 1, "'1e6' is no count of tokens as printed");
	collector_free(&c);
}

/*
 * The seventeenth and eighteenth sets' shapes (tests/data/unseen17, 18):
 * a unit in square brackets on the number ("Time per batch: 2.648[s]
 * Speed: 3.0[samples/s]", reid-strong-baseline's), "time per batch" a
 * step's time, CleanRL's bare "SPS: 1000" (samples a second), a compound
 * in words ("costs 9 mins 54 seconds") under asctime's stamp in brackets
 * ("[ Mon Dec  1 22:54:11 2025 ] ", VAC's print_log), a time in minutes
 * its name says ("total time: 0.00m"), and a total on a line that counts
 * steps, below the line's step time, a clock, not a part of the step
 * (nanochat's; IMON's "Steps 10, Total time 5.99" stays the step).
 */
Test(discover, the_seventeenth_and_eighteenth_sets_shapes)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen18/reid-baseline-ranzcr.log", NULL, &c);
	const struct tp_record *r = on_line(&c, TP_TIMING, 71, 0);
	cr_assert_str_eq(r->name, "Time per batch");
	cr_assert_float_eq(num(r, S_SECONDS), 2.648, 1e-12);
	r = on_line(&c, TP_RATE, 71, 0);
	cr_assert_float_eq(num(r, S_RATE_VALUE), 3.0, 1e-12);
	cr_assert_str_eq(r->text, "samples/s");
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen17/maniskill-ppo-hyper.log", NULL, &c);
	r = on_line(&c, TP_RATE, 30, 0);
	cr_assert_str_eq(r->name, "SPS");
	cr_assert_float_eq(num(r, S_RATE_VALUE), 1000, 1e-12);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen18/slr-resnet-phoenix.log", NULL, &c);
	r = on_line(&c, TP_TIMING, 21, 0);
	cr_assert_float_eq(num(r, S_SECONDS), 9 * 60 + 54, 1e-12);
	cr_assert_str_eq(r->ts, "2025-12-01T22:54:11");
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen17/nanochat-nanobot.log", NULL, &c);
	r = on_line(&c, TP_TIMING, 298, 0);
	cr_assert_str_eq(r->name, "dt");
	cr_assert_eq(r->role, TP_ROLE_STEP);
	r = on_line(&c, TP_TIMING, 298, 1);
	cr_assert_str_eq(r->name, "total time");
	cr_assert_eq(r->role, TP_ROLE_CLOCK);
	cr_assert_float_eq(num(r, S_SECONDS), 0, 1e-12);
	collector_free(&c);
}

/*
 * The twentieth set's shapes (tests/data/unseen20): a time word's unitless
 * number a tab ends ("Test: [0/547]\t Time 32.7353889942\t EPE 6.93",
 * FADNet's evaluation, after Python logging's "[dltrainer.py:303] INFO "),
 * and a time per thing with its unit before it ("sec/kimg 30.33",
 * StyleGAN2-ADA's), an average.
 */
Test(discover, the_twentieth_sets_shapes)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen20/fadnet-dispnetcres.log", NULL, &c);
	const struct tp_record *r = on_line(&c, TP_TIMING, 153, 0);
	cr_assert_float_eq(num(r, S_SECONDS), 32.7353889942, 1e-12);
	collector_free(&c);

	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen20/stylegan2ada-watermark.log", NULL, &c);
	r = on_line(&c, TP_TIMING, 55253, 2);
	cr_assert_str_eq(r->name, "sec/kimg");
	cr_assert_eq(r->role, TP_ROLE_AVERAGE);
	cr_assert_float_eq(num(r, S_SECONDS), 30.33, 1e-12);
	collector_free(&c);
}

/* Python logging's "%(asctime)s [%(filename)s:%(lineno)d] %(levelname)s
 * %(message)s": the file, line and level go after the stamp, and do not
 * name the template's value ("INFO epoch" before). */
Test(discover, a_file_and_line_before_the_level)
{
	struct collector c = { 0 };
	write_text("/tmp/tprof-disc-fileline.log", "2019-08-27 11:11:39,567 [dltrainer.py:303] INFO epoch took 2.5s\n"
						   "2019-08-27 11:11:40,567 [dltrainer.py:303] INFO epoch took 3.5s\n"
						   "2019-08-27 11:11:41,567 [dltrainer.py:303] INFO epoch took 4.5s\n");
	read_log("/tmp/tprof-disc-fileline.log", NULL, &c);
	const struct tp_record *r = nth_named(&c, TP_TIMING, "epoch", 2);
	cr_assert_not_null(r);
	cr_assert_str_eq(r->ts, "2019-08-27T11:11:41.567");
	collector_free(&c);
}

/* The records of type t on line of c. */
static size_t on_line_count(const struct collector *c, enum tp_type t, uint64_t line)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++)
		n += c->v[i].rec.type == t && c->v[i].rec.line == line;
	return n;
}

/*
 * OpenPCDet's "Time cost: 00:14/1:52:49 [00:14/101:32:06]" (the twentieth
 * set): the clock after an elapsed one and a slash is what remains, no
 * time that passed; and its "Forward time: 0.31(0.86)  Batch time:
 * 0.31(0.96)", whose batch time the batch-time pack reads: the forward
 * time, printing the same number, is still the miner's to read, as is the
 * batch time's mean where it equals the batch time ("14.59(14.59)").
 */
Test(discover, elapsed_and_remaining_clocks_and_a_value_printed_twice)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen20/openpcdet-second-kitti.log", NULL, &c);
	/* line 276: 00:14 twice (epoch, run), data, forward, the batch's mean */
	cr_assert_eq(on_line_count(&c, TP_TIMING, 276), 7);
	for (size_t k = 0; k < 7; k++) {
		const struct tp_record *r = on_line(&c, TP_TIMING, 276, k);
		cr_assert(num(r, S_SECONDS) < 100, "%s: %g (a remaining time)", r->name, num(r, S_SECONDS));
	}
	const struct tp_record *r = on_line(&c, TP_TIMING, 276, 6);
	cr_assert_str_eq(r->name, "Batch time (mean)");
	cr_assert_float_eq(num(r, S_SECONDS), 14.59, 1e-12);
	cr_assert_float_eq(num(on_line(&c, TP_BATCH, 277, 0), S_SECONDS), 0.31, 1e-12);
	r = on_line(&c, TP_TIMING, 277, 4);
	cr_assert_str_eq(r->name, "Forward time");
	cr_assert_eq(r->role, TP_ROLE_COMPONENT);
	cr_assert_float_eq(num(r, S_SECONDS), 0.31, 1e-12);
	collector_free(&c);
}

/*
 * The twenty-second and twenty-fourth sets' shapes: a time key in a JSON
 * object on one line (Barlow Twins' stats "{..., \"time\": 99}"), a time
 * word with a bracketed qualifier ("time (data): 0.110", a PaddlePaddle
 * denoiser's iteration time) and a time word then "is" ("The MLP time is
 * 29.01566457748413", a DLRM fork's). A pretty-printed JSON document's
 * "time": lines are not a log's (samples/kan-timing.json as a log).
 */
/* A timing record a real log's line must give: the k-th of its line, its
 * name, role and seconds. */
struct line_value {
	const char *log;
	uint64_t line;
	size_t k;
	const char *name;
	enum tp_role role;
	double seconds;
};

/* Each of v's records, each log read as a user runs it; with count, the
 * first's line gives no other timing record. */
static void expect_line_values(const struct line_value *v, size_t n, int count)
{
	struct collector c = { 0 };
	for (size_t i = 0; i < n; i++) {
		memset(&c, 0, sizeof(c));
		read_log(v[i].log, NULL, &c);
		const struct tp_record *r = on_line(&c, TP_TIMING, v[i].line, v[i].k);
		cr_assert_str_eq(r->name, v[i].name, "%s", v[i].log);
		cr_assert_eq(r->role, v[i].role, "%s: %s", v[i].log, r->name);
		cr_assert_float_eq(num(r, S_SECONDS), v[i].seconds, 1e-12, "%s", v[i].log);
		if (count && i == 0)
			cr_assert_eq(on_line_count(&c, TP_TIMING, v[i].line), 1, "%s: one record", v[i].log);
		collector_free(&c);
	}
}

Test(discover, a_json_key_a_qualified_time_and_time_is)
{
	static const struct line_value v[] = {
		{ "tests/data/unseen24/barlowtwins-stats.log", 16, 0, "time", TP_ROLE_STEP, 99 },
		{ "tests/data/unseen24/nbnet-paddle-denoise.log", 366, 0, "time (data)", TP_ROLE_STEP, 0.110 },
		{ "tests/data/unseen22/dlrm-kaggle-sweep.log", 765, 0, "The MLP time", TP_ROLE_NONE, 29.01566457748413 },
	};
	expect_line_values(v, ARRAY_SIZE(v), 0);
	struct collector c = { 0 };
	read_log("samples/kan-timing.json", NULL, &c);
	cr_assert_eq(on_line_count(&c, TP_TIMING, 6), 0);
	collector_free(&c);
}

/*
 * The twenty-fifth to twenty-eighth sets' shapes, on their real logs:
 * - PyMARL's "Estimated time left: 9 hours, 50 minutes, 6 seconds. Time
 *   passed: 1 minutes, 24 seconds": a compound whose parts commas join is
 *   one time; the estimate is none, the time passed a clock;
 * - a Python tuple's quoted label, "('time:', 11.89)";
 * - a logger's table row "| timelapsed | 584 |" (OpenAI baselines' TRPO),
 *   a clock;
 * - pytracking's "DataTime: 0.426  ,  ForwardTime: 0.757  ,  TotalTime:
 *   1.239": the total the others add up to is the step, they its parts;
 * - a namespaced JSON key, "{\"stats/epoch_time\": 71.26, ...}".
 */
Test(discover, the_twenty_fifth_to_twenty_eighth_sets_shapes)
{
	/* the first: the estimate before it on its line is no time */
	static const struct line_value v[] = {
		{ "tests/data/unseen26/pymarl-smix-8m.log", 361, 0, "Time passed", TP_ROLE_CLOCK, 84 },
		{ "tests/data/unseen25/region-embedding-agnews.log", 1, 0, "time", TP_ROLE_NONE, 11.890928983688354 },
		{ "tests/data/unseen26/baselines-trpo-pickbot.log", 19, 0, "timelapsed", TP_ROLE_CLOCK, 584 },
		{ "tests/data/unseen27/ostrack-stltrack.log", 1, 2, "ForwardTime", TP_ROLE_COMPONENT, 0.757 },
		{ "tests/data/unseen27/ostrack-stltrack.log", 1, 3, "TotalTime", TP_ROLE_STEP, 1.239 },
		{ "tests/data/unseen27/tops-ssd-scalars.log", 51, 0, "stats/epoch_time", TP_ROLE_NONE, 71.26327991485596 },
	};
	expect_line_values(v, ARRAY_SIZE(v), 1);
}

/*
 * What the twenty-ninth to thirty-third sets taught the miner, on their
 * real logs:
 * - Python's timedelta past a day, "Elapsed: 1 day, 0:10:38" (StudioGAN,
 *   whose line before printed "Elapsed: 23:50:43"), is one clock, and the
 *   line keeps its template (it was read as 1 s, a step); the rules
 *   --discover writes read it too;
 * - a value that rose by steady steps on the lines before its template
 *   qualified is a clock though it did not double (CatBoost's
 *   "passed_time": 0.2405, 0.3521, 0.4523: a step of 48 s before);
 * - tqdm's close() redraws a nested bar in place with the run's mean rate
 *   ("| 469/469 [05:33<00:00, 1.51minibatch/s]\x1b[A\r100%|...| 469/469
 *   [05:33<00:00, 1.41minibatch/s]"): only that last redraw's rate is the
 *   bar's.
 */
Test(discover, the_twenty_ninth_to_thirty_third_sets_shapes)
{
	static const struct line_value v[] = {
		{ "tests/data/unseen29/studiogan-biggan2048-imagenet.log", 285, 0, "Elapsed", TP_ROLE_CLOCK, 87038 },
		{ "tests/data/unseen29/studiogan-biggan2048-imagenet.log", 284, 0, "Elapsed", TP_ROLE_CLOCK, 85843 },
		{ "tests/data/unseen30/catboost-training-json-loan-payback.log", 4, 0, "passed_time", TP_ROLE_CLOCK,
		  0.2405312257 },
	};
	expect_line_values(v, ARRAY_SIZE(v), 1);
	char *dir = tu_tmpdir("days");
	cr_assert(dir);
	struct tu_result t = tu_run("$B/tprof-parse --discover tests/data/unseen29/studiogan-biggan2048-imagenet.log "
				    "> %s/studiogan.rules && $B/tprof-parse --no-discovery --rules %s/studiogan.rules "
				    "tests/data/unseen29/studiogan-biggan2048-imagenet.log | grep -c '\"seconds\":87038}'",
				    dir, dir);
	cr_assert_eq(t.status, 0, "%s", t.err.buf);
	cr_expect_str_eq(t.out.buf, "1\n");
	tu_result_free(&t);
	tu_rmtree(dir);
	struct collector c = { 0 };
	read_log("tests/data/unseen29/ddpm-mnist-dtu-hpc.log", NULL, &c);
	cr_assert_eq(on_line_count(&c, TP_RATE, 478), 1);
	cr_expect_float_eq(num(on_line(&c, TP_RATE, 478, 0), S_RATE_VALUE), 1.41, 1e-12);
	collector_free(&c);
	/* its elapsed a second later ("498/498 [3:45:36<00:00, 25.29s/it]\x1b[A
	 * \r...498/498 [3:45:37<00:00, 27.18s/it]", a BERT SQuAD run on CPU) */
	memset(&c, 0, sizeof(c));
	read_log("tests/data/unseen34/hfsquad-bert-qa-cpu.log", NULL, &c);
	cr_assert_eq(on_line_count(&c, TP_RATE, 4894), 1);
	cr_expect_float_eq(num(on_line(&c, TP_RATE, 4894, 0), S_RATE_VALUE), 1 / 27.18, 1e-12);
	collector_free(&c);
}

/*
 * DeePMD-kit's "batch     100 training time 0.97 s, testing time 0.00 s,
 * total wall time 1.33 s": a total that holds the line's other times and
 * more (the first window's set-up) is still their step, they its parts
 * (they were three parts of a step of their sum, twice the time).
 */
Test(discover, a_total_that_holds_the_other_times_and_more_is_their_step)
{
	static const struct line_value v[] = {
		{ "tests/data/unseen22/deepmd-na7-train.log", 112, 0, "training time", TP_ROLE_COMPONENT, 0.97 },
		{ "tests/data/unseen22/deepmd-na7-train.log", 112, 2, "total wall time", TP_ROLE_STEP, 1.33 },
		{ "tests/data/unseen22/deepmd-na7-train.log", 113, 2, "total wall time", TP_ROLE_STEP, 0.67 },
	};
	expect_line_values(v, ARRAY_SIZE(v), 0);
}

/*
 * Stamps where the lines put them: IMON's "*Dec01-2035*  2019-12-01
 * 12:59:29 Steps 10, Total time 5.99, ..." (a run's tag in asterisks
 * before the stamp) and an AOT-GAN trainer's "... time:[2022-08-26
 * 21:35:14]" ending each line: the IMON run's wall is 3,115 s (1,306 s,
 * its steps, before) and its 1,439 s before the first step its start-up;
 * the AOT-GAN run's 361,425 s (nothing read before).
 */
Test(discover, a_tag_before_the_stamp_and_a_stamp_in_brackets_at_the_end)
{
	struct collector c = { 0 };
	read_log("tests/data/unseen14/imon-rcn-registration.log", NULL, &c);
	const struct tp_record *r = on_line(&c, TP_TIMING, 152, 0);
	cr_assert_str_eq(r->ts, "2019-12-01T12:59:29");
	cr_expect_float_eq(num(r, S_SECONDS), 5.99, 1e-12);
	collector_free(&c);
	struct tu_result t = tu_run("$B/tprof-analyze -q -f json tests/data/unseen14/imon-rcn-registration.log");
	cr_expect(strstr(t.out.buf, "\"wall\":3115,\"wall_from\":\"timestamps\""), "%.300s", strstr(t.out.buf, "\"runs\""));
	cr_expect(strstr(t.out.buf, "\"kind\":\"startup\""), "%.600s", t.out.buf);
	tu_result_free(&t);
	t = tu_run("$B/tprof-analyze -q -f json tests/data/unseen29/aot-gan-paddle-places2.log");
	cr_expect(strstr(t.out.buf, "\"wall\":361425,\"wall_from\":\"timestamps\""), "%.300s", strstr(t.out.buf, "\"runs\""));
	tu_result_free(&t);
}

/*
 * A stamped line that counts steps and prints no time ("[ Mon Dec  1
 * 22:56:03 2025 ] Epoch: 1, Batch(400/1417) done. Loss: 47.68", a sign
 * language trainer's; flair's "epoch 1 - iter 13/135 - loss 29.7"): the
 * scan takes it for the miner (a digit, '/', a digit; then a word that
 * counts steps before the count), and its template's count goes out as a
 * batch index with the line's stamp, the analysis's "step (time stamps)".
 * Dates, fractions, an epoch's or a channel's count are no count of
 * steps; a count on an unstamped line gives no record.
 */
Test(discover, a_stamped_count_of_steps_is_a_batch_index)
{
	static const struct {
		const char *line;
		int counts;
	} v[] = {
		{ "epoch 1 - iter 13/135 - loss 29.71983283", 1 },
		{ "Epoch: 1, Batch(200/1417) done. Loss: 71.57565308  lr:0.000100", 1 },
		{ "[Epoch 1 Batch 170/274] loss=0.4463, lr=0.0000181", 1 },
		{ "Epoch[1] Iteration[50/3385] Loss: 0.456, Acc: 0.887", 1 },
		{ "step: 12/500 loss 1.2", 1 },
		{ "Saved 12/01/2025 batch 3", 0 },
		{ "NCCL INFO Channel 03/24 :    0   1   2   3", 0 },
		{ "Epoch 8/50", 0 },
		{ "batch 1.5/2 done", 0 },
		{ "iter 13/ 135", 0 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		const char *s = v[i].line, *e = s + strlen(s);
		cr_expect_eq(tp_disc_has_counter(s, e), v[i].counts, "%s", s);
		/* the scan passes no line the counter test takes */
		if (v[i].counts)
			cr_expect_eq(tp_disc_next_line(s, e, e, NULL), s, "%s", s);
	}
	struct collector c = { 0 };
	read_log("tests/data/unseen18/slr-resnet-phoenix.log", NULL, &c);
	const struct tp_record *r = on_line(&c, TP_BATCH, 24, 0);
	cr_assert_not_null(r);
	cr_expect_float_eq(num(r, S_BAT_INDEX), 200, 1e-12);
	cr_expect_str_eq(r->ts, "2025-12-01T22:55:10");
	collector_free(&c);
	char *dir = tu_tmpdir("counts");
	cr_assert(dir);
	char path[512];
	snprintf(path, sizeof(path), "%s/unstamped.log", dir);
	write_text(path, "epoch 1 - iter 13/135 - loss 1.5\nepoch 1 - iter 26/135 - loss 1.4\n"
			 "epoch 1 - iter 39/135 - loss 1.3\nepoch 1 - iter 52/135 - loss 1.2\n");
	memset(&c, 0, sizeof(c));
	read_log(path, NULL, &c);
	cr_expect_eq(c.n, 0, "a count without a stamp: no record");
	collector_free(&c);
	snprintf(path, sizeof(path), "%s/stamped.log", dir);
	write_text(path, "2019-09-13 16:56:35,011 epoch 1 - iter 13/135 - loss 1.5\n"
			 "2019-09-13 16:56:59,097 epoch 1 - iter 26/135 - loss 1.4\n"
			 "2019-09-13 16:57:21,746 epoch 1 - iter 39/135 - loss 1.3\n");
	memset(&c, 0, sizeof(c));
	read_log(path, NULL, &c);
	cr_expect_eq(on_line_count(&c, TP_BATCH, 1), 1);
	cr_expect_eq(on_line_count(&c, TP_BATCH, 3), 1);
	cr_expect_float_eq(num(on_line(&c, TP_BATCH, 3, 0), S_BAT_INDEX), 39, 1e-12);
	collector_free(&c);
	tu_rmtree(dir);
}
