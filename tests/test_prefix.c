/*
 * test_prefix.c - logging libraries' prefixes are stripped before any
 * format is recognized (parse/lines/prefix.c): one test per form, each asserting
 * the record behind the prefix, its values and the prefix's timestamp.
 */
#include "golden.h"
#include "base/timestamp.h"
#include "parse/rules/rules.h"

static void parse_str(const char *text, struct collector *c)
{
	golden_parse_text("p.log", text, strlen(text), c);
}

static const struct tp_record *one(struct collector *c, enum tp_type type, const char *name)
{
	cr_assert_eq(c->nwarn, 0, "%s", c->nwarn ? c->warnings[0] : "");
	cr_assert_eq(c->n, 1, "%zu records", c->n);
	const struct tp_record *r = collected_find(c, type, name);
	cr_assert_not_null(r, "no %s record '%s'", tp_schemas[type].type_name, name ? name : "");
	return r;
}

/* %(asctime)s - %(name)s - %(levelname)s - %(message)s */
Test(prefix, python_logging_default_dash_format)
{
	struct collector c = { 0 };
	parse_str("2024-11-24 12:00:00,123 - train.loop - INFO - [TIMING] Data loading: 1.50s\n", &c);
	const struct tp_record *r = one(&c, TP_TIMING, "Data loading");
	cr_assert_float_eq(r->num[S_SECONDS], 1.5, 1e-12);
	cr_assert_str_eq(r->ts, "2024-11-24T12:00:00.123");
	collector_free(&c);
}

/* S4's file handler: ... - %(funcName)s:%(lineno)d - %(message)s, level coloured */
Test(prefix, python_logging_with_caller)
{
	struct collector c = { 0 };
	parse_str("2024-11-24 12:00:05 - utils.memory_monitor - \033[32mINFO\033[0m - on_epoch_end:758 -   "
		  "Epoch end: 4.774s total, GPU 14.4MB allocated, 3236.0MB reserved, peak 2880.0MB\n",
		  &c);
	const struct tp_record *r = one(&c, TP_EPOCH, NULL);
	cr_assert_float_eq(r->num[S_SECONDS], 4.774, 1e-12);
	cr_assert_float_eq(r->num[S_EP_RESERVED_MB], 3236.0, 1e-12);
	cr_assert_str_eq(r->ts, "2024-11-24T12:00:05");
	collector_free(&c);
}

/* [%(name)s] %(levelname)s: %(message)s (S4's console handler) */
Test(prefix, python_logging_bracketed_name)
{
	struct collector c = { 0 };
	parse_str("[utils.memory_monitor] \033[32mINFO\033[0m:   Batch 3: 0.182s, GPU 23.1MB, CPU 1681.0MB\n", &c);
	const struct tp_record *r = one(&c, TP_BATCH, NULL);
	cr_assert_float_eq(r->num[S_BAT_INDEX], 3, 0);
	cr_assert_float_eq(r->num[S_SECONDS], 0.182, 1e-12);
	cr_assert_float_eq(r->num[S_BAT_CPU_MB], 1681.0, 1e-12);
	collector_free(&c);
}

/* %(levelname)s:%(name)s:%(message)s (logging.basicConfig's default) */
Test(prefix, python_logging_basic_config)
{
	struct collector c = { 0 };
	parse_str("WARNING:trainer:MLP training complete: 45.32s total\n", &c);
	const struct tp_record *r = one(&c, TP_COMPLETE, "MLP training");
	cr_assert_float_eq(r->num[S_SECONDS], 45.32, 1e-12);
	collector_free(&c);
}

/* loguru: time | LEVEL | module:function:line - message */
/* FAIR's LogFormatter (SwAV, tests/data/unseen3): "%s - %s - %s" of the
 * level, strftime("%x %X") and the time since the start; LeRobot's: the
 * level, the time, the caller's last 15 characters. */
Test(prefix, fair_log_formatter_and_lerobot)
{
	struct collector c = { 0 };
	parse_str("INFO - 09/02/20 18:08:49 - 0:00:21 - [TIMING] Data loading: 1.50s\n", &c);
	const struct tp_record *r = one(&c, TP_TIMING, "Data loading");
	cr_assert_float_eq(r->num[S_SECONDS], 1.5, 1e-12);
	cr_assert_str_eq(r->ts, "2020-09-02T18:08:49");
	collector_free(&c);
	memset(&c, 0, sizeof(c));
	parse_str("INFO 2026-06-12 10:53:24 ot_train.py:357 [TIMING] Forward: 0.25s\n", &c);
	r = one(&c, TP_TIMING, "Forward");
	cr_assert_float_eq(r->num[S_SECONDS], 0.25, 1e-12);
	cr_assert_str_eq(r->ts, "2026-06-12T10:53:24");
	collector_free(&c);
}

