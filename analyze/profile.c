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

/* A runtime's typical time: the median a benchmark prints, else the mean. */
static double typical_ms(const struct an_nums *x)
{
	return tp_has_slot(x->has, S_RT_MEDIAN_MS) ? x->num[S_RT_MEDIAN_MS]
	       : tp_has_slot(x->has, S_RT_MEAN_MS) ? x->num[S_RT_MEAN_MS]
						   : NAN;
}

/* The threads a benchmark ran on; 1 where it does not say. */
static double threads(const struct an_nums *x)
{
	return tp_has_slot(x->has, S_RT_THREADS) ? x->num[S_RT_THREADS] : 1;
}

/* Whether a and b are the same text but for their digits ("n=128 (x)", "n=512 (x)"). */
static int same_but_numbers(const char *a, const char *b)
{
	while (*a && *b) {
		if (tp_is_digit(*a) && tp_is_digit(*b)) {
			while (tp_is_digit(*a) || *a == '.')
				a++;
			while (tp_is_digit(*b) || *b == '.')
				b++;
		} else if (*a++ != *b++) {
			return 0;
		}
	}
	return !*a && !*b;
}

/*
 * One statement at one case on several thread counts (a Measurement's
 * "..., 4 threads"): the most threads against one, once per statement.
 */
static void thread_counts(const struct an_run *run, struct report *rep)
{
	for (size_t i = 0; i < run->runtimes.n; i++) {
		const struct an_nums *one = tp_map_at(&run->runtimes, i), *most = NULL;
		const char *k1 = tp_map_key(&run->runtimes, i);
		if (!tp_has_slot(one->has, S_RT_THREADS) || threads(one) != 1 || !(typical_ms(one) > 0))
			continue;
		size_t len = strlen(k1), stem = len && k1[len - 1] == ')' ? len - 1 : len; /* "name (case" */
		for (size_t k = 0; k < run->runtimes.n; k++) {
			const struct an_nums *b = tp_map_at(&run->runtimes, k);
			const char *kb = tp_map_key(&run->runtimes, k);
			if (threads(b) > 1 && typical_ms(b) > 0 && !strncmp(kb, k1, stem) && !strcmp(b->text, one->text) &&
			    (kb[stem] == ',' || kb[stem] == ' ') && (!most || threads(b) > threads(most)))
				most = b;
		}
		if (!most)
			continue;
		double r = typical_ms(one) / typical_ms(most);
		/* worth saying: threads that pay well, or that cost */
		report_finding(rep, r >= 1.2 || r < 1 / 1.05 ? SEV_NOTICE : SEV_INFO, "breakdown", "variants", run->label, run->file, most->line, NULL,
			       "'%s' on %.0f threads takes %.4g ms against %.4g ms on one: %.2fx %s", k1, threads(most),
			       typical_ms(most), typical_ms(one), r >= 1 ? r : 1 / r,
			       r >= 1 ? "faster" : "slower (the threads cost more than they share)");
	}
}

/* Whether two benchmarks share their label, the name's part before ": "
 * ("softmax: dense" and "softmax: sparsity 0.5"; not "bmm: dense"). */
static int same_label(const char *a, const char *b)
{
	const char *ca = strstr(a, ": "), *cb = strstr(b, ": ");
	size_t na = ca ? (size_t)(ca - a) : 0, nb = cb ? (size_t)(cb - b) : 0;
	return na == nb && !strncmp(a, b, na);
}

/*
 * Benchmarks of several statements at one case (torch.utils.benchmark's
 * Measurements: "x @ y" and "torch.mm(x, y)" at size 64, under one label)
 * are alternatives: per label and case, the fastest against the slowest,
 * and whether their spreads (the interquartile ranges, where printed) part.
 */
static void variants(const struct an_run *run, struct report *rep)
{
	for (size_t i = 0; i < run->runtimes.n; i++) {
		const struct an_nums *a = tp_map_at(&run->runtimes, i);
		if (!a->text[0])
			continue;
		size_t lo = i, hi = i, n = 0, first = SIZE_MAX;
		for (size_t k = 0; k < run->runtimes.n; k++) {
			const struct an_nums *b = tp_map_at(&run->runtimes, k);
			if (strcmp(b->text, a->text) || !(typical_ms(b) > 0) || threads(b) != threads(a) ||
			    !same_label(tp_map_key(&run->runtimes, i), tp_map_key(&run->runtimes, k)))
				continue;
			first = first == SIZE_MAX ? k : first;
			n++;
			if (typical_ms(b) < typical_ms(tp_map_at(&run->runtimes, lo)))
				lo = k;
			if (typical_ms(b) > typical_ms(tp_map_at(&run->runtimes, hi)))
				hi = k;
		}
		if (n < 2 || first != i) /* once per case, at its first runtime */
			continue;
		const struct an_nums *f = tp_map_at(&run->runtimes, lo), *s = tp_map_at(&run->runtimes, hi);
		double fm = typical_ms(f), sm = typical_ms(s), ratio = sm / fm;
		/* names that differ in their numbers alone ("n=128", "n=512") are
		 * sizes of one statement, no alternatives */
		if (same_but_numbers(tp_map_key(&run->runtimes, lo), tp_map_key(&run->runtimes, hi)))
			continue;
		/* apart: the slower's first quartile above the faster's third */
		int quartiles = tp_has_slot(f->has, S_RT_Q3_MS) && tp_has_slot(s->has, S_RT_Q1_MS);
		int apart = quartiles ? s->num[S_RT_Q1_MS] > f->num[S_RT_Q3_MS] : ratio >= 1.05;
		if (ratio >= 1.05 && apart)
			report_finding(rep, SEV_NOTICE, "breakdown", "variants", run->label, run->file, f->line,
				       "use the faster statement where the two compute the same",
				       "'%s' is %.2fx faster than '%s' (median %.4g ms against %.4g ms%s)",
				       tp_map_key(&run->runtimes, lo), ratio, tp_map_key(&run->runtimes, hi), fm, sm,
				       quartiles ? "; their interquartile ranges do not overlap" : "");
		else
			report_finding(rep, SEV_INFO, "breakdown", "variants", run->label, run->file, f->line, NULL,
				       "at %s%s the %zu statements take the same time within their spread (median %.4g "
				       "to %.4g ms)", a->text, threads(a) != 1 ? " (threads as printed)" : "", n, fm, sm);
	}
}

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
		/* a benchmark's times are microseconds: significant digits, not 0.000 ms */
		for (int s = S_RT_MIN_MS; s <= S_RT_IQR_MS; s++)
			rt_num(t, tp_has_slot(x->has, s) ? x->num[s] : NAN,
			       s == S_RT_RUNS ? 0 : s >= S_RT_MEDIAN_MS ? -1 : 3);
	}
	/* pairs are sought by scanning: a benchmark's few hundred, not a
	 * report's 400,000 operations */
	if (run->runtimes.n <= 4096) {
		variants(run, rep);
		thread_counts(run, rep);
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
