/*
 * records.c - the records that come as single printed statistics rather
 * than series, each set against what it claims:
 *
 *   aggregate     S4's AGGREGATE STATISTICS rows: spread (max/mean),
 *                 the seed's own reading (one slow call, or consistent),
 *                 count x mean against the printed total
 *   batch-timing  S4's "Batch timing:" (all batches of the epoch)
 *                 against the Batch lines printed in that epoch (only the
 *                 first verbose_batches are printed)
 *   latency       S1's inference benchmarks: jitter, the batch size
 *                 the throughput implies, the fastest model
 *   per-dataset   S1's "Average per dataset:": the number of datasets
 *                 it implies from its section's TOTAL
 *   metrics       S3's own figure (its last average since the start)
 *                 beside the interval means tprof analyses instead
 *
 * and, last, what tprof-analyze says when no analysis applied at all.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "analyses_int.h"

static double num_or_nan(const struct an_nums *x, int slot)
{
	return tp_has_slot(x->has, slot) ? x->num[slot] : NAN;
}

/* ---- AGGREGATE STATISTICS ---------------------------------------------- */

static void aggregate_findings(struct report *rep, const struct an_run *run, const char *name,
			       const struct an_nums *x)
{
	double n = num_or_nan(x, S_AGG_COUNT), total = num_or_nan(x, S_AGG_TOTAL_S);
	double mean = num_or_nan(x, S_AGG_MEAN_S), mn = num_or_nan(x, S_AGG_MIN_S), mx = num_or_nan(x, S_AGG_MAX_S);
	/* printed to 3 decimals: count x mean may miss the total by count x 0.0005 + 0.0005 */
	if (n > 0 && !isnan(total) && !isnan(mean) && fabs(n * mean - total) > 0.0005 * n + 0.0005)
		report_finding(rep, SEV_WARNING, "variance", "aggregate-inconsistent", run->label, run->file, x->line,
			       NULL, "'%s': count %.0f x mean %.3f s = %.3f s, but the printed total is %.3f s", name,
			       n, mean, n * mean, total);
	if (!(mean > 0) || isnan(mx))
		return;
	if (mx > 2 * mean)
		report_finding(rep, SEV_NOTICE, "variance", "aggregate-outlier", run->label, run->file, x->line,
			       an_advice("first-batch"),
			       "'%s': max %.3f s is %.1fx its mean %.3f s over %.0f calls: a slow call (the first? a "
			       "warmup)",
			       name, mx, mx / mean, mean, n);
	else
		report_finding(rep, SEV_INFO, "variance", "aggregate-consistent", run->label, run->file, x->line,
			       NULL, "'%s' is consistent: %.3f-%.3f s over %.0f calls (max %.1fx the mean)", name, mn,
			       mx, n, mx / mean);
}

static void aggregates(const struct an_run *run, struct report *rep)
{
	if (!run->aggregates.n)
		return;
	double sum = 0;
	for (size_t i = 0; i < run->aggregates.n; i++)
		sum += fmax(0, num_or_nan(tp_map_at(&run->aggregates, i), S_AGG_TOTAL_S));
	struct rtable *t = report_table(rep, "variance", "aggregate", "Repeated operations (AGGREGATE STATISTICS)",
					"run,operation,count,total:s,mean:s,min:s,max:s,max/mean:x,share:%,line");
	t->bar_col = 8;
	for (size_t i = 0; i < run->aggregates.n; i++) {
		const struct an_nums *x = tp_map_at(&run->aggregates, i);
		double mean = num_or_nan(x, S_AGG_MEAN_S), total = num_or_nan(x, S_AGG_TOTAL_S);
		rt_text(t, run->label);
		rt_text(t, tp_map_key(&run->aggregates, i));
		rt_num(t, num_or_nan(x, S_AGG_COUNT), 0);
		for (int s = S_AGG_TOTAL_S; s <= S_AGG_MAX_S; s++)
			rt_num(t, num_or_nan(x, s), 3);
		rt_num(t, mean > 0 ? num_or_nan(x, S_AGG_MAX_S) / mean : NAN, 2);
		rt_num(t, sum > 0 ? 100 * total / sum : NAN, 1);
		rt_num(t, (double)x->line, 0);
		aggregate_findings(rep, run, tp_map_key(&run->aggregates, i), x);
	}
}

