/*
 * parts.c - the step and its parts, and the phases around the steps, as a
 * person who knows training reads them: data loading's share of the step,
 * the largest part of a step that prints its own breakdown (generation
 * against training in an RLHF step), evaluation, checkpoint and start-up
 * time as shares of the wall.
 *
 * It reads only values whose role says what they are (model.h): a share is
 * taken of the step the part belongs to, or of the wall, never of a table
 * that mixes a per-step component with run totals, and a container or a
 * clock is never a cost of its own.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "analyses_int.h"
#include "progress.h"

/* What a part of a step is, by its name. */
static const char *part_kind(const char *name)
{
	/* PaddlePaddle's reader_cost */
	if (strcasestr(name, "data") || strcasestr(name, "load") || strcasestr(name, "reader"))
		return "data";
	/* verl's timing_s/gen */
	if (strcasestr(name, "generat") || strcasestr(name, "rollout") || !strcasecmp(name, "gen"))
		return "generation";
	static const char *const comm[] = { "reduce", "gather", "scatter", "comm", "sync", "nccl", "broadcast", "p2p",
					    "send", "recv" };
	for (size_t i = 0; i < ARRAY_SIZE(comm); i++)
		if (strcasestr(name, comm[i]))
			return "communication";
	return an_stage_kind(name);
}

/* What a phase is, by its name: evaluation, a checkpoint, start-up, the
 * training itself (never a cost: it is where the steps run), or other. */
