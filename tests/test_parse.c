/*
 * test_parse.c - every example output of the five seed documents parses
 * into the right records with the right values, and the readers of
 * numbers and durations behave at their edges.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "base/num.h"
#include "parse/parse.h"
#include "testutil.h"

static struct tp_stats parse_text(const char *text, struct collector *c)
{
	struct tp_sink s = collect_sink(c);
	struct tp_parser *p = tp_parser_new("t.log", &s, NULL);
	tp_parse_buffer(p, text, strlen(text));
	tp_parser_finish(p);
	struct tp_stats st = *tp_parser_stats(p);
	tp_parser_free(p);
	return st;
}

static const struct tp_record *nth(const struct collector *c, enum tp_type t, size_t k)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].rec.type == t && k-- == 0)
			return &c->v[i].rec;
	return NULL;
}

#define NUM(r, slot) ((r)->num[slot])
#define HAS(r, slot) tp_has((r), (slot))

/* ---- S0: Graph-LLaVA TimeProfiler + GPM tower ---- */

static const char seed000[] =
	"[2024-10-13 22:30:00] [STAGE] === TRAINING PIPELINE START ===\n"
	"[2024-10-13 22:30:01] [TIMING] Argument parsing: 0.12s\n"
	"[2024-10-13 22:30:45] [TIMING] LLM model loading: 44.23s\n"
	"[2024-10-13 22:01:30] [TIMING] Graph tower initialization (gpm): 2.45s\n"
	"[2024-10-13 22:02:15] [TIMING] Dataset loading and preprocessing: 12.34s\n"
	"[2024-10-13 22:02:16] [TIMING] Trainer initialization: 0.89s\n"
	"\n"
	"***** Running training *****\n"
	"  Num examples = 10,000\n"
	"  Num Epochs = 2\n"
	"  Total optimization steps = 625\n"
	"\n"
	"[GPM TIMING] Last 100 graphs: Pattern gen=123.45ms, Total=456.78ms, Avg nodes=28.3\n"
	"[GPM TIMING] Last 100 graphs: Pattern gen=118.92ms, Total=445.23ms, Avg nodes=29.1\n"
	"...\n"
	"\n"
	"[2024-10-13 23:15:30] [TIMING] Main training loop: 2345.67s (39.09min)\n"
	"[2024-10-13 23:15:35] [TIMING] State saving: 4.23s\n"
	"\n"
	"================================================================================\n"
	"[TIMING SUMMARY]\n"
	"================================================================================\n"
	"  Argument parsing                        : 0.12s                (0.0%)\n"
	"  LLM model loading                       : 44.23s               (1.8%)\n"
	"  Graph tower initialization (gpm)        : 2.45s                (0.1%)\n"
	"  Dataset loading and preprocessing       : 12.34s               (0.5%)\n"
	"  Trainer initialization                  : 0.89s                (0.0%)\n"
	"  Main training loop                      : 2345.67s (39.09min)  (97.5%)\n"
	"  State saving                            : 4.23s                (0.2%)\n"
	"  TOTAL                                   : 2409.93s (40.17min)\n"
	"================================================================================\n";

Test(seed000, stage_and_timings)
{
	struct collector c = { 0 };
	struct tp_stats st = parse_text(seed000, &c);
	cr_assert_eq(collected_count(&c, TP_STAGE), 1);
	cr_assert_eq(collected_count(&c, TP_TIMING), 7);
	const struct tp_record *r = nth(&c, TP_STAGE, 0);
	cr_assert_str_eq(r->name, "=== TRAINING PIPELINE START ===");
	cr_assert_str_eq(r->ts, "2024-10-13T22:30:00");
	cr_assert_eq(r->line, 1);
	r = collected_find(&c, TP_TIMING, "LLM model loading");
	cr_assert_not_null(r);
	cr_assert_float_eq(NUM(r, S_SECONDS), 44.23, 1e-9);
	cr_assert_str_eq(r->ts, "2024-10-13T22:30:45");
	cr_assert_eq(r->line, 3);
	r = collected_find(&c, TP_TIMING, "Graph tower initialization (gpm)");
	cr_assert_float_eq(NUM(r, S_SECONDS), 2.45, 1e-9);
	/* the more precise spelling wins: 2345.67 s, not 39.09 min = 2345.4 s */
	r = collected_find(&c, TP_TIMING, "Main training loop");
	cr_assert_float_eq(NUM(r, S_SECONDS), 2345.67, 1e-9);
	cr_assert_eq(st.malformed, 0);
	collector_free(&c);
}

Test(seed000, trainer_header_meta)
{
	struct collector c = { 0 };
	parse_text(seed000, &c);
	cr_assert_eq(collected_count(&c, TP_META), 3);
	const struct tp_record *r = collected_find(&c, TP_META, "Num examples");
	cr_assert_float_eq(NUM(r, S_META_VALUE), 10000, 0);
	r = collected_find(&c, TP_META, "Num Epochs");
	cr_assert_float_eq(NUM(r, S_META_VALUE), 2, 0);
	r = collected_find(&c, TP_META, "Total optimization steps");
	cr_assert_float_eq(NUM(r, S_META_VALUE), 625, 0);
	collector_free(&c);
}

Test(seed000, gpm_windows)
{
	struct collector c = { 0 };
	parse_text(seed000, &c);
	cr_assert_eq(collected_count(&c, TP_GPM), 2);
	const struct tp_record *r = nth(&c, TP_GPM, 0);
	cr_assert_float_eq(NUM(r, S_GPM_GRAPHS), 100, 0);
	cr_assert_float_eq(NUM(r, S_GPM_PATTERN_MS), 123.45, 1e-9);
	cr_assert_float_eq(NUM(r, S_GPM_TOTAL_MS), 456.78, 1e-9);
	cr_assert_float_eq(NUM(r, S_GPM_AVG_NODES), 28.3, 1e-9);
	r = nth(&c, TP_GPM, 1);
	cr_assert_float_eq(NUM(r, S_GPM_PATTERN_MS), 118.92, 1e-9);
	cr_assert_float_eq(NUM(r, S_GPM_AVG_NODES), 29.1, 1e-9);
	collector_free(&c);
}

