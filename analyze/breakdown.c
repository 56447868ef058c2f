/*
 * breakdown.c - where the time went: each stage's share of the total, the
 * time no stage accounts for, the printed tables checked against their own
 * rows and against the raw lines, the clock checked for time going back,
 * and the bottleneck thresholds of S4 with their advice.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyses_int.h"

static void metric_bottlenecks(struct report *rep, const struct an_opts *o, const struct an_run *run);

const char *an_stage_kind(const char *name)
{
	/* order matters: "data_batch_production" is data, "forward_pass" forward */
	if (strcasestr(name, "data") || strcasestr(name, "dataloader") || strcasestr(name, "load_ground"))
		return "data";
	/* "Main training loop" (S0) holds the steps: the run itself, no stage of it */
	if (strcasestr(name, "loop"))
		return "loop";
	if (strcasestr(name, "forward") || strcasestr(name, "fwd"))
		return "forward";
	if (strcasestr(name, "backward") || strcasestr(name, "bwd") || strcasestr(name, "grad"))
		return "backward";
	if (strcasestr(name, "optim") || strcasestr(name, "update"))
		return "optimizer";
	return "other";
}

const char *an_advice(const char *kind)
{
	static const struct {
		const char *kind, *advice;
	} advice[] = {
		{ "data", "use more DataLoader workers (num_workers=4+), pin_memory=True and "
			  "prefetch_factor; preprocess data offline" },
		{ "forward", "use mixed precision (autocast/FP16), a smaller model (fewer layers or "
			     "filters), or gradient checkpointing" },
		{ "backward", "use gradient accumulation with smaller batches, mixed-precision backward "
			      "(GradScaler), and free unused gradients" },
		{ "first-batch", "add a warmup batch before timing, or exclude the first batch: GPU "
				 "initialisation, JIT compilation and memory allocation happen there" },
		{ "first-step", "the first step compiles and initialises: cache the compilation between runs "
				"(JAX's persistent compilation cache, torch.compile's cache, CUDA graphs "
				"captured once) and keep the run long enough to amortise it" },
		{ "high-variance", "check for variable-sized inputs (pad or sort batches by size), cache "
				   "thrashing (pinned memory) and expensive random augmentations" },
		{ "optimizer", "profile the optimizer step; fused optimizers or fewer parameter groups help" },
		{ "other", "profile this stage first: it takes the largest share of the time" },
		{ "gpm", "pattern generation (random walks) dominates the GPM tower: generate patterns on "
			 "the GPU, cache them per graph, or use fewer/shorter patterns" },
		{ "sync", "GPU work is asynchronous: call torch.cuda.synchronize() before reading a timer" },
		{ "straggler", "every rank waits for the slowest at each step: check that rank's GPU (clocks, "
			       "temperature, other processes), its data shard and its host's load" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(advice); i++)
		if (!strcmp(advice[i].kind, kind))
			return advice[i].advice;
	return NULL;
}

struct stage_ref {
	const char *name;
	double seconds;
	uint64_t line;
};

/* Rows of a breakdown table; smaller stages are summed into one row. */
#define MAX_STAGE_ROWS 200

static int by_seconds_desc(const void *a, const void *b)
{
	const struct stage_ref *x = a, *y = b;
	return (x->seconds < y->seconds) - (x->seconds > y->seconds);
}

static int is_total(const char *name)
{
	return !strcmp(name, "TOTAL");
}

/* "WALL": the wall time a table's stages ran in (timing_data.json's
 * total_time), larger than their sum by the time outside them. */
static int is_wall(const char *name)
{
	return !strcmp(name, "WALL");
}

/* A row that is no stage: the TOTAL or the WALL time. */
static int is_sum_row(const char *name)
{
	return is_total(name) || is_wall(name);
}

/* The printed table whose rows name most of the [TIMING] stages (the
 * [TIMING SUMMARY] of S0), or NULL. */
static const struct an_table *stages_table(const struct an_run *run)
{
	const struct an_table *best = NULL;
	size_t best_hits = 0;
	for (size_t i = 0; i < run->tables.n; i++) {
		const struct an_table *t = tp_map_at(&run->tables, i);
		size_t hits = 0;
		for (size_t k = 0; k < t->rows.n; k++)
			for (size_t j = 0; j < run->stages.n; j++)
				hits += !strcmp(tp_map_key(&t->rows, k), tp_map_key(&run->stages, j));
		if (hits > best_hits) {
			best = t;
			best_hits = hits;
		}
	}
	return best_hits * 2 >= run->stages.n ? best : NULL;
}

static double table_row(const struct an_table *t, int (*which)(const char *), uint64_t *line)
{
	for (size_t i = 0; i < t->rows.n; i++) {
		const struct an_row *row = tp_map_at(&t->rows, i);
		if (which(tp_map_key(&t->rows, i)) && an_row_has(row, AN_ROW_SECONDS)) {
			*line = row->line;
			return row->seconds;
		}
	}
	*line = 0;
	return NAN;
}

static double table_total(const struct an_table *t, uint64_t *line)
{
	return table_row(t, is_total, line);
}

/*
 * Time at stake of a stage finding: data loading can be overlapped with
 * compute entirely (prefetching), so all of it; a compute stage, what
 * halving it would save (no log tells how far a stage can be sped up).
 */
static double stage_stake(const char *kind, double seconds)
{
	return !strcmp(kind, "data") ? seconds : seconds / 2;
}

static void bottleneck_findings(struct report *rep, const struct an_opts *o, const struct an_run *run,
				const char *what, const struct stage_ref *st, double pct)
{
	/* below every bar no branch below says anything: a log of a million
	 * names looks no further for each */
	if (!(pct > o->optimize_pct) && !(pct > o->data_pct) && !(pct > o->bottleneck_pct))
		return;
	const char *kind = an_stage_kind(st->name), *name = st->name;
	uint64_t line = st->line;
	/* the run's training phase (train_runtime) holds the steps, as a loop does */
	if (run->loop[0] && !strcmp(name, run->loop))
		kind = "loop";
	/* so does a phase no name places whose prints stand for the steps
	 * ("[Fold 1 Ep 001] ... | 2.5s"): the steps' finding speaks of it */
	const char *spans = NULL, *step;
	double scale;
	const struct tp_series *ss = an_span_steps(run, &spans);
	if (ss && spans && !strcmp(spans, name) && ss == an_step_series(run, &step, &scale))
		kind = "loop";
	if (!strcmp(kind, "loop")) {
		/* the loop is where training happens: what it holds, not its share, is the question */
		if (pct > o->optimize_pct)
			report_finding(rep, SEV_INFO, "bottlenecks", "loop", run->label, run->file, line, NULL,
				       "'%s' is %.1f%% of %s: the run is spent training, and the stages "
				       "around it (setup, saving) take %.1f%%",
				       name, pct, what, 100 - pct);
		return;
	}
	if (!strcmp(kind, "data") && pct > o->data_pct && pct <= o->bottleneck_pct) {
		report_finding(rep, SEV_WARNING, "bottlenecks", "data-loading", run->label, run->file, line,
			       an_advice("data"), "%s '%s' is %.1f%% of %s (data loading above %.0f%%)",
			       "data loading", name, pct, what, o->data_pct);
		report_stake(rep, stage_stake(kind, st->seconds));
		return;
	}
	if (pct > o->bottleneck_pct)
		report_finding(rep, SEV_CRITICAL, "bottlenecks", "bottleneck", run->label, run->file, line,
			       an_advice(kind), "BOTTLENECK: '%s' is %.1f%% of %s", name, pct, what);
	else if (pct > o->optimize_pct)
		report_finding(rep, SEV_NOTICE, "bottlenecks", "optimize", run->label, run->file, line,
			       an_advice(kind), "consider optimizing '%s': %.1f%% of %s", name, pct, what);
	else
		return;
	report_stake(rep, stage_stake(kind, st->seconds));
}

/*
 * A printed table whose rows are mostly none of the pipeline's stages
 * (data, forward, backward, optimizer) compares alternatives, e.g. the models of
 * an experiment (S1's sections): its shares are no bottleneck and
 * call for no advice.
 */
static int is_variant_table(const struct stage_ref *v, size_t n)
{
	size_t pipeline = 0;
	for (size_t i = 0; i < n; i++)
		pipeline += strcmp(an_stage_kind(v[i].name), "other") != 0;
	return pipeline * 2 < n;
}

/*
 * One breakdown table: stages largest first with their share of the total
 * (the printed TOTAL when there is one, else their sum), the unaccounted
 * rest, and bottleneck findings. wall: the total is wall time, and the rest
 * is time outside the stages by design, not a gap in the table.
 */
static void breakdown_table(struct report *rep, const struct an_opts *o, const struct an_run *run,
			    const char *what, struct stage_ref *v, size_t n, double printed_total,
			    uint64_t total_line, int bottlenecks, int wall)
{
	qsort(v, n, sizeof(*v), by_seconds_desc);
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i].seconds;
	double total = isnan(printed_total) ? sum : printed_total;
	char title[256], of[200];
	snprintf(title, sizeof(title), "Where the time went: %s", what);
	/* "the TOTAL of 'hooks'", not "of within 'hooks'" */
	snprintf(of, sizeof(of), "%s", strncmp(what, "within ", 7) ? what : what + 7);
	struct rtable *t = an_table(rep, AT_BREAKDOWN, title);
	t->bar_col = 3;
	double cum = 0, rest = 0;
	/* a stage alone is all of its own sum: a share of that says nothing
	 * (a printed total or the wall is another matter) */
	int shares = n > 1 || !isnan(printed_total) || wall;
	for (size_t i = 0; i < n; i++) {
		double pct = total > 0 ? 100 * v[i].seconds / total : NAN;
		if (bottlenecks && total > 0 && shares)
			bottleneck_findings(rep, o, run, of, &v[i], pct);
		if (i >= MAX_STAGE_ROWS) {
			rest += v[i].seconds;
			continue;
		}
		cum += pct;
		rt_key(t, an_key(AK_STAGE, NULL, run->index, 0));
		rt_text(t, run->label);
		rt_text(t, v[i].name);
		rt_num(t, v[i].seconds, 2);
		rt_num(t, pct, 1);
		rt_num(t, cum, 1);
		rt_num(t, (double)v[i].line, 0);
	}
	if (n > MAX_STAGE_ROWS) {
		/* a log with a million stage names still gives a table people can read */
		char other[64];
		snprintf(other, sizeof(other), "(%zu other stages)", n - MAX_STAGE_ROWS);
		rt_key(t, an_key(AK_OTHER_STAGES, NULL, run->index, 0));
		rt_text(t, run->label);
		rt_text(t, other);
		rt_num(t, rest, 2);
		rt_num(t, total > 0 ? 100 * rest / total : NAN, 1);
		rt_num(t, total > 0 ? cum + 100 * rest / total : NAN, 1);
		rt_empty(t);
	}
	double unacc = total - sum;
	if (!isnan(printed_total) && (wall ? unacc > 0.005 : fabs(unacc) > 0.005 * total + 0.01 * (double)n)) {
		rt_key(t, an_key(AK_UNACCOUNTED, NULL, run->index, 0));
		rt_text(t, run->label);
		rt_text(t, wall ? "(outside stages)" : "(unaccounted)");
		rt_num(t, unacc, 2);
		rt_num(t, 100 * unacc / total, 1);
		rt_empty(t);
		rt_empty(t);
		if (wall && unacc > 0)
			report_finding(rep, SEV_INFO, "breakdown", "outside-stages", run->label, run->file,
				       total_line, NULL, "%.2f s (%.1f%%) of the wall time %.2f s of %s passed outside the stages",
				       unacc, 100 * unacc / total, total, of);
		else if (unacc < 0)
			report_finding(rep, SEV_WARNING, "breakdown", "inconsistent", run->label, run->file,
				       total_line, NULL, "stages of %s sum to %.2f s, more than its TOTAL %.2f s",
				       of, sum, total);
		else
			report_finding(rep, SEV_INFO, "breakdown", "unaccounted", run->label, run->file,
				       total_line, NULL, "%.2f s (%.1f%%) of the TOTAL of %s is in no stage",
				       unacc, 100 * unacc / total, of);
	}
	rt_key(t, an_key(AK_TOTAL, NULL, run->index, 0));
	rt_text(t, run->label);
	rt_text(t, wall ? "WALL" : "TOTAL");
	rt_num(t, total, 2);
	rt_num(t, total > 0 ? 100.0 : NAN, 1);
	rt_empty(t);
	rt_num(t, total_line ? (double)total_line : NAN, 0);
}

