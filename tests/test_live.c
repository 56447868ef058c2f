/*
 * test_live.c - the format packs on the output of real runs, committed to
 * public repositories by the people who ran them (listed, with the lines
 * taken, in bench/real-logs.tsv), kept byte for byte in tests/data/real
 * (bench/fetch-real-logs.py fetches them again at their commits; a log that
 * is not there skips its test, and one whose bytes differ from the listed
 * SHA-256 fails it). Each test checks the
 * numbers the framework printed, one release family per test, so that a
 * format change in a new release shows as a failure, not a silent drop.
 */
#include "packtest.h"

#include "history/history.h"

/* Parses the real log name (its bytes checked against sha) with every pack. */
static void live_log(const char *name, const char *sha, struct collector *c)
{
	const char *dir = getenv("TPROF_REAL_LOGS");
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir && *dir ? dir : "tests/data/real", name);
	char hex[65];
	int64_t size;
	if (sha256_file(path, hex, &size) < 0)
		cr_skip_test("%s not fetched (bench/fetch-real-logs.py)", path);
	cr_assert_str_eq(hex, sha, "%s is not the listed log", path);
	struct strbuf text = STRBUF_INIT;
	cr_assert_eq(tu_slurp(path, &text), 0, "cannot read %s", path);
	parse_packs_with(path, text.buf, text.len, NULL, c);
	strbuf_release(&text);
	cr_expect_eq(c->nwarn, 0, "%s: %zu warnings, first: %s", name, c->nwarn, c->nwarn ? c->warnings[0] : "");
}

/* torch.utils.bottleneck on PyTorch 1.4.0 and 1.3.1 (1.x headings, events
 * not averaged): YHRen/NGFP, reports/nfp_perf.md at 2fe4b6128a67 */
Test(live, torch_profiler_pytorch_1x)
{
	struct collector c = { 0 };
	live_log("profiler-1x-ngfp.log", "a01592eb5fbfbc5eae681dbc85f538a23e005613bd9f5862bb8753b347993618", &c);
	/* "to  7.61%  3.029ms  7.61%  3.029ms  3.029ms  5.46%  544.000us  544.000us  1  []" */
	expect_cpu(&c, "to", 0, 7.61, 0.003029, 7.61, 0.003029, 0.003029);
	const struct tp_record *r = named(&c, TP_AGGREGATE, "to");
	EQ(num(r, S_AGG_DEV_TOTAL_PCT), 5.46);
	EQ(num(r, S_AGG_DEV_TOTAL_S), 544e-6);
	EQ(num(r, S_AGG_DEV_MEAN_S), 544e-6);
	EQ(num(r, S_AGG_COUNT), 1);
	expect_cpu(&c, "matmul", 0, 7.60, 0.003024, 7.60, 0.003024, 0.003024);
	/* PyTorch 1.3.1's table: "to  38.04%  81.588ms ... 38.02%  81.496ms  81.496ms" */
	expect_cpu(&c, "to", 13, 38.04, 0.081588, 38.04, 0.081588, 0.081588);
	EQ(num(named_nth(&c, TP_AGGREGATE, "to", 13), S_AGG_DEV_TOTAL_S), 0.081496);
	EQ(num(named_nth(&c, TP_SUMMARY, "self CPU time total", 0), S_SECONDS), 0.039803);
	EQ(num(named_nth(&c, TP_SUMMARY, "CUDA time total", 0), S_SECONDS), 0.009958);
	EQ(num(named_nth(&c, TP_SUMMARY, "self CPU time total", 1), S_SECONDS), 0.214481);
	EQ(num(named_nth(&c, TP_SUMMARY, "CUDA time total", 1), S_SECONDS), 0.214376);
	/* cProfile's dumps beside them */
	EQ(num(named_nth(&c, TP_TIMING, "cProfile", 0), S_SECONDS), 156.669);
	EQ(num(named_nth(&c, TP_TIMING, "cProfile", 1), S_SECONDS), 190.198);
	cr_expect_eq(collected_count(&c, TP_AGGREGATE), 30);
	cr_expect_eq(c.n, 36);
	collector_free(&c);
}

/* PyTorch 2.3: a seminar notebook's tables (CPU; the same profile grouped by
 * input shape; CPU and CUDA with a record_function range; memory), the
 * stream outputs of mryab/efficient-dl-systems,
 * week02_fast_pipelines/seminar/practice.ipynb at e632aa89ca9e */
