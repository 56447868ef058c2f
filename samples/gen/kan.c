/*
 * kan.c - writes samples/kan-experiments.log (S1 style: "X complete:"
 * lines with their memory and GPU variants, TIMING SUMMARY, detailed
 * breakdown, speedup, inference and warmup blocks amid epoch progress
 * noise) and the two exports of its timers, samples/kan-timing.csv
 * (Section 1.1) and samples/kan-timing.json (Section 1.2).
 *
 * Times are centiseconds, latencies microseconds, memory tenths of MB;
 * percentages, averages and speedups are derived from them by integer
 * rounding, so every block agrees with the lines it summarizes.
 */
#include "common.h"
#include "samples.h"

#include <string.h>

struct timer {
	const char *name;
	long cs;
	long peak_dmb;  /* tracemalloc peak, tenths of MB, 0 if none */
	long cur_dmb;   /* tracemalloc current */
	long alloc_dmb; /* CUDA allocated, 0 if no GPU tracking */
	long resv_dmb;
	long gmax_dmb;
};

static struct timer sec11[] = {
	{ "MLP training", 13127, 0, 0, 0, 0, 0 },
	{ "SIREN training", 9406, 0, 0, 0, 0, 0 },
	{ "KAN training", 15883, 0, 0, 0, 0, 0 },
};

static struct timer sec12[] = {
	{ "Data generation", 321, 2345, 1234, 0, 0, 0 },
	{ "MLP", 4187, 0, 0, 3012, 6400, 6128 },
	{ "SIREN", 3640, 0, 0, 2889, 6400, 5981 },
	{ "KAN", 6233, 0, 0, 5121, 10880, 10243 },
	{ "Evaluation", 472, 0, 0, 0, 0, 0 },
};

static const char *ds11[] = { "sin_freq1", "sin_freq2", "sin_freq5", "piecewise", "sawtooth",
			      "polynomial", "poisson_1d_highfreq", "spectral_mix", "gaussian_bump" };
static const char *ds12[] = { "heat_1d", "burgers_1d", "poisson_2d" };

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* 10^-k */
static double p10(long k)
{
	double v = 1;
	while (k-- > 0)
		v /= 10;
	return v;
}

/* Logs epochs 500 and 1000 of one config; returns its final test MSE. */
static double epochs(const char *cfg, int total)
{
	double tr = (1 + 9 * rng_unif()) * p10(rng_range(2, 4)), te = 0;
	for (int e = total / 2; e <= total; e += total / 2) {
		te = tr * (1.05 + 0.5 * rng_unif());
		say("    %-22s epoch %4d/%d  train_loss=%.3e  test_loss=%.3e\n", cfg, e, total, tr, te);
		tr *= 0.15 + 0.6 * rng_unif();
	}
	return te;
}

/* Runs every config on one dataset and reports the best. */
static void dataset_runs(const char *const *cfg, size_t n, int total)
{
	double best = 1;
	size_t bi = 0;
	for (size_t c = 0; c < n; c++) {
		double te = epochs(cfg[c], total);
		if (te < best)
			best = te, bi = c;
		if (!strncmp(cfg[c], "grid=", 5) && c + 1 < n)
			say("    grid refined %.*s -> %.*s\n", (int)strcspn(cfg[c], " "), cfg[c],
			    (int)strcspn(cfg[c + 1], " "), cfg[c + 1]);
	}
	say("    -> best test MSE %.3e (%s)\n", best, cfg[bi]);
}

static void complete_line(const struct timer *t)
{
	say("%s complete: %ld.%02lds", t->name, t->cs / 100, t->cs % 100);
	if (t->peak_dmb)
		say(", peak memory: %ld.%ld MB\n", t->peak_dmb / 10, t->peak_dmb % 10);
	else if (t->gmax_dmb)
		say(", GPU peak: %ld.%ld MB\n", t->gmax_dmb / 10, t->gmax_dmb % 10);
	else
		say(" total\n");
}

static void train_mlp(const char **ds, size_t nds)
{
	static const char *const cfg[] = { "depth=2 act=tanh", "depth=2 act=relu", "depth=4 act=tanh",
					   "depth=4 act=relu" };
	put("Training MLPs (depths=[2, 4], activations=['tanh', 'relu'])...\n");
	for (size_t d = 0; d < nds; d++) {
		say("  [%zu/%zu] %s\n", d + 1, nds, ds[d]);
		dataset_runs(cfg, N(cfg), 1000);
	}
}

static void train_siren(const char **ds, size_t nds)
{
	static const char *const cfg[] = { "depth=2 omega0=30", "depth=4 omega0=30" };
	put("Training SIRENs (depths=[2, 4], omega_0=30)...\n");
	for (size_t d = 0; d < nds; d++) {
		say("  [%zu/%zu] %s\n", d + 1, nds, ds[d]);
		dataset_runs(cfg, N(cfg), 1000);
	}
}