/* An experiment table: which alternative is fastest and slowest, and no stage advice. */
static void variant_finding(struct report *rep, const struct an_run *run, const char *what,
			    const struct stage_ref *v, size_t n)
{
	size_t lo = 0, hi = 0;
	for (size_t i = 1; i < n; i++) {
		lo = v[i].seconds < v[lo].seconds ? i : lo;
		hi = v[i].seconds > v[hi].seconds ? i : hi;
	}
	report_finding(rep, SEV_NOTICE, "bottlenecks", "experiment", run->label, run->file, v[hi].line,
		       "these rows are alternatives (models, variants), not stages of one pipeline: choose "
		       "between them by accuracy per second; optimize inside the one you keep",
		       "%s compares %zu alternatives: '%s' takes longest (%.4g s), '%s' least (%.4g s)", what, n,
		       v[hi].name, v[hi].seconds, v[lo].name, v[lo].seconds);
}

/* The phases of one parent (NULL: the top level) that are spans, into v. */
static size_t phase_refs(const struct an_run *run, const char *parent, struct stage_ref *v, int *declared)
{
	size_t n = 0;
	for (size_t i = 0; i < run->stages.n; i++) {
		const struct an_stage *s = tp_map_at(&run->stages, i);
		if (!an_stage_in(run, s, parent) || !an_stage_is_span(run, s))
			continue;
		v[n++] = (struct stage_ref){ tp_map_key(&run->stages, i), s->seconds, s->line };
		*declared |= !s->inferred;
	}
	return n;
}