Test(prefix, loguru)
{
	struct collector c = { 0 };
	parse_str("2024-11-24 12:00:00.123 | INFO     | __main__:train:42 - [Performance] step: 1.234s, "
		  "CPU +250.5MB, GPU +512.0MB\n",
		  &c);
	const struct tp_record *r = one(&c, TP_PERF, "step");
	cr_assert_float_eq(r->num[S_SECONDS], 1.234, 1e-12);
	cr_assert_float_eq(r->num[S_PERF_GPU_DELTA_MB], 512.0, 1e-12);
	cr_assert_str_eq(r->ts, "2024-11-24T12:00:00.123");
	collector_free(&c);
}

/* rich's handler: [time] LEVEL    message          file.py:123 (time left out when it repeats) */
Test(prefix, rich_console_handler)
{
	struct collector c = { 0 };
	parse_str("[11/24/26 12:00:00] INFO     MLP training complete: 45.32s total                timing.py:31\n"
		  "                    INFO     KAN training complete: 12.45s total                timing.py:31\n"
		  "[12:00:07] WARNING  Epoch end: 4.774s total                                  monitor.py:758\n",
		  &c);
	cr_assert_eq(c.nwarn, 0, "%s", c.nwarn ? c.warnings[0] : "");
	cr_assert_eq(c.n, 3);
	cr_assert_float_eq(collected_find(&c, TP_COMPLETE, "MLP training")->num[S_SECONDS], 45.32, 1e-12);
	cr_assert_float_eq(collected_find(&c, TP_COMPLETE, "KAN training")->num[S_SECONDS], 12.45, 1e-12);
	cr_assert_float_eq(collected_find(&c, TP_EPOCH, NULL)->num[S_SECONDS], 4.774, 1e-12);
	collector_free(&c);
}

/* absl / glog: Lmmdd hh:mm:ss.uuuuuu threadid file:line] message */
Test(prefix, absl)
{
	struct collector c = { 0 };
	parse_str("I1124 12:00:00.123456 140213 train.py:123] [TIMING] Main training loop: 2345.67s (39.09min)\n",
		  &c);
	const struct tp_record *r = one(&c, TP_TIMING, "Main training loop");
	cr_assert_float_eq(r->num[S_SECONDS], 2345.67, 1e-9);
	collector_free(&c);
}

/* transformers: [LEVEL|file.py:line] time >> message */
Test(prefix, huggingface)
{
	struct collector c = { 0 };
	parse_str("[INFO|trainer.py:2134] 2024-11-24 12:00:00,123 >>   Num examples = 10,000\n", &c);
	const struct tp_record *r = one(&c, TP_META, "Num examples");
	cr_assert_float_eq(r->num[S_META_VALUE], 10000, 0);
	cr_assert_str_eq(r->ts, "2024-11-24T12:00:00.123");
	collector_free(&c);
}

/* lines that only look like a prefix keep their text */
Test(prefix, no_false_prefix)
{
	struct collector c = { 0 };
	parse_str("[TIMING] data - INFO - x: 2.00s\n", &c);
	const struct tp_record *r = one(&c, TP_TIMING, "data - INFO - x");
	cr_assert_float_eq(r->num[S_SECONDS], 2.0, 0);
	collector_free(&c);
}

/* detectron2's log.txt: "[%(asctime)s] %(name)s %(levelname)s: %(message)s" */
Test(prefix, name_level_colon)
{
	struct collector c = { 0 };
	parse_str("[08/30 23:01:11] fvcore.common.train WARNING: [TIMING] Data loading: 2.25s\n", &c);
	const struct tp_record *r = one(&c, TP_TIMING, "Data loading");
	cr_assert_float_eq(r->num[S_SECONDS], 2.25, 1e-12);
	collector_free(&c);
	/* a sentence that starts with a word and an upper-case word is no prefix */
	struct collector d = { 0 };
	parse_str("Model INFO dump: 3 layers\n", &d);
	cr_assert_eq(d.n, 0, "%zu records", d.n);
	collector_free(&d);
}

