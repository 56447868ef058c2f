/*
 * progress.c - what the redraws of progress bars say (progress records,
 * one per redraw, parse/discover/progress.c): per bar, the time per step, its
 * stalls, and how far its ETA was off.
 *
 * A bar is one description (its digits masked: tqdm descriptions often
 * carry the epoch's metrics), rank and total (a training bar and the
 * evaluation bars drawn within it often have no description); it runs
 * again when its count or clock goes back (an epoch's bar, the next
 * evaluation). Its steps come
 * from consecutive redraws (a bar counts from its start, so its first
 * redraw is one since (0, 0)): the elapsed time and count since the redraw
 * that started the window, once the clock moved by WINDOW_S or more (a bar
 * prints whole seconds, so a shorter window would mostly measure the
 * rounding) or the bar reached its total. A window whose time per step is
 * far above the bar's median (STALL_RATIO times, and STALL_S seconds
 * beyond it) is a stall. The ETA: each redraw's elapsed + remaining
 * predicts the end, compared with the end the bar reached, as a mean and
 * a root mean square kept as sums, so that nothing grows with the input.
 *
 * Memory: a fixed summary per bar (the step times in a tp_series sketch,
 * the MAX_GAPS slowest windows), at most MAX_BARS bars a run, never the
 * redraws.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses_int.h"
#include "progress.h"

#define WINDOW_S 10.0
#define STALL_RATIO 5.0
#define STALL_S 10.0
#define MAX_GAPS 16
#define ETA_OFF_PCT 25.0 /* a finding when the ETA was off by more */
#define MAX_BARS 256     /* per run; a bar past them is counted only */
#define MIN_WINDOWS 3    /* a bar's steps that can stand for the run's */

struct gap {
	double dt, dn; /* a window's seconds and steps */
	uint64_t line;
};

struct an_bar {
	char name[96]; /* the first description, as printed */
	int rank;
	double total;  /* NAN: none */
	uint64_t first_line, redraws, instances, completed;
	/* the run of the bar being read */
	int live;
	double n, elapsed;
	double a_n, a_e;  /* where the window started */
	double p_sum, p_sum2; /* predicted ends of its redraws */
	uint64_t p_n;
	/* over its runs */
	struct tp_series step;
	double steps, time; /* over its windows */
	double eta_sq, eta_bias, eta_time; /* sums over redraws of finished runs */
	uint64_t eta_n;
	struct gap gaps[MAX_GAPS]; /* the slowest windows per step, slowest first */
	int ngaps;
	int interrupted; /* another bar redrew within the window being read */
	char last[96];   /* the description of its last full redraw, as printed */
};

struct an_progress {
	struct tp_map bars; /* "rank\x1fmasked name" -> an_bar */
	uint64_t dropped;   /* redraws of bars past MAX_BARS */
	size_t last;        /* the bar of the last redraw, + 1; 0: none */
	struct strbuf key;
};

static void bar_free(void *p)
{
	struct an_bar *b = p;
	tp_series_free(&b->step);
}

void an_progress_free(struct an_progress *pg)
{
	if (!pg)
		return;
	tp_map_free(&pg->bars, bar_free);
	strbuf_release(&pg->key);
	free(pg);
}

static void keep_gap(struct an_bar *b, double dt, double dn, uint64_t line)
{
	double per = dt / dn;
	int k = b->ngaps < MAX_GAPS ? b->ngaps++ : MAX_GAPS - 1;
	if (k == MAX_GAPS - 1 && b->ngaps == MAX_GAPS && per <= b->gaps[k].dt / b->gaps[k].dn)
		return;
	while (k > 0 && per > b->gaps[k - 1].dt / b->gaps[k - 1].dn) {
		b->gaps[k] = b->gaps[k - 1];
		k--;
	}
	b->gaps[k] = (struct gap){ dt, dn, line };
}

