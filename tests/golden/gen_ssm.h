/*
 * gen_ssm.h - golden log of seed 003's TrainingProfiler
 * (foundational_ssm utils/profiling.py). end_timer() adds each elapsed
 * time to timers[op]["total_time"], counts it, and sets avg_time =
 * total_time / count: the average SINCE THE START. log_metrics(step)
 * prints, in the timers' insertion order,
 *
 *   print(f"\n--- Profiling Metrics (Step {step}) ---")
 *   print(f"{operation}: avg={stats['avg_time']:.4f}s, total={stats['total_time']:.2f}s, count={stats['count']}")
 *
 * and profile_training_loop logs every log_every steps, then once more
 * after the loop (the last block twice). wandb's run summary repeats the
 * profiling/<op>_{avg_time,total_time,count} keys, and the guide's
 * print("Final profiling summary:", summary) prints dict(self.timers)
 * with Python's repr of each float; each timer dict was created as
 * {"total_time": 0.0, "count": 0, "avg_time": 0.0}.
 *
 * Known inputs: 100 steps, logged every 10. data_batch_production (the
 * loader's next(), outside the step) takes 0.020 s for steps 1-60 and
 * 0.035 s after; loss_fn_computation 0.041 s; make_step_total (around
 * the loss) 0.071 s. Timers end in that order: data, loss, make_step.
 */
#ifndef TPROF_GOLDEN_GEN_SSM_H
#define TPROF_GOLDEN_GEN_SSM_H

#include <stdio.h>
#include <string.h>

#include "pyfmt.h"

struct ssm_timer {
	const char *name;
	double total, avg;
	long count;
};

static inline void ssm_end(struct ssm_timer *t, double elapsed)
{
	t->total += elapsed;
	t->count++;
	t->avg = t->total / (double)t->count;
}

static inline void ssm_run(struct ssm_timer t[3], FILE *fp)
{
	static const char *const names[3] = { "data_batch_production", "loss_fn_computation", "make_step_total" };
	memset(t, 0, 3 * sizeof(*t));
	for (int i = 0; i < 3; i++)
		t[i].name = names[i];
	for (int step = 1; step <= 100; step++) {
		ssm_end(&t[0], step <= 60 ? 0.020 : 0.035);
		ssm_end(&t[1], 0.041);
		ssm_end(&t[2], 0.041 + 0.030);
		if (fp && (step % 10 == 0 || step == 100)) {
			for (int rep = 0; rep < (step == 100 ? 2 : 1); rep++) {
				fprintf(fp, "\n--- Profiling Metrics (Step %d) ---\n", step);
				for (int i = 0; i < 3; i++)
					fprintf(fp, "%s: avg=%.4fs, total=%.2fs, count=%ld\n", t[i].name, t[i].avg,
						t[i].total, t[i].count);
			}
		}
	}
}

static inline void gen_ssm_log(FILE *fp)
{
	struct ssm_timer t[3];
	char a[40], b[40];
	fprintf(fp, "Starting training with profiling enabled\n");
	ssm_run(t, fp);
	fprintf(fp, "wandb: \nwandb: Run summary:\n");
	fprintf(fp, "wandb: %42s %d\n", "epoch", 100);
	for (int i = 0; i < 3; i++) {
		char key[96];
		snprintf(key, sizeof(key), "profiling/%s_avg_time", t[i].name);
		fprintf(fp, "wandb: %42s %.5g\n", key, t[i].avg);
		snprintf(key, sizeof(key), "profiling/%s_count", t[i].name);
		fprintf(fp, "wandb: %42s %ld\n", key, t[i].count);
		snprintf(key, sizeof(key), "profiling/%s_total_time", t[i].name);
		fprintf(fp, "wandb: %42s %.5g\n", key, t[i].total);
	}
	fprintf(fp, "wandb: \nFinal profiling summary: {");
	for (int i = 0; i < 3; i++)
		fprintf(fp, "%s'%s': {'total_time': %s, 'count': %ld, 'avg_time': %s}", i ? ", " : "", t[i].name,
			py_repr(t[i].total, a), t[i].count, py_repr(t[i].avg, b));
	fprintf(fp, "}\n");
}

/* The seed's own figures (the last averages) and the true per-interval means. */
static inline void gen_ssm_expected(FILE *fp)
{
	struct ssm_timer t[3];
	char a[40], b[40];
	ssm_run(t, NULL);
	for (int i = 0; i < 3; i++)
		fprintf(fp, "%s final avg_time %s total_time %s count %ld\n", t[i].name, py_repr(t[i].avg, a),
			py_repr(t[i].total, b), t[i].count);
	fprintf(fp, "data_batch_production interval means: 0.020 x6 (steps 1-60), 0.035 x4 (steps 61-100)\n");
	fprintf(fp, "loss_fn_computation interval means: 0.041 x10\n");
	fprintf(fp, "make_step_total interval means: 0.071 x10\n");
	fprintf(fp, "iteration = make_step_total + data_batch_production = %.4f s\n", t[2].total + t[0].total);
	fprintf(fp, "share data_batch_production %.4f %%\n", 100 * t[0].total / (t[2].total + t[0].total));
	fprintf(fp, "share loss_fn_computation %.4f %%\n", 100 * t[1].total / (t[2].total + t[0].total));
	fprintf(fp, "steps_per_s %.4f\n", (double)t[2].count / t[2].total);
}

#endif
