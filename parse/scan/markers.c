/*
 * markers.c - the built-in recognizers' markers (see markers.h): for each
 * reader in lines.c and blocks.c, what a line it can read must hold.
 *
 * The generic "Label: value" readers of S2 (runtime, memory, FLOPs,
 * "N=100: 2.31 ms" scaling) have no literal of their own; what they share
 * is that the value, with its unit, ends the segment. Their markers are
 * therefore the units, anchored at the segment's end after a number: every
 * spelling that num.c's duration and memory readers accept.
 *
 * config.c's workload sizes have no entry: it reads only the first
 * TP_CONFIG_LINES lines, and reads a NUL byte as a blank (no literal can
 * stand for that), so those lines are always read whole (parser.c).
 */
#include "markers.h"

#include "base/base.h"

#define ANY(s, who) { s, TP_AT_ANY, 0, who }
#define START(s, who) { s, TP_AT_START, 0, who }
#define END(s, who) { s, TP_AT_END, 0, who }
#define TIME_UNIT(s) { s, TP_AT_END, TP_MK_NUMBER | TP_MK_NOCASE, "duration value" }
#define MEM_UNIT(s) { s, TP_AT_END, TP_MK_NUMBER | TP_MK_NOCASE, "memory value" }
#define FLOP_UNIT(s) { s, TP_AT_END, TP_MK_NUMBER, "FLOPs value" }

