/*
 * test_prefix.c - logging libraries' prefixes are stripped before any
 * format is recognized (parse/prefix.c): one test per form, each asserting
 * the record behind the prefix, its values and the prefix's timestamp.
 */
#include "golden.h"

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

/* seed 004's file handler: ... - %(funcName)s:%(lineno)d - %(message)s, level coloured */
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

/* [%(name)s] %(levelname)s: %(message)s (seed 004's console handler) */
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