Test(live, torch_profiler_pytorch_2x)
{
	struct collector c = { 0 };
	live_log("profiler-2x-effdl.log", "0ddf1d828a39c15e203cab4c7a681397498f9096192c0ca4f515220c8d6fb602", &c);
	expect_cpu(&c, "model_inference", 0, 3.21, 0.001822, 100.00, 0.056714, 0.056714);
	expect_cpu(&c, "aten::batch_norm", 0, -0.05, -31e-6, 21.39, 0.012133, 606.650e-6);
	/* the same profile by input shape: aten::batch_norm's first shape */
	expect_cpu(&c, "aten::batch_norm", 1, 0.01, 7e-6, 18.45, 0.010466, 0.010466);
	/* "model_inference  0.00%  0.000us ... 2.903ms  80.95%  2.903ms  2.903ms  1": the range on the GPU */
	expect_cpu(&c, "model_inference (device)", 0, 0, 0, 0, 0, 0);
	expect_device(&c, "model_inference (device)", 0, 0.002903, 80.95, 0.002903, 0.002903);
	expect_cpu(&c, "model_inference", 2, 13.98, 731e-6, 98.05, 0.005128, 0.005128);
	expect_device(&c, "model_inference", 2, 0, 0, 683e-6, 683e-6);
	expect_device(&c, "void cudnn::bn_fw_tr_1C11_singleread<float, 512, tru... (device)", 0, 78e-6, 2.18, 78e-6, 5.2e-6);
	expect_cpu(&c, "aten::empty", 0, 6.47, 262e-6, 6.47, 262e-6, 2.620e-6);
	EQ(num(named_nth(&c, TP_SUMMARY, "self CPU time total", 2), S_SECONDS), 0.005230);
	EQ(num(named(&c, TP_SUMMARY, "self CUDA time total"), S_SECONDS), 0.003586);
	cr_expect_eq(collected_count(&c, TP_AGGREGATE), 40);
	cr_expect_eq(collected_count(&c, TP_SUMMARY), 5);
	/* tqdm's "Epoch 0: 100%|██████████| 59/59 [00:03<00:00, 16.65it/s]" */
	EQ(num(nth(&c, TP_RATE, 0), S_RATE_VALUE), 16.65);
	collector_free(&c);
}

/* Measurements with a label, a description and 4 threads: a blog post,
 * iamycy/iamycy.github.io, _posts/2025-06-28-unroll-ssm.md at 78172ee073eb */
Test(live, torch_benchmark_measurements)
{
	struct collector c = { 0 };
	live_log("benchmark-unroll-ssm.log", "f4522e5b0ca1d15e9defcfe10fc3a2ca58cfc863ae1fe22093d5cd09462d7f0b", &c);
	const struct tp_record *r = named(&c, TP_RUNTIME, "naive_allpole");
	cr_expect_str_eq(r->text, "Naive All-Pole Filter");
	EQ(num(r, S_RT_MEDIAN_MS), 168.93);
	EQ(num(r, S_RT_IQR_MS), 0.54);
	EQ(num(r, S_RT_Q1_MS), 168.57);
	EQ(num(r, S_RT_Q3_MS), 169.11);
	EQ(num(r, S_RT_RUNS), 6);
	r = named(&c, TP_RUNTIME, "state_space_allpole_unrolled_v2");
	EQ(num(r, S_RT_MEDIAN_MS), 1.40);
	EQ(num(r, S_RT_IQR_MS), 0.01);
	EQ(num(r, S_RT_Q3_MS), 1.41);
	EQ(num(r, S_RT_RUNS), 7);
	cr_expect_eq(c.n, 4, "the post's prose and code make no record");
	collector_free(&c);
}

/* Compare tables, the unit in their footers: benchmark_core.py's output in
 * facebookresearch/xformers, README.md at 7f2b2c3a643b */
Test(live, torch_benchmark_compare)
{
	struct collector c = { 0 };
	live_log("benchmark-xformers.log", "2b77a04ee5e7e80a5bcae3415581fe23e6b72c170acd5669b601aa2fe2d9e397", &c);
	/* "      sparsity pytorch: 0.50  |        392.4        |        6197.4" */
	const struct tp_record *r = named_nth(&c, TP_RUNTIME, "matmul_with_mask: sparsity pytorch: 0.50", 1);
	cr_expect_str_eq(r->text, "B=8, M=1024, K=256");
	EQ(num(r, S_RT_MEDIAN_MS), 6.1974);
	r = named(&c, TP_RUNTIME, "softmax: dense");
	cr_expect_str_eq(r->text, "B=8, M=256, K=128");
	EQ(num(r, S_RT_MEDIAN_MS), 0.0128);
	EQ(num(named_nth(&c, TP_RUNTIME, "bmm: sparsity sputnik: 0.99", 1), S_RT_MEDIAN_MS), 0.0774);
	cr_expect_eq(c.n, 68);
	collector_free(&c);
}