static const struct tp_marker builtin[] = {
	/* parser.c: colour escapes are removed before the recognizers run, so
	 * a marker may be split by one: such lines are always candidates */
	ANY("\x1b", "ANSI escapes"),

	/* lines.c: bracket markers, anywhere in the line */
	ANY("[TIMING]", "[TIMING]"),
	ANY("[STAGE]", "[STAGE]"),
	ANY("[GPM TIMING]", "[GPM TIMING]"),
	ANY("[Performance]", "[Performance]"),
	ANY("profiling/", "wandb profiling keys"),
	ANY(" complete", "X complete:"),
	ANY("avg=", "profiling metric rows"),
	ANY("RuntimeStats(", "runtime values"),
	START("Batch ", "Batch N: / Batch timing:"),
	START("Epoch end:", "Epoch end:"),
	/* "Traceback (most recent call last):" (lines.c): the literal that
	 * costs the search least on the benchmark log (the whole line cost
	 * it 4 %: the search's buckets are shared) */
	ANY("recent call", "a Python crash"),
	START("Final profiling summary:", "profiling summary dict"),
	START("Num examples", "HF Trainer header keys"),
	START("Num Epochs", "HF Trainer header keys"),
	START("Num batches", "HF Trainer header keys"),
	START("Total optimization steps", "HF Trainer header keys"),
	START("Instantaneous batch size per device", "HF Trainer header keys"),
	START("Total train batch size", "HF Trainer header keys"),
	START("Gradient Accumulation steps", "HF Trainer header keys"),
	START("Number of trainable parameters", "HF Trainer header keys"),

	/* blocks.c: block headers (rows need none: an open block makes every
	 * line a candidate until it closes) */
	START("TIMING SUMMARY", "timing summary table"),
	START("PERFORMANCE SUMMARY", "performance summary table"),
	START("AGGREGATE STATISTICS", "aggregate statistics table"),
	START("SPEEDUP ANALYSIS", "speedup block"),
	START("--- Profiling Metrics", "profiling metrics block"),
	START("***** ", "HF Trainer header block"),
	END(" - Detailed Breakdown:", "breakdown table"),
	END(" Inference Benchmark:", "inference block"),
	END(" - Warmup Analysis:", "warmup block"),

	/* lines.c generic values (read_labelled, read_scaling): the units of
	 * num.c's duration reader, longest first as there */
	TIME_UNIT("nanoseconds"), TIME_UNIT("nanosecond"), TIME_UNIT("nsec"), TIME_UNIT("ns"),
	TIME_UNIT("microseconds"), TIME_UNIT("microsecond"), TIME_UNIT("usec"), TIME_UNIT("us"),
	TIME_UNIT("\xc2\xb5s"), TIME_UNIT("\xce\xbcs"),
	TIME_UNIT("milliseconds"), TIME_UNIT("millisecond"), TIME_UNIT("msec"), TIME_UNIT("ms"),
	TIME_UNIT("seconds"), TIME_UNIT("second"), TIME_UNIT("secs"), TIME_UNIT("sec"),
	TIME_UNIT("s"),
	TIME_UNIT("minutes"), TIME_UNIT("minute"), TIME_UNIT("mins"), TIME_UNIT("min"),
	TIME_UNIT("m"),
	TIME_UNIT("hours"), TIME_UNIT("hour"), TIME_UNIT("hrs"), TIME_UNIT("hr"), TIME_UNIT("h"),
	/* ... and of its memory reader */
	MEM_UNIT("mib"), MEM_UNIT("mb"), MEM_UNIT("gib"), MEM_UNIT("gb"), MEM_UNIT("kib"),
	MEM_UNIT("kb"), MEM_UNIT("b"),
	/* ... and of read_flops */
	FLOP_UNIT("TFLOPs"), FLOP_UNIT("TFLOPS"), FLOP_UNIT("GFLOPs"), FLOP_UNIT("GFLOPS"),
	FLOP_UNIT("MFLOPs"), FLOP_UNIT("MFLOPS"), FLOP_UNIT("FLOPs"), FLOP_UNIT("FLOPS"),

	/* discover.c: a time without a unit, named by a time word ("Time:
	 * 1.21", "time cost=1029.7", "Timer: 0.6654") or by its unit ("updt_s:0.504");
	 * tp_disc_has_time_word takes no line without one of these */
	{ "time:", TP_AT_ANY, TP_MK_NOCASE, "a time word (template discovery)" },
	{ "time=", TP_AT_ANY, TP_MK_NOCASE, "a time word (template discovery)" },
	{ "time :", TP_AT_ANY, TP_MK_NOCASE, "a time word (template discovery)" },
	{ "time =", TP_AT_ANY, TP_MK_NOCASE, "a time word (template discovery)" },
	{ "_s:", TP_AT_ANY, 0, "a name with its unit (template discovery)" },
	{ "_s=", TP_AT_ANY, 0, "a name with its unit (template discovery)" },
	{ "_sec:", TP_AT_ANY, 0, "a name with its unit (template discovery)" },
	{ "_sec=", TP_AT_ANY, 0, "a name with its unit (template discovery)" },
	{ "_ms:", TP_AT_ANY, 0, "a name with its unit (template discovery)" },
	{ "_ms=", TP_AT_ANY, 0, "a name with its unit (template discovery)" },
	{ "time cost:", TP_AT_ANY, TP_MK_NOCASE, "a time word (template discovery)" },
	{ "time cost=", TP_AT_ANY, TP_MK_NOCASE, "a time word (template discovery)" },
	{ "timer:", TP_AT_ANY, TP_MK_NOCASE, "a time word (template discovery)" },
	{ "timer=", TP_AT_ANY, TP_MK_NOCASE, "a time word (template discovery)" },

	/* progress.c: every redraw of a bar (tqdm, mmcv, rich, Keras); last,
	 * so that a run without progress records can leave them out */
	ANY("%|", "tqdm bars"),
	ANY(" task/s, elapsed: ", "mmcv bars"),
	ANY("], elapsed: ", "mmcv bars (the first redraw)"),
	START("completed: ", "mmcv bars without a total"),
	ANY(" \xe2\x80\xa2 ", "rich bars (elapsed \xe2\x80\xa2 remaining)"),
	ANY("] - ETA: ", "Keras bars"),
	ANY("s/step", "Keras bars"),
	ANY("\xe2\x94\x81 ", "Keras 3 bars"),
};
#define NPROGRESS 8

const struct tp_marker_set tp_builtin_markers = { "built-in", builtin, ARRAY_SIZE(builtin) };
const struct tp_marker_set tp_builtin_markers_no_progress = { "built-in", builtin,
							       ARRAY_SIZE(builtin) - NPROGRESS };