const char *an_phase_kind(const char *name)
{
	static const struct {
		const char *word, *kind;
	} words[] = {
		/* first match wins: "load-checkpoint" is a checkpoint, "data-iterators-setup" start-up,
		 * a data loader's time ("loader_time") data */
		{ "checkpoint", "checkpoint" }, { "sav", "checkpoint" },     { "loader", "data" },
		{ "init", "startup" },
		{ "load", "startup" },          { "setup", "startup" },      { "build", "startup" },
		{ "eval", "evaluation" },       { "valid", "evaluation" },   { "inference", "evaluation" },
		{ "test", "evaluation" },       { "coco", "evaluation" },    { "train", "training" },
		{ "loop", "training" },         { "total", "training" },     { "epoch", "training" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strcasestr(name, words[i].word))
			return words[i].kind;
	/* "Val Cost", "val_time": a word that starts with "val" (not
	 * "interval") */
	for (const char *v = name; (v = strcasestr(v, "val")); v++)
		if (v == name || !tp_is_alpha(v[-1]))
			return "evaluation";
	return "other";
}

static const char *kind_advice(const char *kind)
{
	if (!strcmp(kind, "evaluation"))
		return "evaluate less often, on a subset, or in a separate job; batch the evaluation "
		       "larger than training (no gradients)";
	if (!strcmp(kind, "checkpoint"))
		return "save less often, asynchronously, or only the shards each rank owns";
	if (!strcmp(kind, "startup"))
		return "cache the preprocessed dataset and the compiled model between runs";
	if (!strcmp(kind, "communication"))
		return "communication is a large part of the step: overlap it with compute (DDP's bucket "
		       "size, no_sync under gradient accumulation, ZeRO's overlap_comm), and check the "
		       "interconnect's bandwidth (nccl-tests)";
	if (!strcmp(kind, "generation"))
		return "generation is a large part of the step: use a faster inference engine (vLLM, "
		       "TensorRT-LLM) or KV-cache reuse, shorter generations, or larger generation batches";
	return an_advice(kind);
}

/* The median of the step series a part belongs to, with its name, and
 * in *mean its mean. */
static double parent_median(const struct an_run *run, const struct an_part *x, const char **of, double *mean,
			    uint64_t *n)
{
	*mean = NAN;
	*n = 0;
	if (x->parent[0] && strcmp(x->parent, "step")) {
		const struct an_part *p = an_part_find(run, x->parent);
		*of = x->parent;
		if (!p || !p->s.n)
			return NAN;
		*mean = p->s.mean;
		*n = p->s.n;
		return tp_series_quantile(&p->s, 0.5);
	}
	double scale;
	const struct tp_series *s = an_step_series(run, of, &scale);
	if (!s || !s->n)
		return NAN;
	*mean = scale * s->mean;
	*n = s->n;
	return scale * tp_series_quantile(s, 0.5);
}

/* A component's values: its own, else a window mean of it. */
static const struct tp_series *component_values(const struct an_run *run, const char *name,
						const struct an_part *x)
{
	if (x->s.n)
		return &x->s;
	for (size_t i = 0; i < run->parts.n; i++) {
		const struct an_part *m = tp_map_at(&run->parts, i);
		if (m->role == TP_ROLE_RUNNING && !strcmp(m->parent, name) && m->s.n)
			return &m->s;
	}
	return NULL;
}

/* A part's share of its step: of the typical step (medians), and of the
 * steps' time (means: what the part costs over the run). */
struct share {
	double pct, med;           /* the median's share, the part's median */
	double mean_pct, mean, of; /* the mean's share, the part's mean, the step's mean */
	uint64_t n, of_n;          /* the part's values, its step's; n < of_n / 2: a part of
				    * some steps only (a checkpoint's save every 20th), whose
				    * pct is then of the steps' time, its values added */
	double sum;
};

static int some_steps(const struct share *sh)
{
	return sh->n * 2 < sh->of_n;
}

/* Rare long waits (a loader that stalls now and then) hide from the
 * median: the share of the time is the mean's, said as such, when it is
 * well above the median's. Only where it can be a share: a part whose
 * mean exceeds its step's is not inside the step as printed (a batch
 * time without its data time). */
static int stalls(const struct share *sh)
{
	return sh->mean_pct > 1.5 * sh->pct && sh->mean_pct - sh->pct > 5 && sh->mean_pct <= 100;
}

/* The share a finding gives: the mean's where rare long waits hide. */
static double share_pct(const struct share *sh)
{
	return stalls(sh) ? sh->mean_pct : sh->pct;
}

static void part_finding(struct report *rep, const struct an_opts *o, const struct an_run *run,
			 const char *name, const struct an_part *x, const char *of, const struct share *sh,
			 double wall)
{
	const char *kind = part_kind(name);
	int data = !strcmp(kind, "data");
	double pct = share_pct(sh);
	if (pct <= (data ? o->data_pct / 3 : o->optimize_pct))
		return;
	/* a compute part that is nine tenths of its step is the step (EDSR's
	 * model time beside its data time): the steps' finding says it */
	if (!data && pct >= 90 && !some_steps(sh))
		return;
	enum severity sev = pct > o->bottleneck_pct ? SEV_CRITICAL : pct > o->data_pct ? SEV_WARNING : SEV_NOTICE;
	const char *what = data ? "data loading"
			   : strcmp(kind, "other") && strcmp(kind, "forward") && strcmp(kind, "backward") &&
					   strcmp(kind, "optimizer")
				   ? kind
				   : "the step's part";
	char how[512];
	if (some_steps(sh))
		snprintf(how, sizeof(how), "of the steps' time ('%s': in %llu of %llu steps, %.4g s in all)", of,
			 (unsigned long long)sh->n, (unsigned long long)sh->of_n, sh->sum);
	else if (stalls(sh))
		snprintf(how, sizeof(how), "of the steps' time ('%s': mean %.4g s of %.4g s; the median is %.4g s, "
			 "%.1f%%: rare long waits)", of, sh->mean, sh->of, sh->med, sh->pct);
	else
		snprintf(how, sizeof(how), "of each step ('%s': median %.4g s of %.4g s)", of, sh->med,
			 sh->med * 100 / sh->pct);
	report_finding(rep, sev, "bottlenecks", data ? "data-loading" : "step-part", run->label, run->file, x->line,
		       kind_advice(kind), "%s '%s' is %.1f%% %s", what, name, pct, how);
	/* data loading can be overlapped with compute entirely; a compute
	 * part, what halving it would save */
	if (wall > 0)
		report_stake(rep, wall * pct / 100 * (data ? 1 : 0.5));
}

/* Parts of the step: each component's median and share of its step's.
 * Two data parts (a step's own data time and a window mean of it) are one
 * fact: only the larger share is a finding. */
static void step_parts(struct report *rep, const struct an_opts *o, const struct an_run *run,
		       int bottlenecks, double wall)
{
	struct rtable *t = NULL;
	size_t data = SIZE_MAX;
	struct share data_sh = { -1, 0, -1, 0, 0, 0, 0, 0 };
	const char *data_of = NULL;
	for (size_t i = 0; i < run->parts.n; i++) {
		const struct an_part *x = tp_map_at(&run->parts, i);
		const char *name = tp_map_key(&run->parts, i), *of = NULL;
		if (x->role != TP_ROLE_COMPONENT)
			continue;
		const struct tp_series *v = component_values(run, name, x);
		uint64_t steps;
		double step_mean, step = parent_median(run, x, &of, &step_mean, &steps);
		if (!v || !(step > 0))
			continue;
		double med = tp_series_quantile(v, 0.5), pct = 100 * med / step;
		struct share sh = { pct, med, step_mean > 0 ? 100 * v->mean / step_mean : NAN, v->mean, step_mean,
				    v->n, steps, v->sum };
		if (some_steps(&sh))
			sh.pct = sh.mean_pct = step_mean > 0 ? 100 * v->sum / (step_mean * (double)steps) : NAN;
		pct = sh.pct;
		if (!t)
			t = report_table(rep, "breakdown", "step-parts", "Parts of the step",
					 "run,part,of,median:s,share:%,values,line");
		rt_text(t, run->label);
		rt_text(t, name);
		rt_text(t, of);
		rt_num(t, med, 4);
		rt_num(t, pct, 1);
		rt_num(t, (double)v->n, 0);
		rt_num(t, (double)x->line, 0);
		/* the parts of an evaluation's steps are the evaluation's, no
		 * finding of the training step's */
		if (!bottlenecks || !strcmp(an_phase_kind(of), "evaluation"))
			continue;
		if (strcmp(part_kind(name), "data"))
			part_finding(rep, o, run, name, x, of, &sh, wall);
		else if (share_pct(&sh) > share_pct(&data_sh))
			data = i, data_sh = sh, data_of = of;
	}
	if (data != SIZE_MAX)
		part_finding(rep, o, run, tp_map_key(&run->parts, data), tp_map_at(&run->parts, data), data_of,
			     &data_sh, wall);
}

/* Whether phase s lies in a phase of the kind (an_phase_kind()): it is
 * counted there, not again on its own. */
static int in_its_kind(const struct an_run *run, const struct an_stage *s, const char *kind)
{
	const char *up = an_stage_parent(run, s);
	return *up && !strcmp(an_phase_kind(up), kind);
}

/* Evaluation, checkpoints and start-up: declared phases, summed by kind
 * over the run, as shares of the wall, or of the time the run was active
 * where launches appended to one log left idle gaps (idle seconds in n
 * gaps). Returns 1 if start-up was said. */
static int phase_overheads(struct report *rep, const struct an_opts *o, const struct an_run *run, double wall,
			   double idle, uint64_t n)
{
	double full = wall;
	if (idle > 0 && idle < wall)
		wall -= idle;
	else
		idle = 0;
	int startup = 0;
	static const char *const kinds[] = { "evaluation", "checkpoint", "startup" };
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		double sec = 0;
		uint64_t line = 0;
		size_t names = 0;
		const char *first = NULL;
		for (size_t i = 0; i < run->stages.n; i++) {
			const struct an_stage *s = tp_map_at(&run->stages, i);
			const char *name = tp_map_key(&run->stages, i);
			/* a phase inside another of its kind is counted there */
			if (!an_stage_is_span(run, s) || strcmp(an_phase_kind(name), kinds[k]) || in_its_kind(run, s, kinds[k]))
				continue;
			sec += s->seconds;
			names++;
			if (!first)
				first = name, line = s->line;
		}
		/* no evaluation printed its time, but its steps' stamps say it */
		char more[96];
		snprintf(more, sizeof(more), "%s", names > 1 ? " and others" : "");
		uint64_t evals = 0;
		if (!first && k == 0 && (sec = an_run_eval_stamped(run, &evals)) > 0) {
			snprintf(more, sizeof(more), ": its steps' time stamps, %llu run%s", (unsigned long long)evals,
				 evals == 1 ? "" : "s");
			first = run->eval_name;
			line = run->eval_line;
		}
		if (!first || !(wall > 0))
			continue;
		double pct = 100 * sec / wall;
		if (pct < 1)
			continue;
		enum severity sev = pct > o->optimize_pct ? SEV_WARNING : SEV_NOTICE;
		if (idle > 0)
			report_finding(rep, sev, "bottlenecks", kinds[k], run->label, run->file, line,
				       pct >= 5 ? kind_advice(kinds[k]) : NULL,
				       "%s ('%s'%s) took %.4g s, %.1f%% of the %.4g s the run was active (the wall "
				       "%.4g s less %.4g s idle in %llu gap%s of more than %d minutes)",
				       kinds[k], first, more, sec, pct, wall, full, idle,
				       (unsigned long long)n, n == 1 ? "" : "s", AN_IDLE_GAP / 60);
		else
			report_finding(rep, sev, "bottlenecks", kinds[k], run->label, run->file, line,
				       pct >= 5 ? kind_advice(kinds[k]) : NULL, "%s ('%s'%s) took %.4g s, %.1f%% of the wall %.4g s",
				       kinds[k], first, more, sec, pct, wall);
		report_stake(rep, sec / 2);
		startup |= k == 2;
	}
	return startup;
}