/* The phases inside each phase that holds others, as shares of it: the
 * nested ones are few, so this looks only at them. */
static void nested_tables(struct report *rep, const struct an_opts *o, const struct an_run *run,
			  struct stage_ref *v)
{
	size_t *kids = xcalloc(run->stages.n + 1, sizeof(*kids)), nk = 0;
	for (size_t i = 0; i < run->stages.n; i++) {
		const struct an_stage *s = tp_map_at(&run->stages, i);
		if (*an_stage_parent(run, s) && an_stage_is_span(run, s))
			kids[nk++] = i;
	}
	for (size_t a = 0; a < nk; a++) {
		const char *parent = an_stage_parent(run, tp_map_at(&run->stages, kids[a]));
		size_t b = 0, n = 0;
		while (b < a && strcmp(an_stage_parent(run, tp_map_at(&run->stages, kids[b])), parent))
			b++;
		if (b < a) /* that parent's table is made */
			continue;
		for (b = a; b < nk; b++) {
			const struct an_stage *s = tp_map_at(&run->stages, kids[b]);
			if (!strcmp(an_stage_parent(run, s), parent))
				v[n++] = (struct stage_ref){ tp_map_key(&run->stages, kids[b]), s->seconds, s->line };
		}
		const struct an_stage *p = tp_map_find(&run->stages, parent, strlen(parent));
		char what[200];
		snprintf(what, sizeof(what), "within '%s'", parent);
		breakdown_table(rep, o, run, what, v, n, p ? p->seconds : NAN, p ? p->line : 0, 0, 0);
	}
	free(kids);
}