Test(seed000, summary_table)
{
	struct collector c = { 0 };
	parse_text(seed000, &c);
	cr_assert_eq(collected_count(&c, TP_SUMMARY), 8);
	const struct tp_record *r = collected_find(&c, TP_SUMMARY, "Main training loop");
	cr_assert_str_eq(r->text, "TIMING SUMMARY");
	cr_assert_float_eq(NUM(r, S_SECONDS), 2345.67, 1e-9);
	cr_assert_float_eq(NUM(r, S_SUM_PERCENT), 97.5, 1e-9);
	r = collected_find(&c, TP_SUMMARY, "Argument parsing");
	cr_assert_float_eq(NUM(r, S_SUM_PERCENT), 0.0, 0);
	cr_assert(HAS(r, S_SUM_PERCENT));
	r = collected_find(&c, TP_SUMMARY, "TOTAL");
	cr_assert_float_eq(NUM(r, S_SECONDS), 2409.93, 1e-9);
	cr_assert_not(HAS(r, S_SUM_PERCENT));
	cr_assert_eq(r->line, 30);
	collector_free(&c);
}

/* ---- S1: timing utilities ---- */

static const char seed001[] =
	"MLP training complete: 45.32s total\n"
	"============================================================\n"
	"TIMING SUMMARY - Section 1.1\n"
	"============================================================\n"
	"MLP training:              125.45s ( 35.2%)\n"
	"SIREN training:             89.32s ( 25.1%)\n"
	"KAN training:              102.67s ( 28.8%)\n"
	"------------------------------------------------------------\n"
	"Total time:                317.44s\n"
	"Average per dataset:        35.27s\n"
	"============================================================\n"
	"Model complete: 45.32s, peak memory: 234.5 MB\n"
	"KAN training complete: 12.45s, GPU peak: 1024.3 MB\n"
	"============================================================\n"
	"SPEEDUP ANALYSIS\n"
	"============================================================\n"
	"Baseline: KAN (150.00s)\n"
	"------------------------------------------------------------\n"
	"SIREN                :  1.67x faster\n"
	"MLP                  :  1.25x faster\n"
	"============================================================\n"
	"Training - Detailed Breakdown:\n"
	"----------------------------------------\n"
	"  backward_pass       :    12.45s ( 55.2%)\n"
	"  forward_pass        :     8.34s ( 37.0%)\n"
	"  data_loading        :     1.76s (  7.8%)\n"
	"----------------------------------------\n"
	"KAN Inference Benchmark:\n"
	"----------------------------------------\n"
	"  Mean latency:        2.345 ms\n"
	"  Min latency:         2.123 ms\n"
	"  Max latency:         3.456 ms\n"
	"  Throughput:          426.3 samples/sec\n"
	"----------------------------------------\n"
	"MLP - Warmup Analysis:\n"
	"----------------------------------------\n"
	"  First epoch:           5.200s\n"
	"  Steady state:          3.020s\n"
	"  Warmup overhead:       2.180s ( 72.2%)\n"
	"----------------------------------------\n";

Test(seed001, complete_lines)
{
	struct collector c = { 0 };
	parse_text(seed001, &c);
	cr_assert_eq(collected_count(&c, TP_COMPLETE), 3);
	const struct tp_record *r = collected_find(&c, TP_COMPLETE, "MLP training");
	cr_assert_float_eq(NUM(r, S_SECONDS), 45.32, 1e-9);
	r = collected_find(&c, TP_COMPLETE, "Model");
	cr_assert_float_eq(NUM(r, S_CPL_PEAK_MB), 234.5, 1e-9);
	cr_assert_not(HAS(r, S_CPL_GPU_PEAK_MB));
	r = collected_find(&c, TP_COMPLETE, "KAN training");
	cr_assert_float_eq(NUM(r, S_SECONDS), 12.45, 1e-9);
	cr_assert_float_eq(NUM(r, S_CPL_GPU_PEAK_MB), 1024.3, 1e-9);
	collector_free(&c);
}

Test(seed001, section_summary)
{
	struct collector c = { 0 };
	parse_text(seed001, &c);
	const struct tp_record *r = collected_find(&c, TP_SUMMARY, "MLP training");
	cr_assert_str_eq(r->text, "Section 1.1");
	cr_assert_float_eq(NUM(r, S_SECONDS), 125.45, 1e-9);
	cr_assert_float_eq(NUM(r, S_SUM_PERCENT), 35.2, 1e-9);
	r = collected_find(&c, TP_SUMMARY, "TOTAL");
	cr_assert_str_eq(r->text, "Section 1.1");
	cr_assert_float_eq(NUM(r, S_SECONDS), 317.44, 1e-9);
	r = collected_find(&c, TP_META, "Average per dataset");
	cr_assert_float_eq(NUM(r, S_META_VALUE), 35.27, 1e-9);
	collector_free(&c);
}

Test(seed001, speedups)
{
	struct collector c = { 0 };
	parse_text(seed001, &c);
	cr_assert_eq(collected_count(&c, TP_SPEEDUP), 2);
	const struct tp_record *r = collected_find(&c, TP_SPEEDUP, "SIREN");
	cr_assert_float_eq(NUM(r, S_SPD_FACTOR), 1.67, 1e-9);
	cr_assert_str_eq(r->text, "KAN");
	cr_assert_float_eq(NUM(r, S_SPD_BASELINE_S), 150.0, 1e-9);
	r = collected_find(&c, TP_SPEEDUP, "MLP");
	cr_assert_float_eq(NUM(r, S_SPD_FACTOR), 1.25, 1e-9);
	collector_free(&c);
}

Test(seed001, breakdown)
{
	struct collector c = { 0 };
	parse_text(seed001, &c);
	const struct tp_record *r = collected_find(&c, TP_SUMMARY, "backward_pass");
	cr_assert_str_eq(r->text, "Training");
	cr_assert_float_eq(NUM(r, S_SECONDS), 12.45, 1e-9);
	cr_assert_float_eq(NUM(r, S_SUM_PERCENT), 55.2, 1e-9);
	r = collected_find(&c, TP_SUMMARY, "data_loading");
	cr_assert_float_eq(NUM(r, S_SUM_PERCENT), 7.8, 1e-9);
	collector_free(&c);
}