/* The run of the bar being read has ended: its ETA against its end. */
static void end_run(struct an_bar *b)
{
	if (!b->live)
		return;
	b->live = 0;
	if (isnan(b->total) || b->n < b->total)
		return;
	b->completed++;
	double a = b->elapsed;
	if (b->p_n && a > 0) {
		/* sum (p - a)^2 = sum p^2 - 2 a sum p + n a^2 */
		double sq = b->p_sum2 - 2 * a * b->p_sum + (double)b->p_n * a * a;
		b->eta_sq += sq > 0 ? sq : 0;
		b->eta_bias += b->p_sum - (double)b->p_n * a;
		b->eta_time += (double)b->p_n * a;
		b->eta_n += b->p_n;
	}
}

/* A bar counts its items and its clock from its start, so a run first
 * seen at (n, e) covers n steps in e seconds since (0, 0). */
static void start_run(struct an_bar *b)
{
	b->live = 1;
	b->instances++;
	b->n = b->a_n = 0;
	b->elapsed = b->a_e = 0;
	b->p_sum = b->p_sum2 = 0;
	b->p_n = 0;
}

static struct an_bar *bar_of(struct an_progress *pg, const struct tp_record *r)
{
	struct strbuf *k = &pg->key;
	strbuf_reset(k);
	strbuf_addf(k, "%d\x1f", r->rank);
	/* digits masked and blank runs as one (YOLOv5's description is the
	 * epoch and its losses in aligned columns: "7/63     4.84G   0.03386") */
	for (size_t i = 0; i < r->name_len; i++)
		if (r->name[i] == ' ' || r->name[i] == '\t') {
			if (!k->len || k->buf[k->len - 1] != ' ')
				strbuf_addch(k, ' ');
		} else if (r->name[i] < '0' || r->name[i] > '9') {
			strbuf_addch(k, r->name[i]);
		} else if (!k->len || k->buf[k->len - 1] != '#') {
			strbuf_addch(k, '#');
		}
	/* bars without a description are told apart by their totals (a
	 * training bar and the evaluation bars drawn within it) */
	if (tp_has(r, S_PRG_TOTAL))
		strbuf_addf(k, "\x1f%.17g", r->num[S_PRG_TOTAL]);
	int created;
	if (pg->bars.n >= MAX_BARS) {
		/* look up without making one */
		for (size_t i = 0; i < pg->bars.n; i++)
			if (!strcmp(tp_map_key(&pg->bars, i), k->buf))
				return tp_map_at(&pg->bars, i);
		return NULL;
	}
	struct an_bar *b = tp_map_get(&pg->bars, k->buf, k->len, &created);
	if (created) {
		size_t n = r->name_len < sizeof(b->name) - 1 ? r->name_len : sizeof(b->name) - 1;
		memcpy(b->name, r->name ? r->name : "", n);
		b->name[n] = '\0';
		b->rank = r->rank;
		b->total = NAN;
		b->first_line = r->line;
		tp_series_init(&b->step);
	}
	return b;
}