/* transformers 5.5.0 with Unsloth (quoted numbers, a message glued after a
 * redraw): sohelakhtar23/LLM-SC-Generation, terminal/FT/FT_qwen_creation.md
 * at 9821a8d2e879 */
Test(live, hf_trainer_5x)
{
	struct collector c = { 0 };
	live_log("hf5-qwen.log", "6373159deadecfe21fc3a7bbc14a9a3a865c2097bc760a928b7afe56533aa3c6", &c);
	/* {'train_runtime': '403', 'train_samples_per_second': '2.196', 'train_steps_per_second': '0.275', ...} */
	EQ(num(named(&c, TP_SUMMARY, "train_runtime"), S_SECONDS), 403);
	EQ(num(named(&c, TP_RATE, "train_samples_per_second"), S_RATE_VALUE), 2.196);
	EQ(num(named(&c, TP_RATE, "train_steps_per_second"), S_RATE_VALUE), 0.275);
	EQ(num(named_nth(&c, TP_SUMMARY, "eval_runtime", 1), S_SECONDS), 3.721);
	/* "100%|████| 111/111 [06:41<00:00,  3.38s/it]Unsloth: Restored ..." and the bar's last redraw */
	const struct tp_record *r = named_nth(&c, TP_RATE, "tqdm", 3);
	EQ(num(r, S_RATE_VALUE), 1 / 3.38);
	cr_expect_eq(r->line, 77);
	EQ(num(named_nth(&c, TP_RATE, "tqdm", 4), S_RATE_VALUE), 1 / 3.63);
	collector_free(&c);
}

/* transformers 4.x (unquoted dicts padded to the bar, the last one glued
 * after a redraw): ajpienaar/GPT2Domain, README.md at 784904c2a14f */
Test(live, hf_trainer_4x)
{
	struct collector c = { 0 };
	live_log("hf4-gpt2domain.log", "871884922881e2ee422f0b6bc43794bb10c0cc49110ca014c2b969a2d8c787cb", &c);
	EQ(num(named(&c, TP_SUMMARY, "train_runtime"), S_SECONDS), 9194.3065);
	EQ(num(named(&c, TP_RATE, "train_samples_per_second"), S_RATE_VALUE), 1.605);
	EQ(num(named_nth(&c, TP_SUMMARY, "eval_runtime", 1), S_SECONDS), 47.8554);
	EQ(num(named(&c, TP_RATE, "tqdm"), S_RATE_VALUE), 3417.10); /* Map: ... 3417.10 examples/s */
	collector_free(&c);
}

/* Lightning 2.4.0's Rich bars in Docker (no terminal: drawn once, 80
 * columns, the metrics wrapped under them): siddharthvij10/BITS_Mtech,
 * MLOPS/Session4/Readme.md at 49d05f279782 */
Test(live, lightning_2x_rich_bars)
{
	struct collector c = { 0 };
	live_log("lightning2-dogbreed.log", "6ea4d0fac2e2a87a68a8c38fabb28881f76b7421b4045e11431b8a18c45d09f8", &c);
	/* "Epoch 4/4  ━━━━ 25/25 0:00:48 • 0:00:00 0.48it/s v_num: 2.000" */
	EQ(num(nth(&c, TP_EPOCH, 0), S_SECONDS), 48);
	EQ(num(named(&c, TP_RATE, "train"), S_RATE_VALUE), 0.48);
	EQ(num(named(&c, TP_TIMING, "Testing elapsed"), S_SECONDS), 4);
	EQ(num(named(&c, TP_RATE, "Testing"), S_RATE_VALUE), 1.50);
	EQ(num(named(&c, TP_TIMING, "Validation elapsed"), S_SECONDS), 3);
	EQ(num(named(&c, TP_RATE, "Validation"), S_RATE_VALUE), 2.32);
	/* besides a progress record for each bar, and the log's span (log start, log end) */
	cr_expect_eq(collected_count(&c, TP_META), 2);
	cr_expect_eq(c.n - collected_count(&c, TP_PROGRESS) - collected_count(&c, TP_META), 6,
		     "the wrapped metrics (val_loss alone) are no timing");
	collector_free(&c);
}

/* pytorch_lightning 1.2's tqdm bars (April 2021), UserWarnings glued after
 * redraws: stanton119/data-analysis,
 * PyTorchStuff/pytorch_lightning/pytorch_lightning_regression.md at 602fdc07a7e8 */