/* Launchers stack their prefixes: torchrun --tee's "[default3]:" inside
 * srun --label's "0: ", PyTorch's own "[rank0]:" inside the tee's, pdsh's
 * host inside nothing. All are removed; the innermost names the rank. */
Test(prefix, launcher_prefixes_nest_and_the_innermost_is_the_rank)
{
	struct collector c = { 0 };
	parse_str("0: [default3]: [TIMING] step: 1.50s\n"
		  "[default0]:[rank5]: [TIMING] step: 2.50s\n"
		  "worker-1: [TIMING] step: 3.50s\n"
		  "ip-10-0-0-7: [rank2]: [TIMING] step: 4.50s\n"
		  "localhost: [TIMING] step: 5.50s\n",
		  &c);
	cr_assert_eq(c.nwarn, 0, "%s", c.nwarn ? c.warnings[0] : "");
	cr_assert_eq(c.n, 5, "%zu records", c.n);
	static const int ranks[] = { 3, 5, 1, 2, -1 };
	for (size_t i = 0; i < c.n; i++) {
		cr_expect_str_eq(c.v[i].name, "step");
		cr_expect_float_eq(c.v[i].rec.num[S_SECONDS], 1.5 + (double)i, 1e-12);
		cr_expect_eq(c.v[i].rec.rank, ranks[i], "line %zu: rank %d", i + 1, c.v[i].rec.rank);
	}
	collector_free(&c);
}

/* A host prefix needs a '-' or '.' in its lower-case name (or localhost):
 * a label that ends in a digit keeps its line. */
Test(prefix, a_label_is_no_host)
{
	struct collector c = { 0 };
	parse_str("epoch1: 12.5 ms\n", &c);
	const struct tp_record *r = one(&c, TP_RUNTIME, "epoch1");
	cr_assert_float_eq(r->num[S_RT_MEAN_MS], 12.5, 1e-12);
	cr_assert_eq(r->rank, -1);
	collector_free(&c);
}

/* torchrun --tee puts its prefix before a tqdm bar too: the bar is still
 * read as one (its final redraw, by @bar rules), with the prefix's rank. */
Test(prefix, a_bar_behind_a_launcher_prefix)
{
	static const char rules[] = "rate @bar name=\"bar\" 100%\\|[^|]*\\|[^,]*,\\s*(?<value>[\\d.]+)it/s\n";
	static const char log[] = "[default1]: 40%|####      | 4/10 [00:01<00:01,  3.50it/s]\r"
				  "[default1]:100%|##########| 10/10 [00:02<00:00,  4.75it/s]\n";
	struct strbuf err = STRBUF_INIT;
	struct tp_rules *rs = tp_rules_compile(rules, sizeof(rules) - 1, "t.rules", &err);
	cr_assert_not_null(rs, "%s", err.buf ? err.buf : "");
	struct collector c = { 0 };
	struct tp_sink s = collect_sink(&c);
	struct tp_parser *p = tp_parser_new("p.log", &s, rs);
	tp_parse_buffer(p, log, sizeof(log) - 1);
	tp_parser_finish(p);
	tp_parser_free(p);
	/* each redraw a progress record, the last one the rule's: all rank 1 */
	cr_assert_eq(c.n, 3);
	static const double n[] = { 4, 10 };
	for (size_t i = 0; i < 2; i++) {
		cr_assert_eq(c.v[i].rec.type, TP_PROGRESS);
		cr_assert_float_eq(c.v[i].rec.num[S_PRG_N], n[i], 0);
		cr_assert_eq(c.v[i].rec.rank, 1);
	}
	const struct tp_record *r = &c.v[2].rec;
	cr_assert_eq(r->type, TP_RATE);
	cr_assert_str_eq(c.v[2].name, "bar");
	cr_assert_float_eq(r->num[S_RATE_VALUE], 4.75, 1e-12);
	cr_assert_eq(r->rank, 1);
	collector_free(&c);
	tp_rules_free(rs);
	strbuf_release(&err);
}

/* The seconds of a record's stamp (base/timestamp.c): the analyses' spans
 * and clocks, one reader for all. */
