/*
 * answer.c - the answer first: the summary section that leads every
 * report. Per run: wall time, time in stages and unaccounted, the steady
 * step time (median and half the IQR after warmup), throughput and what
 * the warmup cost; the findings ranked by time at stake (seconds a fix
 * could save over the run), after grouping the repeats of one fact over
 * ranks and setting severities by that time; and, for several runs, a
 * headline in the manner of hyperfine: which run is faster, by how much,
 * with the uncertainty and the p-value of a rank test.
 *
 * It runs last, over the findings the other analyses made.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses_int.h"
#include "progress.h"

#define TOP_FINDINGS 5

/* Decimals that show v with `sig` significant digits (0 to 6). */
static int sig_prec(double v, int sig)
{
	if (!isfinite(v) || v == 0)
		return 0;
	int p = sig - 1 - (int)floor(log10(fabs(v)));
	return p < 0 ? 0 : p > 6 ? 6 : p;
}

/* The buffer's text, handed over (sb is left empty). */
static char *take(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");
	memset(sb, 0, sizeof(*sb));
	return s;
}

static void num_sig(struct rtable *t, double v)
{
	rt_num(t, v, sig_prec(v, 4));
}

/* The run's step values of the tiers from `from` to `to` of the order
 * below, the largest mean first within a tier: a step printed as such,
 * else one added up from its parts, else a window mean printed, else a
 * mean since the start, else a window mean worked out here from the time
 * stamps or a clock of lines that count steps (weaker: such a line may
 * count evaluation chunks). */
static const struct an_part *step_part(const struct an_run *run, size_t from, size_t to, const char **what)
{
	static const struct {
		enum tp_role role;
		int derived; /* -1: either */
	} tiers[] = { { TP_ROLE_STEP, 0 }, { TP_ROLE_STEP, 1 }, { TP_ROLE_RUNNING, 0 }, { TP_ROLE_AVERAGE, -1 },
		      { TP_ROLE_RUNNING, 1 } };
	/* an evaluation's steps ("Eval batch_cost") only where training
	 * prints none */
	for (size_t t = 0; t < 2 * (to - from + 1); t++) {
		size_t k = from + t / 2;
		int eval = t % 2;
		if (k >= ARRAY_SIZE(tiers))
			break;
		const struct an_part *best = NULL;
		for (size_t i = 0; i < run->parts.n; i++) {
			const struct an_part *x = tp_map_at(&run->parts, i);
			if (x->role != tiers[k].role || !x->s.n || (tiers[k].derived >= 0 && x->derived != tiers[k].derived))
				continue;
			int is_eval = !strcmp(an_phase_kind(tp_map_key(&run->parts, i)), "evaluation");
			if (is_eval != eval)
				continue;
			/* a mean of a component is no step; a step may sit in a
			 * phase (Lightning's run_training_batch in its epochs) */
			if (x->parent[0] && strcmp(x->parent, "step")) {
				const struct an_part *of = an_part_find(run, x->parent);
				if (of ? of->role != TP_ROLE_STEP
				       : x->role != TP_ROLE_STEP || !tp_map_find(&run->stages, x->parent, strlen(x->parent)))
					continue;
			}
			if (!best || x->s.sum / (double)x->s.n > best->s.sum / (double)best->s.n) {
				best = x;
				*what = tp_map_key(&run->parts, i);
			}
		}
		if (best)
			return best;
	}
	return NULL;
}

/* The batches (or, with epochs, the epochs) of the slowest rank by median:
 * in lockstep training every rank waits for it; NULL if no rank has two. */
static const struct tp_series *slowest_rank(const struct an_run *run, int epochs, const char **what)
{
	const struct tp_series *best = NULL;
	double best_med = -1, a, b0;
	for (size_t i = 0; i < run->ranks.n; i++) {
		const struct an_batches *b = tp_map_at(&run->ranks, i);
		const struct tp_series *s = epochs ? &b->epochs : &b->seconds;
		double med = s->n >= 2 ? tp_series_quantile(s, 0.5) : NAN;
		if (isnan(med) || med <= best_med)
			continue;
		best = s, best_med = med, *what = epochs ? "epoch time" : "batch time";
		/* each epoch's slow first step is no step time (finding epoch-start) */
		if (!epochs && an_epoch_starts_slow(b, &a, &b0))
			best = &b->inner, *what = "batch time (epochs' first steps apart)";
	}
	return best;
}