/* ---- Batch timing -------------------------------------------------------- */

static void batch_timing(const struct an_run *run, struct report *rep, struct rtable **tab)
{
	for (size_t i = 0; i < run->ranks.n; i++) {
		const struct an_batches *b = tp_map_at(&run->ranks, i);
		const struct an_epoch_batches *e = &b->last;
		if (!b->timing_lines)
			continue;
		if (!*tab)
			*tab = report_table(rep, "variance", "batch-timing",
					    "Last epoch: the seed's Batch timing (all its batches) and the printed Batch lines",
					    "run,rank,epochs,seed_avg:s,seed_min:s,seed_max:s,seed_max/min:x,printed,"
					    "printed_mean:s,printed_min:s,printed_max:s,printed_max/min:x,line");
		double pmean = e->n ? e->sum / e->n : NAN, pmin = e->n ? e->min : NAN, pmax = e->n ? e->max : NAN;
		rt_text(*tab, run->label);
		rt_text(*tab, tp_map_key(&run->ranks, i));
		rt_num(*tab, (double)b->timing_lines, 0);
		rt_num(*tab, e->seed_avg, 3);
		rt_num(*tab, e->seed_min, 3);
		rt_num(*tab, e->seed_max, 3);
		rt_num(*tab, e->seed_min > 0 ? e->seed_max / e->seed_min : NAN, 2);
		rt_num(*tab, e->n, 0);
		rt_num(*tab, pmean, 4);
		rt_num(*tab, pmin, 3);
		rt_num(*tab, pmax, 3);
		rt_num(*tab, pmin > 0 ? pmax / pmin : NAN, 2);
		rt_num(*tab, (double)e->line, 0);
		const struct tp_series *s = &b->seconds;
		report_finding(rep, SEV_INFO, "variance", "batch-timing", run->label, run->file, e->line, NULL,
			       "the seed's last Batch timing (avg %.3f s, max/min %.2f) covers all the batches of that "
			       "epoch; its %.0f printed Batch lines give mean %.4f s, max/min %.2f, and tprof's batch "
			       "series (%llu printed lines over the run) mean %.4f s, max/min %.2f: the monitor prints "
			       "only the first verbose_batches of each epoch, so the seed's figure is the epoch's, "
			       "tprof's the printed batches'",
			       e->seed_avg, e->seed_min > 0 ? e->seed_max / e->seed_min : NAN, e->n, pmean,
			       pmin > 0 ? pmax / pmin : NAN, (unsigned long long)s->n, s->n ? s->mean : NAN,
			       s->min > 0 ? s->max / s->min : NAN);
	}
}

/* ---- inference benchmarks ------------------------------------------------ */

static void latencies(const struct an_run *run, struct report *rep)
{
	if (!run->latencies.n)
		return;
	size_t fast = SIZE_MAX, slow = SIZE_MAX;
	double fastest = INFINITY, slowest = NAN;
	for (size_t i = 0; i < run->latencies.n; i++) {
		double m = num_or_nan(tp_map_at(&run->latencies, i), S_LAT_MEAN_MS);
		if (!(m > 0))
			continue;
		if (m < fastest)
			fastest = m, fast = i;
		if (isnan(slowest) || m > slowest)
			slowest = m, slow = i;
	}
	struct rtable *t = report_table(rep, "throughput", "latency", "Inference benchmarks",
					"run,model,mean:ms,min:ms,max:ms,max/min:x,throughput:samples/s,"
					"implied_batch,vs_slowest:x,line");
	for (size_t i = 0; i < run->latencies.n; i++) {
		const struct an_nums *x = tp_map_at(&run->latencies, i);
		double m = num_or_nan(x, S_LAT_MEAN_MS), mn = num_or_nan(x, S_LAT_MIN_MS), mx = num_or_nan(x, S_LAT_MAX_MS);
		double thr = num_or_nan(x, S_LAT_THROUGHPUT);
		rt_text(t, run->label);
		rt_text(t, tp_map_key(&run->latencies, i));
		rt_num(t, m, 3);
		rt_num(t, mn, 3);
		rt_num(t, mx, 3);
		rt_num(t, mn > 0 ? mx / mn : NAN, 2);
		rt_num(t, thr, 1);
		/* samples per call: throughput x mean latency (1 when the benchmark feeds one sample) */
		rt_num(t, thr * m / 1000, 2);
		rt_num(t, m > 0 ? slowest / m : NAN, 2);
		rt_num(t, (double)x->line, 0);
	}
	if (fast != slow && fast != SIZE_MAX)
		report_finding(rep, SEV_INFO, "throughput", "latency", run->label, run->file, 0, NULL,
			       "'%s' infers fastest: %.3f ms, %.2fx faster than '%s' (%.3f ms)",
			       tp_map_key(&run->latencies, fast), fastest, slowest / fastest,
			       tp_map_key(&run->latencies, slow), slowest);
}