void an_progress_feed(struct an_progress **pgp, const struct tp_record *r)
{
	if (!tp_has(r, S_PRG_N) || !tp_has(r, S_PRG_ELAPSED_S))
		return; /* a redraw without a count or a clock measures nothing */
	if (!*pgp) {
		*pgp = xcalloc(1, sizeof(**pgp));
		tp_map_init(&(*pgp)->bars, sizeof(struct an_bar));
	}
	double n = r->num[S_PRG_N], e = r->num[S_PRG_ELAPSED_S];
	double total = tp_has(r, S_PRG_TOTAL) ? r->num[S_PRG_TOTAL] : NAN;
	struct an_bar *b = bar_of(*pgp, r);
	if (!b) {
		(*pgp)->dropped++;
		return;
	}
	b->redraws++;
	size_t at = (size_t)(b - (struct an_bar *)tp_map_at(&(*pgp)->bars, 0));
	int alone = (*pgp)->last == at + 1; /* no other bar redrew since its last */
	if ((*pgp)->last && !alone)
		((struct an_bar *)tp_map_at(&(*pgp)->bars, (*pgp)->last - 1))->interrupted = 1;
	(*pgp)->last = at + 1;
	if (b->live && (n < b->n || e < b->elapsed || !(total == b->total || (isnan(total) && isnan(b->total)))))
		end_run(b); /* it started again */
	/* a finished bar drawn again (tqdm's close redraws it; a nested bar
	 * redrawn under its parent's redraws): its count and description,
	 * and its clock where it is, or later with no other bar between;
	 * the next epoch's bar seen only when full (YOLOv5's capture) says
	 * another epoch, as does a validation bar drawn again after a
	 * training bar with another clock */
	size_t dn_len = r->name_len < sizeof(b->last) - 1 ? r->name_len : sizeof(b->last) - 1;
	int same_desc = strlen(b->last) == dn_len && (!dn_len || !memcmp(b->last, r->name, dn_len));
	if (!b->live && b->completed && n == b->n && n == total && same_desc &&
	    (e == b->elapsed || (alone && e > b->elapsed)))
		return;
	if (n == total) { /* only a full bar's description is compared */
		if (dn_len)
			memcpy(b->last, r->name, dn_len);
		b->last[dn_len] = '\0';
	}
	if (!b->live) {
		start_run(b);
		b->total = total;
	}
	b->steps += n - b->n;
	b->n = n;
	b->elapsed = e;
	/* the last redraw's ETA (0 at the total) says nothing */
	if (tp_has(r, S_PRG_REMAINING_S) && (isnan(total) || n < total)) {
		double p = e + r->num[S_PRG_REMAINING_S];
		b->p_sum += p;
		b->p_sum2 += p * p;
		b->p_n++;
	}
	double dt = e - b->a_e, dn = n - b->a_n;
	/* a bar that filled within its clock's last digit (an evaluation's
	 * 20 batches at 00:00) measured no time: no window of 0 s a step */
	if (dn > 0 && dt > 0 && (dt >= WINDOW_S || (!isnan(total) && n >= total))) {
		tp_series_add(&b->step, dt / dn, r->line);
		b->time += dt;
		/* a bar that waited while another ran (the evaluation bar drawn
		 * inside the training bar) did not stall: the other bar's time
		 * is its own finding */
		if (!b->interrupted)
			keep_gap(b, dt, dn, r->line);
		b->interrupted = 0;
		b->a_n = n;
		b->a_e = e;
	}
	if (!isnan(total) && n >= total)
		end_run(b);
}

/* Does another bar run once per step of b (an epoch bar over the
 * training bar that starts again each epoch)? Then b's steps are epochs. */
static int holds_runs(const struct an_progress *pg, const struct an_bar *b)
{
	for (size_t i = 0; i < pg->bars.n; i++) {
		const struct an_bar *o = tp_map_at(&pg->bars, i);
		if (o != b && o->instances >= 2 && fabs((double)o->instances - b->steps) <= 1 &&
		    o->step.n >= MIN_WINDOWS && o->time < b->time)
			return 1;
	}
	return 0;
}

/* The bar whose windows cover the most time, or NULL; a bar that holds
 * the runs of another only where no other can stand for the step. */
static const struct an_bar *step_bar(const struct an_progress *pg)
{
	const struct an_bar *best = NULL;
	int outer = 0;
	for (size_t i = 0; pg && i < pg->bars.n; i++) {
		const struct an_bar *b = tp_map_at(&pg->bars, i);
		if (b->step.n < MIN_WINDOWS)
			continue;
		int holds = holds_runs(pg, b);
		if (!best || (outer && !holds) || (outer == holds && b->time > best->time)) {
			best = b;
			outer = holds;
		}
	}
	return best;
}

const struct tp_series *an_progress_steps(const struct an_progress *pg, const char **what)
{
	const struct an_bar *best = step_bar(pg);
	if (best)
		*what = *best->name ? best->name : "progress bar";
	return best ? &best->step : NULL;
}

double an_progress_clock(const struct an_progress *pg)
{
	double most = NAN;
	for (size_t i = 0; pg && i < pg->bars.n; i++) {
		const struct an_bar *b = tp_map_at(&pg->bars, i);
		if (b->step.n >= MIN_WINDOWS && b->instances == 1 && !(b->time <= most))
			most = b->time;
	}
	return most;
}