/*
 * The run's phases at the top level (a seed's [TIMING] stages), then those
 * nested in each phase, then every printed table the stages do not cover.
 * Only the seeds' stages, whose roles no reader declared, get the stage
 * thresholds; declared phases are judged as evaluation, checkpoint or
 * start-up overhead of the wall (parts.c), and a phase that holds others
 * or a clock is never a bottleneck.
 */
static void stage_tables(struct report *rep, const struct an_opts *o, const struct an_run *run,
			 int bottlenecks)
{
	const struct an_table *covered = NULL;
	if (run->stages.n) {
		struct stage_ref *v = xcalloc(run->stages.n, sizeof(*v));
		int declared = 0;
		size_t n = phase_refs(run, NULL, v, &declared);
		covered = stages_table(run);
		uint64_t tl = 0;
		double total = covered ? table_total(covered, &tl) : NAN;
		char what[200];
		/* the run is in every row and finding already: its name once is enough */
		/* in words that fit any log: a seed's [TIMING] stages, a rules file's stages */
		snprintf(what, sizeof(what), declared ? "the phases of the run" : "the stages");
		if (declared && isnan(total)) {
			enum an_wall_from from;
			double in;
			total = an_run_wall(run, &in, &from);
			if (n)
				breakdown_table(rep, o, run, what, v, n, total, 0, 0, 1);
		} else if (n) {
			breakdown_table(rep, o, run, what, v, n, total, tl, bottlenecks && !declared, 0);
		}
		nested_tables(rep, o, run, v);
		free(v);
		double wall = run->first_ts != INT64_MIN && run->max_ts > run->first_ts
				      ? (double)(run->max_ts - run->first_ts)
				      : NAN;
		double sum = 0;
		for (size_t i = 0; i < run->stages.n; i++) {
			const struct an_stage *s = tp_map_at(&run->stages, i);
			if (an_stage_in(run, s, NULL) && an_stage_is_span(run, s))
				sum += s->seconds;
		}
		if (!isnan(wall) && wall > 0 && wall < sum * 0.5)
			report_finding(rep, SEV_WARNING, "breakdown", "clock", run->label, run->file, 0, NULL,
				       "the timestamps span %.0f s but the stages add up to %.2f s", wall, sum);
	}
	for (size_t i = 0; i < run->tables.n; i++) {
		const struct an_table *tab = tp_map_at(&run->tables, i);
		if (tab == covered)
			continue;
		struct stage_ref *v = xcalloc(tab->rows.n + 1, sizeof(*v));
		size_t n = 0;
		for (size_t k = 0; k < tab->rows.n; k++) {
			const struct an_row *row = tp_map_at(&tab->rows, k);
			const char *name = tp_map_key(&tab->rows, k);
			if (!is_sum_row(name) && an_row_has(row, AN_ROW_SECONDS))
				v[n++] = (struct stage_ref){ name, row->seconds, row->line };
		}
		uint64_t tl = 0;
		double total = table_total(tab, &tl);
		int wall = 0;
		if (isnan(total)) {
			total = table_row(tab, is_wall, &tl);
			wall = !isnan(total);
		}
		char what[200];
		snprintf(what, sizeof(what), "'%s'", tp_map_key(&run->tables, i));
		int variant = n && is_variant_table(v, n);
		if (n)
			breakdown_table(rep, o, run, what, v, n, total, tl, bottlenecks && !variant, wall);
		if (variant && bottlenecks && n >= 2)
			variant_finding(rep, run, what, v, n);
		free(v);
	}
}