/* ---- Average per dataset --------------------------------------------------- */

/* The TOTAL row printed last before `line`, or NULL. */
static const struct an_row *total_before(const struct an_run *run, uint64_t line)
{
	const struct an_row *best = NULL;
	for (size_t i = 0; i < run->tables.n; i++) {
		const struct an_table *t = tp_map_at(&run->tables, i);
		for (size_t k = 0; k < t->rows.n; k++) {
			const struct an_row *row = tp_map_at(&t->rows, k);
			if (!strcmp(tp_map_key(&t->rows, k), "TOTAL") && an_row_has(row, AN_ROW_SECONDS) && row->line < line &&
			    (!best || row->line > best->line))
				best = row;
		}
	}
	return best;
}

static void per_dataset(const struct an_run *run, struct report *rep)
{
	for (size_t i = 0; i < run->meta.n; i++) {
		const struct an_nums *x = tp_map_at(&run->meta, i);
		if (strcasecmp(tp_map_key(&run->meta, i), "Average per dataset") || !tp_has_slot(x->has, S_META_VALUE) || !(x->num[S_META_VALUE] > 0))
			continue;
		const struct an_row *tot = total_before(run, x->line);
		if (!tot)
			continue;
		double avg = x->num[0], n = tot->seconds / avg;
		/* the average is printed to 0.01 s: n is known to total / avg^2 x 0.005 */
		double tol = tot->seconds / (avg * avg) * 0.005 + 1e-9;
		int whole = fabs(n - round(n)) <= tol;
		struct rtable *t = report_table(rep, "breakdown", "per-dataset", "Average per dataset",
						"run,average:s,total:s,datasets,line");
		rt_text(t, run->label);
		rt_num(t, avg, 2);
		rt_num(t, tot->seconds, 2);
		rt_num(t, n, 2);
		rt_num(t, (double)x->line, 0);
		report_finding(rep, whole ? SEV_INFO : SEV_WARNING, "breakdown", "per-dataset", run->label, run->file,
			       x->line, NULL,
			       whole ? "Average per dataset %.2f s: the TOTAL %.2f s over %.0f datasets"
				     : "Average per dataset %.2f s does not divide the TOTAL %.2f s into whole datasets (%.2f)",
			       avg, tot->seconds, whole ? round(n) : n);
	}
}

/* ---- profiling metrics: the seed's average beside tprof's intervals ------ */

static void metrics(const struct an_run *run, struct report *rep)
{
	struct rtable *t = NULL;
	for (size_t i = 0; i < run->metrics.n; i++) {
		const struct an_named_series *s = tp_map_at(&run->metrics, i);
		if (isnan(s->last_count) || !s->s.n)
			continue;
		if (!t)
			t = report_table(rep, "variance", "metrics",
					 "Profiling metrics: the seed's average since the start, and the interval means",
					 "run,metric,count,total:s,seed_avg:s,intervals,interval_min:s,interval_max:s,"
					 "repeats");
		rt_text(t, run->label);
		rt_text(t, tp_map_key(&run->metrics, i));
		rt_num(t, s->last_count, 0);
		rt_num(t, s->last_total, 4);
		rt_num(t, s->last_total / s->last_count, 4);
		rt_num(t, (double)s->s.n, 0);
		rt_num(t, s->s.min, 4);
		rt_num(t, s->s.max, 4);
		rt_num(t, (double)s->repeats, 0);
	}
}

void an_records(const struct an_model *m, const struct an_opts *o, struct report *rep)
{
	struct rtable *bt = NULL;
	for (size_t r = 0; r < m->nruns; r++) {
		const struct an_run *run = m->runs[r];
		if (o->which & AN_VARIANCE) {
			aggregates(run, rep);
			batch_timing(run, rep, &bt);
			metrics(run, rep);
		}
		if (o->which & AN_THROUGHPUT)
			latencies(run, rep);
		if (o->which & AN_BREAKDOWN)
			per_dataset(run, rep);
	}
}