/*
 * Time stamps around the steps: what passed before the first value printed
 * at a step (start-up: loading the model and data, compiling) and after
 * the last (a final evaluation, saving), as shares of the wall. Only when
 * no declared phase says it already, and when it is a tenth of the run.
 */
static void around_steps(struct report *rep, const struct an_opts *o, const struct an_run *run, double wall,
			 int said_startup)
{
	if (run->first_step_ts == INT64_MIN || run->first_ts == INT64_MIN || !(wall > 0))
		return;
	/* launches that crashed before any step (a Python traceback each) are
	 * no start-up of the one that ran: its start-up is from its first stamp */
	double crashed = an_run_crashed(run);
	double before = (double)(run->first_step_ts - run->first_ts) - crashed;
	/* the first print closes a window of steps ("iter 100"): those steps
	 * ran before it, and are no start-up */
	const char *what;
	double scale;
	const struct tp_series *st = an_step_series(run, &what, &scale);
	if (st && st->n && run->first_step_index > 1)
		before -= (run->first_step_index - 1) * tp_series_quantile(st, 0.5) * scale;
	/* only where a value was read after the last step: a log whose
	 * launches were appended to it ends on the last one's start-up,
	 * days after the last step, idle in between */
	double after = run->last_value_ts > run->last_step_ts ? (double)(run->max_ts - run->last_step_ts) : 0;
	/* less the idle gaps in it (a relaunch's header a day later) */
	double idle_after = after > 0 ? an_run_idle_after_steps(run) : 0;
	after -= idle_after < after ? idle_after : after;
	if (crashed > 0)
		report_finding(rep, SEV_NOTICE, "bottlenecks", "crashes", run->label, run->file, run->crash_line,
			       "read the tracebacks: a launch that crashes before its first step costs its start-up "
			       "each time",
			       "%llu launch%s crashed before a step was printed (the last traceback at line %llu): "
			       "%.4g s from the first stamp to the launch that ran, not counted as its start-up",
			       (unsigned long long)run->crashes, run->crashes == 1 ? "" : "es",
			       (unsigned long long)run->crash_line, crashed);
	if (!said_startup && before >= 0.1 * wall)
		report_finding(rep, before > o->optimize_pct / 100 * wall ? SEV_WARNING : SEV_NOTICE, "bottlenecks",
			       "startup", run->label, run->file, 0, kind_advice("startup"),
			       "start-up: %.4g s (%.1f%% of the wall %.4g s) passed before the first step was printed",
			       before, 100 * before / wall, wall);
	else
		before = 0;
	if (before > 0)
		report_stake(rep, before / 2);
	if (after >= 0.1 * wall) {
		char idle[96] = "";
		if (idle_after > 0)
			snprintf(idle, sizeof(idle), ", and %.4g s idle in gaps of more than %d minutes", idle_after,
				 AN_IDLE_GAP / 60);
		report_finding(rep, SEV_NOTICE, "bottlenecks", "after-steps", run->label, run->file, 0, NULL,
			       "the run went on %.4g s (%.1f%% of the wall) after its last step was printed "
			       "(a final evaluation, saving the model)%s", after, 100 * after / wall, idle);
		report_stake(rep, after / 2);
	}
}