Test(prefix, seconds_of_a_stamp)
{
	cr_assert_eq(tp_ts_seconds("1970-01-01T00:00:00"), 0);
	cr_assert_eq(tp_ts_seconds("2025-12-22T22:04:38") - tp_ts_seconds("2025-12-22T19:29:57"), 9281);
	cr_assert_eq(tp_ts_seconds("2024-03-01T00:00:00") - tp_ts_seconds("2024-02-28T00:00:00"), 2 * 86400);
	cr_assert_eq(tp_ts_seconds("2020-09-02T18:08:49.123"), tp_ts_seconds("2020-09-02T18:08:49"));
	/* no year: from 2000, a leap year */
	cr_assert_eq(tp_ts_seconds("--02-29T00:00:00"), tp_ts_seconds("2000-02-29T00:00:00"));
	cr_assert_eq(tp_ts_seconds("2024-13-01T00:00:00"), INT64_MIN);
	cr_assert_eq(tp_ts_seconds("12:00:00"), INT64_MIN);
	cr_assert_eq(tp_ts_seconds(NULL), INT64_MIN);
}


/* The record of that type and name among several. */
static const struct tp_record *find_rec(struct collector *c, enum tp_type type, const char *name)
{
	const struct tp_record *r = collected_find(c, type, name);
	cr_assert_not_null(r, "no %s record '%s'", tp_schemas[type].type_name, name);
	return r;
}

/* glog's prefix (Caffe's solver, torchrun's warnings): its month, day and
 * time are the line's stamp, without a year; Logback's default pattern
 * (Deeplearning4j): a time of day alone. A dated line after a yearless one
 * opens the log's span again: its stamps say more. */
Test(prefix, glog_and_logback_stamps)
{
	struct collector c = { 0 };
	parse_str("I0613 17:36:53.936666  1860 solver.cpp:228] [TIMING] forward: 0.5s\n"
		  "07:22:01.168 [main] INFO org.deeplearning4j.optimize.listeners.ScoreIterationListener - "
		  "[TIMING] backward: 1.5s\n",
		  &c);
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "forward")->ts, "--06-13T17:36:53.936666");
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "backward")->ts, "T07:22:01.168");
	collector_free(&c);
	/* MAE's and DETR's print: "[HH:MM:SS.ffffff] " (no fraction when the
	 * microseconds are 0); a bracketed time with anything else is no stamp */
	memset(&c, 0, sizeof(c));
	parse_str("[07:10:36.394431] [TIMING] forward: 0.5s\n[07:10:37] [TIMING] backward: 1.5s\n"
		  "[07:10:38.5] [TIMING] optimizer: 2.5s\n",
		  &c);
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "forward")->ts, "T07:10:36.394431");
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "backward")->ts, "T07:10:37");
	cr_assert(!find_rec(&c, TP_TIMING, "optimizer") || !find_rec(&c, TP_TIMING, "optimizer")->ts);
	collector_free(&c);
	/* "%m-%d %H:%M:%S" (T2ICount's logger): a date without a year */
	memset(&c, 0, sizeof(c));
	parse_str("04-06 22:00:33, [TIMING] forward: 0.5s\n04-06 9:00:33, [TIMING] backward: 1.5s\n", &c);
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "forward")->ts, "--04-06T22:00:33");
	cr_assert(!find_rec(&c, TP_TIMING, "backward") || !find_rec(&c, TP_TIMING, "backward")->ts);
	collector_free(&c);
	memset(&c, 0, sizeof(c));
	parse_str("W1212 11:03:17.693000 9724 torch/distributed/run.py:803] starting\n"
		  "2025-12-12 11:03:38,634 - INFO - loading\n"
		  "2025-12-12 11:04:00,000 - INFO - [TIMING] step: 1.0s\n"
		  "2025-12-12 12:00:00,500 - INFO - done\n"
		  "W1212 12:11:31.725000 9724 torch/distributed/elastic/multiprocessing/api.py:908] closing\n",
		  &c);
	/* the launcher's glog stamp before the first dated one has no year
	 * to take; the one after it takes the dated one's: the launcher's
	 * closing ends the span */
	const struct tp_record *s = find_rec(&c, TP_META, "log start"), *e = find_rec(&c, TP_META, "log end");
	cr_assert_str_eq(s->ts, "2025-12-12T11:03:38.634");
	cr_assert_eq(s->line, 2);
	cr_assert_str_eq(e->ts, "2025-12-12T12:11:31.725000");
	cr_assert_eq(e->line, 5);
	collector_free(&c);
	/* one in the next year: December's dated stamp, January's glog */
	memset(&c, 0, sizeof(c));
	parse_str("2025-12-31 23:59:00,000 - INFO - [TIMING] step: 1.0s\n"
		  "I0101 00:01:00.000000 9724 torch/distributed/run.py:803] closing\n",
		  &c);
	cr_assert_str_eq(find_rec(&c, TP_META, "log end")->ts, "2026-01-01T00:01:00.000000");
	collector_free(&c);
}

