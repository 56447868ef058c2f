/*
 * gen_seed004.c - writes the golden logs of seed 004 (HYCO-PhiFlow's
 * src/utils/memory_monitor.py, printed through src/utils/logger.py) from
 * known durations and memory figures.
 *
 * Facts from logger.py: the console handler formats
 * "[%(name)s] %(levelname)s: %(message)s" with the level wrapped in an ANSI
 * colour (INFO: ESC[32m ... ESC[0m) and the logger name cut to its last two
 * parts ("utils.memory_monitor"); the file handler formats
 * "%(asctime)s - %(name)s - %(levelname)s - %(funcName)s:%(lineno)d - %(message)s"
 * with datefmt "%Y-%m-%d %H:%M:%S". Both handlers format the same record
 * and the console handler (added first) rewrites record.name and
 * record.levelname in place, so the file shows the short name and the
 * coloured level too. A message "\n" + "=" * 90 puts the prefix on an empty
 * first line.
 *
 * Facts from memory_monitor.py (printf equivalents of the format specs):
 *   on_batch_end   "  Batch {i}: {t:.3f}s, GPU {gpu:.1f}MB, CPU {cpu:.1f}MB, loss={loss:.6f}"
 *                  for batch_idx < verbose_batches (every epoch)
 *   on_epoch_end   "  Epoch end: {t:.3f}s total, GPU {g:.1f}MB allocated, {r:.1f}MB reserved, peak {p:.1f}MB"
 *                  "  Batch timing: avg={a:.3f}s, min={m:.3f}s, max={x:.3f}s" (this epoch's batches)
 *   track_performance "[Performance] {op}: {t:.3f}s, CPU {c:+.1f}MB, GPU {g:+.1f}MB"
 *                  then "              GPU peak: {p:.1f}MB" as a second log call
 *   print_summary  "\n"+"="*90, "PERFORMANCE SUMMARY", "="*90,
 *                  header "{'Operation':<30} {'Time (s)':<12} {'CPU (MB)':<15} {'GPU (MB)':<15} {'GPU Peak':<12}",
 *                  "-"*90, rows "{op:<30} {t:>10.3f}  {cpu_str:>13}  {gpu_str:>13}  {peak:>10.1f}"
 *                  (cpu_str = "{:+.1f}".rjust(7)), one row per track() call, aggregated
 *                  operations included; "-"*90, "{'TOTAL':<30} {total:>10.3f}s";
 *                  then "\n"+"="*90, "AGGREGATE STATISTICS (for repeated operations)", "="*90,
 *                  header, "-"*90, rows "{op:<30} {n:<8} {total:<12.3f} {mean:<12.3f} {min:<12.3f} {max:<12.3f}";
 *                  and "="*90+"\n"
 * The seed document's analysis snippets are print() calls (no logger prefix):
 *   "⚠️  BOTTLENECK: {op} ({pct:.1f}%)" (> 50 %), "⚡ Consider optimizing: {op} ({pct:.1f}%)" (> 20 %)
 *   "Average batch time: {:.3f}s", "Min batch time: {:.3f}s", "Max batch time: {:.3f}s",
 *   "⚠️  High variance ({ratio:.1f}x) - investigate outliers!" (max/min > 2),
 *   "Optimal batch size: {b} ({t:.3f}s)"
 *
 * Usage: gen_seed004 DIR (writes DIR/seed004_console.log, DIR/seed004_file.log).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define NB 8
static const double ep_batches[2][NB] = {
	{ 0.538, 0.185, 0.190, 0.182, 0.188, 0.186, 0.191, 0.184 },
	{ 0.452, 0.183, 0.187, 0.185, 0.189, 0.184, 0.186, 0.190 },
};
static const double ep_time[2] = { 1.642, 1.561 };

struct op {
	const char *name;
	double t, cpu, gpu, peak;
	int aggregate;
};
/* in track() order: aggregated operations repeat */
static const struct op ops[] = {
	{ "load_ground_truth", 0.396, 76.9, 0.8, 1.7, 0 },
	{ "batch_forward", 0.425, 12.3, 250.4, 880.2, 1 },
	{ "batch_backward", 0.112, 0.4, 10.1, 900.6, 1 },
	{ "batch_forward", 0.102, 0.0, 0.0, 880.2, 1 },
	{ "batch_backward", 0.056, 0.0, 0.0, 900.6, 1 },
	{ "batch_forward", 0.095, 0.0, 0.0, 880.2, 1 },
	{ "batch_backward", 0.050, 0.0, 0.0, 900.6, 1 },
	{ "optimization", 2.361, 40.9, 0.0, 5.9, 0 },
};
#define NOPS (sizeof(ops) / sizeof(ops[0]))

struct out {
	FILE *f;
	int file_style; /* 0 console, 1 file handler */
	int sec;        /* clock for the file handler's asctime */
};

/* One logger.info call: each line of msg, the prefix on the first. */
static void info(struct out *o, const char *func, int lineno, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (o->file_style)
		fprintf(o->f, "2024-11-24 12:%02d:%02d - utils.memory_monitor - \033[32mINFO\033[0m - %s:%d - %s\n",
			o->sec / 60, o->sec % 60, func, lineno, msg);
	else
		fprintf(o->f, "[utils.memory_monitor] \033[32mINFO\033[0m: %s\n", msg);
}

static void rule(char *b, char c, int n)
{
	memset(b, c, (size_t)n);
	b[n] = '\0';
}