/*
 * A run that slows down shows it in its throughput (DeepSpeed's
 * CurrSamplesPerSec falling as random-LTD keeps more tokens): a rate whose
 * fitted line ends a fifth or more below where it starts, significantly.
 * The time at stake is what the run lost against its starting rate. Running
 * averages lag and evaluation rates are no training: neither is read.
 * Returns whether it said so.
 */
static int throughput_drift(struct report *rep, const struct an_opts *o, const struct an_run *run, double wall)
{
	int said = 0;
	static const char *const skip[] = { "avg", "average", "mean", "eval", "valid", "test" };
	for (size_t i = 0; i < run->rates.n; i++) {
		const struct an_named_series *x = tp_map_at(&run->rates, i);
		const char *key = tp_map_key(&run->rates, i);
		size_t k = 0;
		while (k < ARRAY_SIZE(skip) && !strcasestr(key, skip[k]))
			k++;
		struct tp_fit f;
		/* nor a mean its reader declared (stable-baselines3's fps, ms-swift's
		 * train_speed: the first rollout's, or the steps before the first
		 * evaluation, lift the mean's start) */
		if (k < ARRAY_SIZE(skip) || x->average || x->s.n < 10 || tp_series_trend(&x->s, &f) < 0 ||
		    !(f.intercept > 0))
			continue;
		double start = f.intercept, end = f.intercept + f.slope * (double)(x->s.n - 1);
		if (!(f.p < o->alpha / 10) || !(end < 0.8 * start))
			continue;
		double lost = wall > 0 ? wall * (1 - x->s.mean / start) : NAN;
		report_finding(rep, SEV_WARNING, "bottlenecks", "slowdown", run->label, run->file, x->line,
			       "the run gets slower as it goes: look for what grows with it (sequence length, a "
			       "schedule that keeps more tokens, a cache, memory fragmentation, thermal throttling)",
			       "throughput '%s' falls over the run: %.4g to %.4g (%.0f%% lower, %llu values, R^2 %.2f)",
			       key, start, end > 0 ? end : 0, 100 * (1 - (end > 0 ? end : 0) / start),
			       (unsigned long long)x->s.n, f.r2);
		if (lost > 0)
			report_stake(rep, lost);
		said = 1;
	}
	return said;
}

/*
 * The step itself slowing down over the run (a Mask R-CNN trainer's 0.79 s
 * an iteration in its first epoch, 4 s in its last): the step series'
 * fitted line ends a quarter or more above where it starts, significantly
 * (as a throughput a fifth lower; a warmup falls, and is no slowdown).
 * The time at stake is what the steps that ran lost against the first.
 */
static void step_drift(struct report *rep, const struct an_opts *o, const struct an_run *run, double wall)
{
	const char *what;
	double scale, iters;
	const struct tp_series *st = an_steps_ran(run, &iters, &what, &scale);
	struct tp_fit f;
	if (!st || st->n < 10 || tp_series_trend(st, &f) < 0 || !(f.intercept > 0))
		return;
	double start = f.intercept * scale, end = (f.intercept + f.slope * (double)(st->n - 1)) * scale;
	if (!(f.p < o->alpha / 10) || !(end > 1.25 * start))
		return;
	double lost = iters * (st->mean * scale - start);
	if (wall > 0 && lost > wall)
		lost = wall;
	report_finding(rep, SEV_WARNING, "bottlenecks", "slowdown", run->label, run->file, st->head[0].line,
		       "the run gets slower as it goes: look for what grows with it (sequence length, a "
		       "schedule that keeps more tokens, a cache, memory fragmentation, thermal throttling)",
		       "the step slows down over the run: %s from %.4g s to %.4g s (%.0f%% higher, %llu values, "
		       "R^2 %.2f)",
		       what, start, end, 100 * (end / start - 1), (unsigned long long)st->n, f.r2);
	if (lost > 0)
		report_stake(rep, lost);
}

/*
 * Each epoch's first step far slower than the others: the data loader
 * starting its workers again (or a per-epoch set-up in the loop). The time
 * at stake is half the excess over the run, as for the other overheads.
 */
