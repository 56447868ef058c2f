/*
 * pde.c - writes samples/pde-physical.log: a Hydra run of a heat-equation
 * experiment with the PerformanceMonitor of S4. Five epochs of
 * twenty "  Batch N:" lines each (the first batch of the run is slow, the
 * last of each epoch is a short partial batch, one batch is a clear
 * outlier, CPU memory leaks ~2 MB a batch, the loss first falls below
 * 0.005 at the last batch of epoch 2), "Epoch end:" and "Batch timing:" after
 * each epoch; then a physical inversion with "[Performance]" lines and the
 * PERFORMANCE SUMMARY and AGGREGATE STATISTICS tables.
 *
 * Batch times are integer milliseconds and memory tenths of MB, so the
 * epoch statistics and table totals are exact.
 */
#include "common.h"
#include "samples.h"

#define NEPOCHS 5
#define NBATCH 20
#define NITER 50

static long clock_ms; /* since 09:12:00 */

static void hydra(const char *logger, const char *fmt_msg)
{
	long s = clock_ms / 1000;
	say("[2024-11-04 09:%02ld:%02ld,%03ld][%s][INFO] - %s\n", 12 + s / 60, s % 60, clock_ms % 1000,
	    logger, fmt_msg);
}

static void config_dump(void)
{
	static const char *yaml =
		"experiment:\n"
		"  name: heat_physical_experiment\n"
		"  pde: heat\n"
		"  seed: 42\n"
		"data:\n"
		"  root: data/heat_2d\n"
		"  resolution: 64\n"
		"  n_train: 640\n"
		"  n_val: 128\n"
		"  timesteps: 50\n"
		"  normalize: true\n"
		"model:\n"
		"  _target_: src.models.fno.FNO2d\n"
		"  modes1: 12\n"
		"  modes2: 12\n"
		"  width: 32\n"
		"  n_layers: 4\n"
		"  in_channels: 3\n"
		"  out_channels: 1\n"
		"trainer:\n"
		"  _target_: src.training.synthetic_trainer.SyntheticTrainer\n"
		"  accelerator: gpu\n"
		"  devices: 1\n"
		"trainer_params:\n"
		"  enable_memory_monitoring: true\n"
		"  memory_monitor_batches: 20\n"
		"  batch_size: 32\n"
		"  num_workers: 8\n"
		"  epochs: 5\n"
		"  learning_rate: 0.001\n"
		"  scheduler: cosine\n"
		"physical:\n"
		"  _target_: src.training.physical_trainer.PhysicalTrainer\n"
		"  parameter: diffusivity\n"
		"  init_value: 0.05\n"
		"  target_value: 0.1\n"
		"  optimizer: lbfgs\n"
		"  epochs: 50\n"
		"hydra:\n"
		"  run:\n"
		"    dir: outputs/${now:%Y-%m-%d}/${now:%H-%M-%S}\n"
		"  job:\n"
		"    chdir: false\n";
	put(yaml);
}

static void lightning(void)
{
	put("GPU available: True (cuda), used: True\n");
	put("TPU available: False, using: 0 TPU cores\n");
	put("IPU available: False, using: 0 IPUs\n");
	put("HPU available: False, using: 0 HPUs\n");
	put("LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0]\n\n");
	put("  | Name  | Type    | Params\n");
	put("----------------------------------\n");
	put("0 | model | FNO2d   | 1.2 M \n");
	put("1 | loss  | MSELoss | 0     \n");
	put("----------------------------------\n");
	put("1.2 M     Trainable params\n");
	put("0         Non-trainable params\n");
	put("1.2 M     Total params\n");
	put("4.734     Total estimated model params size (MB)\n");
	put("/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py:558: UserWarning: This "
	    "DataLoader will create 8 worker processes in total. Our suggested max number of worker in "
	    "current system is 4, which is smaller than what this DataLoader is going to create. Please be "
	    "aware that excessive worker creation might get DataLoader running slow or even freeze, lower "
	    "the worker number to avoid potential slowness/freeze if necessary.\n");
	put("  warnings.warn(_create_warning_msg(\n");
	put("You are using a CUDA device ('NVIDIA A100-SXM4-40GB') that has Tensor Cores. To properly "
	    "utilize them, you should set `torch.set_float32_matmul_precision('medium' | 'high')` which "
	    "will trade-off precision for performance. For more details, read "
	    "https://pytorch.org/docs/stable/generated/torch.set_float32_matmul_precision.html"
	    "#torch.set_float32_matmul_precision\n");
	put("\rSanity Checking: |          | 0/? [00:00<?, ?it/s]\rSanity Checking DataLoader 0: 100%|"
	    "██████████| 2/2 [00:00<00:00,  9.41it/s]\n");
	put("EpochPerformanceMonitor: enabled, verbose_batches=20, device=cuda:0\n");
}

static long batch_ms(int e, int b)
{
	if (b == 0)
		return e == 0 ? 538 : rng_range(240, 262);
	if (b == NBATCH - 1)
		return rng_range(82, 96);
	if (e == 0 && b == 1)
		return 185;
	if (e == 3 && b == 11)
		return 947;
	long t = 185 + lround_(rng_gauss() * 6);
	return t < 171 ? 171 : t;
}

