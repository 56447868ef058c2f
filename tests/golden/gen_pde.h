/*
 * gen_pde.h - golden log of seed 004's EpochPerformanceMonitor and
 * PerformanceMonitor (HYCO-PhiFlow src/utils/memory_monitor.py), printed
 * through logger.info with a bare "%(message)s" handler (the project's own
 * logger prefixes are stripped elsewhere):
 *
 *   on_batch_end (first verbose_batches=5 of each epoch only)
 *     f"  Batch {batch_idx}: {batch_time:.3f}s, GPU {gpu_mem:.1f}MB, CPU {cpu_mem:.1f}MB, loss={loss:.6f}"
 *   on_epoch_end
 *     f"  Epoch end: {epoch_time:.3f}s total, GPU {current_gpu:.1f}MB allocated, "
 *     f"{reserved_gpu:.1f}MB reserved, peak {peak_gpu:.1f}MB"
 *     f"  Batch timing: avg={avg_batch:.3f}s, min={min_batch:.3f}s, max={max_batch:.3f}s"
 *       over ALL the epoch's batches (_batch_times is reset at each epoch start)
 *   print_summary(show_aggregate=True): every tracked call as a row
 *     f"{m.operation:<30} {m.duration_seconds:>10.3f}  {cpu_str:>13}  {gpu_str:>13}  {m.gpu_peak_mb:>10.1f}"
 *     then f"{op_name:<30} {count:<8} {total:<12.3f} {mean:<12.3f} {min_dur:<12.3f} {max_dur:<12.3f}"
 *
 * Known inputs: 3 epochs of 20 batches; batch (e, b) takes 0.538 s for the
 * very first, else 0.170 + 0.005 x ((7b + 3e) mod 9) s; each epoch 0.010 s
 * per batch more than its batches. batch_forward (aggregate) is 0.6 of
 * the batch, batch_backward (aggregate) 0.050 + 0.002 x (b mod 5) s.
 */
#ifndef TPROF_GOLDEN_GEN_PDE_H
#define TPROF_GOLDEN_GEN_PDE_H

#include <stdio.h>

#define PDE_EPOCHS 3
#define PDE_BATCHES 20

static inline double pde_batch(int e, int b)
{
	return e == 0 && b == 0 ? 0.538 : 0.170 + 0.005 * ((7 * b + 3 * e) % 9);
}
static inline double pde_fwd(int e, int b)
{
	return 0.6 * pde_batch(e, b);
}
static inline double pde_bwd(int e, int b)
{
	(void)e;
	return 0.050 + 0.002 * (b % 5);
}

static inline void pde_rule(FILE *fp, char c)
{
	for (int i = 0; i < 90; i++)
		fputc(c, fp);
	fputc('\n', fp);
}

static inline void pde_agg_row(FILE *fp, const char *name, double (*f)(int, int))
{
	double total = 0, mn = 1e9, mx = -1e9;
	int n = 0;
	for (int e = 0; e < PDE_EPOCHS; e++)
		for (int b = 0; b < PDE_BATCHES; b++) {
			double d = f(e, b);
			total += d, n++;
			mn = d < mn ? d : mn;
			mx = d > mx ? d : mx;
		}
	fprintf(fp, "%-30s %-8d %-12.3f %-12.3f %-12.3f %-12.3f\n", name, n, total, total / n, mn, mx);
}

/* Only the AGGREGATE STATISTICS table (the last 8 lines of the log). */
static inline void gen_pde_agg_only(FILE *fp)
{
	pde_rule(fp, '=');
	fprintf(fp, "AGGREGATE STATISTICS (for repeated operations)\n");
	pde_rule(fp, '=');
	fprintf(fp, "%-30s %-8s %-12s %-12s %-12s %-12s\n", "Operation", "Count", "Total (s)", "Mean (s)", "Min (s)",
		"Max (s)");
	pde_rule(fp, '-');
	pde_agg_row(fp, "batch_forward", pde_fwd);
	pde_agg_row(fp, "batch_backward", pde_bwd);
	pde_rule(fp, '=');
}

static inline void gen_pde_log(FILE *fp)
{
	for (int e = 0; e < PDE_EPOCHS; e++) {
		double sum = 0, mn = 1e9, mx = -1e9;
		for (int b = 0; b < PDE_BATCHES; b++) {
			double t = pde_batch(e, b);
			sum += t;
			mn = t < mn ? t : mn;
			mx = t > mx ? t : mx;
			if (b < 5)
				fprintf(fp, "  Batch %d: %.3fs, GPU %.1fMB, CPU %.1fMB, loss=%.6f\n", b, t, 23.1 + 0.1 * b,
					1648.9 + 2.5 * (e * 5 + b), 0.05 / (1 + e * 20 + b));
		}
		double epoch = sum + 0.010 * PDE_BATCHES;
		fprintf(fp, "  Epoch end: %.3fs total, GPU %.1fMB allocated, %.1fMB reserved, peak %.1fMB\n", epoch,
			14.4, 3236.0, 2880.0 + e);
		fprintf(fp, "  Batch timing: avg=%.3fs, min=%.3fs, max=%.3fs\n", sum / PDE_BATCHES, mn, mx);
	}
	fprintf(fp, "\n");
	pde_rule(fp, '=');
	fprintf(fp, "PERFORMANCE SUMMARY\n");
	pde_rule(fp, '=');
	fprintf(fp, "%-30s %-12s %-15s %-15s %-12s\n", "Operation", "Time (s)", "CPU (MB)", "GPU (MB)", "GPU Peak");
	pde_rule(fp, '-');
	double total = 0;
	for (int e = 0; e < PDE_EPOCHS; e++)
		for (int b = 0; b < PDE_BATCHES; b++) {
			fprintf(fp, "%-30s %10.3f  %13s  %13s  %10.1f\n", "batch_forward", pde_fwd(e, b), "   +0.0",
				"   +0.0", 2880.0);
			fprintf(fp, "%-30s %10.3f  %13s  %13s  %10.1f\n", "batch_backward", pde_bwd(e, b), "   +0.0",
				"   +0.0", 2880.0);
			total += pde_fwd(e, b) + pde_bwd(e, b);
		}
	pde_rule(fp, '-');
	fprintf(fp, "%-30s %10.3fs\n", "TOTAL", total);
	fprintf(fp, "\n");
	gen_pde_agg_only(fp);
	fprintf(fp, "\n");
}

static inline void gen_pde_expected(FILE *fp)
{
	for (int e = 0; e < PDE_EPOCHS; e++) {
		double all = 0, pr = 0, amn = 1e9, amx = -1e9, pmn = 1e9, pmx = -1e9;
		for (int b = 0; b < PDE_BATCHES; b++) {
			double t = pde_batch(e, b);
			all += t, amn = t < amn ? t : amn, amx = t > amx ? t : amx;
			if (b < 5)
				pr += t, pmn = t < pmn ? t : pmn, pmx = t > pmx ? t : pmx;
		}
		fprintf(fp, "epoch %d: seed (all 20 batches) avg %.4f min %.3f max %.3f max/min %.4f; "
			    "printed (first 5) mean %.4f min %.3f max %.3f max/min %.4f\n",
			e + 1, all / PDE_BATCHES, amn, amx, amx / amn, pr / 5, pmn, pmx, pmx / pmn);
	}
	fprintf(fp, "aggregate batch_forward: max/mean shows the first batch (0.3228 s) as an outlier\n");
	fprintf(fp, "aggregate batch_backward: consistent (0.050-0.058 s)\n");
}

#endif