/* A metric of two values or more: one named like a step or a total, or any. */
static const struct tp_series *step_metric(const struct an_run *run, int any, const char **what)
{
	for (size_t i = 0; i < run->metrics.n; i++) {
		const struct an_named_series *s = tp_map_at(&run->metrics, i);
		const char *name = tp_map_key(&run->metrics, i);
		if (s->s.n >= 2 && (any || strstr(name, "step") || strstr(name, "total"))) {
			*what = name;
			return &s->s;
		}
	}
	return NULL;
}

/*
 * The step the time stamps give where the step p is the time of a window
 * of many steps, not of one: twenty times or more that step, over the
 * steps between its lines (Marian's "Up. 1000 : ... Time 483.07s", the 500
 * updates since the last display); else NULL.
 */
static const struct an_part *window_total(const struct an_run *run, const struct an_part *p)
{
	const struct an_part *st = an_part_find(run, AN_STAMP_STEP);
	/* stamps of whole seconds a step apart may give a median of 0: no window */
	double stamped = st && st->s.n >= 3 ? tp_series_quantile(&st->s, 0.5) : NAN;
	if (p->derived || !(stamped > 0) || p->s.n < 3 || !(tp_series_quantile(&p->s, 0.5) >= 20 * stamped))
		return NULL;
	return st;
}

/*
 * Steps per value where the step p is the time of a window of the steps
 * its batch indices count, no stamps on its lines to say so (DeePMD's
 * "batch 100 ... total wall time 0.69 s", the 100 batches since the last
 * print): its values add up to the stamps' span (half to 110 % of it),
 * and the steps that ran at its median would take three times that span
 * or more, which no step can. The steps a value stands for, else 1.
 */
static double index_window(const struct an_run *run, const struct an_part *p)
{
	double span = run->first_ts != INT64_MIN && run->max_ts > run->first_ts ? (double)(run->max_ts - run->first_ts)
										 : NAN;
	double iters = an_run_iters(run), per = iters / (double)p->s.n;
	if (p->derived || p->s.n < 10 || !(span > 0) || !(per >= 2) || p->steps > (double)p->s.n)
		return 1;
	if (!(p->s.sum >= 0.5 * span && p->s.sum <= 1.1 * span) ||
	    !(iters * tp_series_quantile(&p->s, 0.5) >= 3 * span))
		return 1;
	return per;
}

/* The series that says how long a step takes: batches (the slowest rank: in
 * lockstep training every rank waits for it), else a step's values (a step
 * printed as such, a window mean), a progress bar's redraws (each window's
 * seconds per step), a mean since the start, epochs, GPM windows, a step
 * metric, a window mean worked out from stamps or a clock, any metric;
 * *scale turns its unit into seconds. */
const struct tp_series *an_step_series(const struct an_run *run, const char **what, double *scale)
{
	const struct tp_series *best;
	*scale = 1;
	if ((best = slowest_rank(run, 0, what)))
		return best;
	const struct an_part *p = step_part(run, 0, 2, what), *w;
	if (p && (w = window_total(run, p))) {
		*what = AN_STAMP_STEP;
		return &w->s;
	}
	if (p) {
		*scale = 1 / index_window(run, p);
		return &p->s;
	}
	/* a mean over the run (evaluations in it) says less than the redraws */
	if ((best = an_progress_steps(run->progress, what)))
		return best;
	if ((p = step_part(run, 3, 3, what))) {
		/* a mean over the whole run printed once or twice (Hugging Face's
		 * train_steps_per_second, evaluations in it) says less than ten
		 * windows between a clock's or the stamps' readings */
		const char *w_what;
		const struct an_part *win = p->s.n < 3 ? step_part(run, 4, 4, &w_what) : NULL;
		if (win && win->s.n >= 10) {
			*what = w_what;
			return &win->s;
		}
		return &p->s;
	}
	if ((best = slowest_rank(run, 1, what)))
		return best;
	if (run->gpm_total_ms.n >= 2) {
		*what = "GPM window", *scale = 0.001;
		return &run->gpm_total_ms;
	}
	if ((best = step_metric(run, 0, what)))
		return best;
	if ((p = step_part(run, 4, 4, what)))
		return &p->s;
	if ((best = step_metric(run, 1, what)))
		return best;
	return an_span_steps(run, what);
}