Test(seed001, inference_and_warmup_blocks)
{
	struct collector c = { 0 };
	struct tp_stats st = parse_text(seed001, &c);
	const struct tp_record *r = collected_find(&c, TP_LATENCY, "KAN");
	cr_assert_not_null(r);
	cr_assert_float_eq(NUM(r, S_LAT_MEAN_MS), 2.345, 1e-9);
	cr_assert_float_eq(NUM(r, S_LAT_MIN_MS), 2.123, 1e-9);
	cr_assert_float_eq(NUM(r, S_LAT_MAX_MS), 3.456, 1e-9);
	cr_assert_float_eq(NUM(r, S_LAT_THROUGHPUT), 426.3, 1e-9);
	cr_assert_eq(r->line, 28);
	r = collected_find(&c, TP_WARMUP, "MLP");
	cr_assert_not_null(r);
	cr_assert_float_eq(NUM(r, S_WU_FIRST_S), 5.2, 1e-9);
	cr_assert_float_eq(NUM(r, S_WU_STEADY_S), 3.02, 1e-9);
	cr_assert_float_eq(NUM(r, S_WU_OVERHEAD_S), 2.18, 1e-9);
	cr_assert_float_eq(NUM(r, S_WU_OVERHEAD_PCT), 72.2, 1e-9);
	cr_assert_eq(st.malformed, 0);
	collector_free(&c);
}

/* ---- S2: Graph Transformer profiling ---- */

static const char seed002[] =
	"Forward: 10.50 ± 1.20 ms\n"
	"Forward: RuntimeStats(mean=10.5, std=1.2, min=9.1, max=14.2, num_runs=100)\n"
	"Backward: 25.30 ± 2.10 ms\n"
	"Peak memory: 512.00 MB\n"
	"Parameters: 4.71 MB\n"
	"Activations: 400.00 MB\n"
	"Total: 12.50 GFLOPs\n"
	"Attention: 8.00 GFLOPs\n"
	"N=100: 2.31 ms\n"
	"N=2000: 180.5 ± 3.2 ms\n"
	"PE precomputation: 12.34 ms (one-time)\n"
	"Node PE: 0.12 MB\n"
	"Relative PE (sparse): 0.45 MB\n";

Test(seed002, runtime)
{
	struct collector c = { 0 };
	parse_text(seed002, &c);
	const struct tp_record *r = nth(&c, TP_RUNTIME, 0);
	cr_assert_str_eq(r->name, "Forward");
	cr_assert_float_eq(NUM(r, S_RT_MEAN_MS), 10.5, 1e-9);
	cr_assert_float_eq(NUM(r, S_RT_STD_MS), 1.2, 1e-9);
	r = nth(&c, TP_RUNTIME, 1);
	cr_assert_float_eq(NUM(r, S_RT_MIN_MS), 9.1, 1e-9);
	cr_assert_float_eq(NUM(r, S_RT_MAX_MS), 14.2, 1e-9);
	cr_assert_float_eq(NUM(r, S_RT_RUNS), 100, 0);
	r = collected_find(&c, TP_RUNTIME, "Backward");
	cr_assert_float_eq(NUM(r, S_RT_MEAN_MS), 25.3, 1e-9);
	cr_assert_float_eq(NUM(r, S_RT_STD_MS), 2.1, 1e-9);
	r = collected_find(&c, TP_RUNTIME, "PE precomputation");
	cr_assert_float_eq(NUM(r, S_RT_MEAN_MS), 12.34, 1e-9);
	collector_free(&c);
}

Test(seed002, memory_flops_scaling)
{
	struct collector c = { 0 };
	struct tp_stats st = parse_text(seed002, &c);
	cr_assert_eq(collected_count(&c, TP_MEMORY), 5);
	cr_assert_float_eq(NUM(collected_find(&c, TP_MEMORY, "Peak memory"), S_MEM_MB), 512.0, 0);
	cr_assert_float_eq(NUM(collected_find(&c, TP_MEMORY, "Relative PE (sparse)"), S_MEM_MB), 0.45, 1e-12);
	cr_assert_float_eq(NUM(collected_find(&c, TP_FLOPS, "Total"), S_FLOPS_GFLOPS), 12.5, 0);
	cr_assert_float_eq(NUM(collected_find(&c, TP_FLOPS, "Attention"), S_FLOPS_GFLOPS), 8.0, 0);
	const struct tp_record *r = nth(&c, TP_SCALING, 0);
	cr_assert_str_eq(r->name, "N");
	cr_assert_float_eq(NUM(r, S_SC_VALUE), 100, 0);
	cr_assert_float_eq(NUM(r, S_SC_MEAN_MS), 2.31, 1e-9);
	r = nth(&c, TP_SCALING, 1);
	cr_assert_float_eq(NUM(r, S_SC_VALUE), 2000, 0);
	cr_assert_float_eq(NUM(r, S_SC_STD_MS), 3.2, 1e-9);
	cr_assert_eq(st.unrecognized, 0);
	collector_free(&c);
}

/* ---- S3: SSM TrainingProfiler ---- */

static const char seed003[] =
	"--- Profiling Metrics (Step 100) ---\n"
	"data_batch_production: avg=0.0234s, total=2.34s, count=100\n"
	"loss_fn_computation: avg=0.0456s, total=4.56s, count=100\n"
	"make_step_total: avg=0.0789s, total=7.89s, count=100\n"
	"Epoch 3 done\n"
	"wandb:   profiling/data_batch_production_avg_time 0.0234\n"
	"{'profiling/loss_fn_computation_avg_time': 0.0456, 'profiling/loss_fn_computation_total_time': 4.56, "
	"'profiling/loss_fn_computation_count': 100}\n";

Test(seed003, metric_block)
{
	struct collector c = { 0 };
	parse_text(seed003, &c);
	cr_assert_eq(collected_count(&c, TP_METRIC), 5);
	const struct tp_record *r = nth(&c, TP_METRIC, 0);
	cr_assert_str_eq(r->name, "data_batch_production");
	cr_assert_float_eq(NUM(r, S_MET_STEP), 100, 0);
	cr_assert_float_eq(NUM(r, S_MET_AVG_S), 0.0234, 1e-12);
	cr_assert_float_eq(NUM(r, S_MET_TOTAL_S), 2.34, 1e-12);
	cr_assert_float_eq(NUM(r, S_MET_COUNT), 100, 0);
	r = nth(&c, TP_METRIC, 2);
	cr_assert_str_eq(r->name, "make_step_total");
	cr_assert_float_eq(NUM(r, S_MET_AVG_S), 0.0789, 1e-12);
	collector_free(&c);
}