/*
 * PyTorch's C++ warnings ("[W509 11:40:50.076807152 ProcessGroupNCCL.cpp:
 * 1524] Warning: ...", c10's logging: the month unpadded, no year, under
 * a rank prefix), and torchtitan's "[titan] 2026-08-13 22:59:54,830 -
 * root - INFO - ", a tag before Python logging's stamp, name and level:
 * their stamps are the lines', and the messages after them are read; so
 * is PyMARL's "[INFO 04:46:18] ".
 */
Test(prefix, c10_warnings_and_torchtitan)
{
	struct collector c = { 0 };
	parse_str("[rank0]:[titan] 2026-08-13 22:59:54,830 - root - INFO - [TIMING] fwd: 0.5s\n"
		  "[rank2]:[W509 11:40:50.076807152 ProcessGroupNCCL.cpp:1524] [TIMING] bwd: 1.5s\n"
		  "[I1124 09:00:01.5 init.cpp:12] [TIMING] opt: 2.5s\n",
		  &c);
	const struct tp_record *f = find_rec(&c, TP_TIMING, "fwd"), *b = find_rec(&c, TP_TIMING, "bwd"),
			       *o = find_rec(&c, TP_TIMING, "opt");
	cr_assert(f && b && o);
	cr_assert_str_eq(f->ts, "2026-08-13T22:59:54.830");
	cr_assert_eq(f->rank, 0);
	cr_assert_str_eq(b->ts, "--05-09T11:40:50.076807");
	cr_assert_eq(b->rank, 2);
	cr_assert_str_eq(o->ts, "--11-24T09:00:01.5");
	collector_free(&c);
	/* PyMARL's "[INFO 04:46:18] my_main ": the level and the time of day */
	memset(&c, 0, sizeof(c));
	parse_str("[INFO 04:46:18] my_main [TIMING] fwd: 0.5s\n[INFO 24:46:18] my_main [TIMING] bwd: 0.5s\n", &c);
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "fwd")->ts, "T04:46:18");
	cr_assert(!find_rec(&c, TP_TIMING, "bwd") || !find_rec(&c, TP_TIMING, "bwd")->ts);
	collector_free(&c);
	/* no level letter, no caller: no stamp */
	memset(&c, 0, sizeof(c));
	parse_str("[X509 11:40:50.07 a.cpp:1] [TIMING] bwd: 1.5s\n[W509 11:40:50.07] [TIMING] fwd: 1.5s\n", &c);
	cr_assert(!find_rec(&c, TP_TIMING, "bwd") || !find_rec(&c, TP_TIMING, "bwd")->ts);
	cr_assert(!find_rec(&c, TP_TIMING, "fwd") || !find_rec(&c, TP_TIMING, "fwd")->ts);
	collector_free(&c);
}

/* GluonNLP's scripts: Python logging's basic "%(levelname)s:%(name)s:"
 * before a message that starts with the time of day ("INFO:root:09:30:04
 * [Epoch 1 Batch 170/274] ..."): the time is the line's stamp, and the
 * message after it is read; a name alone, or a clock not followed by a
 * blank, is no stamp */
Test(prefix, level_name_and_the_time_of_day)
{
	struct collector c = { 0 };
	parse_str("INFO:root:09:30:04 [TIMING] fwd: 0.5s\nINFO:gluonnlp:16:38:39 [TIMING] bwd: 1.5s\n"
		  "INFO:root:[TIMING] opt: 2.5s\nINFO:root:09:30:04[TIMING] step: 3.5s\n",
		  &c);
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "fwd")->ts, "T09:30:04");
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "bwd")->ts, "T16:38:39");
	cr_assert(!find_rec(&c, TP_TIMING, "opt") || !find_rec(&c, TP_TIMING, "opt")->ts);
	cr_assert(!find_rec(&c, TP_TIMING, "step") || !find_rec(&c, TP_TIMING, "step")->ts);
	collector_free(&c);
}

/* Sockeye's logger: '[%(asctime)s:%(levelname)s:%(name)s:%(funcName)s] '
 * with datefmt "%Y-%m-%d:%H:%M:%S" (a colon between the date and the
 * time); a bracket whose stamp is followed by words with blanks is no
 * such prefix */
