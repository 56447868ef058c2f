/*
 * profile.c - one run's model profile (S2's profiling package):
 * the runtime, memory and FLOP figures it printed or wrote in its JSON
 * report, set against each other, for a log that holds a single
 * measurement of each and so no series to analyse.
 *
 *   model-runtime  each runtime with its spread (cv) and runs;
 *                  backward alone = backward - forward (S2 times the
 *                  forward inside its backward), optimizer step =
 *                  training step - backward
 *   model-flops    the estimate's components and their shares; the
 *                  forward's achieved rate, estimate / forward mean
 *   model-memory   memory figures; activations = forward peak - parameters
 *                  (S2's get_memory_breakdown also takes the input off)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "analyses_int.h"

/* The latest numbers of the first name that matches one of `names` (case-insensitive). */
static const struct an_nums *named(const struct tp_map *map, const char *const *names, int slot)
{
	for (const char *const *n = names; *n; n++)
		for (size_t i = 0; i < map->n; i++) {
			const struct an_nums *x = tp_map_at(map, i);
			if (!strcasecmp(tp_map_key(map, i), *n) && tp_has_slot(x->has, slot))
				return x;
		}
	return NULL;
}

static double named_value(const struct tp_map *map, const char *const *names, int slot)
{
	const struct an_nums *x = named(map, names, slot);
	return x ? x->num[slot] : NAN;
}

static const char *const FORWARD[] = { "forward", NULL };
static const char *const BACKWARD[] = { "backward", NULL };
static const char *const STEP[] = { "training_step", "training step", NULL };
static const char *const TOTAL[] = { "total", NULL };
static const char *const FWD_PEAK[] = { "forward.peak", "forward", "peak memory", NULL };
static const char *const BWD_PEAK[] = { "backward.peak", "backward", NULL };
static const char *const PARAMS[] = { "parameter_memory", "parameters", NULL };

static void runtime_table(const struct an_run *run, struct report *rep)
{
	struct rtable *t = report_table(rep, "breakdown", "model-runtime", "Model runtime (profiling report)",
					"run,name,mean:ms,std:ms,cv:%,min:ms,max:ms,runs,median:ms,iqr:ms");
	for (size_t i = 0; i < run->runtimes.n; i++) {
		const struct an_nums *x = tp_map_at(&run->runtimes, i);
		/* a benchmark's measurement has a median and no mean */
		double mean = tp_has_slot(x->has, S_RT_MEAN_MS) ? x->num[S_RT_MEAN_MS] : NAN;
		double sd = tp_has_slot(x->has, S_RT_STD_MS) ? x->num[S_RT_STD_MS] : NAN;
		rt_text(t, run->label);
		rt_text(t, tp_map_key(&run->runtimes, i));
		rt_num(t, mean, 3);
		rt_num(t, sd, 3);
		rt_num(t, mean > 0 ? 100 * sd / mean : NAN, 1);
		for (int s = S_RT_MIN_MS; s <= S_RT_IQR_MS; s++)
			rt_num(t, tp_has_slot(x->has, s) ? x->num[s] : NAN, s == S_RT_RUNS ? 0 : 3);
	}
	double fwd = named_value(&run->runtimes, FORWARD, S_RT_MEAN_MS);
	double bwd = named_value(&run->runtimes, BACKWARD, S_RT_MEAN_MS);
	double step = named_value(&run->runtimes, STEP, S_RT_MEAN_MS);
	if (fwd > 0 && bwd > fwd)
		report_finding(rep, SEV_INFO, "breakdown", "model-runtime", run->label, run->file, 0, NULL,
			       "backward pass alone: %.2f ms (backward %.2f ms - forward %.2f ms: the profiled "
			       "backward runs the forward too), %.2fx the forward",
			       bwd - fwd, bwd, fwd, (bwd - fwd) / fwd);
	if (bwd > 0 && step > bwd)
		report_finding(rep, SEV_INFO, "breakdown", "model-runtime", run->label, run->file, 0, NULL,
			       "optimizer step: %.2f ms (training step %.2f ms - backward %.2f ms), %.1f%% of "
			       "the training step",
			       step - bwd, step, bwd, 100 * (step - bwd) / step);
}