Test(seed003, wandb_keys)
{
	struct collector c = { 0 };
	parse_text(seed003, &c);
	const struct tp_record *r = nth(&c, TP_METRIC, 3);
	cr_assert_str_eq(r->name, "data_batch_production");
	cr_assert_not(HAS(r, S_MET_STEP));
	cr_assert_float_eq(NUM(r, S_MET_AVG_S), 0.0234, 1e-12);
	r = nth(&c, TP_METRIC, 4);
	cr_assert_str_eq(r->name, "loss_fn_computation");
	cr_assert_float_eq(NUM(r, S_MET_AVG_S), 0.0456, 1e-12);
	cr_assert_float_eq(NUM(r, S_MET_TOTAL_S), 4.56, 1e-12);
	cr_assert_float_eq(NUM(r, S_MET_COUNT), 100, 0);
	collector_free(&c);
}

/* ---- S4: PerformanceMonitor ---- */

static const char seed004[] =
	"  Batch 0: 0.538s, GPU 23.1MB, CPU 1648.9MB, loss=0.009458\n"
	"  Batch 1: 0.185s, GPU 23.1MB, CPU 1659.6MB, loss=0.016763\n"
	"  ...\n"
	"  Epoch end: 4.774s total, GPU 14.4MB, 3236MB reserved, peak 2880MB\n"
	"  Batch timing: avg=0.201s, min=0.082s, max=0.538s\n"
	"==========================================================================================\n"
	"PERFORMANCE SUMMARY\n"
	"==========================================================================================\n"
	"Operation                      Time (s)     CPU (MB)        GPU (MB)        GPU Peak\n"
	"------------------------------------------------------------------------------------------\n"
	"data loading                        0.450         +523.1           +0.0         0.0\n"
	"preprocessing                       0.120         +128.5           +0.0         0.0\n"
	"model forward                       0.850          +45.2        +1250.3      2880.5\n"
	"------------------------------------------------------------------------------------------\n"
	"TOTAL                               1.420s\n"
	"==========================================================================================\n"
	"==========================================================================================\n"
	"AGGREGATE STATISTICS (for repeated operations)\n"
	"==========================================================================================\n"
	"Operation                      Count    Total (s)    Mean (s)     Min (s)      Max (s)\n"
	"------------------------------------------------------------------------------------------\n"
	"batch_forward                  150      15.234       0.102        0.085        0.425\n"
	"batch_backward                 150       8.451       0.056        0.048        0.112\n"
	"==========================================================================================\n"
	"[Performance] critical_operation: 1.234s, CPU +250.5MB, GPU +512.0MB\n"
	"              GPU peak: 1024.3MB\n";

Test(seed004, batches_and_epoch)
{
	struct collector c = { 0 };
	parse_text(seed004, &c);
	cr_assert_eq(collected_count(&c, TP_BATCH), 2);
	const struct tp_record *r = nth(&c, TP_BATCH, 0);
	cr_assert_float_eq(NUM(r, S_BAT_INDEX), 0, 0);
	cr_assert_float_eq(NUM(r, S_SECONDS), 0.538, 1e-12);
	cr_assert_float_eq(NUM(r, S_BAT_GPU_MB), 23.1, 1e-12);
	cr_assert_float_eq(NUM(r, S_BAT_CPU_MB), 1648.9, 1e-9);
	cr_assert_float_eq(NUM(r, S_BAT_LOSS), 0.009458, 1e-12);
	r = nth(&c, TP_EPOCH, 0);
	cr_assert_float_eq(NUM(r, S_SECONDS), 4.774, 1e-12);
	cr_assert_float_eq(NUM(r, S_EP_GPU_MB), 14.4, 1e-12);
	cr_assert_float_eq(NUM(r, S_EP_RESERVED_MB), 3236, 0);
	cr_assert_float_eq(NUM(r, S_EP_PEAK_MB), 2880, 0);
	r = collected_find(&c, TP_AGGREGATE, "Batch timing");
	cr_assert_float_eq(NUM(r, S_AGG_MEAN_S), 0.201, 1e-12);
	cr_assert_float_eq(NUM(r, S_AGG_MIN_S), 0.082, 1e-12);
	cr_assert_float_eq(NUM(r, S_AGG_MAX_S), 0.538, 1e-12);
	collector_free(&c);
}

Test(seed004, performance_summary)
{
	struct collector c = { 0 };
	parse_text(seed004, &c);
	const struct tp_record *r = collected_find(&c, TP_SUMMARY, "model forward");
	cr_assert_not_null(r);
	cr_assert_str_eq(r->text, "PERFORMANCE SUMMARY");
	cr_assert_float_eq(NUM(r, S_SECONDS), 0.85, 1e-12);
	cr_assert_float_eq(NUM(r, S_SUM_CPU_MB), 45.2, 1e-12);
	cr_assert_float_eq(NUM(r, S_SUM_GPU_MB), 1250.3, 1e-9);
	cr_assert_float_eq(NUM(r, S_SUM_GPU_PEAK_MB), 2880.5, 1e-9);
	r = collected_find(&c, TP_SUMMARY, "data loading");
	cr_assert_float_eq(NUM(r, S_SUM_CPU_MB), 523.1, 1e-9);
	r = collected_find(&c, TP_SUMMARY, "TOTAL");
	cr_assert_float_eq(NUM(r, S_SECONDS), 1.42, 1e-12);
	cr_assert_eq(collected_count(&c, TP_SUMMARY), 4);
	collector_free(&c);
}

Test(seed004, aggregate_and_perf)
{
	struct collector c = { 0 };
	struct tp_stats st = parse_text(seed004, &c);
	const struct tp_record *r = collected_find(&c, TP_AGGREGATE, "batch_forward");
	cr_assert_float_eq(NUM(r, S_AGG_COUNT), 150, 0);
	cr_assert_float_eq(NUM(r, S_AGG_TOTAL_S), 15.234, 1e-12);
	cr_assert_float_eq(NUM(r, S_AGG_MEAN_S), 0.102, 1e-12);
	cr_assert_float_eq(NUM(r, S_AGG_MIN_S), 0.085, 1e-12);
	cr_assert_float_eq(NUM(r, S_AGG_MAX_S), 0.425, 1e-12);
	r = collected_find(&c, TP_PERF, "critical_operation");
	cr_assert_not_null(r);
	cr_assert_float_eq(NUM(r, S_SECONDS), 1.234, 1e-12);
	cr_assert_float_eq(NUM(r, S_PERF_CPU_DELTA_MB), 250.5, 1e-12);
	cr_assert_float_eq(NUM(r, S_PERF_GPU_DELTA_MB), 512.0, 1e-12);
	cr_assert_float_eq(NUM(r, S_PERF_GPU_PEAK_MB), 1024.3, 1e-9);
	cr_assert_eq(r->line, 25);
	cr_assert_eq(st.malformed, 0);
	collector_free(&c);
}

