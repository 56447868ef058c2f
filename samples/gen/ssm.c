/*
 * ssm.c - writes samples/ssm-training.log: a JAX/equinox S5 decoder
 * trained for 100 steps with the TrainingProfiler of S3. Every 10
 * steps a "--- Profiling Metrics (Step N) ---" block gives the cumulative
 * avg/total/count of data_batch_production, loss_fn_computation and
 * make_step_total; around them XLA warnings, per-step progress and wandb
 * chatter, and at the end wandb's run history (sparklines) and run
 * summary and the profiler's "Final profiling summary:" dict.
 *
 * Per-step durations are integer nanoseconds; the first step of the two
 * jitted operations includes XLA compilation.
 */
#include "common.h"
#include "samples.h"

#include <string.h>

#define NSTEPS 100
#define EVERY 10
#define NOPS 3
#define NLOG (NSTEPS / EVERY)

static const char *ops[NOPS] = { "data_batch_production", "loss_fn_computation", "make_step_total" };
static long long tot_ns[NOPS];
static double hist[NOPS][2][NLOG]; /* [op][avg,total][log] */
static double loss_hist[NLOG], val_hist[NLOG], r2_hist[NLOG];

static const char *RUN = "7k3p9q2x";

static void xla_ts(int sec, long us, char lvl, const char *where, const char *msg)
{
	say("2024-11-03 14:22:%02d.%06ld: %c external/xla/xla/%s] %s\n", sec, us, lvl, where, msg);
}

static void startup(void)
{
	put("Loading config from configs/decoding/finetune_s5_rtt.yaml\n");
	put("Loaded 3 sessions from data/processed/rtt_nlb (train 8192 trials, val 1024 trials, bin 20ms)\n");
	put("wandb: Currently logged in as: ssm-lab. Use `wandb login --relogin` to force relogin\n");
	put("wandb: Tracking run with wandb version 0.16.0\n");
	say("wandb: Run data is saved locally in /home/user/foundational_ssm/wandb/run-20241103_142233-%s\n", RUN);
	put("wandb: Run `wandb offline` to turn off syncing.\n");
	put("wandb: Syncing run s5_rtt_profiled\n");
	put("wandb: ⭐️ View project at https://wandb.ai/ssm-lab/foundational-ssm-decoding\n");
	say("wandb: 🚀 View run at https://wandb.ai/ssm-lab/foundational-ssm-decoding/runs/%s\n", RUN);
	xla_ts(35, 482913, 'W', "service/gpu/nvptx_compiler.cc:742",
	       "The NVIDIA driver's CUDA version is 12.2 which is older than the ptxas CUDA version "
	       "(12.3.107). Because the driver is older than the ptxas version, XLA is disabling parallel "
	       "compilation, which may slow down compilation. You should update your NVIDIA driver or use "
	       "the NVIDIA-provided CUDA forward compatibility packages.");
	put("Model: S5 decoder (4 layers, d_model=256, ssm_size=128, blocks=4), 2,114,562 parameters\n");
	put("Optimizer: adamw(lr=1e-3, weight_decay=0.01), schedule=cosine(warmup=5)\n");
	put("Profiling enabled: console every 10 steps, wandb prefix 'profiling/'\n");
}

static void slow_op_alarm(void)
{
	xla_ts(41, 901443, 'E', "service/slow_operation_alarm.cc:65",
	       "Constant folding an instruction is taking > 1s:");
	put("\n  %reduce.184 = f32[256,128]{1,0} reduce(f32[256,128,64]{2,1,0} %broadcast.12, f32[] "
	    "%constant.9), dimensions={2}, to_apply=%region_3.179\n\n");
	put("This isn't necessarily a bug; constant-folding is inherently a trade-off between compilation "
	    "time and speed at runtime. XLA has some guards that attempt to keep constant folding from "
	    "taking too long, but fundamentally you'll always be able to come up with an input program "
	    "that takes a long time.\n\n");
	put("If you'd like to file a bug, run with envvar XLA_FLAGS=--xla_dump_to=/tmp/foo and attach the "
	    "results.\n");
	xla_ts(42, 517218, 'E', "service/slow_operation_alarm.cc:133",
	       "The operation took 1.615775s");
	put("Constant folding an instruction is taking > 1s:\n");
	put("\n  %reduce.184 = f32[256,128]{1,0} reduce(f32[256,128,64]{2,1,0} %broadcast.12, f32[] "
	    "%constant.9), dimensions={2}, to_apply=%region_3.179\n\n");
}

/* Durations of one step, ns. */
static void step_times(int step, long long ns[NOPS])
{
	if (step == 1) {
		ns[0] = 412345678;
		ns[1] = 3874120455LL;
		ns[2] = ns[1] + 3021877310LL;
		return;
	}
	ns[0] = 23400000 + lround_(rng_gauss() * 2500000);
	ns[1] = 45600000 + lround_(rng_gauss() * 1500000);
	ns[2] = ns[1] + 33300000 + lround_(rng_gauss() * 900000);
}

static void metrics_block(int step)
{
	say("--- Profiling Metrics (Step %d) ---\n", step);
	for (int i = 0; i < NOPS; i++) {
		double total = tot_ns[i] / 1e9, avg = total / step;
		hist[i][0][step / EVERY - 1] = avg;
		hist[i][1][step / EVERY - 1] = total;
		say("%s: avg=%.4fs, total=%.2fs, count=%d\n", ops[i], avg, total, step);
	}
}