const struct tp_series *an_span_steps(const struct an_run *run, const char **what)
{
	/* a training phase's spans first ("epoch time"); a phase no name
	 * places ("Timer: 0.6680" on a line of its own, hundreds of times)
	 * only where there is none, and only printed often enough to be a
	 * loop's (ten times) */
	const struct tp_series *best = NULL;
	int best_training = 0;
	for (size_t i = 0; i < run->spans.n; i++) {
		const struct an_named_series *s = tp_map_at(&run->spans, i);
		const char *key = tp_map_key(&run->spans, i);
		const struct an_stage *st = tp_map_find(&run->stages, key, strlen(key));
		int training = !st || st->training;
		/* a clock's values are no spans: the time between its prints is */
		if (st && an_stage_is_clock(st) && !(s = tp_map_find(&run->rises, key, strlen(key))))
			continue;
		if (s->s.n < (training ? 3u : 10u) || (best && best_training > training) ||
		    (best && best_training == training && s->s.n <= best->n))
			continue;
		best = &s->s;
		best_training = training;
		*what = key;
	}
	return best;
}

/* Whether st is a run's epochs or GPM windows: no step of a training loop. */
static int coarse_series(const struct an_run *run, const struct tp_series *st)
{
	for (size_t i = 0; i < run->ranks.n; i++)
		if (st == &((const struct an_batches *)tp_map_at(&run->ranks, i))->epochs)
			return 1;
	const char *what;
	return st == &run->gpm_total_ms || st == an_span_steps(run, &what);
}

double an_series_steps(const struct an_run *run, const char *what, const struct tp_series *s)
{
	const struct an_part *p = an_part_find(run, what);
	if (!p || &p->s != s)
		return (double)s->n;
	double per = index_window(run, p);
	return p->steps > (double)s->n ? p->steps : per > 1 ? per * (double)s->n : (double)s->n;
}

const struct tp_series *an_steps_ran(const struct an_run *run, double *iters, const char **what, double *scale)
{
	const struct tp_series *st = an_step_series(run, what, scale);
	/* fewer than three values stand for the steps where each is a window
	 * of many (a profiler's mean over its calls) */
	if (!st || (st->n < 3 && !(an_series_steps(run, *what, st) >= 10)) || coarse_series(run, st))
		return NULL;
	const char *bar;
	*iters = an_run_iters(run);
	/* else its values, each a window's count of steps where it was one
	 * (EDSR's model and data seconds over 100 batches a print) */
	if (!(*iters >= 10))
		*iters = st == an_progress_steps(run->progress, &bar) ? an_progress_step_count(run->progress)
								       : an_series_steps(run, *what, st);
	/* a handful of steps that each take minutes (a diffusion model's
	 * GRPO, ten steps of 690 s) are a run's time as much as thousands */
	if (*iters >= 5 && *iters < 10 && (double)st->n >= *iters && tp_series_quantile(st, 0.5) * *scale >= 60)
		return st;
	return *iters >= 10 ? st : NULL;
}

const char *an_wall_from_name(enum an_wall_from from)
{
	static const char *const names[] = {
		[AW_NONE] = NULL,		   [AW_PHASES] = "phases", [AW_CLOCK] = "clock",
		[AW_TABLE_TOTAL] = "table TOTAL", [AW_BATCHES] = "batches", [AW_EPOCHS] = "epochs",
		[AW_GPM] = "GPM windows",	   [AW_RUN_TIME] = "run time printed", [AW_STAMPS] = "timestamps",
		[AW_STEPS] = "steps that ran", [AW_BARS] = "progress bars",
	};
	return (unsigned)from < ARRAY_SIZE(names) ? names[from] : NULL;
}

/* A candidate for the wall time: the longest wins, and says where it came from. */
static void wall_candidate(double *wall, enum an_wall_from *from, double v, enum an_wall_from what)
{
	if (isfinite(v) && v > 0 && (isnan(*wall) || v > *wall)) {
		*wall = v;
		*from = what;
	}
}

/* Whether a phase at the top level is the training (a run's time printed
 * as such: Hugging Face's train_runtime). */