Test(seed004, perf_without_peak_line_is_kept)
{
	struct collector c = { 0 };
	parse_text("[Performance] a: 1s, CPU +1MB, GPU -2MB\nnoise\n[Performance] b: 2s\n", &c);
	cr_assert_eq(collected_count(&c, TP_PERF), 2);
	const struct tp_record *r = collected_find(&c, TP_PERF, "a");
	cr_assert_float_eq(NUM(r, S_PERF_GPU_DELTA_MB), -2, 0);
	cr_assert_not(HAS(r, S_PERF_GPU_PEAK_MB));
	cr_assert_not_null(collected_find(&c, TP_PERF, "b"));
	collector_free(&c);
}

/* ---- real logs: launchers, colours, progress bars, line ends ---- */

Test(reallogs, rank_prefixes)
{
	struct collector c = { 0 };
	parse_text("[rank0]: Batch 0: 0.5s, GPU 1MB, CPU 2MB, loss=1\n"
		   "[rank3]:  Batch 0: 0.7s, GPU 1MB, CPU 2MB, loss=1\n"
		   "[default1]:[2024-10-13 22:30:01] [TIMING] Load: 3s\n"
		   "[1,2]<stdout>:Epoch end: 4s total, GPU 1MB, 2MB reserved, peak 3MB\n"
		   "5: [TIMING] x: 1ms\n",
		   &c);
	cr_assert_eq(c.n, 5);
	cr_assert_eq(c.v[0].rec.rank, 0);
	cr_assert_eq(c.v[1].rec.rank, 3);
	cr_assert_float_eq(NUM(&c.v[1].rec, S_SECONDS), 0.7, 1e-12);
	cr_assert_eq(c.v[2].rec.rank, 1);
	cr_assert_str_eq(c.v[2].rec.ts, "2024-10-13T22:30:01");
	cr_assert_eq(c.v[3].rec.rank, 2);
	cr_assert_eq(c.v[3].rec.type, TP_EPOCH);
	cr_assert_eq(c.v[4].rec.rank, 5);
	cr_assert_float_eq(NUM(&c.v[4].rec, S_SECONDS), 0.001, 1e-15);
	collector_free(&c);
}

Test(reallogs, interleaved_ranks_keep_their_tables)
{
	struct collector c = { 0 };
	parse_text("[rank0]: --- Profiling Metrics (Step 10) ---\n"
		   "[rank1]: --- Profiling Metrics (Step 20) ---\n"
		   "[rank0]: a: avg=1s, total=10s, count=10\n"
		   "[rank1]: a: avg=2s, total=40s, count=20\n",
		   &c);
	cr_assert_eq(c.n, 2);
	cr_assert_float_eq(NUM(&c.v[0].rec, S_MET_STEP), 10, 0);
	cr_assert_float_eq(NUM(&c.v[1].rec, S_MET_STEP), 20, 0);
	collector_free(&c);
}

Test(reallogs, colours_progress_bars_crlf)
{
	struct collector c = { 0 };
	struct tp_stats st = parse_text(
		"\x1b[32mINFO\x1b[0m - [TIMING] Colour: 1.5s\r\n"
		" 10%|#         | 1/10 [00:01<00:09]\r 20%|##        | 2/10 [00:02<00:08]\r"
		"  Batch 7: 0.25s, GPU 1MB, CPU 2MB, loss=0.5\n"
		" 30%|###       | 3/10 [00:03<00:07, 1.0it/s][2024-10-13 22:30:01] [TIMING] After bar: 2s\n"
		"2024-10-13 22:30:02,123 - INFO - Peak memory: 12.5 MB\n",
		&c);
	/* every redraw is a progress record, before what its line holds */
	cr_assert_eq(c.n, 7);
	cr_assert_str_eq(c.v[0].rec.name, "Colour");
	for (int k = 0; k < 3; k++) {
		const struct tp_record *b = &c.v[k < 2 ? 1 + k : 4].rec;
		cr_assert_eq(b->type, TP_PROGRESS);
		cr_assert_float_eq(NUM(b, S_PRG_N), k + 1, 0);
		cr_assert_float_eq(NUM(b, S_PRG_TOTAL), 10, 0);
		cr_assert_float_eq(NUM(b, S_PRG_ELAPSED_S), k + 1, 0);
		cr_assert_float_eq(NUM(b, S_PRG_REMAINING_S), 9 - k, 0);
		cr_assert_eq(tp_has(b, S_PRG_RATE), k == 2);
	}
	cr_assert_float_eq(NUM(&c.v[4].rec, S_PRG_RATE), 1.0, 0);
	cr_assert_float_eq(NUM(&c.v[3].rec, S_BAT_INDEX), 7, 0);
	cr_assert_eq(c.v[3].rec.line, 2);
	cr_assert_str_eq(c.v[5].rec.name, "After bar");
	cr_assert_str_eq(c.v[5].rec.ts, "2024-10-13T22:30:01");
	cr_assert_str_eq(c.v[6].rec.name, "Peak memory");
	cr_assert_str_eq(c.v[6].rec.ts, "2024-10-13T22:30:02.123");
	cr_assert_eq(st.lines, 4);
	collector_free(&c);
}

Test(reallogs, cut_mid_line_and_no_final_newline)
{
	struct collector c = { 0 };
	parse_text("[TIMING] a: 1s\n[TIMING] b: 2", &c);
	cr_assert_eq(collected_count(&c, TP_TIMING), 1);
	collector_free(&c);
	/* an open table at end of input still yields its rows */
	parse_text("[TIMING SUMMARY]\n  A : 1s (50.0%)\n  B : 1s (50.0%)", &c);
	cr_assert_eq(collected_count(&c, TP_SUMMARY), 2);
	collector_free(&c);
}

Test(reallogs, invalid_utf8_and_nul_bytes)
{
	struct collector c = { 0 };
	static const char text[] = "[TIMING] bad\xff\xfe name: 1s\n\0\0\0\n[STAGE] ok\n";
	struct tp_sink s = collect_sink(&c);
	struct tp_parser *p = tp_parser_new("t.log", &s, NULL);
	tp_parse_buffer(p, text, sizeof(text) - 1);
	tp_parser_finish(p);
	cr_assert_eq(c.n, 2);
	cr_assert_eq(c.v[0].rec.name_len, 10);
	cr_assert_eq(tp_parser_stats(p)->lines, 3);
	tp_parser_free(p);
	collector_free(&c);
}