static void flops_table(const struct an_run *run, const struct an_opts *o, struct report *rep)
{
	double total = named_value(&run->flops, TOTAL, S_FLOPS_GFLOPS), sum = 0;
	for (size_t i = 0; i < run->flops.n; i++)
		if (strcasecmp(tp_map_key(&run->flops, i), "total"))
			sum += ((const struct an_nums *)tp_map_at(&run->flops, i))->num[S_FLOPS_GFLOPS];
	double denom = total > 0 ? total : sum;
	struct rtable *t = report_table(rep, "breakdown", "model-flops", "Model FLOP estimate (profiling report)",
					"run,component,gflops,share:%");
	t->bar_col = 3;
	size_t top = SIZE_MAX;
	double topv = -1;
	for (size_t i = 0; i < run->flops.n; i++) {
		const struct an_nums *x = tp_map_at(&run->flops, i);
		int is_total = !strcasecmp(tp_map_key(&run->flops, i), "total");
		rt_text(t, run->label);
		rt_text(t, tp_map_key(&run->flops, i));
		rt_num(t, x->num[S_FLOPS_GFLOPS], 4);
		rt_num(t, denom > 0 ? 100 * x->num[S_FLOPS_GFLOPS] / denom : NAN, 1);
		if (!is_total && x->num[S_FLOPS_GFLOPS] > topv)
			topv = x->num[S_FLOPS_GFLOPS], top = i;
	}
	if (top != SIZE_MAX && denom > 0 && run->flops.n > 2) {
		double pct = 100 * topv / denom;
		report_finding(rep, pct > o->bottleneck_pct ? SEV_NOTICE : SEV_INFO, "breakdown", "model-flops",
			       run->label, run->file, 0,
			       "most of the work is there: speed it up first (fused kernels such as flash attention, "
			       "mixed precision), and time it to confirm that its time follows its FLOPs",
			       "'%s' is %.1f%% of the estimated %.3g GFLOPs",
			       tp_map_key(&run->flops, top), pct, denom);
	}
	double fwd = named_value(&run->runtimes, FORWARD, S_RT_MEAN_MS);
	if (denom > 0 && fwd > 0)
		report_finding(rep, SEV_INFO, "breakdown", "model-flops", run->label, run->file, 0, NULL,
			       "the forward runs at %.1f GFLOP/s of the estimate (%.3g GFLOPs in %.2f ms)",
			       denom / (fwd / 1000), denom, fwd);
}

static void memory_table(const struct an_run *run, struct report *rep)
{
	struct rtable *t = report_table(rep, "breakdown", "model-memory", "Model memory (profiling report)", "run,name,mb:MB");
	for (size_t i = 0; i < run->memory.n; i++) {
		rt_text(t, run->label);
		rt_text(t, tp_map_key(&run->memory, i));
		rt_num(t, ((const struct an_nums *)tp_map_at(&run->memory, i))->num[S_MEM_MB], 2);
	}
	double fpk = named_value(&run->memory, FWD_PEAK, S_MEM_MB), bpk = named_value(&run->memory, BWD_PEAK, S_MEM_MB);
	double par = named_value(&run->memory, PARAMS, S_MEM_MB);
	if (fpk > 0 && par >= 0 && par < fpk)
		report_finding(rep, SEV_INFO, "breakdown", "model-memory", run->label, run->file, 0, NULL,
			       "forward peak %.2f MB: %.2f MB of parameters, %.2f MB of activations and inputs",
			       fpk, par, fpk - par);
	if (fpk > 0 && bpk > fpk)
		report_finding(rep, SEV_INFO, "breakdown", "model-memory", run->label, run->file, 0, NULL,
			       "the backward peak (%.2f MB) is %.2fx the forward peak (%.2f MB): the activations "
			       "kept for the gradients", bpk, bpk / fpk, fpk);
}

void an_profile(const struct an_model *m, const struct an_opts *o, struct report *rep)
{
	for (size_t r = 0; r < m->nruns; r++) {
		const struct an_run *run = m->runs[r];
		if (run->runtimes.n)
			runtime_table(run, rep);
		if (run->flops.n)
			flops_table(run, o, rep);
		if (run->memory.n)
			memory_table(run, rep);
	}
}