static void train_kan(const char **ds, size_t nds)
{
	static const char *const cfg[] = { "grid=5 k=3", "grid=10 k=3", "grid=20 k=3" };
	put("Training KANs (grids=[5, 10, 20], k=3, update_grid=True)...\n");
	for (size_t d = 0; d < nds; d++) {
		say("  [%zu/%zu] %s\n", d + 1, nds, ds[d]);
		dataset_runs(cfg, N(cfg), 1000);
	}
}

static void pct_str(char *b, size_t n, long part, long whole)
{
	long pm = div_round(part * 1000, whole);
	snprintf(b, n, "%3ld.%ld", pm / 10, pm % 10);
}

static void timing_summary(const char *section, const struct timer *t, size_t n, long nds)
{
	char p[32];
	long total = 0;
	for (size_t i = 0; i < n; i++)
		total += t[i].cs;
	long avg = div_round(total, nds);
	put("\n============================================================\n");
	say("TIMING SUMMARY - %s\n", section);
	put("============================================================\n");
	for (size_t i = 0; i < n; i++) {
		char label[64];
		snprintf(label, sizeof(label), "%s:", t[i].name);
		pct_str(p, sizeof(p), t[i].cs, total);
		say("%-25s%5ld.%02lds (%s%%)\n", label, t[i].cs / 100, t[i].cs % 100, p);
	}
	put("------------------------------------------------------------\n");
	say("%-25s%5ld.%02lds\n", "Total time:", total / 100, total % 100);
	say("%-25s%5ld.%02lds\n", "Average per dataset:", avg / 100, avg % 100);
	put("============================================================\n\n");
}

/* DetailedTimer("Training").print_breakdown() for the KAN runs. */
static void breakdown(void)
{
	static const struct {
		const char *phase;
		long cs;
	} ph[] = { { "backward_pass", 6127 }, { "forward_pass", 4385 },
		   { "grid_update", 1834 }, { "data_loading", 492 } };
	char p[32];
	long total = 0;
	for (size_t i = 0; i < N(ph); i++)
		total += ph[i].cs;
	put("\nTraining - Detailed Breakdown:\n");
	put("----------------------------------------\n");
	for (size_t i = 0; i < N(ph); i++) {
		pct_str(p, sizeof(p), ph[i].cs, total);
		say("  %-20s: %5ld.%02lds (%s%%)\n", ph[i].phase, ph[i].cs / 100, ph[i].cs % 100, p);
	}
	put("----------------------------------------\n\n");
}

static void speedup(const struct timer *base, const struct timer **rows, size_t n)
{
	put("\n============================================================\n");
	put("SPEEDUP ANALYSIS\n");
	put("============================================================\n");
	say("Baseline: %s (%ld.%02lds)\n", base->name, base->cs / 100, base->cs % 100);
	put("------------------------------------------------------------\n");
	for (size_t i = 0; i < n; i++) {
		long f = div_round(base->cs * 100, rows[i]->cs);
		say("%-20s : %2ld.%02ldx faster\n", rows[i]->name, f / 100, f % 100);
	}
	put("============================================================\n\n");
}

static void inference(const char *model, long mean_us, long min_us, long max_us)
{
	long tp = div_round(10000000L, mean_us); /* samples/sec x 10 */
	say("Benchmarking %s inference (num_iterations=100, warmup=10)...\n", model);
	say("%s Inference Benchmark:\n", model);
	put("----------------------------------------\n");
	say("  %-21s%ld.%03ld ms\n", "Mean latency:", mean_us / 1000, mean_us % 1000);
	say("  %-21s%ld.%03ld ms\n", "Min latency:", min_us / 1000, min_us % 1000);
	say("  %-21s%ld.%03ld ms\n", "Max latency:", max_us / 1000, max_us % 1000);
	say("  %-21s%ld.%ld samples/sec\n", "Throughput:", tp / 10, tp % 10);
	put("----------------------------------------\n\n");
}

/* Epoch times in centiseconds; steady state is the mean of all but the first. */
static void warmup(const char *model, const long *ep, int n)
{
	long first_ms = ep[0] * 10, sum = 0;
	for (int i = 1; i < n; i++)
		sum += ep[i];
	long steady_ms = div_round(sum * 10, n - 1);
	long over_ms = first_ms - steady_ms;
	long pm = div_round(over_ms * 1000, steady_ms);
	put("  epoch times (s): [");
	for (int i = 0; i < n; i++) {
		char v[32];
		pyrepr(v, sizeof(v), ep[i] / 100.0);
		say("%s%s", i ? ", " : "", v);
	}
	put("]\n");
	say("%s - Warmup Analysis:\n", model);
	put("----------------------------------------\n");
	say("  %-23s%ld.%03lds\n", "First epoch:", first_ms / 1000, first_ms % 1000);
	say("  %-23s%ld.%03lds\n", "Steady state:", steady_ms / 1000, steady_ms % 1000);
	say("  %-23s%ld.%03lds (%3ld.%ld%%)\n", "Warmup overhead:", over_ms / 1000, over_ms % 1000,
	    pm / 10, pm % 10);
	put("----------------------------------------\n\n");
}