static int training_phase(const struct an_run *run)
{
	for (size_t i = 0; i < run->stages.n; i++)
		if (an_stage_in(run, tp_map_at(&run->stages, i), NULL) &&
		    !strcmp(an_phase_kind(tp_map_key(&run->stages, i)), "training"))
			return 1;
	return 0;
}

/*
 * The run's wall time: the span of its time stamps where the log has them,
 * else the longest of what it shows of the run, each a lower bound: the
 * last reading of a clock, its phases at the top level (nested ones are
 * inside them, cumulative readings are no spans), a printed TOTAL, its
 * batches or epochs. A log whose lines carry time stamps only in part
 * shows more time than they span: then the longest wins too. *from says
 * which gave it.
 */
double an_run_wall(const struct an_run *run, double *in_stages, enum an_wall_from *from)
{
	double wall = NAN, stages = 0;
	size_t top = 0;
	*from = AW_NONE;
	for (size_t i = 0; i < run->stages.n; i++) {
		const struct an_stage *s = tp_map_at(&run->stages, i);
		if (an_stage_in(run, s, NULL) && an_stage_is_span(run, s))
			stages += s->seconds, top++;
	}
	*in_stages = top ? stages : NAN;
	if (top)
		wall_candidate(&wall, from, stages, AW_PHASES);
	double span = run->first_ts != INT64_MIN && run->max_ts > run->first_ts
			      ? (double)(run->max_ts - run->first_ts) : NAN;
	for (size_t i = 0; i < run->parts.n; i++) {
		const struct an_part *x = tp_map_at(&run->parts, i);
		if (x->role != TP_ROLE_CLOCK)
			continue;
		/* its last reading, or all it covered where it started again */
		const char *name = tp_map_key(&run->parts, i);
		const struct an_named_series *d = tp_map_find(&run->spans, name, strlen(name));
		wall_candidate(&wall, from, d && d->sum_aux > x->s.max ? d->sum_aux : x->s.max, AW_CLOCK);
	}
	for (size_t i = 0; i < run->stages.n; i++) {
		const struct an_stage *s = tp_map_at(&run->stages, i);
		if (an_stage_is_clock(s))
			wall_candidate(&wall, from, an_stage_clock_span(s), AW_CLOCK);
	}
	for (size_t i = 0; i < run->tables.n; i++) {
		const struct an_table *t = tp_map_at(&run->tables, i);
		for (size_t k = 0; k < t->rows.n; k++) {
			const struct an_row *row = tp_map_at(&t->rows, k);
			if (!strcmp(tp_map_key(&t->rows, k), "TOTAL") && an_row_has(row, AN_ROW_SECONDS))
				wall_candidate(&wall, from, row->seconds, AW_TABLE_TOTAL);
		}
	}
	for (size_t i = 0; i < run->ranks.n; i++) {
		const struct an_batches *b = tp_map_at(&run->ranks, i);
		wall_candidate(&wall, from, b->seconds.sum, AW_BATCHES);
		wall_candidate(&wall, from, b->epochs.sum, AW_EPOCHS);
	}
	wall_candidate(&wall, from, run->gpm_total_sum / 1000, AW_GPM);

	for (size_t i = 0; i < run->metrics.n; i++) {
		const struct an_named_series *s = tp_map_at(&run->metrics, i);
		wall_candidate(&wall, from, s->last_total, AW_RUN_TIME);
	}
	/* the steps that ran at the median step: a lower bound as well, where
	 * no clock, total or training phase printed says more (a timer per
	 * iteration and no stamps, stamps at start-up only); a training phase
	 * the steps outlast five times over holds no training (EDSR's "Total:
	 * 5.80s", its evaluation's, after 100 steps' 61 s) */
	const char *what;
	double scale, iters;
	const struct tp_series *st;
	if ((*from == AW_NONE || *from == AW_PHASES || *from == AW_BATCHES || *from == AW_EPOCHS) &&
	    (st = an_steps_ran(run, &iters, &what, &scale))) {
		double in = iters * tp_series_quantile(st, 0.5) * scale;
		if (*from != AW_PHASES || !training_phase(run) || in > 5 * wall)
			wall_candidate(&wall, from, in, AW_STEPS);
	}
	/* where only steps say it, a bar drawn once over the run: its clock
	 * holds all its loop ran (the epoch bar over the training and
	 * evaluation bars each epoch draws again) */
	if (*from == AW_NONE || *from == AW_BATCHES || *from == AW_EPOCHS || *from == AW_STEPS)
		wall_candidate(&wall, from, an_progress_clock(run->progress), AW_BARS);
	/* stamps from the log's first lines to its last span the whole run:
	 * what adds up to more (window times summed as phases) is no span */
	uint64_t lines = run->last_line > run->first_line ? run->last_line - run->first_line : 0;
	int covers = run->ts_lines[0] && run->ts_lines[0] <= run->first_line + lines / 20 &&
		     run->ts_lines[1] + lines / 20 >= run->last_line;
	if (span > 0 && (covers || !(wall > span * 1.1))) {
		wall = span;
		*from = AW_STAMPS;
	}
	return wall;
}