static double lr_at(int step)
{
	if (step <= 5)
		return 1e-3 * step / 5;
	if (step == NSTEPS)
		return 0;
	return 1e-3 * 0.5 * (1 + my_cos(3.14159265358979 * (step - 5) / (NSTEPS - 5)));
}

static void training(void)
{
	double loss = 1.284;
	for (int step = 1; step <= NSTEPS; step++) {
		long long ns[NOPS];
		step_times(step, ns);
		for (int i = 0; i < NOPS; i++)
			tot_ns[i] += ns[i];
		if (step == 1)
			slow_op_alarm();
		loss = loss * 0.972 + 0.0062 + rng_gauss() * 0.004;
		say("Epoch %d/%d | train_loss %.5f | lr %.2e\n", step, NSTEPS, loss, lr_at(step));
		if (step % EVERY == 0) {
			int k = step / EVERY - 1;
			double vl = loss * 1.07 + 0.01 * rng_gauss();
			double r2 = 0.78 - 0.55 * loss;
			loss_hist[k] = loss;
			val_hist[k] = vl;
			r2_hist[k] = r2;
			say("Validation (epoch %d): val_loss %.5f | r2 %.4f\n", step, vl, r2);
			metrics_block(step);
		}
	}
}

/* wandb's sparkline for a logged series. */
static void spark(const double *v, int n)
{
	static const char *lv[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	double lo = v[0], hi = v[0];
	for (int i = 1; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	for (int i = 0; i < n; i++)
		put(lv[hi > lo ? (int)((v[i] - lo) / (hi - lo) * 7 + 0.5) : 0]);
	put("\n");
}

#define KEYW 42

/* "wandb: <key right-aligned> " */
static void key(const char *k)
{
	say("wandb: %*s ", KEYW, k);
}

static void hist_row(const char *k, const double *v)
{
	key(k);
	spark(v, NLOG);
}

/* wandb shows summary floats with 5 significant digits. */
static void sum_row(const char *k, double v)
{
	key(k);
	say("%.5g\n", v);
}

static void op_key(char *b, size_t n, int op, const char *what)
{
	snprintf(b, n, "profiling/%s_%s", ops[op], what);
}

static void run_history(void)
{
	char k[96];
	double ep[NLOG];
	for (int i = 0; i < NLOG; i++)
		ep[i] = (i + 1) * EVERY;
	put("wandb: Run history:\n");
	hist_row("epoch", ep);
	for (int o = 0; o < NOPS; o++) {
		op_key(k, sizeof(k), o, "avg_time");
		hist_row(k, hist[o][0]);
		op_key(k, sizeof(k), o, "count");
		hist_row(k, ep);
		op_key(k, sizeof(k), o, "total_time");
		hist_row(k, hist[o][1]);
	}
	hist_row("train_loss", loss_hist);
	hist_row("val_loss", val_hist);
	hist_row("val_r2", r2_hist);
}

static void run_summary(void)
{
	char k[96];
	put("wandb: Run summary:\n");
	sum_row("epoch", NSTEPS);
	for (int o = 0; o < NOPS; o++) {
		op_key(k, sizeof(k), o, "avg_time");
		sum_row(k, hist[o][0][NLOG - 1]);
		op_key(k, sizeof(k), o, "count");
		sum_row(k, NSTEPS);
		op_key(k, sizeof(k), o, "total_time");
		sum_row(k, hist[o][1][NLOG - 1]);
	}
	sum_row("train_loss", loss_hist[NLOG - 1]);
	sum_row("val_loss", val_hist[NLOG - 1]);
	sum_row("val_r2", r2_hist[NLOG - 1]);
}

static void wandb_finish(void)
{
	put("Training complete. Saving checkpoint to checkpoints/s5_rtt_profiled/final.eqx\n");
	put("wandb: Waiting for W&B process to finish... (success).\n");
	put("wandb: \n");
	run_history();
	put("wandb: \n");
	run_summary();
	put("wandb: \n");
	say("wandb: 🚀 View run s5_rtt_profiled at: https://wandb.ai/ssm-lab/foundational-ssm-decoding/runs/%s\n", RUN);
	put("wandb: Synced 6 W&B file(s), 0 media file(s), 2 artifact file(s) and 0 other file(s)\n");
	say("wandb: Find logs at: ./wandb/run-20241103_142233-%s/logs\n", RUN);
}

static void final_summary(void)
{
	char a[64], t[64];
	put("Final profiling summary: {");
	for (int o = 0; o < NOPS; o++) {
		double total = tot_ns[o] / 1e9;
		pyrepr(a, sizeof(a), total / NSTEPS);
		pyrepr(t, sizeof(t), total);
		say("%s'%s': {'avg_time': %s, 'total_time': %s, 'count': %d}", o ? ", " : "", ops[o], a, t,
		    NSTEPS);
	}
	put("}\n");
}

void gen_ssm(const char *dir)
{
	rng_seed(1003);
	memset(tot_ns, 0, sizeof(tot_ns));
	out_open(dir, "ssm-training.log");
	startup();
	training();
	wandb_finish();
	final_summary();
	out_close();
}