Test(prefix, a_stamp_level_and_logger_in_one_bracket)
{
	struct collector c = { 0 };
	parse_str("[2018-08-28:13:41:56:INFO:sockeye.training:__call__] [TIMING] forward: 0.5s\n"
		  "[2018-08-28:13:41:57:INFO:sockeye training] [TIMING] backward: 1.5s\n",
		  &c);
	const struct tp_record *r = find_rec(&c, TP_TIMING, "forward");
	cr_assert_not_null(r);
	cr_assert_str_eq(r->ts, "2018-08-28T13:41:56");
	r = find_rec(&c, TP_TIMING, "backward");
	cr_assert_not_null(r);
	cr_assert_null(r->ts);
	collector_free(&c);
}

/* A home-grown trainer's time.strftime('%H:%M:%S') before its message
 * (AV-PSE's "08:34:19  step=100 ... elapsed=71s"): the line's stamp; a
 * clock before a digit, '<' or ',' is a value */
Test(prefix, a_bare_time_of_day_before_the_message)
{
	struct collector c = { 0 };
	parse_str("08:34:19  [TIMING] forward: 0.5s\n23:59:58.125 [TIMING] backward: 1.5s\n"
		  "00:05 [TIMING] optimizer: 2.5s\n12:00:00, [TIMING] data: 0.1s\n",
		  &c);
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "forward")->ts, "T08:34:19");
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "backward")->ts, "T23:59:58.125");
	cr_assert_null(find_rec(&c, TP_TIMING, "optimizer")->ts);
	cr_assert_null(find_rec(&c, TP_TIMING, "data")->ts);
	collector_free(&c);
}

/* Unix times that stamp a line without leading it, read and left in
 * place: MLPerf's ":::MLL 1558576678.967 key: {...}" and ":::MLLOG
 * {... \"time_ms\": 1621419722617, ...}", NVIDIA's ":::NVLOGv0.2.2
 * Tacotron2_PyT 1592939516.330123663 (file:251) key: value", a JSON line's
 * "\"time\": 1607422676.03"; and HugeCTR's "[20d02h08m28s]" (the day of
 * the month, then the time of day), stripped. A number of another length
 * ("time_ms": 1593299147, HugeCTR's seconds under a name of milliseconds)
 * is no stamp. */
Test(prefix, unix_times_and_hugectrs_stamp)
{
	struct collector c = { 0 };
	parse_str(":::MLL 1558576678.967 run_start: {\"value\": null} [TIMING] a: 1s\n"
		  ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1621419722617, \"key\": \"x\"} [TIMING] b: 1s\n"
		  ":::NVLOGv0.2.2 Tacotron2_PyT 1592939516.330123663 (logger.py:251) [TIMING] c: 1s\n"
		  "{\"type\": \"train\", \"time\": 1607422676.0319948} [TIMING] d: 1s\n"
		  "[20d02h08m28s][HUGECTR][INFO]: [TIMING] e: 1s\n"
		  ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1593299147, \"key\": \"y\"} [TIMING] f: 1s\n",
		  &c);
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "a")->ts, "2019-05-23T01:57:58.967");
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "b")->ts, "2021-05-19T10:22:02.617");
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "c")->ts, "2020-06-23T19:11:56.330");
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "d")->ts, "2020-12-08T10:17:56.032");
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "e")->ts, "T02:08:28");
	cr_assert_null(find_rec(&c, TP_TIMING, "f")->ts);
	collector_free(&c);
}

/* time.strftime('%Y%m%d-%H:%M:%S') before a line (a ShuffleFaceNet
 * trainer's "20200204-20:09:01     total_loss: ..."), and '%Y%m%d
 * %H:%M:%S' in brackets (a BAAF trainer's "[20221127 22:45:09][INFO] "): a
 * stamp, its fields checked like any other's; a month 13 is none. */
Test(prefix, a_compact_date_before_the_time_of_day)
{
	struct collector c = { 0 };
	parse_str("20200204-20:09:01     [TIMING] a: 1s\n"
		  "20201304-20:09:01     [TIMING] b: 1s\n"
		  "[20221127 22:45:09][INFO] [TIMING] c: 1s\n",
		  &c);
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "a")->ts, "2020-02-04T20:09:01");
	cr_assert_null(find_rec(&c, TP_TIMING, "b")->ts);
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "c")->ts, "2022-11-27T22:45:09");
	collector_free(&c);
}