Test(reallogs, huge_line_is_bounded)
{
	size_t n = 3 * 1024 * 1024;
	char *big = xmalloc(n + 64);
	memset(big, 'x', n);
	strcpy(big + n, "\n[TIMING] after: 1s\n");
	struct collector c = { 0 };
	struct tp_sink s = collect_sink(&c);
	struct tp_parser *p = tp_parser_new("t.log", &s, NULL);
	tp_parse_buffer(p, big, strlen(big));
	tp_parser_finish(p);
	cr_assert_eq(c.n, 1);
	cr_assert_eq(c.v[0].rec.line, 2);
	cr_assert_eq(tp_parser_stats(p)->long_lines, 1);
	tp_parser_free(p);
	collector_free(&c);
	free(big);
}

/* ---- malformed marker lines are counted warnings, never silent ---- */

Test(malformed, marker_lines_warn)
{
	struct collector c = { 0 };
	struct tp_stats st = parse_text("[TIMING] no duration here\n"
					"[STAGE]\n"
					"[GPM TIMING] Last 100 graphs: Pattern gen=?, Total=1ms\n"
					"Epoch end: soon\n"
					"[TIMING] fine: 1s\n",
					&c);
	cr_assert_eq(st.malformed, 4);
	cr_assert_eq(c.nwarn, 4);
	cr_assert(strstr(c.warnings[0], "1: ") == c.warnings[0]);
	cr_assert(strstr(c.warnings[3], "4: ") == c.warnings[3]);
	cr_assert_eq(c.n, 1);
	collector_free(&c);
}

Test(malformed, nan_inf_negative_reported)
{
	struct collector c = { 0 };
	struct tp_stats st = parse_text("[TIMING] a: nans\n"
					"[TIMING] b: 1e999s\n"
					"[TIMING] c: -3s\n"
					"  Batch 0: 0.5s, GPU 1MB, CPU 2MB, loss=nan\n",
					&c);
	cr_assert_eq(st.malformed, 4);
	const struct tp_record *r = collected_find(&c, TP_TIMING, "b");
	cr_assert_not_null(r);
	cr_assert_not(HAS(r, S_SECONDS));
	r = collected_find(&c, TP_TIMING, "c");
	cr_assert_float_eq(NUM(r, S_SECONDS), -3, 0);
	r = nth(&c, TP_BATCH, 0);
	cr_assert_not(HAS(r, S_BAT_LOSS));
	cr_assert(HAS(r, S_SECONDS));
	collector_free(&c);
}

Test(malformed, noise_is_not_a_record)
{
	struct collector c = { 0 };
	struct tp_stats st = parse_text("Download complete: 100%\n"
					"Note: see https://example.org/x for 5 MB files and more\n"
					"{'loss': 1.2345, 'learning_rate': 2e-05, 'epoch': 0.16}\n"
					"x = 5\n"
					"Batch size: 32\n",
					&c);
	cr_assert_eq(c.n, 0);
	cr_assert_eq(st.malformed, 0);
	cr_assert_eq(st.unrecognized, 5);
	collector_free(&c);
}

/* ---- number and duration readers ---- */

static double dur(const char *s)
{
	double v = -12345;
	const char *next;
	if (!tp_read_duration(s, s + strlen(s), -1, &v, &next))
		return -12345;
	return v;
}

Test(numbers, duration_units)
{
	cr_assert_float_eq(dur("12.34s"), 12.34, 1e-12);
	cr_assert_float_eq(dur("12.34 sec"), 12.34, 1e-12);
	cr_assert_float_eq(dur("1.5min"), 90, 1e-12);
	cr_assert_float_eq(dur("2h"), 7200, 1e-12);
	cr_assert_float_eq(dur("250ms"), 0.25, 1e-12);
	cr_assert_float_eq(dur("250 us"), 250e-6, 1e-15);
	cr_assert_float_eq(dur("250\xc2\xb5s"), 250e-6, 1e-15);
	cr_assert_float_eq(dur("40ns"), 40e-9, 1e-18);
	cr_assert_float_eq(dur("1e-3s"), 0.001, 1e-15);
	cr_assert_float_eq(dur("3 seconds"), 3, 0);
	cr_assert_eq(dur("12 MB"), -12345);
	cr_assert_eq(dur("12"), -12345);
}

Test(numbers, alternative_in_parentheses)
{
	cr_assert_float_eq(dur("2345.67s (39.09min)"), 2345.67, 1e-9);
	/* here the minutes are the more precise spelling */
	cr_assert_float_eq(dur("2346s (39.0945min)"), 39.0945 * 60, 1e-9);
	cr_assert_float_eq(dur("39.09min (2345.67s)"), 2345.67, 1e-9);
}

Test(numbers, thousands_and_exponents)
{
	double v;
	const char *next, *s = "10,000 rest";
	cr_assert(tp_read_number(s, s + strlen(s), &v, &next));
	cr_assert_float_eq(v, 10000, 0);
	cr_assert_str_eq(next, " rest");
	s = "1,234,567.5";
	cr_assert(tp_read_number(s, s + strlen(s), &v, &next));
	cr_assert_float_eq(v, 1234567.5, 0);
	s = "1,23";
	cr_assert(tp_read_number(s, s + strlen(s), &v, &next));
	cr_assert_float_eq(v, 1, 0);
	s = "6.02e23";
	cr_assert(tp_read_number(s, s + strlen(s), &v, &next));
	cr_assert_float_eq(v, 6.02e23, 1e9);
	s = "0.1";
	cr_assert(tp_read_number(s, s + strlen(s), &v, &next));
	cr_assert(v == 0.1);
	s = "12345678901234567890123";
	cr_assert(tp_read_number(s, s + strlen(s), &v, &next));
	cr_assert_float_eq(v, 12345678901234567890123.0, 1e8);
	s = "-inf";
	cr_assert(tp_read_number(s, s + strlen(s), &v, &next));
	cr_assert(isinf(v) && v < 0);
	s = "abc";
	cr_assert_not(tp_read_number(s, s + strlen(s), &v, &next));
}