/* Seconds of an aggregate row: total, else mean x count, else the slowest
 * rank's (Megatron's "(min, max) time across ranks"); NAN if none. */
static double aggregate_seconds(const struct an_nums *a)
{
	if (tp_has_slot(a->has, S_AGG_TOTAL_S))
		return a->num[S_AGG_TOTAL_S];
	if (tp_has_slot(a->has, S_AGG_MEAN_S) && tp_has_slot(a->has, S_AGG_COUNT))
		return a->num[S_AGG_MEAN_S] * a->num[S_AGG_COUNT];
	if (tp_has_slot(a->has, S_AGG_MAX_S))
		return a->num[S_AGG_MAX_S];
	return NAN;
}

/* Profiler tables (aggregate records: Lightning's profiler report,
 * Megatron's timers) as one breakdown; a "Total" row is the total. */
static void aggregate_table(struct report *rep, const struct an_opts *o, const struct an_run *run,
			    int bottlenecks)
{
	/* the aggregate statistics of a seed log sit beside its stages and
	 * tables, which the breakdown already shows */
	if (!run->aggregates.n || run->tables.n)
		return;
	struct stage_ref *v = xcalloc(run->aggregates.n, sizeof(*v));
	size_t n = 0;
	double total = NAN;
	uint64_t tl = 0;
	for (size_t i = 0; i < run->aggregates.n; i++) {
		const struct an_nums *a = tp_map_at(&run->aggregates, i);
		const char *name = tp_map_key(&run->aggregates, i);
		double sec = aggregate_seconds(a);
		if (isnan(sec))
			continue;
		if (!strcasecmp(name, "total")) {
			total = sec;
			tl = a->line;
		} else {
			v[n++] = (struct stage_ref){ name, sec, a->line };
		}
	}
	char what[200];
	snprintf(what, sizeof(what), "the profiler table of %s", run->label);
	if (n)
		breakdown_table(rep, o, run, what, v, n, total, tl, bottlenecks, 1);
	free(v);
}