/* Ray's worker prefix goes before the level and the stamp of verl's
 * workers; vLLM's formatter gives a month, a day and a time; Ray's driver
 * "LEVEL file.py:N -- " goes too (tests/data/unseen4/verl-grpo-qwen.log). */
Test(prefix, ray_and_vllm_prefixes)
{
	struct collector c = { 0 };
	parse_str("\x1b[36m(TaskRunner pid=625502)\x1b[0m WARNING:2026-04-03 07:01:14,410:[TIMING] a: 1s\n"
		  "(WorkerDict pid=626895, ip=10.0.0.7) [TIMING] b: 1s\n"
		  "INFO 04-03 07:00:55 [__init__.py:216] [TIMING] c: 1s\n"
		  "INFO 04-03 07:00:56 llm_engine.py:216] [TIMING] d: 1s\n"
		  "2026-04-03 07:01:06,142\tINFO worker.py:2004 -- [TIMING] e: 1s\n",
		  &c);
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "a")->ts, "2026-04-03T07:01:14.410");
	cr_assert_not_null(find_rec(&c, TP_TIMING, "b"));
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "c")->ts, "--04-03T07:00:55");
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "d")->ts, "--04-03T07:00:56");
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "e")->ts, "2026-04-03T07:01:06.142");
	collector_free(&c);
}

/* Coqui's trainer stamps only its epochs' " > TRAINING (2022-11-03
 * 10:47:31)": a full date-time in parentheses ending a line stamps it,
 * one without a year or with text after it does not. */
Test(prefix, a_stamp_in_parentheses_ends_the_line)
{
	struct collector c = { 0 };
	parse_str("\x1b[1m > TRAINING (2022-11-03 10:47:31) \x1b[0m\n"
		  "step 1 took 2.5s\n"
		  "\x1b[1m > TRAINING (2022-11-03 10:48:31) \x1b[0m\n"
		  "step 2 took 2.5s\n"
		  " > TRAINING (11-03 10:49:31)\n"
		  " > TRAINING (2022-11-03 10:50:31) again\n",
		  &c);
	const struct tp_record *s = find_rec(&c, TP_META, "log start"), *e = find_rec(&c, TP_META, "log end");
	cr_assert_str_eq(s->ts, "2022-11-03T10:47:31");
	cr_assert_str_eq(e->ts, "2022-11-03T10:48:31");
	cr_assert_eq(e->line, 3);
	collector_free(&c);
}

/* asctime's stamp in brackets, "[ Mon Dec  1 22:54:11 2025 ] " (VAC's
 * print_log, time.asctime()); a bare one at a line's start is not taken
 * (nvidia-smi heads its table with one, hours before the run's stamps). */
Test(prefix, an_asctime_stamp_in_brackets)
{
	struct collector c = { 0 };
	parse_str("[ Mon Dec  1 22:54:11 2025 ] [TIMING] a: 1s\n"
		  "[ Tue Dec 16 03:04:05 2025 ] [TIMING] b: 1s\n"
		  "Sat Nov  1 01:06:12 2025       [TIMING] c: 1s\n"
		  "[ Xyz Dec  1 22:54:11 2025 ] [TIMING] d: 1s\n",
		  &c);
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "a")->ts, "2025-12-01T22:54:11");
	cr_assert_str_eq(find_rec(&c, TP_TIMING, "b")->ts, "2025-12-16T03:04:05");
	cr_assert_null(find_rec(&c, TP_TIMING, "c")->ts);
	cr_assert_null(find_rec(&c, TP_TIMING, "d")->ts);
	collector_free(&c);
}

/* Python's "Traceback (most recent call last):" is a meta record
 * "traceback": where a launch ended; a launcher's prefix before it goes. */
Test(prefix, a_traceback_is_a_crash)
{
	struct collector c = { 0 };
	parse_str("Traceback (most recent call last):\n"
		  "  File \"train.py\", line 12, in <module>\n"
		  "[rank1]: Traceback (most recent call last):\n",
		  &c);
	cr_assert_eq(collected_count(&c, TP_META), 2);
	const struct tp_record *r = find_rec(&c, TP_META, "traceback");
	cr_assert_eq(r->line, 1);
	cr_assert_eq(c.v[1].rec.line, 3);
	cr_assert_eq(c.v[1].rec.rank, 1);
	collector_free(&c);
}