Test(numbers, memory_sizes)
{
	double v;
	const char *next, *s = "1.5 GB";
	cr_assert(tp_read_mb(s, s + strlen(s), 0, &v, &next));
	cr_assert_float_eq(v, 1536, 1e-9);
	s = "+76.9MB";
	cr_assert(tp_read_mb(s, s + strlen(s), 0, &v, &next));
	cr_assert_float_eq(v, 76.9, 1e-12);
	s = "512 KiB";
	cr_assert(tp_read_mb(s, s + strlen(s), 0, &v, &next));
	cr_assert_float_eq(v, 0.5, 1e-12);
	s = "12 ms";
	cr_assert_not(tp_read_mb(s, s + strlen(s), 0, &v, &next));
}

Test(numbers, shortest_output)
{
	struct strbuf sb = STRBUF_INIT;
	/* the shortest form that reads back, also past 9 decimals (issue 12, group 9) */
	double vals[] = { 0.12, 2345.67, 44.23, 1e-7, 100, -3.5, 0.009458, 1e20, 89.32 - 1.4e-14, 0.1 + 0.2 };
	const char *want[] = { "0.12", "2345.67", "44.23", "1e-07", "100", "-3.5", "0.009458", "1e+20",
			       "89.31999999999998", "0.30000000000000004" };
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		strbuf_reset(&sb);
		strbuf_add_num(&sb, vals[i]);
		cr_assert_str_eq(sb.buf, want[i], "value %zu", i);
	}
	strbuf_reset(&sb);
	strbuf_add_num(&sb, NAN);
	cr_assert_str_eq(sb.buf, "null");
	strbuf_release(&sb);
}

Test(blocks, marker_lines_inside_a_table_are_their_own_records)
{
	struct collector c = { 0 };
	parse_text("[TIMING SUMMARY]\n"
		   "  A : 1s (50.0%)\n"
		   "[TIMING] x: 2s\n"
		   "  B : 1s (50.0%)\n"
		   "  TOTAL : 2s\n"
		   "====\n",
		   &c);
	cr_assert_eq(collected_count(&c, TP_SUMMARY), 3);
	const struct tp_record *r = collected_find(&c, TP_TIMING, "x");
	cr_assert_not_null(r);
	cr_assert_float_eq(NUM(r, S_SECONDS), 2, 0);
	collector_free(&c);
}

Test(blocks, gpu_peak_only_on_the_next_line)
{
	struct collector c = { 0 };
	parse_text("[Performance] a: 1s, CPU +1MB, GPU +2MB\nunrelated noise\n  GPU peak: 5MB\n", &c);
	const struct tp_record *r = collected_find(&c, TP_PERF, "a");
	cr_assert_not_null(r);
	cr_assert_not(HAS(r, S_PERF_GPU_PEAK_MB));
	collector_free(&c);
}

Test(blocks, table_rules_and_headers_are_not_unrecognized)
{
	struct collector c = { 0 };
	struct tp_stats st = parse_text("PERFORMANCE SUMMARY\n"
					"=====\n"
					"Operation   Time (s)   CPU (MB)  GPU (MB)  GPU Peak\n"
					"-----\n"
					"op  1.0  +1.0  +1.0  1.0\n"
					"TOTAL  1.0s\n"
					"=====\n",
					&c);
	cr_assert_eq(st.unrecognized, 0);
	cr_assert_eq(collected_count(&c, TP_SUMMARY), 2);
	collector_free(&c);
}

/* ---- progress bars as captured logs keep them ---- */

static void parse_with_packs(const char *text, struct collector *c)
{
	struct tp_rules *rs = NULL;
	struct strbuf err = STRBUF_INIT;
	struct tp_rules_opts o = { NULL, 0, NULL, 0 };
	cr_assert_eq(tp_rules_setup(&o, &rs, &err), 0, "%s", err.buf ? err.buf : "");
	strbuf_release(&err);
	struct tp_sink s = collect_sink(c);
	struct tp_parser *p = tp_parser_new("t.log", &s, rs);
	tp_parse_buffer(p, text, strlen(text));
	tp_parser_finish(p);
	tp_parser_free(p);
	tp_rules_free(rs);
}

/* nohup and terminal captures drop the CR between tqdm redraws: only the
 * last redraw of a line was on the screen, and a bar glued after another
 * bar's redraw is still a bar */
Test(bars, glued_redraws_give_the_last_one)
{
	struct collector c = { 0 };
	parse_with_packs("  99%|#########9| 612/613 [22:19<00:01,  1.71s/it]100%|##########| 613/613 [22:39<00:00,  "
			 "1.70s/it]100%|##########| 613/613 [22:39<00:00,  2.50s/it]\n"
			 "Loading weights:   0%|          | 0/310 [00:00<?, ?it/s]Loading weights: 100%|##########| "
			 "310/310 [00:00<00:00, 3322.5it/s]\n"
			 "100%|##########| 20/20 [00:10<00:00,  2.00it/s]{'loss': '0.381', 'epoch': '0.9953'}\n",
			 &c);
	cr_assert_eq(collected_count(&c, TP_RATE), 3, "%zu rates", collected_count(&c, TP_RATE));
	cr_assert_float_eq(NUM(nth(&c, TP_RATE, 0), S_RATE_VALUE), 1 / 2.50, 1e-12);
	cr_assert_eq(nth(&c, TP_RATE, 0)->line, 1);
	cr_assert_float_eq(NUM(nth(&c, TP_RATE, 1), S_RATE_VALUE), 3322.5, 1e-12);
	cr_assert_float_eq(NUM(nth(&c, TP_RATE, 2), S_RATE_VALUE), 2.00, 1e-12);
	collector_free(&c);
}

/*
 * A finished bar the terminal wrapped (LLaMA-Factory's dataset bars at 123
 * columns): "100%|" and the first blocks on one line, the rest of the bar
 * and its rate on the next. One rate, on the line that ends the bar; an
 * unfinished bar or a line that is not a bar's end is read as before.
 */