/* Checks a printed table against itself: rows vs TOTAL, printed vs recomputed %. */
static void table_checks(struct report *rep, const struct an_run *run, const char *section,
			 const struct an_table *tab)
{
	double total = NAN, sum = 0;
	uint64_t total_line = 0;
	size_t nrows = 0;
	for (size_t i = 0; i < tab->rows.n; i++) {
		const struct an_row *row = tp_map_at(&tab->rows, i);
		if (is_wall(tp_map_key(&tab->rows, i)))
			continue; /* wall time is more than the rows by design (breakdown_table) */
		if (is_total(tp_map_key(&tab->rows, i))) {
			if (an_row_has(row, AN_ROW_SECONDS))
				total = row->seconds, total_line = row->line;
			continue;
		}
		if (an_row_has(row, AN_ROW_SECONDS))
			sum += row->seconds, nrows++;
	}
	if (nrows == 0)
		return;
	/* percentages of a table without a TOTAL are shares of the row sum */
	double denom = isnan(total) ? sum : total;
	/* only an inconsistent table is worth showing row by row */
	int bad = !isnan(total) && fabs(sum - total) > 0.005 * (double)nrows + 0.001 * total + 0.001;
	for (size_t i = 0; i < tab->rows.n && !bad; i++) {
		const struct an_row *row = tp_map_at(&tab->rows, i);
		if (an_row_has(row, AN_ROW_SECONDS | AN_ROW_PERCENT) && denom > 0 && !is_sum_row(tp_map_key(&tab->rows, i)))
			bad = fabs(row->percent - 100 * row->seconds / denom) > 0.1;
	}
	if (!bad)
		return;
	char title[256];
	snprintf(title, sizeof(title), "Printed table '%s' checked: %s", section, run->label);
	struct rtable *t = an_table(rep, AT_TABLE_CHECK, title);
	for (size_t i = 0; i < tab->rows.n; i++) {
		const struct an_row *row = tp_map_at(&tab->rows, i);
		const char *name = tp_map_key(&tab->rows, i);
		double re = denom > 0 && an_row_has(row, AN_ROW_SECONDS) ? 100 * row->seconds / denom : NAN;
		rt_text(t, run->label);
		rt_text(t, section);
		rt_text(t, name);
		rt_num(t, an_row_has(row, AN_ROW_SECONDS) ? row->seconds : NAN, 3);
		rt_num(t, an_row_has(row, AN_ROW_PERCENT) ? row->percent : NAN, 1);
		rt_num(t, is_sum_row(name) ? NAN : re, 2);
		double d = an_row_has(row, AN_ROW_PERCENT) && !isnan(re) ? row->percent - re : NAN;
		rt_num(t, d, 2);
		rt_num(t, (double)row->line, 0);
		/* one printed decimal: a difference above 0.1 points is not rounding */
		if (!isnan(d) && fabs(d) > 0.1 && !is_sum_row(name))
			report_finding(rep, SEV_WARNING, "breakdown", "inconsistent", run->label, run->file,
				       row->line, NULL,
				       "'%s' printed as %.1f%% of '%s' but %.2f s / %.2f s is %.2f%%", name,
				       row->percent, section, row->seconds, denom, re);
	}
	if (!isnan(total)) {
		/* each row is printed rounded to the last shown digit */
		double tol = 0.005 * (double)nrows + 0.001 * total + 0.001;
		if (fabs(sum - total) > tol)
			report_finding(rep, SEV_WARNING, "breakdown", "inconsistent", run->label, run->file,
				       total_line, NULL,
				       "rows of '%s' sum to %.3f s but its TOTAL says %.3f s (%+.3f s)", section,
				       sum, total, total - sum);
	}
}

/* A printed table row vs the raw [TIMING] line of the same stage. */
static void raw_vs_table(struct report *rep, const struct an_run *run, const char *section,
			 const struct an_table *tab)
{
	for (size_t i = 0; i < tab->rows.n; i++) {
		const struct an_row *row = tp_map_at(&tab->rows, i);
		const char *name = tp_map_key(&tab->rows, i);
		if (!an_row_has(row, AN_ROW_SECONDS) || is_sum_row(name))
			continue;
		/* look up without creating: scan (tables are small) */
		for (size_t k = 0; k < run->stages.n; k++) {
			if (strcmp(tp_map_key(&run->stages, k), name))
				continue;
			const struct an_stage *s = tp_map_at(&run->stages, k);
			if (fabs(s->seconds - row->seconds) > 0.01 + 0.001 * row->seconds)
				report_finding(rep, SEV_WARNING, "breakdown", "inconsistent", run->label,
					       run->file, row->line, NULL,
					       "'%s' is %.3f s in '%s' but %.3f s on line %llu", name,
					       row->seconds, section, s->seconds, (unsigned long long)s->line);
		}
	}
}