double an_progress_step_count(const struct an_progress *pg)
{
	const struct an_bar *best = step_bar(pg);
	return best ? best->steps : 0;
}

/* A bar's stalls: windows far slower per step than its median. */
static size_t stalls(const struct an_bar *b, double median, double *lost, const struct gap **worst)
{
	size_t k = 0;
	*lost = 0;
	*worst = NULL;
	for (int i = 0; i < b->ngaps; i++) {
		const struct gap *g = &b->gaps[i];
		double excess = g->dt - g->dn * median;
		if (excess >= STALL_S && g->dt >= STALL_RATIO * g->dn * median) {
			k++;
			*lost += excess;
			if (!*worst)
				*worst = g;
		}
	}
	return k;
}

static void bar_row(const struct an_run *run, const struct an_bar *live, struct report *rep, struct rtable **tab)
{
	struct an_bar bar = *live, *b = &bar; /* the run being read ends here, for the report */
	end_run(b);
	double med = tp_series_quantile(&b->step, 0.5), lost;
	const struct gap *worst;
	size_t ns = b->step.n ? stalls(b, med, &lost, &worst) : 0;
	double eta_rms = b->eta_n ? sqrt(b->eta_sq / (double)b->eta_n) : NAN;
	double eta_mean_end = b->eta_n ? b->eta_time / (double)b->eta_n : NAN;
	double eta_pct = b->eta_n && eta_mean_end > 0 ? 100 * eta_rms / eta_mean_end : NAN;
	const char *name = *b->name ? b->name : "(no description)";
	if (!*tab)
		*tab = an_table(rep, AT_PROGRESS, NULL);
	struct rtable *t = *tab;
	rt_text(t, run->label);
	rt_text(t, name);
	rt_num(t, b->total, 0);
	rt_num(t, (double)b->instances, 0);
	rt_num(t, (double)b->redraws, 0);
	rt_num(t, b->steps, 0);
	rt_num(t, med, 4);
	rt_num(t, tp_series_quantile(&b->step, 0.9), 4);
	rt_num(t, (double)ns, 0);
	rt_num(t, ns ? lost : NAN, 1);
	rt_num(t, eta_pct, 1);
	rt_num(t, b->eta_n ? b->eta_bias / (double)b->eta_n : NAN, 1);
	rt_num(t, (double)b->first_line, 0);
	if (ns)
		report_finding(rep, SEV_WARNING, "throughput", "stall", run->label, run->file, worst->line,
			       "a bar that stops while its steps are fast waits on something else: data "
			       "loading, a checkpoint, evaluation, another rank or the file system; look at "
			       "what the log says around the line",
			       "progress bar '%s' stalled %zu time%s for %.0f s beyond its step time of %.3g s "
			       "(the longest: %.0f s for %.0f step%s)", name, ns, ns == 1 ? "" : "s", lost, med,
			       worst->dt, worst->dn, worst->dn == 1 ? "" : "s");
	if (ns)
		report_stake(rep, lost);
	if (!isnan(eta_pct) && eta_pct > ETA_OFF_PCT)
		report_finding(rep, SEV_INFO, "throughput", "eta-off", run->label, run->file, b->first_line,
			       NULL, "progress bar '%s': its ETA was off by %.0f%% of the time it took (on "
			       "average it predicted the end %.0f s %s)", name, eta_pct,
			       fabs(b->eta_bias / (double)b->eta_n), b->eta_bias > 0 ? "too late" : "too early");
}

void an_progress_report(const struct an_model *m, const struct an_opts *o, struct report *rep)
{
	if (!(o->which & AN_THROUGHPUT))
		return;
	struct rtable *tab = NULL;
	for (size_t r = 0; r < m->nruns; r++) {
		const struct an_run *run = m->runs[r];
		if (!run->progress)
			continue;
		for (size_t i = 0; i < run->progress->bars.n; i++)
			bar_row(run, tp_map_at(&run->progress->bars, i), rep, &tab);
	}
}
