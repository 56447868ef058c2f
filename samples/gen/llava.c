/*
 * llava.c - writes samples/graph-llava-pretrain.log, a single-process
 * Graph-LLaVA pretraining run in the style of S0: [STAGE] and
 * [TIMING] lines from TimeProfiler, the HF Trainer header, [GPM TIMING]
 * windows printed while the tqdm bar is live, and the [TIMING SUMMARY]
 * table; around them DeepSpeed launcher and engine noise, transformers
 * warnings and HF's {'loss': ...} dicts.
 *
 * Stage durations are kept in centiseconds, so the summary's TOTAL is the
 * exact sum of its rows and every percentage is row/TOTAL rounded to 0.1.
 */
#include "common.h"
#include "samples.h"

#include <string.h>

#define NSTEPS 625
#define NWIN 60
#define LOG_EVERY 10

static long long t0;  /* unix time of the pipeline start */
static long clock_cs; /* centiseconds since t0 */

struct stage {
	const char *name;
	long cs;
};

static struct stage stages[] = {
	{ "Argument parsing", 14 },
	{ "LLM model loading", 4786 },
	{ "Graph tower initialization (gpm)", 261 },
	{ "Dataset loading and preprocessing", 1307 },
	{ "Trainer initialization", 93 },
	{ "Main training loop", 0 }, /* filled in from the simulated loop */
	{ "State saving", 458 },
};
enum { NSTAGES = sizeof(stages) / sizeof(stages[0]), MAIN_LOOP = 5 };

static void stamp(char *b, size_t n)
{
	fmt_time(b, n, t0 + clock_cs / 100, "[%Y-%m-%d %H:%M:%S]");
}

/* DeepSpeed's logger: "[2024-10-13 22:29:48,112] [INFO] [file:line:func] msg" */
static void ds_log(long long t, int ms, const char *level, const char *where,
		   const char *msg)
{
	char ts[64];
	fmt_time(ts, sizeof(ts), t, "%Y-%m-%d %H:%M:%S");
	say("[%s,%03d] [%s] [%s] %s\n", ts, ms, level, where, msg);
}

static void stage_begin(int i)
{
	char ts[64];
	stamp(ts, sizeof(ts));
	say("%s [STAGE] %s\n", ts, stages[i].name);
}

static void stage_end(int i)
{
	char ts[64], d[64];
	clock_cs += stages[i].cs;
	stamp(ts, sizeof(ts));
	fmt_dur_cs(d, sizeof(d), stages[i].cs);
	say("%s [TIMING] %s: %s\n", ts, stages[i].name, d);
}

static void launcher(void)
{
	long long t = t0 - 12;
	ds_log(t, 112, "INFO", "real_accelerator.py:203:get_accelerator",
	       "Setting ds_accelerator to cuda (auto detect)");
	ds_log(t + 2, 31, "WARNING", "runner.py:202:fetch_hostfile",
	       "Unable to find hostfile, will proceed with training with local resources only.");
	ds_log(t + 2, 32, "INFO", "runner.py:568:main",
	       "cmd = /usr/bin/python3 -u -m deepspeed.launcher.launch --world_info=eyJsb2NhbGhvc3QiOiBbMF19 "
	       "--master_addr=127.0.0.1 --master_port=29500 --enable_each_rank_log=None llava/train/train_mem.py "
	       "--deepspeed ./scripts/zero2.json --model_name_or_path lmsys/vicuna-7b-v1.5 --version plain "
	       "--data_path ./data/pretrain/chebi_pretrain_10k.json --graph_tower gpm --mm_projector_type mlp2x_gelu "
	       "--tune_mm_mlp_adapter True --bf16 True --output_dir ./checkpoints/graph-llava-pretrain "
	       "--num_train_epochs 2 --per_device_train_batch_size 8 --gradient_accumulation_steps 4 "
	       "--learning_rate 2e-3 --warmup_ratio 0.03 --lr_scheduler_type cosine --logging_steps 10 "
	       "--gradient_checkpointing True --dataloader_num_workers 4 --report_to none");
	ds_log(t + 4, 418, "INFO", "real_accelerator.py:203:get_accelerator",
	       "Setting ds_accelerator to cuda (auto detect)");
	ds_log(t + 6, 7, "INFO", "launch.py:145:main", "WORLD INFO DICT: {'localhost': [0]}");
	ds_log(t + 6, 7, "INFO", "launch.py:151:main", "nnodes=1, num_local_procs=1, node_rank=0");
	ds_log(t + 6, 7, "INFO", "launch.py:162:main",
	       "global_rank_mapping=defaultdict(<class 'list'>, {'localhost': [0]})");
	ds_log(t + 6, 7, "INFO", "launch.py:163:main", "dist_world_size=1");
	ds_log(t + 6, 7, "INFO", "launch.py:165:main", "Setting CUDA_VISIBLE_DEVICES=0");
	ds_log(t + 9, 640, "INFO", "real_accelerator.py:203:get_accelerator",
	       "Setting ds_accelerator to cuda (auto detect)");
	ds_log(t + 11, 120, "INFO", "comm.py:637:init_distributed", "cdb=None");
	ds_log(t + 11, 120, "INFO", "comm.py:668:init_distributed",
	       "Initializing TorchBackend in DeepSpeed with backend nccl");
}