static void runs_table(const struct an_model *m, struct report *rep, double *walls)
{
	struct rtable *t = NULL;
	for (size_t r = 0; r < m->nruns; r++) {
		const struct an_run *run = m->runs[r];
		double stages, scale = 1;
		const char *what = NULL;
		enum an_wall_from from;
		walls[r] = an_run_wall(run, &stages, &from);
		const struct tp_series *s = an_step_series(run, &what, &scale);
		struct an_steady st;
		if (s)
			an_steady_state(s, &st);
		/* every run has a row: the JSON's runs block lists them all */
		if (!t)
			t = an_table(rep, AT_SUMMARY_RUNS, NULL);
		rt_key(t, an_key(AK_NONE, NULL, run->index, 0));
		rt_text(t, run->label);
		num_sig(t, walls[r]);
		rt_text(t, an_wall_from_name(from));
		num_sig(t, stages);
		num_sig(t, !isnan(stages) && walls[r] > stages ? walls[r] - stages : NAN);
		rt_text(t, what);
		num_sig(t, s ? scale * st.median : NAN);
		num_sig(t, s ? scale * st.spread : NAN);
		rt_num(t, s ? an_series_steps(run, what, s) : NAN, 0);
		/* a phase's spans (an epoch's time) stand for the steps where
		 * the log prints nothing finer: no step rate of theirs */
		int span = s && s == an_span_steps(run, &(const char *){ NULL });
		rt_text(t, s ? (span ? "span" : "iteration") : NULL);
		num_sig(t, s && !span && st.median > 0 ? 1 / (scale * st.median) : NAN);
		num_sig(t, s ? scale * st.warmup_cost : NAN);
		uint64_t records = 0;
		for (int k = 0; k < TP_NTYPES; k++)
			records += run->nrec[k];
		rt_text(t, run->file);
		rt_num(t, (double)records, 0);
		rt_num(t, (double)run->warnings, 0);
	}
}

/* "0-3" for consecutive ranks, else "0, 2, 5" (ranks sorted). */
static void rank_list(struct strbuf *sb, const int *rk, size_t n)
{
	int run = 1;
	for (size_t i = 1; i < n; i++)
		run &= rk[i] == rk[i - 1] + 1;
	if (run && n > 2) {
		strbuf_addf(sb, "%d-%d", rk[0], rk[n - 1]);
		return;
	}
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s%d", i ? ", " : "", rk[i]);
}

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static int same_fact(const struct finding *a, const struct finding *b)
{
	return !b->merged && b->key.rank >= 0 && !strcmp(a->kind, b->kind) && a->key.series == b->key.series &&
	       a->key.run == b->key.run && a->key.group == b->key.group;
}

/* One finding for one fact seen on several ranks: the one with the most at
 * stake speaks for them (ranks wait for each other: the largest, not the sum). */
static void group_ranks(struct report *rep)
{
	int *rk = xcalloc(rep->nfindings + 1, sizeof(*rk));
	for (size_t i = 0; i < rep->nfindings; i++) {
		struct finding *f = &rep->findings[i];
		if (f->merged || f->key.rank < 0 || f->key.series == AK_NONE)
			continue;
		size_t n = 0, best = i;
		for (size_t j = i; j < rep->nfindings; j++) {
			struct finding *g = &rep->findings[j];
			if (j != i && !same_fact(f, g))
				continue;
			rk[n++] = g->key.rank;
			if (g->at_stake > rep->findings[best].at_stake)
				best = j;
		}
		if (n < 2)
			continue;
		qsort(rk, n, sizeof(*rk), cmp_int);
		struct finding *b = &rep->findings[best];
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "ranks ");
		rank_list(&sb, rk, n);
		strbuf_addf(&sb, " alike (the worst shown): %s", b->message);
		for (size_t j = i; j < rep->nfindings; j++) {
			struct finding *g = &rep->findings[j];
			if (g != b && (j == i || same_fact(f, g))) {
				b->sev = g->sev > b->sev ? g->sev : b->sev;
				g->merged = 1;
			}
		}
		free(b->message);
		b->message = take(&sb);
		b->key.rank = -1;
	}
	free(rk);
}