static void convergence(const char *model, long ep, long cs)
{
	say("%s convergence (threshold=0.01): {'epochs_to_converge': %ld, 'time_to_converge': %ld.%ld, "
	    "'converged': True}\n", model, ep, cs / 10, cs % 10);
}

static void section11(void)
{
	put("======================================================================\n");
	put("Section 1.1: Function Approximation\n");
	put("======================================================================\n");
	put("Device: cuda (NVIDIA GeForce RTX 3090, 24.0 GB)\n");
	say("Datasets (%zu): ", N(ds11));
	for (size_t i = 0; i < N(ds11); i++)
		say("%s%s", i ? ", " : "", ds11[i]);
	put("\nEpochs: 1000, lr=1e-3, optimizer=LBFGS\n\n");
	train_mlp(ds11, N(ds11));
	complete_line(&sec11[0]);
	put("\n");
	train_siren(ds11, N(ds11));
	complete_line(&sec11[1]);
	put("\n");
	train_kan(ds11, N(ds11));
	breakdown();
	complete_line(&sec11[2]);
	put("\n");
	convergence("MLP", 412, 541);
	convergence("SIREN", 188, 177);
	convergence("KAN", 96, 152);
	timing_summary("Section 1.1", sec11, N(sec11), 9);
	put("Timing data exported to results/kan-timing.csv\n\n");
}

static void section12(void)
{
	static const long mlp_ep[] = { 520, 310, 300, 310, 300, 290 };
	static const long kan_ep[] = { 984, 612, 605, 610, 602, 607 };
	const struct timer *rows[] = { &sec12[2], &sec12[1] };

	put("======================================================================\n");
	put("Section 1.2: PDE Solutions (memory + GPU tracking)\n");
	put("======================================================================\n");
	put("tracemalloc started (memory tracking enabled)\n");
	put("Generating datasets: heat_1d (nx=256, nt=100), burgers_1d (nx=256, nt=200), "
	    "poisson_2d (64x64)\n");
	complete_line(&sec12[0]);
	put("\n");
	train_mlp(ds12, N(ds12));
	complete_line(&sec12[1]);
	put("\n");
	train_siren(ds12, N(ds12));
	complete_line(&sec12[2]);
	put("\n");
	train_kan(ds12, N(ds12));
	complete_line(&sec12[3]);
	put("\n");
	put("Evaluating all models on held-out grids...\n");
	for (size_t d = 0; d < N(ds12); d++) {
		double a = (1 + 9 * rng_unif()) * p10(4), b = a * (0.6 + 0.3 * rng_unif());
		say("  %-12s MLP %.3e | SIREN %.3e | KAN %.3e\n", ds12[d], a, b, b * (0.2 + 0.3 * rng_unif()));
	}
	complete_line(&sec12[4]);
	timing_summary("Section 1.2", sec12, N(sec12), 3);
	speedup(&sec12[3], rows, N(rows));
	inference("MLP", 412, 388, 951);
	inference("KAN", 2871, 2702, 4133);
	warmup("MLP", mlp_ep, 6);
	warmup("KAN", kan_ep, 6);
	put("Timing data exported to results/kan-timing.json\n");
}

static void csv_export(const char *dir)
{
	out_open(dir, "kan-timing.csv");
	put("Section,Model,Time (s)\r\n");
	for (size_t i = 0; i < N(sec11); i++)
		say("Section 1.1,%s,%ld.%02ld\r\n", sec11[i].name, sec11[i].cs / 100, sec11[i].cs % 100);
	out_close();
}

static void json_mb(const char *key, long dmb, int last)
{
	say("      \"%s\": %ld.%ld%s\n", key, dmb / 10, dmb % 10, last ? "" : ",");
}

static void json_export(const char *dir)
{
	char v[32];
	out_open(dir, "kan-timing.json");
	put("{\n  \"section\": \"Section 1.2\",\n  \"timestamp\": \"2024-11-05T16:47:12.503117\",\n"
	    "  \"timings\": {\n");
	for (size_t i = 0; i < N(sec12); i++) {
		const struct timer *t = &sec12[i];
		const char *sep = i + 1 < N(sec12) ? "," : "";
		pyrepr(v, sizeof(v), t->cs / 100.0);
		if (!t->peak_dmb && !t->gmax_dmb) {
			say("    \"%s\": %s%s\n", t->name, v, sep);
			continue;
		}
		say("    \"%s\": {\n      \"time\": %s,\n", t->name, v);
		if (t->peak_dmb) {
			json_mb("peak_memory_mb", t->peak_dmb, 0);
			json_mb("current_memory_mb", t->cur_dmb, 1);
		} else {
			json_mb("allocated_mb", t->alloc_dmb, 0);
			json_mb("reserved_mb", t->resv_dmb, 0);
			json_mb("max_allocated_mb", t->gmax_dmb, 1);
		}
		say("    }%s\n", sep);
	}
	put("  }\n}\n");
	out_close();
}

void gen_kan(const char *dir)
{
	rng_seed(1001);
	out_open(dir, "kan-experiments.log");
	section11();
	section12();
	out_close();
	csv_export(dir);
	json_export(dir);
}