/* State carried across epochs. */
struct run {
	long cpu;     /* tenths of MB */
	double loss;
	double decay; /* 0.968^i for the i-th batch of the run */
	int i;        /* batches so far */
};

static void next_loss(struct run *r)
{
	if (r->i == 0) {
		r->loss = 0.009458;
	} else if (r->i == 1) {
		r->loss = 0.016763;
	} else {
		r->decay *= 0.968;
		r->loss = (0.0021 + 0.0125 * r->decay) * (1 + 0.08 * rng_gauss());
	}
}

static void next_cpu(struct run *r)
{
	if (r->i == 0)
		r->cpu = 16489;
	else if (r->i == 1)
		r->cpu = 16596;
	else
		r->cpu += 21 + lround_(rng_gauss() * 4);
}

static void epoch(int e, struct run *r)
{
	char m[160];
	long sum = 0, lo = 1000000, hi = 0;

	snprintf(m, sizeof(m), "Epoch %d/%d (lr=%.2e)", e + 1, NEPOCHS,
		 1e-3 * 0.5 * (1 + my_cos(3.14159265358979 * e / NEPOCHS)));
	hydra("src.training.synthetic_trainer", m);
	for (int b = 0; b < NBATCH; b++, r->i++) {
		long t = batch_ms(e, b);
		next_loss(r);
		next_cpu(r);
		say("  Batch %d: %ld.%03lds, GPU 23.1MB, CPU %ld.%ldMB, loss=%.6f\n", b, t / 1000, t % 1000,
		    r->cpu / 10, r->cpu % 10, r->loss);
		sum += t;
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
		clock_ms += t;
	}
	long total = sum + rng_range(600, 800);
	long avg = div_round(sum, NBATCH);
	clock_ms += total - sum;
	r->cpu += 35; /* validation */
	say("  Epoch end: %ld.%03lds total, GPU 14.4MB, 3236MB reserved, peak 2880MB\n", total / 1000,
	    total % 1000);
	say("  Batch timing: avg=%ld.%03lds, min=%ld.%03lds, max=%ld.%03lds\n", avg / 1000, avg % 1000,
	    lo / 1000, lo % 1000, hi / 1000, hi % 1000);
	snprintf(m, sizeof(m), "Validation: 4 batches, val_loss %.5f, rel_l2 %.4f", r->loss * 0.96,
		 0.21 * r->loss / 0.0095);
	hydra("src.training.synthetic_trainer", m);
	snprintf(m, sizeof(m), "memory: rss %ld.%02ld GB, cuda allocated 14.4 MB, reserved 3.16 GB", r->cpu / 10240,
		 (r->cpu % 10240) * 100 / 10240);
	hydra("src.utils.memory_monitor", m);
	snprintf(m, sizeof(m), "Epoch %d/%d done | train_loss %.5f | val_loss %.5f", e + 1, NEPOCHS,
		 r->loss, r->loss * 0.96);
	hydra("src.training.synthetic_trainer", m);
	snprintf(m, sizeof(m), "Saved checkpoint outputs/2024-11-04/09-12-00/checkpoints/epoch=%d.ckpt", e + 1);
	hydra("src.training.synthetic_trainer", m);
	hydra("src.training.synthetic_trainer", "lr_scheduler.step() (CosineAnnealingLR, T_max=5)");
}

/* "[Performance] name: 1.234s, CPU +250.5MB, GPU +512.0MB" + GPU peak line */
static void perf_line(const char *name, long ms, long cpu, long gpu, long peak)
{
	say("[Performance] %s: %ld.%03lds, CPU +%ld.%ldMB, GPU +%ld.%ldMB\n", name, ms / 1000, ms % 1000,
	    cpu / 10, cpu % 10, gpu / 10, gpu % 10);
	say("              GPU peak: %ld.%ldMB\n", peak / 10, peak % 10);
}

struct agg {
	const char *name;
	long base_us, sd_us, first_us;
	long total_us, min_us, max_us;
};

static struct agg aggs[] = {
	{ "physical_forward", 21300, 800, 96120, 0, 0, 0 },
	{ "physical_backward", 18700, 600, 61480, 0, 0, 0 },
	{ "optimizer_step", 4100, 300, 9870, 0, 0, 0 },
};
#define NAGG (sizeof(aggs) / sizeof(aggs[0]))

static void agg_add(struct agg *a, long us)
{
	a->total_us += us;
	if (!a->min_us || us < a->min_us)
		a->min_us = us;
	if (us > a->max_us)
		a->max_us = us;
}