static void clock_findings(struct report *rep, const struct an_run *run)
{
	for (uint64_t i = 0; i < run->nclock && i < AN_MAX_CLOCK_ISSUES; i++) {
		const struct an_clock_issue *c = &run->clock[i];
		if (c->kind == 0)
			report_finding(rep, SEV_WARNING, "breakdown", "clock", run->label, run->file, c->line,
				       NULL, "timestamp goes back %.0f s from line %llu", c->a,
				       (unsigned long long)c->prev_line);
		else
			report_finding(rep, SEV_WARNING, "breakdown", "clock", run->label, run->file, c->line,
				       NULL,
				       "'%s' took %.2f s but only %.0f s passed since the timestamp on line %llu",
				       c->name, c->a, c->b, (unsigned long long)c->prev_line);
	}
	if (run->nclock > AN_MAX_CLOCK_ISSUES)
		report_finding(rep, SEV_WARNING, "breakdown", "clock", run->label, run->file, 0, NULL,
			       "%llu more clock issues not listed",
			       (unsigned long long)(run->nclock - AN_MAX_CLOCK_ISSUES));
}

/* tprof's share of a printed table's row, in the first table that has it. */
static double row_share(const struct an_run *run, const char *name)
{
	for (size_t i = 0; i < run->tables.n; i++) {
		const struct an_table *tab = tp_map_at(&run->tables, i);
		uint64_t tl;
		double total = table_total(tab, &tl);
		for (size_t k = 0; k < tab->rows.n && total > 0; k++) {
			const struct an_row *row = tp_map_at(&tab->rows, k);
			if (an_row_has(row, AN_ROW_SECONDS) && !strcmp(tp_map_key(&tab->rows, k), name))
				return 100 * row->seconds / total;
		}
	}
	return NAN;
}

/*
 * The conclusions S4's snippets print (meta records named as printed,
 * parse/lines/lines.c), beside tprof's own figure where it has one: the share of
 * the named operation (the snippet rates each printed row; tprof sums the
 * rows of one operation).
 */
static void printed_conclusions(struct report *rep, const struct an_run *run)
{
	static const char *const prefixes[] = { "BOTTLENECK: ", "Consider optimizing: ", "High variance",
						"Optimal batch size", "Average batch time", "Min batch time",
						"Max batch time" };
	struct rtable *t = NULL;
	for (size_t i = 0; i < run->meta.n; i++) {
		const char *key = tp_map_key(&run->meta, i);
		const struct an_nums *x = tp_map_at(&run->meta, i);
		size_t k;
		for (k = 0; k < ARRAY_SIZE(prefixes); k++)
			if (!strncmp(key, prefixes[k], strlen(prefixes[k])))
				break;
		if (k == ARRAY_SIZE(prefixes) || !tp_has_slot(x->has, S_META_VALUE))
			continue;
		if (!t)
			t = report_table(rep, "bottlenecks", "printed-conclusions", "Conclusions printed in the log",
					 "run,conclusion,printed,tprof_share:%,line");
		rt_text(t, run->label);
		rt_text(t, key);
		rt_num(t, x->num[0], 3);
		rt_num(t, k < 2 ? row_share(run, key + strlen(prefixes[k])) : NAN, 1);
		rt_num(t, (double)x->line, 0);
	}
}