static void epochs(struct out *o)
{
	for (int e = 0; e < 2; e++) {
		double sum = 0, mn = 1e9, mx = 0;
		for (int i = 0; i < NB; i++) {
			double t = ep_batches[e][i];
			sum += t;
			mn = t < mn ? t : mn;
			mx = t > mx ? t : mx;
			o->sec++;
			if (i < 5) /* verbose_batches = 5 */
				info(o, "on_batch_end", 728, "  Batch %d: %.3fs, GPU %.1fMB, CPU %.1fMB, loss=%.6f", i, t,
				     23.1, 1648.9 + 10.7 * i, 0.009458 + 0.001 * i - 0.0004 * e);
		}
		info(o, "on_epoch_end", 748, "  Epoch end: %.3fs total, GPU %.1fMB allocated, %.1fMB reserved, peak %.1fMB",
		     ep_time[e], 14.4, 3236.0, 2880.0);
		info(o, "on_epoch_end", 758, "  Batch timing: avg=%.3fs, min=%.3fs, max=%.3fs", sum / NB, mn, mx);
	}
}

static void perf_summary(struct out *o)
{
	char eq[91], dash[91];
	rule(eq, '=', 90);
	rule(dash, '-', 90);
	info(o, "print_summary", 533, "\n%s", eq);
	info(o, "print_summary", 534, "PERFORMANCE SUMMARY");
	info(o, "print_summary", 535, "%s", eq);
	info(o, "print_summary", 536, "%-30s %-12s %-15s %-15s %-12s", "Operation", "Time (s)", "CPU (MB)", "GPU (MB)",
	     "GPU Peak");
	info(o, "print_summary", 539, "%s", dash);
	double total = 0;
	for (size_t i = 0; i < NOPS; i++) {
		char c[32], g[32];
		snprintf(c, sizeof(c), "%+.1f", ops[i].cpu);
		snprintf(g, sizeof(g), "%+.1f", ops[i].gpu);
		info(o, "print_summary", 545, "%-30s %10.3f  %13s  %13s  %10.1f", ops[i].name, ops[i].t, c, g, ops[i].peak);
		total += ops[i].t;
	}
	info(o, "print_summary", 550, "%s", dash);
	info(o, "print_summary", 551, "%-30s %10.3fs", "TOTAL", total);
	info(o, "print_summary", 555, "\n%s", eq);
	info(o, "print_summary", 556, "AGGREGATE STATISTICS (for repeated operations)");
	info(o, "print_summary", 557, "%s", eq);
	info(o, "print_summary", 558, "%-30s %-8s %-12s %-12s %-12s %-12s", "Operation", "Count", "Total (s)", "Mean (s)",
	     "Min (s)", "Max (s)");
	info(o, "print_summary", 561, "%s", dash);
	static const char *agg[] = { "batch_forward", "batch_backward" };
	for (int a = 0; a < 2; a++) {
		int n = 0;
		double sum = 0, mn = 1e9, mx = 0;
		for (size_t i = 0; i < NOPS; i++)
			if (ops[i].aggregate && !strcmp(ops[i].name, agg[a])) {
				n++;
				sum += ops[i].t;
				mn = ops[i].t < mn ? ops[i].t : mn;
				mx = ops[i].t > mx ? ops[i].t : mx;
			}
		info(o, "print_summary", 571, "%-30s %-8d %-12.3f %-12.3f %-12.3f %-12.3f", agg[a], n, sum, sum / n, mn, mx);
	}
	info(o, "print_summary", 575, "%s\n", eq);
}

/* The seed document's analysis snippets: plain print() lines. */
static void snippets(FILE *f)
{
	double total = 0;
	for (size_t i = 0; i < NOPS; i++)
		total += ops[i].t;
	for (size_t i = 0; i < NOPS; i++) { /* Strategy 1: one line per recorded metric */
		double pct = ops[i].t / total * 100;
		if (pct > 50)
			fprintf(f, "\xe2\x9a\xa0\xef\xb8\x8f  BOTTLENECK: %s (%.1f%%)\n", ops[i].name, pct);
		else if (pct > 20)
			fprintf(f, "\xe2\x9a\xa1 Consider optimizing: %s (%.1f%%)\n", ops[i].name, pct);
	}
	/* Strategy 2: get_statistics() holds the last epoch's batches */
	double sum = 0, mn = 1e9, mx = 0;
	for (int i = 0; i < NB; i++) {
		double t = ep_batches[1][i];
		sum += t;
		mn = t < mn ? t : mn;
		mx = t > mx ? t : mx;
	}
	fprintf(f, "Average batch time: %.3fs\n", sum / NB);
	fprintf(f, "Min batch time: %.3fs\n", mn);
	fprintf(f, "Max batch time: %.3fs\n", mx);
	if (mx / mn > 2.0)
		fprintf(f, "\xe2\x9a\xa0\xef\xb8\x8f  High variance (%.1fx) - investigate outliers!\n", mx / mn);
	/* Strategy 3: results {8: 2.104, 16: 1.502, 32: 1.234, 64: 1.310} */
	fprintf(f, "Optimal batch size: %d (%.3fs)\n", 32, 1.234);
}

static int write_log(const char *dir, const char *name, int file_style)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	struct out o = { fopen(path, "w"), file_style, 0 };
	if (!o.f) {
		perror(path);
		return 1;
	}
	epochs(&o);
	o.sec++;
	info(&o, "track_performance", 655, "[Performance] %s: %.3fs, CPU %+.1fMB, GPU %+.1fMB", "critical_operation",
	     1.234, 250.5, 512.0);
	info(&o, "track_performance", 659, "              GPU peak: %.1fMB", 1024.3);
	o.sec++;
	perf_summary(&o);
	if (!file_style)
		snippets(o.f);
	if (fclose(o.f)) {
		perror(path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_seed004 DIR\n");
		return 2;
	}
	return write_log(argv[1], "seed004_console.log", 0) | write_log(argv[1], "seed004_file.log", 1);
}