static void epoch_starts(struct report *rep, const struct an_run *run, double wall)
{
	for (size_t i = 0; i < run->ranks.n; i++) {
		const struct an_batches *b = tp_map_at(&run->ranks, i);
		double first, rest;
		if (!an_epoch_starts_slow(b, &first, &rest))
			continue;
		double excess = (double)b->starts.n * (first - rest);
		char share[64] = "";
		if (wall > 0)
			snprintf(share, sizeof(share), ", %.1f%% of the wall", 100 * excess / wall);
		report_finding(rep, SEV_NOTICE, "bottlenecks", "epoch-start", run->label, run->file, b->starts.head[0].line,
			       "keep the DataLoader's workers between epochs (persistent_workers=True) and move "
			       "per-epoch set-up out of the loop",
			       "each epoch's first step takes %.4g s against %.4g s for the others (median, %llu "
			       "epochs: %.4g s over the run%s)",
			       first, rest, (unsigned long long)b->starts.n, excess, share);
		report_stake(rep, excess / 2);
	}
}

static int steps_alone(enum an_wall_from from);

/* The greatest common divisor of two positions. */
static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

const char *an_ordinal(uint64_t n)
{
	if (n % 100 / 10 == 1)
		return "th";
	return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

/*
 * Samples far slower than the others at a fixed period: work a loop does
 * every Nth step inside the timed step (nanoGPT's evaluation and
 * checkpoint at each eval_interval, inside that iteration's dt: 36.9 s
 * against 0.56 s, every 250th). From the series' largest samples (it
 * keeps TP_EXTREMES of them, with their positions): those PERIODIC_RATIO
 * times the median or more, at least PERIODIC_MIN of them, every gap
 * between them a multiple of one period of two samples or more, and found
 * at 70 % or more of the positions that period gives between the first
 * and the last (random slow steps share no period); a full set of kept
 * samples stands for the rest of the period's positions.
 */
#define PERIODIC_RATIO 5.0
#define PERIODIC_MIN 4
int an_periodic_slow(const struct tp_series *s, struct an_periodic *p)
{
	if (s->n < 10 * PERIODIC_MIN || !s->ntop)
		return 0;
	double med = tp_series_quantile(s, 0.5), slow = 0;
	if (!(med > 0))
		return 0;
	uint64_t lo = UINT64_MAX, hi = 0, g = 0;
	size_t k = 0;
	for (uint32_t i = 0; i < s->ntop; i++)
		if (s->top[i].v >= PERIODIC_RATIO * med) {
			k++;
			slow += s->top[i].v;
			lo = s->top[i].index < lo ? s->top[i].index : lo;
			hi = s->top[i].index > hi ? s->top[i].index : hi;
		}
	if (k < PERIODIC_MIN)
		return 0;
	for (uint32_t i = 0; i < s->ntop; i++)
		if (s->top[i].v >= PERIODIC_RATIO * med)
			g = gcd_u64(g, s->top[i].index - lo);
	if (g < 2)
		return 0;
	int full = k == s->ntop && s->ntop == TP_EXTREMES;
	if (!full && (double)k < 0.7 * ((double)((hi - lo) / g) + 1))
		return 0;
	p->period = g;
	p->count = full ? (double)((s->n - 1 - lo) / g) + 1 : (double)k;
	p->mean = slow / (double)k;
	p->median = med;
	p->line = s->top[0].line;
	return 1;
}

/*
 * The periodic slow steps of the run's step series (an_periodic_slow) as
 * an evaluation, where no evaluation or checkpoint was said (from: the
 * findings before this run's overheads) and no epoch's first step is slow
 * (epoch_starts). Its stake is half the excess, as for the other
 * overheads.
 */
static void periodic_steps(struct report *rep, const struct an_run *run, double wall, enum an_wall_from wf,
			   size_t from)
{
	for (size_t i = from; i < rep->nfindings; i++)
		if (!strcmp(rep->findings[i].kind, "evaluation") || !strcmp(rep->findings[i].kind, "checkpoint") ||
		    !strcmp(rep->findings[i].kind, "epoch-start"))
			return;
	const char *what;
	double scale, iters;
	struct an_periodic pd;
	const struct tp_series *st = an_steps_ran(run, &iters, &what, &scale);
	if (!st || !an_periodic_slow(st, &pd))
		return;
	uint64_t g = pd.period;
	double excess = pd.count * (pd.mean - pd.median) * scale;
	double per = iters > (double)st->n ? iters / (double)st->n : 1;
	char every[64] = "", share[64] = "";
	if (per > 1.05)
		snprintf(every, sizeof(every), ", every %.0f steps by the indices", (double)g * per);
	/* a wall that is the steps at their median holds none of the excess */
	if (steps_alone(wf) && wall > 0)
		snprintf(share, sizeof(share), ", %.1f%% of the time in steps", 100 * excess / (wall + excess));
	else if (wall > 0)
		snprintf(share, sizeof(share), ", %.1f%% of the wall", 100 * excess / wall);
	report_finding(rep, SEV_NOTICE, "bottlenecks", "evaluation", run->label, run->file, pd.line,
		       kind_advice("evaluation"),
		       "every %llu%s print of %s (%.0f of them%s) takes %.4g s (their mean) against %.4g s (the "
		       "median): work the loop does at a fixed interval inside the step, an evaluation or a "
		       "checkpoint, %.4g s over the run%s",
		       (unsigned long long)g, an_ordinal(g), what, pd.count, every, pd.mean * scale, pd.median * scale, excess,
		       share);
	report_stake(rep, excess / 2);
}

/* Whether a wall so given is the steps alone: none, or only the steps
 * added up (the printed ones, or those that ran at the median step). */
static int steps_alone(enum an_wall_from from)
{
	return from == AW_NONE || from == AW_BATCHES || from == AW_STEPS;
}

static const char steps_advice[] =
	"the step itself is the lever: profile one (torch.profiler, Nsight Systems) and look at its "
	"parts; mixed precision, a fused optimizer, torch.compile or a larger batch per device "
	"shorten it";

/* A wall that is the epochs added (MXNet's "Time cost" per epoch, no stamps
 * or total): the epochs are all the log shows of the run, and their steps
 * the lever. */
static void epochs_alone(struct report *rep, const struct an_run *run, double wall)
{
	uint64_t n = 0;
	for (size_t i = 0; i < run->ranks.n; i++) {
		const struct an_batches *b = tp_map_at(&run->ranks, i);
		if (b->epochs.sum == wall)
			n = b->epochs.n;
	}
	if (n < 2)
		return;
	report_finding(rep, SEV_NOTICE, "bottlenecks", "steps", run->label, run->file, 0, steps_advice,
		       "the log shows the run only in its epochs (no time stamps or total): %llu epochs, %.4g s",
		       (unsigned long long)n, wall);
	report_stake(rep, 0.05 * wall);
}

/* A clock printed once a loop is all the log shows of its run (a loop's
 * "Time elapsed: 0.05 min", no step time or phase): the time between its
 * prints is the steps', and they are the lever. */
static void clock_alone(struct report *rep, const struct an_run *run, double wall)
{
	const char *what = NULL, *step;
	double scale;
	const struct tp_series *st = an_span_steps(run, &what);
	const struct an_part *p = what ? an_part_find(run, what) : NULL;
	/* or a reading no reader declared, which grew and restarted */
	const struct an_stage *c = what ? tp_map_find(&run->stages, what, strlen(what)) : NULL;
	if (!st || !((p && p->role == TP_ROLE_CLOCK) || (c && an_stage_is_clock(c))) ||
	    st != an_step_series(run, &step, &scale))
		return;
	report_finding(rep, SEV_NOTICE, "bottlenecks", "steps", run->label, run->file, p ? p->line : c->line, steps_advice,
		       "the log shows the run only in its clock '%s': %llu prints, %.4g s apart (median), "
		       "%.4g s in all: the steps between them are its time",
		       what, (unsigned long long)st->n, tp_series_quantile(st, 0.5), wall);
	report_stake(rep, 0.05 * wall);
}

/* Whether stage s lies within the phase named name, at any depth. */
static int within(const struct an_run *run, const struct an_stage *s, const char *name)
{
	for (int depth = 0; s && *an_stage_parent(run, s) && depth < 16; depth++) {
		const char *up = an_stage_parent(run, s);
		if (!strcmp(up, name))
			return 1;
		s = tp_map_find(&run->stages, up, strlen(up));
	}
	return 0;
}

/* The evaluations, checkpoints and start-up within the phase named name
 * (detectron2's inference inside the hooks inside its 'total training'),
 * each once (one inside another of its kind is counted there). */
static double overheads_within(const struct an_run *run, const char *name)
{
	double sec = 0;
	for (size_t i = 0; i < run->stages.n; i++) {
		const struct an_stage *s = tp_map_at(&run->stages, i);
		const char *kind = an_phase_kind(tp_map_key(&run->stages, i));
		if (strcmp(kind, "evaluation") && strcmp(kind, "checkpoint") && strcmp(kind, "startup"))
			continue;
		if (an_stage_is_span(run, s) && !in_its_kind(run, s, kind) &&
		    within(run, s, name))
			sec += s->seconds;
	}
	return sec;
}

/*
 * When the log prints no step time that fills the run but its training
 * phases do (fairseq's epochs' train_wall, a loop's epoch times): the
 * phases no reader called anything but training, outside another training
 * phase, less the evaluations, checkpoints and start-up within them, as a
 * share of a wall they did not make up. Where they fill it, the steps
 * inside them are the lever, as above.
 */
static void training_share(struct report *rep, const struct an_run *run, double wall, enum an_wall_from from)
{
	if (from == AW_EPOCHS && wall > 0)
		return epochs_alone(rep, run, wall);
	if (!(wall > 0) || steps_alone(from))
		return;
	double sec = 0, less = 0;
	const char *first = NULL, *loose = NULL;
	uint64_t line = 0;
	size_t names = 0;
	/* a phase no name places, printed as often as a loop's ("Timer:
	 * 0.6680" six hundred times), where it stands for the steps */
	an_span_steps(run, &loose);
	for (size_t i = 0; i < run->stages.n; i++) {
		const struct an_stage *s = tp_map_at(&run->stages, i);
		const char *name = tp_map_key(&run->stages, i);
		int theirs = s->loose && loose && !strcmp(name, loose);
		if (!an_stage_is_span(run, s) || (!theirs && strcmp(an_phase_kind(name), "training")) ||
		    in_its_kind(run, s, "training"))
			continue;
		double o = overheads_within(run, name);
		sec += s->seconds - o;
		less += o;
		names++;
		if (!first)
			first = name, line = s->line;
	}
	if (!first)
		return clock_alone(rep, run, wall);
	double pct = 100 * sec / wall;
	/* launches appended to one log, days apart: of the time the run was
	 * active (a word-embedding trainer's 98 launches over 26 days) */
	uint64_t gaps = 0;
	double idle = pct < 60 && from == AW_STAMPS ? an_run_idle(run, &gaps) : 0;
	char of[160];
	if (gaps && wall - idle > 0) {
		wall -= idle;
		pct = 100 * sec / wall;
		snprintf(of, sizeof(of), "of the time the run was active (the wall less %.4g s idle in %llu gap%s)",
			 idle, (unsigned long long)gaps, gaps == 1 ? "" : "s");
	} else {
		snprintf(of, sizeof(of), "of the wall");
	}
	if (!(pct >= 60 && pct <= 110))
		return;
	char minus[96] = "";
	if (less > 0)
		snprintf(minus, sizeof(minus), ", less %.4g s of evaluation, checkpoints and start-up in it", less);
	const struct an_stage *f = tp_map_find(&run->stages, first, strlen(first));
	report_finding(rep, SEV_NOTICE, "bottlenecks", "steps", run->label, run->file, line, steps_advice,
		       "%s ('%s'%s%s) is %.0f%% %s (%.4g s of %.4g s): the run's time is in the steps it ran",
		       f && f->loose ? "the loop's repeated time" : "training", first, names > 1 ? " and others" : "",
		       minus, pct > 100 ? 100 : pct, of, sec > wall ? wall : sec, wall);
	report_stake(rep, 0.05 * (sec > wall ? wall : sec));
}

/* The steps' share of the time a run was active, where launches appended
 * to one log left its stamps' span idle (an_run_idle): the same finding,
 * of that time, for iters steps of median med s from the series what. 1
 * if given. */
static int steps_share_active(struct report *rep, const struct an_run *run, double wall, enum an_wall_from from,
			      double iters, double med, const char *what)
{
	uint64_t gaps = 0;
	double idle = from == AW_STAMPS ? an_run_idle(run, &gaps) : 0, active = wall - idle;
	double in = iters * med, pct = 100 * in / active;
	if (!gaps || !(active > 0) || !(pct >= 60 && pct <= 110))
		return 0;
	report_finding(rep, SEV_NOTICE, "bottlenecks", "steps", run->label, run->file, 0, steps_advice,
		       "the steps are %.0f%% of the time the run was active (%.4g s, the wall less %.4g s idle in "
		       "%llu gap%s): %.0f steps x %.4g s (the median of %s) = %.4g s",
		       pct > 100 ? 100 : pct, active, idle, (unsigned long long)gaps, gaps == 1 ? "" : "s", iters,
		       med, what, in > active ? active : in);
	report_stake(rep, 0.05 * (in > active ? active : in));
	return 1;
}

/*
 * A step timer that misses part of each iteration: the stamps of the lines
 * that print it say an iteration takes longer than the timer (pygcn's
 * "time: 0.1659s", started after the batch left the loader: 0.16 s of the
 * 0.33 s the stamps give, over the iterations between two prints). Where
 * the timed part is less than 80 % of it (their means: shares of the
 * time), the finding is about the larger part, the steps or the time
 * outside the timer (data loading, logging, host work), of the active time
 * iters iterations took. 1 if given.
 */
static int untimed_share(struct report *rep, const struct an_run *run, double wall, enum an_wall_from from,
			 double iters, const struct tp_series *printed, double scale, const char *what)
{
	const struct an_part *st = an_part_find(run, AN_STAMP_STEP);
	double stamped = st && st->s.n >= 3 ? st->s.mean : NAN, med = printed->mean * scale;
	/* more printed steps than the indices count: they count something
	 * else (DeepSpeed-Chat's two prints a step) */
	if (from != AW_STAMPS || !strcmp(what, AN_STAMP_STEP) || !(stamped > 0) || !(med > 0) ||
	    !(med < 0.8 * stamped) || stamped > 20 * med || (double)printed->n > 1.1 * iters)
		return 0;
	uint64_t gaps = 0;
	double active = wall - an_run_idle(run, &gaps), loop = iters * stamped, timed = 100 * med / stamped;
	if (!(active > 0) || !(loop >= 0.5 * active && loop <= 1.1 * active))
		return 0;
	if (loop > active)
		loop = active;
	int outside = timed < 50;
	report_finding(rep, SEV_NOTICE, "bottlenecks", outside ? "data-loading" : "steps", run->label, run->file,
		       st->line,
		       outside ? "the time outside the step's timer is most of each iteration: load the next batch "
				 "while this one runs (DataLoader num_workers, pin_memory, prefetching) and log less "
				 "often"
			       : "the step and the time around it: profile one step (torch.profiler, Nsight "
				 "Systems); load the next batch while one runs (DataLoader num_workers, "
				 "pin_memory, prefetching) and log less often",
		       "the step's timer sees %.0f%% of each iteration: the time stamps put one at %.4g s (mean), "
		       "%s at %.4g s; %.0f iterations are %.0f%% of the time the run was active (%.4g s), %.0f%% "
		       "of it outside the timer (data loading, logging, host work)",
		       timed, stamped, what, med, iters, 100 * loop / active, active, 100 - timed);
	report_stake(rep, outside ? 0.5 * (1 - timed / 100) * loop : 0.05 * timed / 100 * loop);
	return 1;
}

/*
 * Steps that are a quarter of the wall or more, where nothing names what
 * else the run did (no training phase, no overhead the log times): the
 * largest part the log accounts for, and the rest said to be untimed
 * (a GRPO loop's 1,000 steps of 0.9 s in a 2,217 s run, its start-up and
 * generation servers printing no times). Its stake is that of a step 5 %
 * faster, so that any overhead found ranks above it.
 */
static void steps_largest(struct report *rep, const struct an_run *run, double wall, double iters, double med,
			  const char *what, double pct)
{
	if (!(pct >= 25 && pct < 60))
		return;
	double in = iters * med;
	report_finding(rep, SEV_NOTICE, "bottlenecks", "steps", run->label, run->file, 0, steps_advice,
		       "the steps are the largest part of the run the log times: %.0f steps x %.4g s (the median "
		       "of %s) = %.4g s, %.0f%% of the wall (%.4g s); the log gives no time to the other %.4g s "
		       "(start-up, work between the steps, shutdown)",
		       iters, med, what, in, pct, wall, wall - in);
	report_stake(rep, 0.05 * in);
}

/*
 * When the steps fill the run: the iterations the batch indices count
 * times the median step, as a share of a wall the steps did not make up
 * (time stamps, a clock, phases, a printed total). Where nothing outside
 * the steps is worth a fix, that is the answer: the step itself is the
 * lever. Its stake is what a step 5 % faster would save, so that any
 * overhead worth more ranks above it.
 */
static void steps_share(struct report *rep, const struct an_run *run, double wall, enum an_wall_from from)
{
	if (from == AW_GPM)
		return;
	/* no wall, or one that is the steps added up: the steps are all the
	 * log shows of the run */
	int alone = steps_alone(from);
	const char *what;
	double scale, iters;
	const struct tp_series *st = an_steps_ran(run, &iters, &what, &scale);
	double med = st ? tp_series_quantile(st, 0.5) * scale : NAN, in = iters * med, pct = 100 * in / wall;
	if (!alone && st && in > 0 && untimed_share(rep, run, wall, from, iters, st, scale, what))
		return;
	if (!alone && st && in > 0 && !(pct >= 60) && steps_share_active(rep, run, wall, from, iters, med, what))
		return;
	if (!(alone || wall > 0) || !st || !(in > 0) || (!alone && !(pct >= 60))) {
		size_t had = rep->nfindings;
		training_share(rep, run, wall, from);
		if (rep->nfindings == had && st && in > 0 && !alone)
			steps_largest(rep, run, wall, iters, med, what, pct);
		return;
	}
	if (alone) {
		report_finding(rep, SEV_NOTICE, "bottlenecks", "steps", run->label, run->file, 0, steps_advice,
			       "the log shows the run only in its steps (no time stamps or total): %.0f steps x "
			       "%.4g s (the median of %s) = %.*f s",
			       iters, med, what, in >= 100 ? 0 : 2, in);
		report_stake(rep, 0.05 * in);
		return;
	}
	if (!(pct <= 110))
		return;
	report_finding(rep, SEV_NOTICE, "bottlenecks", "steps", run->label, run->file, 0, steps_advice,
		       "the steps are %.0f%% of the wall: %.0f steps x %.4g s (the median of %s) = %.4g s of %.4g s",
		       pct > 100 ? 100 : pct, iters, med, what, in > wall ? wall : in, wall);
	report_stake(rep, 0.05 * (in > wall ? wall : in));
}

/* The time a share of the step is taken of, for its stake: the wall; where
 * the log has none, or only the printed steps added up (every 50th, say),
 * the steps that ran times their mean, when that is more. */
static double steps_time(const struct an_run *run, double wall, enum an_wall_from from)
{
	const char *what;
	double scale, iters;
	const struct tp_series *st = an_steps_ran(run, &iters, &what, &scale);
	double in = st ? iters * st->mean * scale : NAN;
	if (!(in > 0))
		return wall;
	if (steps_alone(from))
		return !(in <= wall) ? in : wall;
	/* a share of each step is one of the time in steps, not of what ran
	 * around them (start-up, evaluations), where the log counts the
	 * iterations that ran, or its values count the steps they stand for
	 * (a profiler's mean over its calls) */
	int counted = an_run_iters(run) >= 10 || an_series_steps(run, what, st) > (double)st->n;
	return counted && in < wall ? in : wall;
}

void an_step_parts(const struct an_model *m, const struct an_opts *o, struct report *rep, int bottlenecks)
{
	for (size_t r = 0; r < m->nruns; r++) {
		const struct an_run *run = m->runs[r];
		double stages;
		enum an_wall_from from;
		double wall = an_run_wall(run, &stages, &from);
		step_parts(rep, o, run, bottlenecks, steps_time(run, wall, from));
		if (bottlenecks) {
			uint64_t gaps = 0;
			double idle = from == AW_STAMPS ? an_run_idle(run, &gaps) : 0;
			size_t had = rep->nfindings;
			around_steps(rep, o, run, wall, phase_overheads(rep, o, run, wall, idle, gaps));
			if (!throughput_drift(rep, o, run, wall))
				step_drift(rep, o, run, wall); /* the same slowdown, seen in the step */
			steps_share(rep, run, wall, from);
			epoch_starts(rep, run, wall);
			periodic_steps(rep, run, wall, from, had);
		}
	}
}