/* Profiling metrics (S3) and GPM windows (S0), for bottlenecks. */
static void table_bottlenecks(struct report *rep, const struct an_opts *o, const struct an_run *run)
{
	metric_bottlenecks(rep, o, run);
	/* GPM: pattern generation's share of the tower's forward time */
	if (run->gpm_total_sum > 0) {
		double share = 100 * run->gpm_pattern_sum / run->gpm_total_sum;
		struct rtable *t = report_table(rep, "bottlenecks", "gpm-share", "GPM pattern generation share",
						"run,windows,graphs,pattern_gen:ms,total:ms,share:%,avg_nodes,"
						"window_nodes_min,window_nodes_max");
		t->bar_col = 5;
		rt_text(t, run->label);
		rt_num(t, (double)run->gpm_total_ms.n, 0);
		rt_num(t, run->gpm_graphs, 0);
		rt_num(t, run->gpm_pattern_sum, 2);
		rt_num(t, run->gpm_total_sum, 2);
		rt_num(t, share, 1);
		/* the tower's own figure (the run's average) beside each window's, recovered */
		rt_num(t, run->gpm_graphs > 0 ? run->gpm_nodes / run->gpm_graphs : NAN, 1);
		rt_num(t, run->gpm_window_nodes.n ? run->gpm_window_nodes.min : NAN, 1);
		rt_num(t, run->gpm_window_nodes.n ? run->gpm_window_nodes.max : NAN, 1);
		report_finding(rep, share > o->bottleneck_pct ? SEV_CRITICAL : share > o->optimize_pct ? SEV_NOTICE : SEV_INFO,
			       "bottlenecks", "gpm", run->label, run->file, run->gpm_total_ms.min_s.line,
			       share > o->optimize_pct ? an_advice("gpm") : NULL,
			       "GPM pattern generation is %.1f%% of the GPM forward time over %llu windows",
			       share, (unsigned long long)run->gpm_total_ms.n);
		report_stake(rep, run->gpm_pattern_sum / 2000); /* halved, in seconds */
	}
}

/* Data loading runs before the step (S3's data loader yields, then make_step runs). */
static int outside_step(const char *name, double total, double step_total)
{
	return strcasestr(name, "data") || strcasestr(name, "load") || total > step_total;
}

/*
 * S3: each metric's run time as a share of the training iteration:
 * the step metric (the largest named *total* or *step*), plus the metrics
 * that cannot be inside it (data loading, or longer than the step); the
 * others (loss_fn_computation) are parts of the step. Without a step
 * metric, of the sum of the metrics. No share exceeds 100%.
 */
static void metric_bottlenecks(struct report *rep, const struct an_opts *o, const struct an_run *run)
{
	double step_total = NAN, sum = 0;
	for (size_t i = 0; i < run->metrics.n; i++) {
		const struct an_named_series *s = tp_map_at(&run->metrics, i);
		const char *name = tp_map_key(&run->metrics, i);
		if (isnan(s->last_total))
			continue;
		if (strstr(name, "total") || strstr(name, "step"))
			step_total = isnan(step_total) || s->last_total > step_total ? s->last_total : step_total;
		else
			sum += s->last_total;
	}
	double denom = !isnan(step_total) ? step_total : sum;
	for (size_t i = 0; i < run->metrics.n && !isnan(step_total); i++) {
		const struct an_named_series *s = tp_map_at(&run->metrics, i);
		if (!isnan(s->last_total) && s->last_total != step_total &&
		    outside_step(tp_map_key(&run->metrics, i), s->last_total, step_total))
			denom += s->last_total;
	}
	const char *whole = denom != step_total && !isnan(step_total) ? "the training iteration (step + data loading)"
								      : "the training step";
	for (size_t i = 0; i < run->metrics.n && denom > 0; i++) {
		const struct an_named_series *s = tp_map_at(&run->metrics, i);
		const char *name = tp_map_key(&run->metrics, i);
		if (isnan(s->last_total) || s->last_total == step_total)
			continue;
		struct stage_ref st = { name, s->last_total, s->line };
		bottleneck_findings(rep, o, run, whole, &st, 100 * s->last_total / denom);
	}
}

void an_breakdown(const struct an_model *m, const struct an_opts *o, struct report *rep, int bottlenecks)
{
	an_section(rep, AS_BREAKDOWN);
	if (bottlenecks)
		an_section(rep, AS_BOTTLENECKS);
	an_step_parts(m, o, rep, bottlenecks);
	for (size_t r = 0; r < m->nruns; r++) {
		const struct an_run *run = m->runs[r];
		stage_tables(rep, o, run, bottlenecks);
		aggregate_table(rep, o, run, bottlenecks);
		for (size_t i = 0; i < run->tables.n; i++) {
			table_checks(rep, run, tp_map_key(&run->tables, i), tp_map_at(&run->tables, i));
			raw_vs_table(rep, run, tp_map_key(&run->tables, i), tp_map_at(&run->tables, i));
		}
		clock_findings(rep, run);
		if (bottlenecks) {
			table_bottlenecks(rep, o, run);
			printed_conclusions(rep, run);
		}
	}
}