/* The inversion loop; returns its wall time in ms. */
static long inversion(void)
{
	char m[160];
	double kappa = 0.05, loss = 4.2e-2;
	long start = clock_ms;

	hydra("src.training.physical_trainer",
	      "Physical inversion: estimating diffusivity (init 0.0500, target 0.1000), 50 iterations, LBFGS");
	for (int it = 1; it <= NITER; it++) {
		long step = 0;
		for (size_t k = 0; k < NAGG; k++) {
			long us = it == 1 ? aggs[k].first_us
					  : aggs[k].base_us + lround_(rng_gauss() * aggs[k].sd_us);
			agg_add(&aggs[k], us);
			step += us;
		}
		clock_ms += (step + 500) / 1000;
		kappa += (0.1 - kappa) * 0.14;
		loss = loss * 0.88 + 1e-5;
		snprintf(m, sizeof(m), "iter %d/%d: loss=%.4e, diffusivity=%.4f", it, NITER, loss, kappa);
		hydra("src.training.physical_trainer", m);
	}
	clock_ms += 180;
	return clock_ms - start;
}

static void hline(char c)
{
	for (int i = 0; i < 90; i++)
		say("%c", c);
	put("\n");
}

struct op {
	const char *name;
	long ms, cpu, gpu, peak; /* memory in tenths of MB */
};

static void perf_summary(const struct op *ops, int n)
{
	long total = 0;
	put("\n");
	hline('=');
	put("PERFORMANCE SUMMARY\n");
	hline('=');
	say("%-30s %-12s %-15s %-15s %s\n", "Operation", "Time (s)", "CPU (MB)", "GPU (MB)", "GPU Peak");
	hline('-');
	for (int i = 0; i < n; i++) {
		const struct op *o = &ops[i];
		char c[32], g[32];
		snprintf(c, sizeof(c), "+%ld.%ld", o->cpu / 10, o->cpu % 10);
		snprintf(g, sizeof(g), "+%ld.%ld", o->gpu / 10, o->gpu % 10);
		say("%-30s %6ld.%03ld %14s %14s %9ld.%ld\n", o->name, o->ms / 1000, o->ms % 1000, c, g,
		    o->peak / 10, o->peak % 10);
		total += o->ms;
	}
	hline('-');
	say("%-30s %6ld.%03lds\n", "TOTAL", total / 1000, total % 1000);
	hline('=');
}

static void ms3(char *b, size_t n, long us)
{
	long ms = div_round(us, 1000);
	snprintf(b, n, "%ld.%03ld", ms / 1000, ms % 1000);
}

static void agg_table(void)
{
	put("\n");
	hline('=');
	put("AGGREGATE STATISTICS (for repeated operations)\n");
	hline('=');
	say("%-30s %-8s %-12s %-12s %-12s %s\n", "Operation", "Count", "Total (s)", "Mean (s)", "Min (s)",
	    "Max (s)");
	hline('-');
	for (size_t k = 0; k < NAGG; k++) {
		char t[32], me[32], lo[32], hi[32];
		ms3(t, sizeof(t), aggs[k].total_us);
		ms3(me, sizeof(me), div_round(aggs[k].total_us, NITER));
		ms3(lo, sizeof(lo), aggs[k].min_us);
		ms3(hi, sizeof(hi), aggs[k].max_us);
		say("%-30s %-5d %9s %12s %12s %12s\n", aggs[k].name, NITER, t, me, lo, hi);
	}
	hline('=');
}

void gen_pde(const char *dir)
{
	struct run r = { 0, 0, 1.0, 0 };
	struct op ops[] = {
		{ "data loading", 462, 5184, 0, 0 },
		{ "load_ground_truth", 396, 769, 8, 17 },
		{ "preprocessing", 120, 1285, 0, 17 },
		{ "model forward", 850, 452, 12503, 28805 },
		{ "optimization", 0, 409, 23, 12641 },
		{ "save results", 73, 12, 0, 12526 },
	};

	rng_seed(1004);
	clock_ms = 412;
	out_open(dir, "pde-physical.log");
	hydra("__main__", "Experiment: heat_physical_experiment (seed=42)");
	hydra("__main__", "Output directory: outputs/2024-11-04/09-12-00");
	config_dump();
	clock_ms += 1830;
	hydra("src.data.heat", "Loaded 640 train / 128 val samples (64x64, 50 timesteps) from data/heat_2d");
	lightning();
	clock_ms += 2104;
	for (int e = 0; e < NEPOCHS; e++)
		epoch(e, &r);
	hydra("src.training.synthetic_trainer", "Training finished: 5 epochs, checkpoint saved to "
						 "outputs/2024-11-04/09-12-00/checkpoints/last.ckpt");
	perf_line("checkpoint save", 842, 123, 0, 231);
	hydra("src.training.physical_trainer", "Loading ground truth from data/heat_2d/ground_truth.pt");
	perf_line("critical_operation", 1234, 2505, 5120, 10243);
	perf_line("data processing", 412, 382, 960, 1406);
	ops[4].ms = inversion();
	hydra("src.training.physical_trainer", "Estimated diffusivity 0.0998 (target 0.1000, rel. error 0.2%)");
	perf_summary(ops, (int)(sizeof(ops) / sizeof(ops[0])));
	agg_table();
	hydra("__main__", "Results saved to outputs/2024-11-04/09-12-00/results.pt");
	out_close();
}