/* ---- when nothing applied ----------------------------------------------- */

static int report_is_empty(const struct report *rep)
{
	if (rep->nfindings)
		return 0;
	for (size_t i = 0; i < rep->nsections; i++)
		for (size_t k = 0; k < rep->sections[i].ntables; k++)
			if (!rep->sections[i].tables[k]->data_only && rep->sections[i].tables[k]->nrows)
				return 0;
	return 1;
}

/* Records were read, but no analysis took them (a run whose step the
 * summary gives has its answer there). */
static void nothing_applies(const struct an_model *m, const struct an_opts *o, struct report *rep)
{
	report_section(rep, "input", "Input");
	for (size_t r = 0; r < m->nruns; r++) {
		const struct an_run *run = m->runs[r];
		const char *what;
		double scale;
		if (an_step_series(run, &what, &scale))
			continue;
		struct strbuf sb = STRBUF_INIT;
		for (int t = 0; t < TP_NTYPES; t++)
			if (run->nrec[t])
				strbuf_addf(&sb, "%s%llu %s", sb.len ? ", " : "", (unsigned long long)run->nrec[t],
					    tp_schemas[t].type_name);
		if (run->impossible)
			strbuf_addf(&sb, " (%llu time value%s over %.0e s left out: no duration)",
				    (unsigned long long)run->impossible, run->impossible == 1 ? "" : "s",
				    AN_MAX_SECONDS);
		report_finding(rep, SEV_NOTICE, "input", "nothing-applies", run->label, run->file, 0, NULL,
			       "read %s; %s", sb.len ? sb.buf : "nothing",
			       o->which == AN_ALL ? "no analysis applies to these records (see tprof-analyze(1), "
						    "RECORDS AND ANALYSES)"
						  : "none of the selected analyses applies to them");
		strbuf_release(&sb);
	}
}

/* What the time stamps alone gave, for a log nothing else was read from:
 * the wall then rests on them, and the reader should know it. */
static void stamps_read(const struct an_model *m, struct strbuf *sb)
{
	const struct an_run *run = m->nruns ? m->runs[0] : NULL;
	if (!m->spans || !run || run->first_ts == INT64_MIN || run->max_ts <= run->first_ts)
		return;
	strbuf_addf(sb, "; only its time stamps were read: they span %.0f s, the wall",
		    (double)(run->max_ts - run->first_ts));
}

/* Time values no run lasts, left out of every table and sum: said once per
 * run whatever the analyses chosen (a batch series' shows in no breakdown). */
static void left_out(const struct an_model *m, struct report *rep)
{
	int said = 0;
	for (size_t r = 0; r < m->nruns; r++) {
		const struct an_run *run = m->runs[r];
		if (!run->impossible)
			continue;
		if (!said++)
			report_section(rep, "input", "Input");
		report_finding(rep, SEV_WARNING, "input", "impossible", run->label, run->file, run->impossible_line,
			       NULL, "%llu time value%s over %.0e s (more than 30,000 years) left out: no duration",
			       (unsigned long long)run->impossible, run->impossible == 1 ? "" : "s", AN_MAX_SECONDS);
	}
}

void an_nothing(const struct an_model *m, const struct an_opts *o, struct report *rep)
{
	if (m->records) {
		if (report_is_empty(rep))
			nothing_applies(m, o, rep); /* it says what was left out */
		else
			left_out(m, rep);
		return;
	}
	/* the wall from the time stamps fills the summary: still nothing read */
	report_section(rep, "input", "Input");
	struct strbuf sb = STRBUF_INIT;
	stamps_read(m, &sb);
	report_finding(rep, SEV_NOTICE, "input", "nothing-read", NULL, m->nruns ? m->runs[0]->file : NULL, 0,
		       "describe your own lines with --rules FILE (see tprof-parse(1), RULES FILES)",
		       "no known timing line in %s%s: none of the formats of tprof-parse(1) matched%s",
		       m->nruns ? m->runs[0]->file : "the input", m->nruns > 1 ? " and the other inputs" : "",
		       sb.len ? sb.buf : "");
	strbuf_release(&sb);
}