static void model_loading(void)
{
	char b[256], all[1024] = "";
	static const double el[] = { 0, 24.51, 32.73 };
	put("You are using a model of type llama to instantiate a model of type llava_llama. "
	    "This is not supported for all configurations of models and can yield errors.\n");
	for (int k = 0; k <= 2; k++) {
		tqdm_fmt(b, sizeof(b), "Loading checkpoint shards", k, 2, el[k],
			 k ? el[k] / k : 0);
		strcat(all, "\r");
		strcat(all, b);
	}
	say("%s\n", all);
	put("/usr/local/lib/python3.10/dist-packages/torch/_utils.py:831: UserWarning: TypedStorage is "
	    "deprecated. It will be removed in the future and UntypedStorage will be the only storage "
	    "class. This should only matter to you if you are using storages directly.  To access "
	    "UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()\n");
	put("  return self.fget.__get__(instance, owner)()\n");
	put("Some weights of LlavaLlamaForCausalLM were not initialized from the model checkpoint at "
	    "lmsys/vicuna-7b-v1.5 and are newly initialized: ['model.mm_projector.0.bias', "
	    "'model.mm_projector.0.weight', 'model.mm_projector.2.bias', 'model.mm_projector.2.weight']\n");
	put("You should probably TRAIN this model on a down-stream task to be able to use it for "
	    "predictions and inference.\n");
	put("You are using the default legacy behaviour of the <class "
	    "'transformers.models.llama.tokenization_llama.LlamaTokenizer'>. This is expected, and "
	    "simply means that the `legacy` (previous) behavior will be used so nothing changes for you. "
	    "If you want to use the new behaviour, set `legacy=False`.\n");
}

static void gpm_init(void)
{
	put("Loading GPM weights from ./checkpoints/gpm/gpm_chebi_pretrained.pt\n");
	put("GPM tower: num_patterns=64, pattern_size=8, hidden_dim=300, readout=mean\n");
}

static void building_features(void)
{
	char b[256], all[4096] = "";
	static const long ks[] = { 0, 1480, 3012, 4507, 6021, 7533, 9011, 10000 };
	put("Formatting inputs...Skip in lazy mode\n");
	put("Loaded 10000 samples from ./data/pretrain/chebi_pretrain_10k.json\n");
	for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		double e = ks[i] * 0.00116;
		tqdm_fmt(b, sizeof(b), "Building graph features", ks[i], 10000, e,
			 ks[i] ? e / ks[i] : 0);
		strcat(all, "\r");
		strcat(all, b);
	}
	say("%s\n", all);
	put("Dropped 0 samples with empty SMILES; 10000 graphs, avg 28.9 nodes, avg 62.4 edges\n");
}