Test(bars, a_wrapped_finished_bar_is_read_whole)
{
	struct collector c = { 0 };
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "Running tokenizer on dataset:  99%|#########9| 90/91 [00:00<00:00, 480.00 examples/s]\r"
			   "Running tokenizer on dataset: 100%|");
	for (int i = 0; i < 30; i++)
		strbuf_addstr(&sb, "\xe2\x96\x88"); /* 30 full blocks: 90 bytes */
	strbuf_addstr(&sb, "\n\xe2\x96\x88\xe2\x96\x88| 91/91 [00:00<00:00, 484.83 examples/s]"
			   "                                        " /* the terminal's padding */
			   "Grouping texts: 100%|#####\n"
			   "#####| 5/5 [00:01<00:00, 4.20 examples/s]\n"
			   " 50%|#####\n"
			   "#####| 5/10 [00:05<00:05, 1.00it/s]\n"
			   "100%|##########\n"
			   "plain text, no bar\n"
			   "[TIMING] after: 1.5s\n");
	parse_with_packs(sb.buf, &c);
	cr_assert_eq(collected_count(&c, TP_RATE), 2, "%zu rates", collected_count(&c, TP_RATE));
	cr_assert_float_eq(NUM(nth(&c, TP_RATE, 0), S_RATE_VALUE), 484.83, 1e-12);
	cr_assert_str_eq(nth(&c, TP_RATE, 0)->text, "examples/s");
	cr_assert_eq(nth(&c, TP_RATE, 0)->line, 2);
	/* the next bar starts after the padding and wraps again */
	cr_assert_float_eq(NUM(nth(&c, TP_RATE, 1), S_RATE_VALUE), 4.20, 1e-12);
	cr_assert_eq(nth(&c, TP_RATE, 1)->line, 3);
	cr_assert_float_eq(NUM(nth(&c, TP_TIMING, 0), S_SECONDS), 1.5, 1e-12);
	collector_free(&c);
	strbuf_release(&sb);
}

/* detectron2's log.txt writes its logger's name and level where the
 * terminal has "name]:" */
Test(bars, detectron2_file_handler)
{
	struct collector c = { 0 };
	parse_with_packs("[08/30 23:01:28] d2.utils.events INFO:  eta: 0:13:24  iter: 139  total_loss: 63.55  "
			 "time: 0.4335  last_time: 0.4343  data_time: 0.0034  last_data_time: 0.0030   lr: 2.8e-06  "
			 "max_mem: 15538M\n",
			 &c);
	const struct tp_record *b = nth(&c, TP_BATCH, 0);
	cr_assert_not_null(b);
	cr_assert_float_eq(NUM(b, S_SECONDS), 0.4343, 1e-12); /* last_time: time is the mean since the start */
	cr_assert_eq(collected_count(&c, TP_TIMING), 3);
	collector_free(&c);
}

/* Keras fit(verbose=2) and Keras 2.0's progress line without a step time */
Test(bars, keras_verbose_two_and_old_progress)
{
	struct collector c = { 0 };
	parse_with_packs("Epoch 2/40\n"
			 "64/64 - 0s - loss: 2.7102 - accuracy: 0.2201 - 412ms/epoch - 6ms/step\n"
			 "12000/12000 [==============================] - 4s - loss: 0.31 - acc: 0.91\n",
			 &c);
	cr_assert_eq(collected_count(&c, TP_EPOCH), 2, "%zu epochs", collected_count(&c, TP_EPOCH));
	cr_assert_float_eq(NUM(nth(&c, TP_EPOCH, 0), S_SECONDS), 0.412, 1e-12);
	cr_assert_float_eq(NUM(nth(&c, TP_EPOCH, 1), S_SECONDS), 4, 1e-12);
	cr_assert_float_eq(NUM(nth(&c, TP_TIMING, 0), S_SECONDS), 0.006, 1e-12);
	collector_free(&c);
}

/* ---- UTF-16 input ---- */

/* text (ASCII and 4-byte UTF-8 sequences only) as UTF-16 with a byte order
 * mark, little- or big-endian, written to path. */
static void write_utf16(const char *path, const char *text, size_t pad, int le)
{
	FILE *f = fopen(path, "wb");
	cr_assert(f, "%s", path);
	unsigned units[2];
	fputs(le ? "\xff\xfe" : "\xfe\xff", f);
	for (size_t i = 0; i < pad + strlen(text);) {
		const unsigned char *s = (const unsigned char *)text + (i < pad ? 0 : i - pad);
		size_t n = 1;
		if (i < pad) {
			units[0] = 'x', n = 1; /* a line longer than the read buffer */
			i++;
		} else if (*s < 0x80) {
			units[0] = *s;
			i++;
		} else {
			unsigned c = (unsigned)(s[0] & 7) << 18 | (unsigned)(s[1] & 0x3f) << 12 |
				     (unsigned)(s[2] & 0x3f) << 6 | (s[3] & 0x3f);
			units[0] = 0xd800 + ((c - 0x10000) >> 10);
			units[1] = 0xdc00 + ((c - 0x10000) & 0x3ff);
			n = 2;
			i += 4;
		}
		for (size_t k = 0; k < n; k++)
			fputc(le ? (int)(units[k] & 0xff) : (int)(units[k] >> 8), f),
				fputc(le ? (int)(units[k] >> 8) : (int)(units[k] & 0xff), f);
	}
	cr_assert_eq(fclose(f), 0);
}

/* A log redirected by PowerShell is UTF-16 with a byte order mark: it reads
 * as its UTF-8 would, in either byte order, with a character outside the
 * BMP and a first line longer than the read buffer. */
Test(parse, utf16_logs_read_as_their_utf8)
{
	static const char text[] = "\r\n[TIMING] data: 1.5s\r\nnote \xf0\x9f\x9a\x80 done\r\n"
				   "[TIMING] train: 2.25s\n[TIMING] eval: 0.75s";
	const size_t pad = 1536 * 1024;
	char *d = tu_tmpdir("utf16");
	cr_assert(d);
	struct tu_result want = { 0 };
	for (int form = 0; form < 3; form++) {
		char path[300];
		snprintf(path, sizeof(path), "%s/%d/run.log", d, form);
		struct tu_result r = tu_run("mkdir -p '%s/%d'", d, form);
		tu_result_free(&r);
		if (form == 0) {
			FILE *f = fopen(path, "wb");
			cr_assert(f);
			for (size_t i = 0; i < pad; i++)
				fputc('x', f);
			cr_assert(fputs(text, f) >= 0 && fclose(f) == 0);
		} else {
			write_utf16(path, text, pad, form == 1);
		}
		r = tu_run("cd '%s/%d' && $B/tprof-parse -q run.log", d, form);
		cr_assert_eq(r.status, 0, "%s", r.err.buf);
		if (form == 0) {
			cr_expect(strstr(r.out.buf, "\"name\":\"eval\",\"seconds\":0.75"), "%s", r.out.buf);
			want = r;
			continue;
		}
		cr_expect_str_eq(r.out.buf, want.out.buf, "byte order %s", form == 1 ? "LE" : "BE");
		tu_result_free(&r);
	}
	tu_result_free(&want);
	tu_rmtree(d);
}