/*
 * Severity by the share of the run's wall time at stake, not by a share of
 * some table: a stage that is 60 % of a table that is 1 % of the run is no
 * emergency. A finding about no time (a clock, a leak) keeps its own.
 */
static void stake_severity(const struct an_model *m, struct report *rep, const double *walls)
{
	static const char *const kinds[] = { "first-batch", "warmup", "high-variance", "outlier", "drift",
					     "straggler", "bottleneck", "optimize", "data-loading", "gpm",
					     "step-part", "evaluation", "checkpoint", "startup", "after-steps", "slowdown",
					     "steps", "epoch-start" };
	for (size_t i = 0; i < rep->nfindings; i++) {
		struct finding *f = &rep->findings[i];
		size_t k = 0;
		while (k < ARRAY_SIZE(kinds) && strcmp(kinds[k], f->kind))
			k++;
		int r = f->key.run;
		for (size_t q = 0; r < 0 && f->run && q < m->nruns; q++)
			if (!strcmp(m->runs[q]->label, f->run))
				r = (int)q;
		if (k == ARRAY_SIZE(kinds) || r < 0 || !isfinite(f->at_stake) || !(walls[r] > 0))
			continue;
		double frac = f->at_stake / walls[r];
		f->sev = frac >= 0.2 ? SEV_CRITICAL : frac >= 0.05 ? SEV_WARNING : frac >= 0.01 ? SEV_NOTICE : SEV_INFO;
	}
}