static void trainer_init(void)
{
	put("Using /root/.cache/torch_extensions/py310_cu121 as PyTorch extensions root...\n");
	put("Detected CUDA files, patching ldflags\n");
	put("Emitting ninja build file /root/.cache/torch_extensions/py310_cu121/fused_adam/build.ninja...\n");
	put("Building extension module fused_adam...\n");
	put("Allowing ninja to set a default number of workers... (overridable by setting the "
	    "environment variable MAX_JOBS=N)\n");
	put("ninja: no work to do.\n");
	put("Loading extension module fused_adam...\n");
	put("Time to load fused_adam op: 0.6214 seconds\n");
}

/* The engine's configuration dump, printed inside trainer.train(). */
static void ds_engine(long long t)
{
	static const char *cfg[] = {
		"  activation_checkpointing_config  {\"partition_activations\": false, "
		"\"contiguous_memory_optimization\": false, \"cpu_checkpointing\": false, "
		"\"number_checkpoints\": null, \"synchronize_checkpoint_boundary\": false, \"profile\": false}",
		"  aio_config ................... {'block_size': 1048576, 'queue_depth': 8, "
		"'thread_count': 1, 'single_submit': False, 'overlap_events': True}",
		"  amp_enabled .................. False",
		"  amp_params ................... False",
		"  bfloat16_enabled ............. True",
		"  checkpoint_parallel_write_pipeline  False",
		"  checkpoint_tag_validation_enabled  True",
		"  checkpoint_tag_validation_fail  False",
		"  communication_data_type ...... None",
		"  curriculum_enabled_legacy .... False",
		"  data_efficiency_enabled ...... False",
		"  dataloader_drop_last ......... False",
		"  disable_allgather ............ False",
		"  dump_state ................... False",
		"  dynamic_loss_scale_args ...... None",
		"  eigenvalue_enabled ........... False",
		"  elasticity_enabled ........... False",
		"  flops_profiler_config ........ {\"enabled\": false, \"recompute_fwd_factor\": 0.0, "
		"\"profile_step\": 1, \"module_depth\": -1, \"top_modules\": 1, \"detailed\": true, \"output_file\": null}",
		"  fp16_auto_cast ............... None",
		"  fp16_enabled ................. False",
		"  global_rank .................. 0",
		"  gradient_accumulation_steps .. 4",
		"  gradient_clipping ............ 1.0",
		"  gradient_predivide_factor .... 1.0",
		"  initial_dynamic_scale ........ 1",
		"  load_universal_checkpoint .... False",
		"  loss_scale ................... 1.0",
		"  memory_breakdown ............. False",
		"  optimizer_legacy_fusion ...... False",
		"  optimizer_name ............... None",
		"  optimizer_params ............. None",
		"  pipeline ..................... {'stages': 'auto', 'partition': 'best', "
		"'seed_layers': False, 'activation_checkpoint_interval': 0}",
		"  prescale_gradients ........... False",
		"  scheduler_name ............... None",
		"  scheduler_params ............. None",
		"  sparse_attention ............. None",
		"  steps_per_print .............. inf",
		"  train_batch_size ............. 32",
		"  train_micro_batch_size_per_gpu  8",
		"  wall_clock_breakdown ......... False",
		"  world_size ................... 1",
		"  zero_allow_untested_optimizer  True",
		"  zero_config .................. stage=2 contiguous_gradients=True reduce_scatter=True "
		"reduce_bucket_size=500,000,000 allgather_partitions=True allgather_bucket_size=500,000,000 "
		"overlap_comm=True load_from_fp32_weights=True",
		"  zero_enabled ................. True",
		"  zero_optimization_stage ...... 2",
	};
	ds_log(t, 218, "INFO", "logging.py:96:log_dist",
	       "[Rank 0] DeepSpeed info: version=0.12.6, git-hash=unknown, git-branch=unknown");
	ds_log(t + 1, 904, "INFO", "logging.py:96:log_dist",
	       "[Rank 0] DeepSpeed Flops Profiler Enabled: False");
	ds_log(t + 1, 905, "INFO", "logging.py:96:log_dist",
	       "[Rank 0] Using client Optimizer as basic optimizer");
	ds_log(t + 1, 905, "INFO", "logging.py:96:log_dist",
	       "[Rank 0] Creating BF16 optimizer");
	ds_log(t + 2, 311, "INFO", "utils.py:791:see_memory_usage",
	       "begin bf16_optimizer");
	ds_log(t + 2, 312, "INFO", "utils.py:792:see_memory_usage",
	       "MA 13.12 GB         Max_MA 13.12 GB         CA 13.33 GB         Max_CA 13 GB ");
	ds_log(t + 2, 312, "INFO", "utils.py:799:see_memory_usage",
	       "CPU Virtual Memory:  used = 41.87 GB, percent = 8.3%");
	ds_log(t + 3, 77, "INFO", "config.py:984:print", "DeepSpeedEngine configuration:");
	for (size_t i = 0; i < sizeof(cfg) / sizeof(cfg[0]); i++)
		ds_log(t + 3, 78, "INFO", "config.py:988:print", cfg[i]);
	ds_log(t + 3, 79, "INFO", "config.py:974:print_user_config",
	       "  json = {\"bf16\": {\"enabled\": true}, \"train_micro_batch_size_per_gpu\": 8, "
	       "\"train_batch_size\": 32, \"gradient_accumulation_steps\": 4, \"zero_optimization\": "
	       "{\"stage\": 2, \"overlap_comm\": true, \"contiguous_gradients\": true}}");
}