Test(live, lightning_1x_tqdm_bars)
{
	struct collector c = { 0 };
	live_log("lightning1-regression.log", "3b99f11520eadf1f78cb2fb853ccc0c06e7baf0f5193fe7c44924add4445456c", &c);
	/* "Epoch 199: 100%|██████████| 16/16 [00:00<00:00, 352.62it/s, loss=1.03, v_num=0]" */
	EQ(num(nth(&c, TP_RATE, 0), S_RATE_VALUE), 352.62);
	EQ(num(nth(&c, TP_RATE, 1), S_RATE_VALUE), 266.12);
	cr_expect_eq(collected_count(&c, TP_RATE), 86);
	cr_expect_eq(c.n - collected_count(&c, TP_PROGRESS), 86); /* and a progress record per redraw */
	collector_free(&c);
}

/* Megatron-DeepSpeed under torchrun --tee ("[default3]:", elapsed time in
 * seconds): FZJ-JSC/jubench-megatron-lm, README.md at d02714dbaf6d */
Test(live, torchrun_prefix_and_megatron)
{
	struct collector c = { 0 };
	live_log("torchrun-jubench.log", "94b1ceff780fdacf07ebf7e775e3127585be6d5b257f36d71f05a1f403e9c1f9", &c);
	cr_assert_eq(collected_count(&c, TP_BATCH), 5);
	const struct tp_record *b = nth(&c, TP_BATCH, 0);
	EQ(num(b, S_BAT_INDEX), 10);
	EQ(num(b, S_SECONDS), 35.8651);
	EQ(num(b, S_BAT_LOSS), 13.32803);
	cr_expect_eq(b->rank, 3);
	EQ(num(named(&c, TP_RATE, "samples per second"), S_RATE_VALUE), 28.551);
	EQ(num(named(&c, TP_RATE, "TFLOPs"), S_RATE_VALUE), 199.03);
	cr_expect_eq(nth(&c, TP_RATE, 0)->rank, 3);
	collector_free(&c);
}

/* OLMo's trainer (OLMo-1B continued pretraining under torchrun, tab-separated
 * log records, indented metric lines): AntonioLopardo/OLMo, training.log at
 * f2d902491c7f */
Test(live, olmo_trainer)
{
	struct collector c = { 0 };
	live_log("olmo-lopardo.log", "22df7e11d3817696f137c0563e55b51b249834862ceaf408af69aa8d516283ec", &c);
	/* "[step=1/15000,epoch=0]" to "[step=1010/15000,epoch=0]", each at its stamp */
	cr_assert_eq(collected_count(&c, TP_BATCH), 1010);
	EQ(num(nth(&c, TP_BATCH, 1009), S_BAT_INDEX), 1010);
	cr_expect_str_eq(nth(&c, TP_BATCH, 0)->ts, "2025-12-12T11:05:02.009");
	/* from step 2 on: "throughput/device/batches_per_second=0.2605", "tokens_per_second=68,289" */
	const struct tp_record *r = named(&c, TP_RATE, "batches_per_second");
	EQ(num(r, S_RATE_VALUE), 0.2605);
	cr_expect_eq(r->line, 66);
	EQ(num(named(&c, TP_RATE, "tokens_per_second"), S_RATE_VALUE), 68289);
	collector_free(&c);
}

/* MXNet Module.fit with the image-classification examples' fit.py (10
 * epochs, Speedometer every 20 batches): OuyangChao/mxnet-cls, log/train.log
 * at 6061ee5de59e */
Test(live, mxnet_module_fit)
{
	struct collector c = { 0 };
	live_log("mxnet-ouyang.log", "98761292a87bf63a7da76a165c91e328519a2136f575c80ece198f6471dd2d9d", &c);
	/* "Epoch[0] Batch [20]\tSpeed: 142.33 samples/sec\taccuracy=0.562500" */
	cr_assert_eq(collected_count(&c, TP_RATE), 310);
	EQ(num(nth(&c, TP_RATE, 0), S_RATE_VALUE), 142.33);
	cr_expect_eq(nth(&c, TP_RATE, 0)->line, 2);
	/* "Epoch[0] Time cost=140.990", ten epochs */
	cr_assert_eq(collected_count(&c, TP_EPOCH), 10);
	EQ(num(nth(&c, TP_EPOCH, 0), S_SECONDS), 140.990);
	EQ(num(named(&c, TP_META, "batch_size"), S_META_VALUE), 32);
	collector_free(&c);
}