static int by_stake(const void *a, const void *b, void *ctx)
{
	const struct finding *v = ctx;
	const struct finding *x = &v[*(const size_t *)a], *y = &v[*(const size_t *)b];
	double sx = isfinite(x->at_stake) ? x->at_stake : -1, sy = isfinite(y->at_stake) ? y->at_stake : -1;
	if (sx != sy)
		return sx < sy ? 1 : -1;
	if (x->sev != y->sev)
		return x->sev < y->sev ? 1 : -1;
	if (!x->advice != !y->advice) /* what to do beats a fact alone */
		return x->advice ? -1 : 1;
	return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

static void top_table(struct report *rep)
{
	size_t *idx = xcalloc(rep->nfindings + 1, sizeof(*idx)), n = 0;
	for (size_t i = 0; i < rep->nfindings; i++) {
		const struct finding *f = &rep->findings[i];
		/* time at stake, or a warning or worse that is about no time (a clock, a leak) */
		if (!f->merged && ((isfinite(f->at_stake) && f->at_stake > 0) || f->sev >= SEV_WARNING))
			idx[n++] = i;
	}
	/* nothing about time: the most severe of the rest still lead */
	for (size_t i = 0; i < rep->nfindings && n < 3; i++) {
		const struct finding *f = &rep->findings[i];
		if (!f->merged && !(isfinite(f->at_stake) && f->at_stake > 0) && f->sev < SEV_WARNING &&
		    f->sev >= SEV_NOTICE)
			idx[n++] = i;
	}
	qsort_r(idx, n, sizeof(*idx), by_stake, rep->findings);
	struct rtable *t = n ? an_table(rep, AT_SUMMARY_TOP, NULL) : NULL;
	struct strbuf where = STRBUF_INIT;
	for (size_t k = 0; k < n && k < TOP_FINDINGS; k++) {
		const struct finding *f = &rep->findings[idx[k]];
		strbuf_reset(&where);
		if (f->file && f->line)
			strbuf_addf(&where, "%s:%llu", f->file, (unsigned long long)f->line);
		rt_num(t, (double)(k + 1), 0);
		rt_text(t, f->run);
		num_sig(t, isfinite(f->at_stake) ? f->at_stake : NAN);
		rt_text(t, severity_name(f->sev));
		rt_text(t, f->kind);
		rt_text(t, f->message);
		rt_text(t, f->advice);
		rt_text(t, where.len ? where.buf : NULL);
	}
	strbuf_release(&where);
	free(idx);
}

/* "b is 1.30 ± 0.02x slower than a (batch time, p = 3e-12)". */
static void headline_one(struct strbuf *sb, const struct an_run *a, const struct an_run *b, double alpha)
{
	const char *wa = NULL, *wb = NULL;
	double sa, sbs;
	const struct tp_series *x = an_step_series(a, &wa, &sa), *y = an_step_series(b, &wb, &sbs);
	if (sb->len)
		strbuf_addch(sb, '\n');
	if (!x || !y || strcmp(wa, wb)) {
		strbuf_addf(sb, "%s and %s share no step series for a headline (see the run comparison)", b->label,
			    a->label);
		return;
	}
	struct an_steady p, q;
	an_steady_state(x, &p);
	an_steady_state(y, &q);
	double pv = tp_mann_whitney(&x->sketch, &y->sketch, NULL);
	double ratio = q.mean / p.mean;
	double rel = sqrt(p.sd * p.sd / ((double)p.n * p.mean * p.mean) + q.sd * q.sd / ((double)q.n * q.mean * q.mean));
	if (!isnan(pv) && pv < alpha && ratio != 1) {
		double f = ratio > 1 ? ratio : 1 / ratio;
		strbuf_addf(sb, "%s is %.3g \xc2\xb1 %.2g\xc3\x97 %s than %s (%s, steady mean %.4g s vs %.4g s, p = %.2g)",
			    b->label, f, f * rel, ratio > 1 ? "slower" : "faster", a->label, wa, sbs * q.mean, sa * p.mean,
			    pv);
	} else {
		strbuf_addf(sb, "%s and %s: no significant difference in %s (ratio %.3g \xc2\xb1 %.2g, p = %.2g)", b->label,
			    a->label, wa, ratio, ratio * rel, pv);
	}
}

/* A run the analyses found nothing in says what it read, and why that is not enough. */
static void nothing_found(const struct an_model *m, struct report *rep)
{
	if (!m->records) /* the input's nothing-read says it, and what the time stamps gave */
		return;
	for (size_t r = 0; r < m->nruns; r++) {
		const struct an_run *run = m->runs[r];
		int said = 0;
		for (size_t i = 0; i < rep->nfindings && !said; i++)
			said = rep->findings[i].run && !strcmp(rep->findings[i].run, run->label);
		if (said || run->stages.n || run->parts.n || run->ranks.n || run->tables.n || run->gpm_total_ms.n || run->metrics.n ||
		    run->scaling.n || run->perfs.n || run->runtimes.n || an_progress_steps(run->progress, &(const char *){ NULL }))
			continue;
		struct strbuf sb = STRBUF_INIT;
		uint64_t total = 0;
		for (int t = 0; t < TP_NTYPES; t++)
			total += run->nrec[t];
		for (int t = 0; t < TP_NTYPES; t++)
			if (run->nrec[t])
				strbuf_addf(&sb, "%s%s %llu", sb.len ? ", " : "", tp_schemas[t].type_name,
					    (unsigned long long)run->nrec[t]);
		report_finding(rep, SEV_NOTICE, "summary", "nothing", run->label, run->file, 0,
			       "tprof reads the step, phase and table lines of the frameworks and styles that "
			       "tprof-parse(1) lists (FORMATS READ OUT OF THE BOX); for a log of its own format, "
			       "describe its lines in a rules file (--rules FILE, tprof-parse(1) RULES FILES)",
			       "%llu records read (%s): no stage, batch, epoch, table or series to analyze",
			       (unsigned long long)total, sb.len ? sb.buf : "none");
		strbuf_release(&sb);
	}
}

void an_summary(const struct an_model *m, const struct an_opts *o, struct report *rep)
{
	double *walls = xcalloc(m->nruns + 1, sizeof(*walls));
	an_section(rep, AS_SUMMARY);
	nothing_found(m, rep);
	runs_table(m, rep, walls);
	group_ranks(rep);
	stake_severity(m, rep, walls);
	top_table(rep);
	if (m->nruns >= 2) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t r = 1; r < m->nruns; r++)
			headline_one(&sb, m->runs[0], m->runs[r], o->alpha);
		free(rep->headline);
		rep->headline = take(&sb);
	}
	free(walls);
}