static void header(void)
{
	put("***** Running training *****\n");
	put("  Num examples = 10,000\n");
	put("  Num Epochs = 2\n");
	put("  Instantaneous batch size per device = 8\n");
	put("  Total train batch size (w. parallel, distributed & accumulation) = 32\n");
	put("  Gradient Accumulation steps = 4\n");
	put("  Total optimization steps = 625\n");
	put("  Number of trainable parameters = 21,004,288\n");
}

static double lr_at(int step)
{
	const int warm = 19;
	if (step < warm)
		return 2e-3 * step / warm;
	return 2e-3 * 0.5 * (1 + my_cos(3.14159265358979323846 * (step - warm) / (NSTEPS - warm)));
}

/*
 * One [GPM TIMING] window; the first includes CUDA/cuDNN warmup. As in
 * gpm.py, Pattern gen= and Total= are per-graph means over the window's
 * 100 graphs and Avg nodes= the average over every graph so far: the
 * window's own mean size (tenths of a node) is added to *nodes_sum.
 */
static void gpm_window(struct term *t, int k, long *nodes_sum)
{
	char b[160];
	long pat, tot, nodes;
	if (k == 1) {
		pat = 31277;
		tot = 104352;
		*nodes_sum += 286;
	} else {
		pat = 11890 + lround_(rng_gauss() * 260);
		tot = pat + 32600 + lround_(rng_gauss() * 700);
		*nodes_sum += 289 + lround_(rng_gauss() * 6);
	}
	nodes = (*nodes_sum + k / 2) / k; /* the cumulative average, rounded to 0.1 */
	snprintf(b, sizeof(b),
		 "[GPM TIMING] Last 100 graphs: Pattern gen=%ld.%02ldms, Total=%ld.%02ldms, Avg nodes=%ld.%ld",
		 pat / 100, pat % 100, tot / 100, tot % 100, nodes / 10, nodes % 10);
	term_print(t, b);
}

/* The training loop; returns its wall time in centiseconds. */
static long training(void)
{
	struct term t = { 0 };
	char b[512], lr[64], ep[64], loss[64];
	double el = 0, loss_sum = 0;
	int nlog = 0, k = 1;
	long nodes_sum = 0; /* the GPM windows' mean sizes so far, tenths of a node */

	tqdm_fmt(b, sizeof(b), "", 0, NSTEPS, 0, 0);
	term_bar(&t, b);
	term_print(&t, "/usr/local/lib/python3.10/dist-packages/torch/utils/checkpoint.py:429: "
		       "UserWarning: torch.utils.checkpoint: please pass in use_reentrant=True or "
		       "use_reentrant=False explicitly. The default value of use_reentrant will be updated "
		       "to be False in the future. To maintain current behavior, pass use_reentrant=True. "
		       "It is recommended that you use use_reentrant=False. Refer to docs for more details "
		       "on the differences between the two variants.");
	term_print(&t, "  warnings.warn(");
	for (int step = 1; step <= NSTEPS; step++) {
		el += step == 1 ? 9.21 : 3.83 + rng_gauss() * 0.06;
		if (k <= NWIN && step == (k * NSTEPS + NWIN - 1) / NWIN)
		{
			gpm_window(&t, k, &nodes_sum);
			k++;
		}
		tqdm_fmt(b, sizeof(b), "", step, NSTEPS, el, el / step);
		term_bar(&t, b);
		if (step % LOG_EVERY == 0) {
			long l = lround_((0.92 + 1.31 / (1 + step / 45.0) + rng_gauss() * 0.035) * 10000);
			loss_sum += l / 10000.0;
			nlog++;
			pyrepr(loss, sizeof(loss), l / 10000.0);
			pyrepr(lr, sizeof(lr), lr_at(step));
			pyrepr(ep, sizeof(ep), lround_(step * 100 / 312.5) / 100.0);
			snprintf(b, sizeof(b), "{'loss': %s, 'learning_rate': %s, 'epoch': %s}", loss, lr, ep);
			term_write(&t, b);
		}
	}
	el += 1.37;
	{
		char rt[64], sps[64], tps[64], tl[64];
		pyrepr(rt, sizeof(rt), lround_(el * 10000) / 10000.0);
		pyrepr(sps, sizeof(sps), lround_(20000 / el * 1000) / 1000.0);
		pyrepr(tps, sizeof(tps), lround_(NSTEPS / el * 1000) / 1000.0);
		pyrepr(tl, sizeof(tl), lround_(loss_sum / nlog * 10000) / 10000.0);
		snprintf(b, sizeof(b),
			 "{'train_runtime': %s, 'train_samples_per_second': %s, "
			 "'train_steps_per_second': %s, 'train_loss': %s, 'epoch': 2.0}",
			 rt, sps, tps, tl);
		term_write(&t, b);
	}
	term_bar(&t, t.bar);
	term_close(&t);
	return lround_(el * 100);
}

static void summary(void)
{
	char d[64];
	long total = 0;
	for (int i = 0; i < NSTAGES; i++)
		total += stages[i].cs;
	put("\n================================================================================\n");
	put("[TIMING SUMMARY]\n");
	put("================================================================================\n");
	for (int i = 0; i < NSTAGES; i++) {
		long pm = div_round(stages[i].cs * 1000, total);
		fmt_dur_cs(d, sizeof(d), stages[i].cs);
		say("  %-40s: %-20s (%ld.%ld%%)\n", stages[i].name, d, pm / 10, pm % 10);
	}
	fmt_dur_cs(d, sizeof(d), total);
	say("  %-40s: %s\n", "TOTAL", d);
	put("================================================================================\n");
}

void gen_llava(const char *dir)
{
	char ts[64];
	long train_cs;

	rng_seed(1000);
	t0 = utc(2024, 10, 13, 22, 30, 0);
	clock_cs = 0;
	out_open(dir, "graph-llava-pretrain.log");
	launcher();
	stamp(ts, sizeof(ts));
	say("%s [STAGE] === TRAINING PIPELINE START ===\n", ts);
	stage_begin(0);
	stage_end(0);
	stage_begin(1);
	model_loading();
	stage_end(1);
	stage_begin(2);
	gpm_init();
	stage_end(2);
	stage_begin(3);
	building_features();
	stage_end(3);
	stage_begin(4);
	trainer_init();
	stage_end(4);
	stage_begin(5);
	ds_engine(t0 + clock_cs / 100 + 1);
	header();
	train_cs = training();
	put("\n\nTraining completed. Do not forget to share your model on huggingface.co/models =)\n\n\n");
	stages[MAIN_LOOP].cs = train_cs + 612; /* + engine setup and teardown */
	stage_end(5);
	stage_begin(6);
	put("Saving mm_projector to ./checkpoints/graph-llava-pretrain/mm_projector.bin\n");
	stage_end(6);
	summary();
	ds_log(t0 + clock_cs / 100 + 3, 512, "INFO", "launch.py:347:main",
	       "Process 2087311 exits successfully.");
	out_close();
}
