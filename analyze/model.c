/*
 * model.c - folds the record stream into per-run, per-name summaries
 * (see model.h). One function per record family; nothing here decides
 * what is a finding: that is analyses.c.
 */
#include "model.h"
#include "analyses_int.h"
#include "progress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- runs ---- */

static void series_free(void *p)
{
	tp_series_free(p);
}

static void batches_free(void *p)
{
	struct an_batches *b = p;
	tp_series_free(&b->seconds);
	tp_series_free(&b->cpu_mb);
	tp_series_free(&b->gpu_mb);
	tp_series_free(&b->loss);
	tp_series_free(&b->epochs);
	tp_series_free(&b->starts);
	tp_series_free(&b->inner);
}

static void part_free(void *p)
{
	struct an_part *x = p;
	tp_series_free(&x->s);
}

static void table_free(void *p)
{
	struct an_table *t = p;
	tp_map_free(&t->rows, NULL);
}

static struct an_run *run_new(const char *file)
{
	struct an_run *r = xcalloc(1, sizeof(*r));
	r->file = xstrdup(file);
	r->label = xstrdup(file);
	tp_map_init(&r->stages, sizeof(struct an_stage));
	tp_map_init(&r->completes, sizeof(struct an_nums));
	tp_map_init(&r->tables, sizeof(struct an_table));
	tp_map_init(&r->ranks, sizeof(struct an_batches));
	tp_map_init(&r->metrics, sizeof(struct an_named_series));
	tp_map_init(&r->aggregates, sizeof(struct an_nums));
	tp_map_init(&r->perfs, sizeof(struct an_named_series));
	tp_map_init(&r->latencies, sizeof(struct an_nums));
	tp_map_init(&r->warmups, sizeof(struct an_nums));
	tp_map_init(&r->speedups, sizeof(struct an_nums));
	tp_map_init(&r->runtimes, sizeof(struct an_nums));
	tp_map_init(&r->measured, 1);
	tp_map_init(&r->scaling, sizeof(struct an_nums));
	tp_map_init(&r->memory, sizeof(struct an_nums));
	tp_map_init(&r->flops, sizeof(struct an_nums));
	tp_map_init(&r->meta, sizeof(struct an_nums));
	tp_map_init(&r->rates, sizeof(struct an_named_series));
	tp_map_init(&r->parts, sizeof(struct an_part));
	tp_map_init(&r->spans, sizeof(struct an_named_series));
	tp_map_init(&r->rises, sizeof(struct an_named_series));
	tp_series_init(&r->gpm_pattern_ms);
	tp_series_init(&r->gpm_total_ms);
	tp_series_init(&r->gpm_avg_nodes);
	tp_series_init(&r->gpm_window_nodes);
	tp_trace_init(&r->t_gpm_pattern_ms);
	tp_trace_init(&r->t_gpm_total_ms);
	tp_trace_init(&r->t_gpm_avg_nodes);
	r->last_ts = INT64_MIN;
	r->last_ts_prank = -1;
	r->first_ts = INT64_MIN;
	r->max_ts = INT64_MIN;
	r->ts_rank = -1;
	r->rank_ts[0] = r->rank_ts[1] = r->rank_ts[2] = INT64_MIN;
	r->first_step_ts = INT64_MIN;
	r->train_ts = r->eval_from = r->eval_to = INT64_MIN;
	r->first_step_index = NAN;
	r->last_step_ts = INT64_MIN;
	r->last_value_ts = INT64_MIN;
	r->iter_index = NAN;
	r->iter_start = NAN;
	r->iter_peak = NAN;
	r->clock_step = r->clock_total = NAN;
	r->tokens_per_step = NAN;
	r->launch_ts = INT64_MIN;
	return r;
}

static void run_free(struct an_run *r)
{
	tp_map_free(&r->stages, NULL);
	tp_map_free(&r->completes, NULL);
	tp_map_free(&r->tables, table_free);
	tp_map_free(&r->ranks, batches_free);
	tp_map_free(&r->metrics, series_free);
	tp_map_free(&r->perfs, series_free);
	tp_map_free(&r->rates, series_free);
	tp_map_free(&r->parts, part_free);
	tp_map_free(&r->spans, series_free);
	tp_map_free(&r->rises, series_free);
	tp_map_free(&r->aggregates, NULL);
	tp_map_free(&r->latencies, NULL);
	tp_map_free(&r->warmups, NULL);
	tp_map_free(&r->speedups, NULL);
	tp_map_free(&r->runtimes, NULL);
	tp_map_free(&r->measured, NULL);
	tp_map_free(&r->scaling, NULL);
	tp_map_free(&r->memory, NULL);
	tp_map_free(&r->flops, NULL);
	tp_map_free(&r->meta, NULL);
	an_progress_free(r->progress);
	tp_series_free(&r->gpm_pattern_ms);
	tp_series_free(&r->gpm_total_ms);
	tp_series_free(&r->gpm_avg_nodes);
	tp_series_free(&r->gpm_window_nodes);
	free(r->file);
	free(r->label);
	free(r);
}

void an_model_init(struct an_model *m, double loss_threshold)
{
	memset(m, 0, sizeof(*m));
	m->loss_threshold = loss_threshold;
}

struct an_run *an_model_find(struct an_model *m, const char *file)
{
	for (size_t i = 0; i < m->nruns; i++)
		if (!strcmp(m->runs[i]->file, file))
			return m->runs[i];
	return NULL;
}

struct an_run *an_model_run(struct an_model *m, const char *file)
{
	/* a handful of runs: a linear search keeps the order of first appearance */
	for (size_t i = 0; i < m->nruns; i++)
		if (!strcmp(m->runs[i]->file, file))
			return m->runs[i];
	ALLOC_GROW(m->runs, m->nruns + 1, m->alloc);
	m->runs[m->nruns] = run_new(file);
	m->runs[m->nruns]->index = (int)m->nruns;
	return m->runs[m->nruns++];
}

void an_model_free(struct an_model *m)
{
	for (size_t i = 0; i < m->nruns; i++)
		run_free(m->runs[i]);
	free(m->runs);
	memset(m, 0, sizeof(*m));
}

/* ---- feeding ---- */

static void keep_nums(struct tp_map *map, const struct tp_record *r, const char *key, size_t n)
{
	struct an_nums *x = tp_map_get(map, key, n, NULL);
	memcpy(x->num, r->num, sizeof(x->num));
	x->has = r->has;
	x->line = r->line;
	x->text[0] = '\0';
	if (r->text) {
		size_t k = r->text_len < sizeof(x->text) - 1 ? r->text_len : sizeof(x->text) - 1;
		memcpy(x->text, r->text, k);
		x->text[k] = '\0';
	}
}

/* Whether a value no reader gave a role has a name the log's readers
 * declared a clock: then it is one (the "Time" of a second template of the
 * same line, with a mark after it, that discovery saw too few times
 * rising to say so). */
static int named_clock(const struct an_run *run, const struct tp_record *r)
{
	const struct an_part *x;
	return (r->role == TP_ROLE_NONE || r->role == TP_ROLE_STEP) && r->type == TP_TIMING && r->name &&
	       (x = tp_map_find(&run->parts, r->name, r->name_len)) && x->role == TP_ROLE_CLOCK &&
	       (r->role == TP_ROLE_NONE || x->became_clock);
}

/*
 * A step's values that rise as a clock's: ten or more, rising from one to
 * the next four times in five or more, falling to half or less (a new
 * launch's clock) but to more than half once in twenty at the most, and
 * four times the first since the last fall (Barlow
 * Twins' stats.txt: "time" the seconds since its process started, 6, 6,
 * ..., 138,705, named on a line that counts steps). A step that slows
 * down rises by a little and seldom doubles. From then on its values are
 * a clock's: their rises over the steps between are the step.
 */
static void clock_by_values(struct an_part *x, double sec)
{
	if (x->role != TP_ROLE_STEP || x->derived || x->parent[0])
		return;
	x->pairs++;
	if (sec > x->last)
		x->rises++;
	else if (sec < x->last && sec > 0.5 * x->last)
		x->small_falls++;
	if (sec <= 0.5 * x->last)
		x->seg_first = sec;
	x->last = sec;
	if (x->pairs >= 9 && x->small_falls * 20 <= x->pairs && x->rises * 5 >= x->pairs * 4 && x->seg_first > 0 &&
	    sec >= 4 * x->seg_first) {
		x->role = TP_ROLE_CLOCK;
		x->became_clock = 1;
	}
}

static void clock_issue(struct an_run *run, int kind, const struct tp_record *r, double a,
			double b, uint64_t prev_line)
{
	if (run->nclock < AN_MAX_CLOCK_ISSUES) {
		struct an_clock_issue *c = &run->clock[run->nclock];
		c->kind = kind;
		c->line = r->line;
		c->prev_line = prev_line;
		c->a = a;
		c->b = b;
		size_t k = r->name ? (r->name_len < sizeof(c->name) - 1 ? r->name_len : sizeof(c->name) - 1) : 0;
		if (k)
			memcpy(c->name, r->name, k);
		c->name[k] = '\0';
	}
	run->nclock++;
}

/* The first and last lines a stamp was read on (an_run.ts_lines). */
static void stamped_line(struct an_run *run, uint64_t line)
{
	if (!run->ts_lines[0] || line < run->ts_lines[0])
		run->ts_lines[0] = line;
	if (line > run->ts_lines[1])
		run->ts_lines[1] = line;
}

/* Timestamps must not go back; a [TIMING] stage cannot be longer than the
 * time since the previous time-stamped line (1 s + 5 % slack for rounding):
 * S0 prints each stage when it ends, on a stamped line. A phase a reader
 * declared (a framework's total, printed right after the stamped line
 * before it) is no such stage, nor is one printed after a step's line
 * (Swin's "EPOCH 2 training takes 0:00:31" after its last step's). */
static int at_a_step(const struct tp_record *r);

/* A phase printed on the line that ends a gap, of half the gap or more,
 * ran in it ("Total inference time: 0:40:00" after 40 silent minutes). */
static void fill_gap(struct an_run *run, const struct tp_record *r)
{
	if (run->gap > 0 && r->line == run->gap_line && r->type == TP_TIMING && tp_has(r, S_SECONDS) &&
	    an_role(r) == TP_ROLE_PHASE && r->num[S_SECONDS] >= 0.5 * run->gap)
		run->gap = 0;
}

double an_run_crashed(const struct an_run *run)
{
	return run->crashes && run->launch_ts != INT64_MIN && run->first_ts != INT64_MIN &&
			       run->launch_ts > run->first_ts && run->launch_ts <= run->first_step_ts
		       ? (double)(run->launch_ts - run->first_ts)
		       : 0;
}

/* The silence before a log's last stamps in which no value was read, where
 * longer than AN_IDLE_GAP (a relaunch's header a day later: "[ Wed Dec  3
 * 21:34:43 2025 ] Parameters:"), else 0. */
static double tail_silence(const struct an_run *run)
{
	return run->last_value_ts != INT64_MIN && run->max_ts - run->last_value_ts > AN_IDLE_GAP
		       ? (double)(run->max_ts - run->last_value_ts)
		       : 0;
}

double an_run_idle_after_steps(const struct an_run *run)
{
	if (run->last_step_ts == INT64_MIN)
		return 0;
	/* the gap before the last stamped line, where it began after the step */
	double pending = run->gap > 0 && (double)run->max_ts - run->gap >= (double)run->last_step_ts ? run->gap : 0;
	double tail = tail_silence(run);
	return run->idle_since_step + (pending > tail ? pending : tail);
}

double an_run_idle(const struct an_run *run, uint64_t *n)
{
	/* and the launches that crashed before the one that ran */
	double crashed = an_run_crashed(run);
	/* and the silence before the log's last stamps, where no gap says it
	 * already */
	double tail = run->gap > 0 ? 0 : tail_silence(run);
	*n = run->idle_gaps + (run->gap > 0) + (crashed > 0) + (tail > 0);
	return run->idle_s + run->gap + crashed + tail;
}


/*
 * The run's span (first_ts, max_ts) takes in the stamp t, of its most
 * complete stamps: a more complete one starts it again, a less complete
 * one is left out (HugeCTR's times of day beside MLPerf's dated stamps
 * would span twenty years).
 */
static void widen_span(struct an_run *run, int64_t t, int rank)
{
	if (rank < run->ts_rank)
		return;
	if (rank > run->ts_rank) {
		run->ts_rank = rank;
		run->first_ts = run->max_ts = t;
		/* the steps' stamps are placed within it: of its kind too */
		run->first_step_ts = run->last_step_ts = run->last_value_ts = INT64_MIN;
		run->first_step_index = NAN;
		return;
	}
	if (run->first_ts == INT64_MIN || t < run->first_ts)
		run->first_ts = t;
	if (t > run->max_ts)
		run->max_ts = t;
}

/* Checks the record's time stamp; returns it in seconds (INT64_MIN: none). */
static int64_t check_clock(struct an_run *run, const struct tp_record *r)
{
	int64_t t = tp_ts_seconds(r->ts);
	if (t == INT64_MIN)
		return t;
	/* each kind of stamp against its own kind: a time of day beside
	 * dated stamps is no clock going back */
	int rank = tp_ts_rank(r->ts);
	int64_t last = run->rank_ts[rank];
	/* a date without a year that goes back by months: a new year began;
	 * a time of day alone that goes back by half a day: a new day */
	if (r->ts[0] == '-') {
		t += run->year_shift;
		if (last != INT64_MIN && t < last - 180 * 86400) {
			int64_t year = run->year_shift ? 365 * 86400 : 366 * 86400;
			run->year_shift += year;
			t += year;
		}
	} else if (r->ts[0] == 'T') {
		t += run->year_shift;
		if (last != INT64_MIN && t < last - 43200) {
			run->year_shift += 86400;
			t += 86400;
		}
	}
	widen_span(run, t, rank);
	stamped_line(run, r->line);
	if (r->line == run->last_ts_line) { /* another record of the same line */
		run->last_ts_step |= at_a_step(r);
		fill_gap(run, r);
		return t;
	}
	/* a line read late (a discovered template's waiting lines, given when
	 * it qualifies) is no step of the clock */
	if (run->last_ts != INT64_MIN && r->line < run->last_ts_line)
		return t;
	if (last != INT64_MIN) {
		/* ranks' lines interleaved by the launcher (each rank's output in
		 * blocks, "[default2]:..." then "[default1]:..."): a stamp behind
		 * another rank's is no clock going back */
		if (t < last && !(r->rank >= 0 && run->last_ts_prank >= 0 && r->rank != run->last_ts_prank)) {
			clock_issue(run, 0, r, (double)(last - t), 0, run->last_ts_line);
		} else if (r->type == TP_TIMING && tp_has(r, S_SECONDS) && r->role == TP_ROLE_NONE &&
			   an_role(r) == TP_ROLE_PHASE && !r->parent && !named_clock(run, r) && !run->last_ts_step) {
			double elapsed = (double)(t - last);
			double sec = r->num[S_SECONDS];
			if (sec > elapsed * 1.05 + 1.0)
				clock_issue(run, 1, r, sec, elapsed, run->last_ts_line);
		}
	}
	/* the gap before this line: idle unless a phase printed on it fills it */
	if (run->gap > 0) {
		run->idle_s += run->gap;
		run->idle_since_step += run->gap;
		run->idle_gaps++;
	}
	run->gap = last != INT64_MIN && t - last > AN_IDLE_GAP ? (double)(t - last) : 0;
	run->gap_line = r->line;
	fill_gap(run, r);
	run->last_ts = t;
	run->rank_ts[rank] = t;
	run->last_ts_line = r->line;
	run->last_ts_prank = r->rank;
	run->last_ts_step = at_a_step(r);
	return t;
}

/* tprof-parse's "log start" and "log end" (meta): the first and last time
 * stamps of the whole log. */
static int is_span(const struct tp_record *r)
{
	return r->type == TP_META && r->ts && r->name &&
	       ((r->name_len == 9 && !memcmp(r->name, "log start", 9)) ||
		(r->name_len == 7 && !memcmp(r->name, "log end", 7)));
}

static int unit_is(const struct tp_record *r, const char *unit);
static int evaluation_rate(const struct tp_record *r);

/* A rate of steps: updates or steps per second (fairseq's ups), or
 * iterations per second that no reader called a bar's mean (the tqdm
 * pack's role "rate" may be a validation loop's): a trainer's own line,
 * "1.45 it/sec" (Demucs), "| 3.04 it/s |". */
static int steps_rate(const struct tp_record *r)
{
	static const char *const iters[] = { "it/s", "it/sec", "iter/s", "iters/s", "iters/sec", "iterations/s" };
	if (unit_is(r, "updates/s") || unit_is(r, "steps/s"))
		return 1;
	if (r->role != TP_ROLE_NONE)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(iters); i++)
		if (unit_is(r, iters[i]))
			return 1;
	return 0;
}

/* A value printed at a step: a batch, a step's value or part, a mean of
 * one, or a training rate of steps (whose inverse is the step). */
static int at_a_step(const struct tp_record *r)
{
	enum tp_role role = an_role(r);
	if (r->type == TP_RATE)
		return tp_has(r, S_RATE_VALUE) && r->num[S_RATE_VALUE] > 0 && !evaluation_rate(r) && steps_rate(r);
	return r->type == TP_BATCH || role == TP_ROLE_STEP || role == TP_ROLE_COMPONENT ||
	       role == TP_ROLE_RUNNING || role == TP_ROLE_AVERAGE;
}

static void copy_parent(char *dst, const struct tp_record *r)
{
	size_t k = r->parent ? (r->parent_len < AN_PARENT_MAX - 1 ? r->parent_len : AN_PARENT_MAX - 1) : 0;
	if (k)
		memcpy(dst, r->parent, k);
	dst[k] = '\0';
}

static int name_has(const struct tp_record *r, const char *word)
{
	char buf[128];
	size_t k = r->name_len < sizeof(buf) - 1 ? r->name_len : sizeof(buf) - 1;
	memcpy(buf, r->name, k);
	buf[k] = '\0';
	return strcasestr(buf, word) != NULL;
}

enum tp_role an_role(const struct tp_record *r)
{
	if (r->role != TP_ROLE_NONE || r->type != TP_TIMING || !r->name)
		return tp_role_of(r);
	static const char *const average[] = { "avg", "mean", "average", "since start", "per iter",
					       "_per_iter", "/it", "per step" };
	static const char *const clock[] = { "elapsed", "wall", "clock" };
	static const char *const eta[] = { "eta", "remaining" };
	for (size_t i = 0; i < ARRAY_SIZE(average); i++)
		if (name_has(r, average[i]))
			return TP_ROLE_AVERAGE;
	/* "Time Elapsed for This Epoch" is each epoch's own */
	static const char *const own[] = { "this ", "per ", "each " };
	int per = 0;
	for (size_t i = 0; i < ARRAY_SIZE(own); i++)
		per |= name_has(r, own[i]);
	for (size_t i = 0; i < ARRAY_SIZE(clock) && !per; i++)
		if (name_has(r, clock[i]))
			return TP_ROLE_CLOCK;
	for (size_t i = 0; i < ARRAY_SIZE(eta); i++)
		if (name_has(r, eta[i]) && r->name_len == strlen(eta[i]))
			return TP_ROLE_ETA;
	return TP_ROLE_PHASE;
}

/*
 * The whole run's span said twice: a phase at the top of 90 % of the time
 * stamps' span or more, within 1 % of another such printed before it
 * (detectron2's "Total training time" and MLPerf's "MLPERF METRIC TIME",
 * both the run): the later is no phase beside the first.
 */
static int whole_run_again(const struct an_run *run, const struct an_stage *s)
{
	double wall = run->first_ts != INT64_MIN && run->max_ts > run->first_ts ? (double)(run->max_ts - run->first_ts)
										 : NAN;
	if (!(s->seconds >= 0.9 * wall))
		return 0;
	/* the other is one of the two largest (an_run.big): no search of
	 * every phase for each */
	for (int i = 0; i < 2; i++) {
		const struct an_stage *x = tp_map_find(&run->stages, run->big[i], strlen(run->big[i]));
		if (x && x != s && x->line < s->line && !*an_stage_parent(run, x) &&
		    fabs(x->seconds - s->seconds) <= 0.01 * s->seconds)
			return 1;
	}
	return 0;
}

/* Keeps the names of the two phases of the most seconds in run->big. */
static void note_big(struct an_run *run, const char *name, size_t n, double seconds)
{
	char key[AN_PARENT_MAX];
	snprintf(key, sizeof(key), "%.*s", (int)(n < sizeof(key) - 1 ? n : sizeof(key) - 1), name);
	const struct an_stage *b[2];
	for (int i = 0; i < 2; i++)
		b[i] = run->big[i][0] ? tp_map_find(&run->stages, run->big[i], strlen(run->big[i])) : NULL;
	if (!strcmp(key, run->big[0]))
		return;
	if (!strcmp(key, run->big[1])) {
		if (b[0] && seconds > b[0]->seconds) {
			memcpy(run->big[1], run->big[0], sizeof(run->big[1]));
			memcpy(run->big[0], key, sizeof(key));
		}
		return;
	}
	if (!b[0] || seconds > b[0]->seconds) {
		memcpy(run->big[1], run->big[0], sizeof(run->big[1]));
		memcpy(run->big[0], key, sizeof(key));
	} else if (!b[1] || seconds > b[1]->seconds) {
		memcpy(run->big[1], key, sizeof(key));
	}
}

/* The phase s's reader declared as its parent, where it printed; else NULL. */
static const struct an_stage *declared_parent(const struct an_run *run, const struct an_stage *s)
{
	return s->parent[0] ? tp_map_find(&run->stages, s->parent, strlen(s->parent)) : NULL;
}

const char *an_stage_parent(const struct an_run *run, const struct an_stage *s)
{
	/* a phase whose parent never printed (an evaluation-only run has no
	 * training around its inference) stands at the top, or in the phase
	 * whose span held it */
	if (declared_parent(run, s))
		return s->parent;
	if (s->held_by[0] && tp_map_find(&run->stages, s->held_by, strlen(s->held_by)))
		return s->held_by;
	return "";
}

int an_stage_in(const struct an_run *run, const struct an_stage *s, const char *p)
{
	const char *up = an_stage_parent(run, s);
	return p ? !strcmp(up, p) : !*up && !whole_run_again(run, s);
}

/*
 * A reading no reader declared is a clock when it only grew (three prints
 * or more), or when it grew on four prints in five and otherwise fell to
 * half or less, ten prints or more: a clock restarted each epoch (a
 * loop's "Time taken for 1 epoch: 56.12 secs" after every logged batch,
 * the seconds since the epoch began). Its rises are its steps
 * (an_run.rises), its peaks the spans it measured.
 */
int an_stage_is_clock(const struct an_stage *s)
{
	if (!s->inferred)
		return 0;
	if (s->grows && s->count >= 3)
		return 1;
	return s->count >= 10 && s->drops && !s->dips && s->rises * 5 >= (s->count - 1) * 4;
}

/*
 * A phase no reader declared whose prints, all between the log's stamped
 * lines, add up to more than the stamps span (5 % and a second of slack)
 * cannot be disjoint spans: one name holds nested or cumulative readings
 * ("time:124.04" of an epoch's training, then "time:126.47" since the same
 * epoch's start after its validation). No phase to add either.
 */
static int overflows(const struct an_run *run, const struct an_stage *s)
{
	if (!s->inferred || run->first_ts == INT64_MIN || run->max_ts <= run->first_ts || !run->ts_lines[0] ||
	    run->ts_lines[0] > s->line || run->ts_lines[1] < s->last_line)
		return 0;
	return s->seconds > 1.05 * (double)(run->max_ts - run->first_ts) + 1;
}

int an_stage_is_span(const struct an_run *run, const struct an_stage *s)
{
	return !an_stage_is_clock(s) && !overflows(run, s);
}

double an_stage_clock_span(const struct an_stage *s)
{
	return s->peaks + s->last;
}

const struct an_part *an_part_find(const struct an_run *run, const char *name)
{
	return tp_map_find(&run->parts, name, strlen(name));
}

static int is_training(const char *name)
{
	return !strcmp(an_phase_kind(name), "training");
}

/*
 * A training phase printed after the steps began (Hugging Face's and
 * PaddleNLP's train_runtime, printed when training ends) holds the phases
 * no reader declared that were printed while it ran: evaluations, windows
 * of steps (PaddleNLP's interval_runtime), epochs. They are its parts, not
 * its siblings.
 */
static void adopt_inside(struct an_run *run, const struct an_stage *s, const char *name)
{
	if (!run->first_step_line || s->line <= run->first_step_line)
		return;
	for (size_t i = 0; i < run->stages.n; i++) {
		struct an_stage *x = tp_map_at(&run->stages, i);
		const char *k = tp_map_key(&run->stages, i);
		if (x != s && x->inferred && !x->parent[0] && x->line >= run->first_step_line && an_stage_is_span(run, x) &&
		    !is_training(k))
			snprintf(x->parent, sizeof(x->parent), "%s", name);
	}
}

/*
 * A framework's training phase (Hugging Face's train_runtime) that a seed
 * times from outside (Graph-LLaVA's "[TIMING] Main training loop" around
 * trainer.train()) is inside that stage, whichever is printed first.
 */
static void adopt_training(struct an_run *run, struct an_stage *s, const char *name)
{
	if (s->parent[0] || !is_training(name))
		return;
	adopt_inside(run, s, name);
	if (!s->inferred && run->loop[0] && strcmp(run->loop, name)) {
		snprintf(s->parent, sizeof(s->parent), "%s", run->loop);
	} else if (s->inferred && !run->loop[0]) {
		snprintf(run->loop, sizeof(run->loop), "%s", name);
		for (size_t i = 0; i < run->stages.n; i++) {
			struct an_stage *x = tp_map_at(&run->stages, i);
			const char *k = tp_map_key(&run->stages, i);
			if (x != s && !x->inferred && !x->parent[0] && is_training(k))
				snprintf(x->parent, sizeof(x->parent), "%s", name);
		}
	}
}

/* Whether the moment t lies in the span of sec seconds that ended at end. */
static int within(int64_t t, int64_t end, double sec)
{
	return t != INT64_MIN && t <= end && (double)t >= (double)end - sec - 1;
}

/*
 * A phase a reader declared, printed when it ended with a time stamp, holds
 * the phases at the top whose first or latest print its span covers
 * ([stamp - seconds, stamp]; a line without a stamp is at the log's last
 * one before it) and whose parent, if they name one, never
 * printed: maskrcnn-benchmark's "Total training time" holds the
 * evaluations its trainer's hooks ran, whose "hooks" parent it never
 * prints. Phases no reader declared (a seed's stages) keep their places.
 */
static void adopt_by_stamps(struct an_run *run, const struct an_stage *s, const char *name, double sec)
{
	/* containers are few: a log of many declared phases looks no further
	 * than the first 64 (each looks at every phase) */
	if (s->inferred || s->parent[0] || s->ts == INT64_MIN || run->adoptions >= 64)
		return;
	run->adoptions++;
	for (size_t i = 0; i < run->stages.n; i++) {
		struct an_stage *x = tp_map_at(&run->stages, i);
		if (x == s || x->held_by[0] || !(x->seconds < sec) || declared_parent(run, x) ||
		    !(within(x->seen_ts, s->ts, sec) || within(x->last_seen_ts, s->ts, sec)))
			continue;
		/* kept beside the declared parent, which may print later on
		 * the same line (detectron2's hooks after its total) */
		snprintf(x->held_by, sizeof(x->held_by), "%s", name);
	}
}

/* Whether phase x, at the top and printed before line, is one a total s
 * printed at line may hold. */
static int held_by_total(const struct an_stage *x, const struct an_stage *s, uint64_t line)
{
	return x != s && !x->held_by[0] && !x->parent[0] && x->last_line < line;
}

/*
 * A phase printed once, after the phases at the top whose prints add up
 * to no more than it and to at least four fifths of it, three prints or
 * more, in a log of at most 64 names: their total, which holds them (a
 * script's closing "--- 2093.26 seconds ---" after its 90 epochs of 23 s;
 * stamps, where a log has them, say the same through adopt_by_stamps()).
 */
static void adopt_by_sum(struct an_run *run, const struct an_stage *s, const char *name, double sec,
			 uint64_t line)
{
	/* a log of many names is no script's few phases and their total:
	 * each new name would look at every other */
	if (run->stages.n > 64)
		return;
	double sum = 0;
	uint64_t prints = 0;
	for (size_t i = 0; i < run->stages.n; i++) {
		const struct an_stage *x = tp_map_at(&run->stages, i);
		if (held_by_total(x, s, line)) {
			sum += x->seconds;
			prints += x->count;
		}
	}
	if (prints < 3 || !(sum <= sec * 1.001) || !(sum >= 0.8 * sec))
		return;
	for (size_t i = 0; i < run->stages.n; i++) {
		struct an_stage *x = tp_map_at(&run->stages, i);
		if (held_by_total(x, s, line))
			snprintf(x->held_by, sizeof(x->held_by), "%s", name);
	}
}

static struct an_named_series *named_series(struct tp_map *map, const char *name, size_t n, uint64_t line);

/*
 * The seconds of a name's last print (before s) that lay within this
 * print's stamped span (own - sec to own), where no reader declared the
 * name: one name for nested readings (GluonNLP's "Time cost=1.77s" of an
 * epoch's evaluation, then "Time cost=35.56s" of the epoch around it, 11
 * s later), which the phase holds once. Stamps of whole seconds: an
 * overlap under a second, or under half the shorter print, is none.
 */
static double within_last(struct an_stage *s, int64_t own, double sec, double before)
{
	double from = s->from, to = s->to;
	s->from = s->to = NAN;
	if (!s->inferred || own == INT64_MIN)
		return 0;
	s->from = (double)own - sec;
	s->to = (double)own;
	double overlap = fmin(to, s->to) - fmax(from, s->from);
	if (!(overlap >= 1) || !(overlap >= 0.5 * fmin(sec, before)))
		return 0;
	return fmin(overlap, fmin(sec, before));
}

static void feed_stage(struct an_run *run, const struct tp_record *r, double sec)
{
	/* a negative duration was warned about by the parser: it is no share */
	if (!r->name || isnan(sec) || sec < 0)
		return;
	struct an_stage *s = tp_map_get(&run->stages, r->name, r->name_len, NULL);
	/* data parallel: every rank prints its copy of the same epoch
	 * ("04: Epoch 0/90 - 30.284s" from 16 Horovod ranks); one rank's
	 * copies are the phase, the others' no time of their own */
	if (s->count > 0 && r->rank >= 0 && s->rank >= 0 && r->rank != s->rank)
		return;
	int64_t own = tp_ts_seconds(r->ts);
	s->last_seen_ts = own != INT64_MIN ? own : run->last_ts;
	if (s->count == 0) {
		s->from = s->to = NAN;
		s->line = r->line;
		s->rank = r->rank;
		s->ts = tp_ts_seconds(r->ts);
		s->seen_ts = s->ts != INT64_MIN ? s->ts : run->last_ts;
		s->grows = 1;
		s->same = sec * 1000 != floor(sec * 1000);
		s->inferred = r->role == TP_ROLE_NONE;
		copy_parent(s->parent, r);
		/* first printed after its parent's last print, which ended the
		 * parent: not inside it, whatever its reader declared
		 * (detectron2's "inference" of an evaluation-only launch a day
		 * after the trainings' "hooks") */
		const struct an_stage *up = declared_parent(run, s);
		if (up && up != s && s->seen_ts != INT64_MIN && up->last_seen_ts != INT64_MIN &&
		    s->seen_ts > up->last_seen_ts)
			s->parent[0] = '\0';
		const char *key = tp_map_key(&run->stages, run->stages.n - 1);
		s->training = !strcmp(an_phase_kind(key), "training");
		s->loose = s->inferred && !strcmp(an_phase_kind(key), "other");
		adopt_training(run, s, key);
		adopt_by_stamps(run, s, key, sec);
		adopt_by_sum(run, s, key, sec, r->line);
	} else if (r->type == TP_SUMMARY && fabs(sec - s->last) <= 0.011 + 1e-4 * sec) {
		/* a run's report printed again (a log dict, then its metrics
		 * block, rounded): one phase, not two */
		return;
	} else if (s->same && sec == s->last) {
		/* every print the same value to a digit finer than a
		 * millisecond (Ray's warmup_time in every result): one phase
		 * printed again, unless a value differs later */
		s->held += sec;
		s->count++;
		s->grows = 0;
		return;
	} else if (r->line <= s->last_line + 2 && fabs(sec * 1e6 - round(sec * 1e6)) > 1e-3 &&
		   fabs(sec - s->last) <= 1e-6 * sec) {
		/* the same span to a millionth, printed to digits finer than a
		 * microsecond, line after line: each process's copy of one print
		 * (MLPerf's "&&&& MLPERF METRIC TIME= 11593.176248788834" from
		 * eight ranks), one phase; a value of four decimals may recur */
		s->last_line = r->line;
		return;
	} else if (sec <= s->last) {
		s->grows = 0;
	}
	if (s->count) {
		if (sec > s->last) {
			s->rises++;
			if (s->inferred)
				tp_series_add(&named_series(&run->rises, r->name, r->name_len, r->line)->s,
					      sec - s->last, r->line);
		} else if (sec <= s->last / 2) {
			s->drops++;
			s->peaks += s->last;
		} else if (sec < s->last) {
			s->dips++;
		}
	}
	if (s->count && s->same) {
		s->seconds += s->held;
		s->held = 0;
		s->same = 0;
	}
	double before = s->last;
	uint64_t before_line = s->last_line;
	s->last = sec;
	s->last_line = r->line;
	s->seconds += sec - within_last(s, own, sec, before);
	s->count++;
	note_big(run, r->name, r->name_len, s->seconds);
	/* a training phase at the top, each print its own span: the series
	 * a log that prints nothing finer has for its steps (an epoch's time);
	 * a phase no name places, once it repeats (a million names printed
	 * once each keep no series) */
	if (s->parent[0] || !(s->training || (s->loose && s->count >= 2)))
		return;
	struct tp_series *sp = &named_series(&run->spans, r->name, r->name_len, r->line)->s;
	if (s->loose && s->count == 2)
		tp_series_add(sp, before, before_line);
	tp_series_add(sp, sec, r->line);
}

/* Whether a batch index begins a count: the first, or a fall to half or
 * less of the last (a new epoch's count from 0 or 1). */
static int count_starts(double last, double i)
{
	return isnan(last) || i <= last / 2;
}

/* Below, with the batches (a clock's reading closes a window of steps). */
static struct an_batches *rank_batches(struct an_run *run, int rank);
static void window_step(struct an_run *run, const char *name, double *pt, double *pi, double t, double i,
			uint64_t line, double whole);

/* Adds the parts of the line read so far into the step they make, when
 * there are two or more and the line printed no step of its own. */
static void close_parts(struct an_run *run)
{
	if (run->parts_n >= 2) {
		int created;
		struct an_part *x = tp_map_get(&run->parts, AN_PARTS_STEP, strlen(AN_PARTS_STEP), &created);
		if (created) {
			tp_series_init(&x->s);
			x->role = TP_ROLE_STEP;
			x->line = run->parts_line;
			x->derived = 1;
		}
		tp_series_add(&x->s, run->parts_sum, run->parts_line);
		x->steps += run->parts_steps;
	}
	run->parts_n = 0;
	run->parts_sum = 0;
	run->parts_steps = 0;
}

/* The line being read (parts_line): a new one closes the last. */
static void parts_at(struct an_run *run, uint64_t line)
{
	if (line != run->parts_line) {
		close_parts(run);
		run->parts_line = line;
	}
}

static void feed_part(struct an_run *run, const struct tp_record *r, enum tp_role role, double sec, double steps)
{
	if (!r->name || isnan(sec) || sec < 0)
		return;
	/* a step's parts ("updt_s" and "data_s" of parent "step") add up by
	 * line into the step, unless the line prints its step (the last
	 * line's stay open: one value fewer) */
	if (role == TP_ROLE_COMPONENT && r->parent_len == 4 && !memcmp(r->parent, "step", 4)) {
		parts_at(run, r->line);
		if (run->parts_n >= 0) {
			run->parts_sum += sec;
			run->parts_n++;
			run->parts_steps = steps; /* the parts of one window */
		}
	} else if (role == TP_ROLE_STEP) {
		parts_at(run, r->line);
		run->parts_n = -1;
	}
	if (role == TP_ROLE_CLOCK) {
		run->clock_line = r->line;
		run->clock_value = sec;
		/* the time between a clock's prints (an epoch's, where it is
		 * printed once an epoch), for a log that prints nothing finer */
		struct an_named_series *d = named_series(&run->spans, r->name, r->name_len, r->line);
		if (sec > d->last_total) {
			tp_series_add(&d->s, sec - d->last_total, r->line);
			d->sum_aux += sec - d->last_total;
		} else if (isnan(d->last_total) || sec < 0.5 * d->last_total) {
			/* its first reading, or it started again (an epoch's
			 * clock, a launch's; two ranks' readings never fall so
			 * far): the time since its start */
			d->sum_aux += sec;
		}
		d->last_total = sec;
		/* on the index's line, or a few lines after it in the same
		 * table (stable-baselines3's iterations, then time_elapsed) */
		if (run->index_line && r->line >= run->index_line && r->line - run->index_line <= 4) {
			struct an_batches *b = rank_batches(run, run->index_rank);
			window_step(run, AN_CLOCK_STEP, &b->clock_t, &b->clock_index, sec, run->index_value, r->line, 0);
			run->index_line = 0;
		}
	}
	int created;
	struct an_part *x = tp_map_get(&run->parts, r->name, r->name_len, &created);
	if (created) {
		tp_series_init(&x->s);
		x->role = role;
		x->line = r->line;
		copy_parent(x->parent, r);
		x->last = x->seg_first = sec;
	} else if (role == TP_ROLE_STEP) {
		clock_by_values(x, sec);
	}
	tp_series_add(&x->s, sec, r->line);
	x->steps += steps;
}

/* The seconds of a timing, summary or runtime value (the mean, else the
 * slowest rank's), or NAN. */
static double value_seconds(const struct tp_record *r)
{
	if (r->type == TP_RUNTIME) {
		int slot = tp_has(r, S_RT_MEAN_MS) ? S_RT_MEAN_MS : S_RT_MAX_MS;
		return tp_has(r, slot) ? r->num[slot] / 1000 : NAN;
	}
	return tp_has(r, S_SECONDS) ? r->num[S_SECONDS] : NAN;
}

/* Whether sec, a record's duration, is over AN_MAX_SECONDS (no run lasts
 * that long): counted, for the record to be left out of every table and
 * sum. */
static int impossible(struct an_run *run, const struct tp_record *r, double sec)
{
	if (isnan(sec) || sec <= AN_MAX_SECONDS)
		return 0;
	if (!run->impossible++)
		run->impossible_line = r->line;
	return 1;
}

/* A time value routed by what it is: phases add up among siblings, the
 * rest is kept as series that are never summed. */
static void feed_timed(struct an_run *run, const struct tp_record *r)
{
	enum tp_role role = an_role(r);
	double sec = value_seconds(r), steps = 1;
	if (impossible(run, r, sec))
		return;
	if (named_clock(run, r))
		role = TP_ROLE_CLOCK;
	switch (role) {
	case TP_ROLE_PHASE:
	case TP_ROLE_NONE:
		feed_stage(run, r, sec);
		break;
	case TP_ROLE_STEP:
	case TP_ROLE_COMPONENT:
	case TP_ROLE_RUNNING:
	case TP_ROLE_AVERAGE:
		/* the time of a window of steps: each step's mean */
		if (r->type == TP_TIMING && tp_has(r, S_TIM_COUNT) && r->num[S_TIM_COUNT] >= 1) {
			steps = r->num[S_TIM_COUNT];
			sec /= steps;
		}
		/* a step's time that is its clock's rise since the last print,
		 * which was steps ago: the time since the last print, named as
		 * a step's (a parameter-golf trainer's "this_step:3654.5ms" at
		 * every 50th step) */
		else if (role == TP_ROLE_STEP && r->line == run->window_line && run->window_steps > 1 &&
			 fabs(sec - run->window_seconds) <= 0.02 * run->window_seconds)
			sec /= run->window_steps;
		feed_part(run, r, role, sec, steps);
		break;
	case TP_ROLE_CLOCK:
		feed_part(run, r, role, sec, 1);
		break;
	default:
		run->not_time++;
		break;
	}
}

/*
 * A profiler's row whose reader said what it is (Lightning's SimpleProfiler:
 * the Total a phase, run_training_epoch a phase within it, run_training_batch
 * the step, the batch's fetch and optimizer step its parts): the run's phase
 * or step, as a timing of its total over its calls, and no row of a table
 * whose rows would add up (they nest). A part is taken only of a step
 * declared so; other roles (torch.profiler's rows, parts of its footer's
 * total) stay the table's rows. Returns whether it was taken (a phase of
 * no parent, the table's Total, is its total too).
 */
static int feed_declared_aggregate(struct an_run *run, const struct tp_record *r)
{
	enum tp_role role = r->role;
	const struct an_part *p;
	if (role != TP_ROLE_PHASE && role != TP_ROLE_STEP && role != TP_ROLE_COMPONENT)
		return 0;
	if (role == TP_ROLE_COMPONENT &&
	    !(r->parent && (p = tp_map_find(&run->parts, r->parent, r->parent_len)) && p->role == TP_ROLE_STEP))
		return 0;
	double n = tp_has(r, S_AGG_COUNT) ? r->num[S_AGG_COUNT] : NAN;
	double sec = tp_has(r, S_AGG_TOTAL_S) ? r->num[S_AGG_TOTAL_S]
		     : tp_has(r, S_AGG_MEAN_S) && n >= 1 ? r->num[S_AGG_MEAN_S] * n : NAN;
	if (isnan(sec) || (role != TP_ROLE_PHASE && !(n >= 1)))
		return 0;
	struct tp_record t = *r;
	t.type = TP_TIMING;
	t.has = TP_HAS(S_SECONDS);
	memset(t.num, 0, sizeof(t.num));
	t.num[S_SECONDS] = sec;
	if (role != TP_ROLE_PHASE) { /* a window of n steps: each step's mean */
		t.num[S_TIM_COUNT] = n;
		t.has |= TP_HAS(S_TIM_COUNT);
	}
	feed_timed(run, &t);
	/* the table's total stays its rows' total (the rows no reader placed
	 * are shares of it) */
	return role != TP_ROLE_PHASE || r->parent;
}

static void feed_summary(struct an_run *run, const struct tp_record *r)
{
	const char *sec = r->text ? r->text : "";
	size_t sn = r->text ? r->text_len : 0;
	int created;
	struct an_table *t = tp_map_get(&run->tables, sec, sn, &created);
	if (created) {
		tp_map_init(&t->rows, sizeof(struct an_row));
		t->line = r->line;
	}
	if (!r->name)
		return;
	/* a table's rows are printed on consecutive lines (a rule may sit
	 * between the rows and the TOTAL): a gap or a TOTAL ends a printing */
	if (!created && (t->closed || r->line > t->last_line + 2))
		t->gen++;
	t->closed = r->name_len == 5 && !memcmp(r->name, "TOTAL", 5);
	t->last_line = r->line;
	struct an_row *row = tp_map_get(&t->rows, r->name, r->name_len, NULL);
	static const int slots[] = { S_SECONDS, S_SUM_PERCENT, S_SUM_CPU_MB, S_SUM_GPU_MB,
				     S_SUM_GPU_PEAK_MB };
	double *dst[] = { &row->seconds, &row->percent, &row->cpu_mb, &row->gpu_mb, &row->gpu_peak_mb };
	int repeat = row->count && row->gen == t->gen;
	if (!repeat) {
		row->has = 0;
		row->count = 0;
		row->gen = t->gen;
		row->line = r->line;
	}
	row->count++;
	for (int i = 0; i < 5; i++) {
		if (!tp_has(r, slots[i]))
			continue;
		double v = r->num[slots[i]];
		if (!(row->has & (1u << i)))
			*dst[i] = v;
		else if (slots[i] == S_SUM_GPU_PEAK_MB)
			*dst[i] = v > *dst[i] ? v : *dst[i];
		else
			*dst[i] += v;
		row->has |= 1u << i;
	}
}

static struct an_batches *rank_batches(struct an_run *run, int rank)
{
	char key[16];
	int n = rank < 0 ? snprintf(key, sizeof(key), "-") : snprintf(key, sizeof(key), "%d", rank);
	int created;
	struct an_batches *b = tp_map_get(&run->ranks, key, (size_t)n, &created);
	if (created) {
		tp_series_init(&b->seconds);
		tp_series_init(&b->cpu_mb);
		tp_series_init(&b->gpu_mb);
		tp_series_init(&b->loss);
		tp_trace_init(&b->t_seconds);
		tp_trace_init(&b->t_cpu_mb);
		tp_trace_init(&b->t_gpu_mb);
		tp_trace_init(&b->t_loss);
		tp_series_init(&b->epochs);
		tp_trace_init(&b->t_epochs);
		b->cur.min = INFINITY, b->cur.max = -INFINITY;
		b->stamp_t = b->stamp_index = NAN;
		b->clock_t = b->clock_index = NAN;
		tp_series_init(&b->starts);
		tp_series_init(&b->inner);
		b->last_index = NAN;
	}
	return b;
}

/* A time stamp in seconds with its fraction ("...:05.850"), or NAN. */
static double stamp_seconds(const char *ts)
{
	int64_t t = tp_ts_seconds(ts);
	if (t == INT64_MIN)
		return NAN;
	const char *dot = strchr(ts, '.');
	return (double)t + (dot ? strtod(dot, NULL) : 0);
}

/* A window mean of the step, made here: named for where it comes from. */
static void add_window(struct an_run *run, const char *name, double v, double steps, uint64_t line)
{
	int created;
	struct an_part *x = tp_map_get(&run->parts, name, strlen(name), &created);
	if (created) {
		tp_series_init(&x->s);
		x->role = TP_ROLE_RUNNING;
		x->line = line;
		x->derived = 1;
	}
	tp_series_add(&x->s, v, line);
	x->steps += steps; /* the steps its windows cover, for the count */
}

/*
 * A trainer that prints a line at each step (or every N steps) with its
 * number but no duration: the time between two such lines over the steps
 * between them is the step's mean over that window (a running value, so
 * that a step printed as such comes first), from the lines' time stamps,
 * or from a clock the line prints ("step=100 ... elapsed=71s"). The index
 * going back (a new epoch, another engine's counter, a new launch) starts
 * again.
 */
#define WHOLE_WINDOW_S 10.0

static void window_step(struct an_run *run, const char *name, double *pt, double *pi, double t, double i,
			uint64_t line, double whole)
{
	if (isnan(t))
		return;
	/* stamps of whole seconds a few seconds apart measure mostly their
	 * rounding ("09:30:04" to "09:30:05" for ten steps of 0.08 s): the
	 * window goes on to whole seconds or more (WHOLE_WINDOW_S), while
	 * the index rises */
	if (!isnan(*pt) && i > *pi && t >= *pt && t == floor(t) && *pt == floor(*pt) && t - *pt < whole)
		return;
	if (!isnan(*pt) && i > *pi && t >= *pt)
		add_window(run, name, (t - *pt) / (i - *pi), i - *pi, line);
	*pt = t;
	*pi = i;
}

static void batch_from_stamps(struct an_run *run, struct an_batches *b, const struct tp_record *r)
{
	double i = r->num[S_BAT_INDEX];
	window_step(run, AN_STAMP_STEP, &b->stamp_t, &b->stamp_index, r->ts ? stamp_seconds(r->ts) : NAN, i, r->line,
		    WHOLE_WINDOW_S);
	/* the clock of the line, read before the index or after it */
	if (run->clock_line == r->line)
		window_step(run, AN_CLOCK_STEP, &b->clock_t, &b->clock_index, run->clock_value, i, r->line, 0);
	else
		run->index_line = r->line, run->index_value = i, run->index_rank = r->rank;
}

static void feed_batch(struct an_model *m, struct an_run *run, const struct tp_record *r)
{
	struct an_batches *b = rank_batches(run, r->rank);
	if (!tp_has(r, S_SECONDS) && tp_has(r, S_BAT_INDEX))
		batch_from_stamps(run, b, r);
	if (b->seconds.n == 0)
		b->first_line = r->line;
	if (tp_has(r, S_SECONDS) && tp_has(r, S_BAT_INDEX)) {
		double i = r->num[S_BAT_INDEX];
		tp_series_add(count_starts(b->last_index, i) ? &b->starts : &b->inner, r->num[S_SECONDS], r->line);
		b->last_index = i;
	}
	if (tp_has(r, S_SECONDS)) {
		tp_trace_add(&b->t_seconds, r->num[S_SECONDS], b->seconds.n, r->line);
		tp_series_add(&b->seconds, r->num[S_SECONDS], r->line);
		b->elapsed += r->num[S_SECONDS];
		b->cur.n++;
		b->cur.sum += r->num[S_SECONDS];
		b->cur.min = fmin(b->cur.min, r->num[S_SECONDS]);
		b->cur.max = fmax(b->cur.max, r->num[S_SECONDS]);
	}
	if (tp_has(r, S_BAT_CPU_MB)) {
		tp_trace_add(&b->t_cpu_mb, r->num[S_BAT_CPU_MB], b->cpu_mb.n, r->line);
		tp_series_add(&b->cpu_mb, r->num[S_BAT_CPU_MB], r->line);
	}
	if (tp_has(r, S_BAT_GPU_MB)) {
		tp_trace_add(&b->t_gpu_mb, r->num[S_BAT_GPU_MB], b->gpu_mb.n, r->line);
		tp_series_add(&b->gpu_mb, r->num[S_BAT_GPU_MB], r->line);
	}
	if (tp_has(r, S_BAT_LOSS)) {
		tp_trace_add(&b->t_loss, r->num[S_BAT_LOSS], b->loss.n, r->line);
		tp_series_add(&b->loss, r->num[S_BAT_LOSS], r->line);
		if (!b->converged && !isnan(m->loss_threshold) && r->num[S_BAT_LOSS] <= m->loss_threshold) {
			b->converged = 1;
			b->conv_batch = b->seconds.n ? b->seconds.n - 1 : 0;
			b->conv_line = r->line;
			b->conv_epochs = b->epochs_before;
			b->conv_seconds = b->elapsed;
		}
	}
}

/* An aggregate without a count or total is an epoch's "Batch timing:" line, not a table row. */
static void feed_batch_timing(struct an_run *run, const struct tp_record *r)
{
	struct an_batches *b = rank_batches(run, r->rank);
	b->cur.seed_avg = tp_has(r, S_AGG_MEAN_S) ? r->num[S_AGG_MEAN_S] : NAN;
	b->cur.seed_min = tp_has(r, S_AGG_MIN_S) ? r->num[S_AGG_MIN_S] : NAN;
	b->cur.seed_max = tp_has(r, S_AGG_MAX_S) ? r->num[S_AGG_MAX_S] : NAN;
	b->cur.line = r->line;
	b->last = b->cur;
	memset(&b->cur, 0, sizeof(b->cur));
	b->cur.min = INFINITY, b->cur.max = -INFINITY;
	b->timing_lines++;
}

static void feed_epoch(struct an_run *run, const struct tp_record *r)
{
	/* ranks end their epochs at their own pace: one series per rank */
	struct an_batches *b = rank_batches(run, r->rank);
	if (tp_has(r, S_SECONDS)) {
		tp_trace_add(&b->t_epochs, r->num[S_SECONDS], b->epochs.n, r->line);
		tp_series_add(&b->epochs, r->num[S_SECONDS], r->line);
	}
	b->epochs_before++;
}

/*
 * gpm.py prints, every 100 graphs, the per-graph MEANS of pattern
 * generation and forward time over those 100 graphs, and the CUMULATIVE
 * average node count of the whole run so far. So the window's time is
 * graphs x mean, the run's nodes are the latest average x the graphs so
 * far (the first window of a run is taken as its first graphs), and a
 * window's own mean size is recovered from two cumulative averages.
 *
 * The 0.1 rounding of the averages moves that size by ~0.1 x the window's
 * index, so later windows are pooled: a fit point closes once the mean
 * size of the windows since the last point is known to 10%, and gets
 * their graph-weighted mean pattern generation time.
 */
static void gpm_fit_window(struct an_run *run, const struct tp_record *r, double graphs)
{
	double err, avg = r->num[S_GPM_AVG_NODES];
	double span = run->gpm_graphs - run->gpm_blk_graphs0;
	run->gpm_blk_pattern += graphs * r->num[S_GPM_PATTERN_MS];
	run->gpm_blk_windows++;
	double nodes = tp_gpm_window_nodes(avg, run->gpm_graphs, run->gpm_blk_avg0, span, &err);
	if (!(nodes > 0) || err > 0.1 * nodes)
		return;
	double y = run->gpm_blk_pattern / span;
	if (run->gpm_blk_windows > 1)
		run->gpm_pooled += run->gpm_blk_windows;
	run->gpm_blk_graphs0 = run->gpm_graphs;
	run->gpm_blk_avg0 = avg;
	run->gpm_blk_pattern = 0;
	run->gpm_blk_windows = 0;
	if (!(y > 0))
		return;
	tp_series_add(&run->gpm_window_nodes, nodes, r->line);
	double x = log(nodes);
	y = log(y);
	run->gl_n += 1;
	run->gl_x += x;
	run->gl_y += y;
	run->gl_xx += x * x;
	run->gl_xy += x * y;
	run->gl_yy += y * y;
}

static void feed_gpm(struct an_run *run, const struct tp_record *r)
{
	if (!tp_has(r, S_GPM_PATTERN_MS) || !tp_has(r, S_GPM_TOTAL_MS))
		return;
	double graphs = tp_has(r, S_GPM_GRAPHS) ? r->num[S_GPM_GRAPHS] : 0;
	tp_trace_add(&run->t_gpm_pattern_ms, r->num[S_GPM_PATTERN_MS], run->gpm_pattern_ms.n, r->line);
	tp_trace_add(&run->t_gpm_total_ms, r->num[S_GPM_TOTAL_MS], run->gpm_total_ms.n, r->line);
	tp_series_add(&run->gpm_pattern_ms, r->num[S_GPM_PATTERN_MS], r->line);
	tp_series_add(&run->gpm_total_ms, r->num[S_GPM_TOTAL_MS], r->line);
	run->gpm_pattern_sum += graphs * r->num[S_GPM_PATTERN_MS];
	run->gpm_total_sum += graphs * r->num[S_GPM_TOTAL_MS];
	run->gpm_graphs += graphs;
	if (tp_has(r, S_GPM_AVG_NODES)) {
		tp_trace_add(&run->t_gpm_avg_nodes, r->num[S_GPM_AVG_NODES], run->gpm_avg_nodes.n, r->line);
		tp_series_add(&run->gpm_avg_nodes, r->num[S_GPM_AVG_NODES], r->line);
		run->gpm_nodes = run->gpm_graphs * r->num[S_GPM_AVG_NODES];
		if (graphs > 0)
			gpm_fit_window(run, r, graphs);
	}
}

static struct an_named_series *named_series(struct tp_map *map, const char *name, size_t n,
					    uint64_t line)
{
	int created;
	struct an_named_series *s = tp_map_get(map, name, n, &created);
	if (created) {
		tp_series_init(&s->s);
		s->line = line;
		s->last_total = s->last_count = NAN;
	}
	return s;
}

/*
 * The run's time of a metric so far: avg x count or total, whichever the
 * TrainingProfiler's print (avg to 4 decimals, total to 2) rounds less.
 */
static double metric_total(const struct tp_record *r)
{
	int avg = tp_has(r, S_MET_AVG_S), tot = tp_has(r, S_MET_TOTAL_S);
	double n = r->num[S_MET_COUNT];
	if (avg && (!tot || n * 0.5e-4 < 0.5e-2))
		return r->num[S_MET_AVG_S] * n;
	return tot ? r->num[S_MET_TOTAL_S] : NAN;
}

/*
 * S3's avg= is the average since the start (total / count), not a
 * sample: each print adds the mean of the interval since the previous one,
 * (total - previous total) / (count - previous count). A print whose count
 * has not moved repeats what is known (the final log_metrics, wandb's run
 * summary, "Final profiling summary") and adds nothing, and so does a
 * value without a count (wandb's run summary prints one key a line) once
 * counts are known; a smaller count is a profiler reset. Without any
 * count, avg= is all there is.
 */
static void note_window(struct an_run *run, double step, double total, uint64_t line)
{
	run->window_line = 0;
	if (step > run->clock_step && total >= run->clock_total) {
		run->window_steps = step - run->clock_step;
		run->window_seconds = total - run->clock_total;
		run->window_line = line;
	}
	run->clock_step = step;
	run->clock_total = total;
}

static void feed_metric(struct an_run *run, const struct tp_record *r)
{
	if (!r->name)
		return;
	struct an_named_series *s = named_series(&run->metrics, r->name, r->name_len, r->line);
	if (!tp_has(r, S_MET_COUNT) && !isnan(s->last_count)) {
		s->repeats++;
		return;
	}
	if (!tp_has(r, S_MET_COUNT)) {
		/* step 0's average is of no step (modded-nanogpt's first validation) */
		if (tp_has(r, S_MET_AVG_S) && !(tp_has(r, S_MET_STEP) && r->num[S_MET_STEP] == 0))
			tp_series_add(&s->s, r->num[S_MET_AVG_S], r->line);
		if (tp_has(r, S_MET_TOTAL_S))
			s->last_total = r->num[S_MET_TOTAL_S];
		if (tp_has(r, S_MET_STEP) && tp_has(r, S_MET_TOTAL_S))
			note_window(run, r->num[S_MET_STEP], r->num[S_MET_TOTAL_S], r->line);
		return;
	}
	double n = r->num[S_MET_COUNT], total = metric_total(r);
	if (!isnan(s->last_count) && n == s->last_count) {
		s->repeats++;
		return;
	}
	if (isnan(total) || !(n > 0))
		return;
	int reset = isnan(s->last_count) || n < s->last_count;
	double dn = reset ? n : n - s->last_count, dt = reset ? total : total - s->last_total;
	tp_series_add(&s->s, dt / dn, r->line);
	s->last_total = total;
	s->last_count = n;
}

static void feed_perf(struct an_run *run, const struct tp_record *r)
{
	if (!r->name || !tp_has(r, S_SECONDS))
		return;
	struct an_named_series *s = named_series(&run->perfs, r->name, r->name_len, r->line);
	tp_series_add(&s->s, r->num[S_SECONDS], r->line);
}

static int evaluation_rate(const struct tp_record *r)
{
	static const char *const words[] = { "eval", "valid", "test", "predict" };
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (name_has(r, words[i]))
			return 1;
	return 0;
}

static int unit_is(const struct tp_record *r, const char *unit)
{
	size_t n = strlen(unit);
	return r->text && r->text_len == n && !memcmp(r->text, unit, n);
}

/* The run's batch size as a reader declared it (meta "batch_size"), or NAN. */
static double batch_size(const struct an_run *run)
{
	const struct an_nums *x = tp_map_find(&run->meta, "batch_size", 10);
	return x && tp_has_slot(x->has, S_META_VALUE) && x->num[S_META_VALUE] > 0 ? x->num[S_META_VALUE] : NAN;
}

/* A step's seconds from a training rate: `per` items a step over the rate. */
static void step_from_rate(struct an_run *run, const struct tp_record *r, const char *how, double per)
{
	int created;
	char name[160];
	int k = snprintf(name, sizeof(name), "%s/%.*s", how, (int)(r->name_len > 120 ? 120 : r->name_len), r->name);
	struct an_part *x = tp_map_get(&run->parts, name, (size_t)(k < (int)sizeof(name) ? k : (int)sizeof(name) - 1), &created);
	if (created) {
		tp_series_init(&x->s);
		/* a window's rate, unless its reader says it is a mean over
		 * more (an epoch's): the step then prefers the window's */
		x->role = r->role == TP_ROLE_AVERAGE ? TP_ROLE_AVERAGE : TP_ROLE_RUNNING;
		x->line = r->line;
	}
	tp_series_add(&x->s, per / r->num[S_RATE_VALUE], r->line);
}

/* A rate (samples/s, tokens/s, TFLOP/s): a series per name and unit. */
static void feed_rate(struct an_run *run, const struct tp_record *r)
{
	if (!r->name || !tp_has(r, S_RATE_VALUE))
		return;
	char key[200];
	int n = snprintf(key, sizeof(key), "%.*s %.*s", (int)(r->name_len > 120 ? 120 : r->name_len),
			 r->name, (int)(r->text_len > 60 ? 60 : r->text_len), r->text ? r->text : "");
	if (n < 0)
		return;
	if (n >= (int)sizeof(key))
		n = (int)sizeof(key) - 1;
	struct an_named_series *s = named_series(&run->rates, key, (size_t)n, r->line);
	tp_series_add(&s->s, r->num[S_RATE_VALUE], r->line);
	s->average |= r->role == TP_ROLE_AVERAGE;
	/* updates or steps per second (fairseq's ups) say how long a training
	 * step takes, and samples per second do with the batch size a reader
	 * declared; a rate of items (it/s) may be a validation bar's, and an
	 * evaluation's steps are no training steps */
	if (!(r->num[S_RATE_VALUE] > 0) || evaluation_rate(r))
		return;
	if (steps_rate(r))
		step_from_rate(run, r, "1", 1);
	else if (unit_is(r, "samples/s") && !isnan(batch_size(run)))
		step_from_rate(run, r, "batch_size", batch_size(run));
	else if ((unit_is(r, "tokens/s") || unit_is(r, "tok/s") || unit_is(r, "tokens/sec")) &&
		 !isnan(run->tokens_per_step))
		step_from_rate(run, r, "tokens_per_step", run->tokens_per_step);
}

static void feed_named(struct tp_map *map, const struct tp_record *r)
{
	if (r->name)
		keep_nums(map, r, r->name, r->name_len);
}

/*
 * A runtime: one per name, and per case and threads where it has them (a
 * benchmark's statement at each size: "matmul: x @ y (64)", "cpu ops:
 * n=128 (a.matmul(b), 4 threads)"). A Compare table's cell repeats a
 * Measurement printed above it, rounded and without its runs or quartiles:
 * it does not replace one.
 */
static void feed_runtime(struct an_run *run, const struct tp_record *r)
{
	if (!r->name)
		return;
	char key[300], threads[32] = "";
	int nl = (int)(r->name_len > 200 ? 200 : r->name_len), cl = (int)(r->text_len > 60 ? 60 : r->text_len), n;
	if (tp_has(r, S_RT_THREADS) && r->num[S_RT_THREADS] != 1)
		snprintf(threads, sizeof(threads), ", %.0f threads", r->num[S_RT_THREADS]);
	if (r->text && r->text_len)
		n = snprintf(key, sizeof(key), "%.*s (%.*s%s)", nl, r->name, cl, r->text, threads);
	else if (threads[0])
		n = snprintf(key, sizeof(key), "%.*s (%s)", nl, r->name, threads + 2);
	else
		n = snprintf(key, sizeof(key), "%.*s", nl, r->name);
	/* a Compare cell (no runs) names no threads: a measurement of its
	 * name and case, on any threads, was printed above it */
	if (r->text && r->text_len) {
		char nc[300];
		int m = snprintf(nc, sizeof(nc), "%.*s\x1f%.*s", nl, r->name, cl, r->text);
		if (tp_has(r, S_RT_RUNS))
			tp_map_get(&run->measured, nc, (size_t)m, NULL);
		else if (tp_map_find(&run->measured, nc, (size_t)m))
			return;
	}
	keep_nums(&run->runtimes, r, key, (size_t)n);
}

/* A SPEEDUP ANALYSIS row: the same name recurs in blocks against other
 * baselines, so a row is kept per baseline (name, time) and row name. */
static void feed_speedup(struct an_run *run, const struct tp_record *r)
{
	if (!r->name)
		return;
	char key[400];
	int n = snprintf(key, sizeof(key), "%.*s\x1f%.17g\x1f%.*s", (int)(r->text ? (r->text_len > 150 ? 150 : r->text_len) : 0),
			 r->text ? r->text : "", tp_has(r, S_SPD_BASELINE_S) ? r->num[S_SPD_BASELINE_S] : NAN,
			 (int)(r->name_len > 150 ? 150 : r->name_len), r->name);
	keep_nums(&run->speedups, r, key, (size_t)n);
}

static void feed_scaling(struct an_run *run, const struct tp_record *r)
{
	if (!r->name || !tp_has(r, S_SC_VALUE) || !tp_has(r, S_SC_MEAN_MS))
		return;
	char key[160];
	int n = snprintf(key, sizeof(key), "%.*s\x1f%.17g", (int)(r->name_len > 100 ? 100 : r->name_len),
			 r->name, r->num[S_SC_VALUE]);
	keep_nums(&run->scaling, r, key, (size_t)n);
}

int an_epoch_starts_slow(const struct an_batches *b, double *starts, double *inner)
{
	if (b->starts.n < 3 || b->inner.n < 3)
		return 0;
	*starts = tp_series_quantile(&b->starts, 0.5);
	*inner = tp_series_quantile(&b->inner, 0.5);
	return *starts > 1.5 * *inner;
}

/* The steps before a count's first print: its index where the count ran
 * from 0 (the first print closes the first window: "iter 100"), else, for
 * a resumed count ("step 705000", then "step 705100"), the window d the
 * next print shows; NAN: no next print yet. */
static void settle_start(struct an_run *run, double d)
{
	if (isnan(run->iter_start) || isnan(d))
		return;
	run->iters += run->iter_start > 2 * d ? d : run->iter_start;
	run->iter_start = NAN;
}

/* The iterations a batch's index says ran (an_run.iters, an_run_iters()). */
static void count_iterations(struct an_run *run, const struct tp_record *r)
{
	if (r->rank > 0 || !tp_has(r, S_BAT_INDEX) || !(r->num[S_BAT_INDEX] >= 0))
		return;
	double i = r->num[S_BAT_INDEX];
	/* a smaller fall is a second counter of the same steps printed beside
	 * the first; a line before the last counted, one handed over late (a
	 * discovered template's first lines) */
	int starts = count_starts(run->iter_index, i);
	/* the same index again with its step time, in a count that never
	 * rose: each print closes a window of its own (mmpretrain's
	 * "[2][100/109] ... time: 0.1759", the only print of each epoch; a
	 * bare counter printed again is a resume's) */
	if (i == run->iter_index && !run->iter_rose && r->line > run->iter_line && tp_has(r, S_SECONDS))
		starts = 1;
	if ((!starts && i < run->iter_index) || r->line < run->iter_line)
		return;
	run->iter_line = r->line;
	/* past where it fell from, after a count that stayed below half of
	 * that: the first count goes on, and the other was a loop within it
	 * (a validation's "Val Step 10" to 60 between a global "Train Step
	 * 600" and 610): its steps are no training's */
	if (!starts && !isnan(run->iter_peak) && i > run->iter_peak && run->iter_seg_max < 0.5 * run->iter_peak) {
		run->iters = run->iters_at_fall + (i - run->iter_peak);
		run->iter_start = NAN;
		run->iter_peak = NAN;
		run->iter_index = i;
		return;
	}
	if (starts) {
		if (isnan(run->iter_peak) || run->iter_index > run->iter_peak || run->iter_seg_max >= 0.5 * run->iter_peak) {
			run->iter_peak = run->iter_index;
			run->iters_at_fall = run->iters;
		}
		run->iter_seg_max = i;
	} else if (i > run->iter_seg_max) {
		run->iter_seg_max = i;
	}
	if (starts) {
		if (!isnan(run->iter_start))
			run->iters += run->iter_start; /* one print of the last count */
		run->iter_start = i;
	} else if (i > run->iter_index) {
		run->iter_rose = 1;
		settle_start(run, i - run->iter_index);
		run->iters += i - run->iter_index;
	}
	run->iter_index = i;
}

double an_run_iters(const struct an_run *run)
{
	return run->iters + (isnan(run->iter_start) ? 0 : run->iter_start);
}

/*
 * An evaluation by its steps' stamps: a run of values printed at a step and
 * named as an evaluation's ("Eval batch_cost", PaddleClas's), after a
 * training step, spans from that step's stamp to its own last one (the
 * evaluation's time, where no reader prints it).
 */
static void eval_span(struct an_run *run, const struct tp_record *r, int64_t t)
{
	char name[128];
	size_t k = r->name_len < sizeof(name) - 1 ? r->name_len : sizeof(name) - 1;
	memcpy(name, r->name, k);
	name[k] = '\0';
	if (strcmp(an_phase_kind(name), "evaluation")) {
		if (run->eval_open && run->eval_to > run->eval_from) {
			run->eval_stamped += (double)(run->eval_to - run->eval_from);
			run->eval_runs++;
		}
		run->eval_open = 0;
		run->train_ts = t;
		return;
	}
	if (run->train_ts == INT64_MIN)
		return; /* no training before it: an evaluation-only launch's */
	if (!run->eval_open) {
		run->eval_open = 1;
		run->eval_from = run->train_ts;
		if (!run->eval_line) {
			run->eval_line = r->line;
			snprintf(run->eval_name, sizeof(run->eval_name), "%.63s", name);
		}
	}
	run->eval_to = t;
}

double an_run_eval_stamped(const struct an_run *run, uint64_t *runs)
{
	int open = run->eval_open && run->eval_to > run->eval_from;
	*runs = run->eval_runs + (uint64_t)open;
	return run->eval_stamped + (open ? (double)(run->eval_to - run->eval_from) : 0);
}

void an_feed(struct an_model *m, const struct tp_record *r)
{
	if ((int)r->type < 0 || r->type >= TP_NTYPES)
		return;
	struct an_run *run = an_model_run(m, r->file ? r->file : "-");
	/* a log of which only the time stamps were read still read nothing */
	if (is_span(r))
		m->spans++;
	else
		m->records++;
	run->nrec[r->type]++;
	if (!run->first_line || r->line < run->first_line)
		run->first_line = r->line;
	if (r->line > run->last_line)
		run->last_line = r->line;
	if (is_span(r)) {
		/* the log's own span, given at its end: no step of the clock checks */
		int64_t t = tp_ts_seconds(r->ts);
		/* the years or days the stamps carried over are after the start */
		int start = r->name_len == 9;
		if (t != INT64_MIN && !start && (r->ts[0] == '-' || r->ts[0] == 'T'))
			t += run->year_shift;
		/* a time of day alone before the first: the end, days later */
		while (t != INT64_MIN && !start && r->ts[0] == 'T' && run->first_ts != INT64_MIN && t < run->first_ts)
			t += 86400;
		if (t != INT64_MIN) {
			widen_span(run, t, tp_ts_rank(r->ts));
			stamped_line(run, r->line);
		}
		return;
	}
	int step = at_a_step(r);
	if (!run->first_step_line && step)
		run->first_step_line = r->line;
	if (r->ts) {
		int64_t t = check_clock(run, r);
		if (t != INT64_MIN && tp_ts_rank(r->ts) < run->ts_rank)
			t = INT64_MIN; /* a time of day beside dated stamps: not on the span's scale */
		if (t != INT64_MIN && run->crash_pending) {
			run->launch_ts = t;
			run->crash_pending = 0;
		}
		if (t > run->last_value_ts)
			run->last_value_ts = t;
		if (t != INT64_MIN && step) {
			if (run->first_step_ts == INT64_MIN) {
				run->first_step_ts = t;
				/* a step printed every N says how many ran before it */
				run->first_step_index = r->type == TP_BATCH && tp_has(r, S_BAT_INDEX)
								? r->num[S_BAT_INDEX]
								: NAN;
			}
			run->last_step_ts = t;
			run->idle_since_step = 0;
			if (r->name && r->type != TP_BATCH)
				eval_span(run, r, t);
		}
	}
	switch (r->type) {
	case TP_TIMING:
		feed_timed(run, r);
		break;
	case TP_COMPLETE:
		feed_named(&run->completes, r);
		break;
	case TP_SUMMARY:
		/* a printed table's row whose reader said what it is (a framework's
		 * run totals) is that, not a row of a breakdown */
		if (r->role != TP_ROLE_NONE)
			feed_timed(run, r);
		else
			feed_summary(run, r);
		break;
	case TP_BATCH:
		if (tp_has(r, S_SECONDS) && impossible(run, r, r->num[S_SECONDS])) {
			/* its index and loss still count, its duration is none */
			struct tp_record c = *r;
			c.has &= ~TP_HAS(S_SECONDS);
			feed_batch(m, run, &c);
		} else {
			feed_batch(m, run, r);
		}
		count_iterations(run, r);
		break;
	case TP_EPOCH:
		if (!tp_has(r, S_SECONDS) || !impossible(run, r, r->num[S_SECONDS]))
			feed_epoch(run, r);
		break;
	case TP_GPM:
		feed_gpm(run, r);
		break;
	case TP_METRIC:
		feed_metric(run, r);
		break;
	case TP_PERF:
		feed_perf(run, r);
		break;
	case TP_AGGREGATE:
		/* a profiler's Total row has a total but no count */
		if (tp_has(r, S_AGG_COUNT) || tp_has(r, S_AGG_TOTAL_S)) {
			if (!feed_declared_aggregate(run, r))
				feed_named(&run->aggregates, r);
		} else {
			feed_batch_timing(run, r);
		}
		break;
	case TP_LATENCY:
		feed_named(&run->latencies, r);
		break;
	case TP_WARMUP:
		feed_named(&run->warmups, r);
		break;
	case TP_SPEEDUP:
		feed_speedup(run, r);
		break;
	case TP_RUNTIME:
		if (r->role != TP_ROLE_NONE)
			feed_timed(run, r);
		else
			feed_runtime(run, r);
		break;
	case TP_MEMORY:
		feed_named(&run->memory, r);
		break;
	case TP_FLOPS:
		feed_named(&run->flops, r);
		break;
	case TP_META:
		/* a crash before any step: the next launch is the run's */
		if (r->name && r->name_len == 9 && !memcmp(r->name, "traceback", 9) && run->first_step_ts == INT64_MIN &&
		    !run->first_step_line) {
			run->crashes++;
			run->crash_line = r->line;
			run->crash_pending = 1;
			break;
		}
		feed_named(&run->meta, r);
		break;
	case TP_SCALING:
		feed_scaling(run, r);
		break;
	case TP_RATE:
		/* a bar's final rate (the tqdm pack's), on the line and with the
		 * rate of its last redraw: the progress table has it, per bar,
		 * where this table would average it with the other bars' (an
		 * evaluation bar's with the training bar's) */
		if (r->line != run->bar_line || !tp_has(r, S_RATE_VALUE) || r->num[S_RATE_VALUE] != run->bar_rate)
			feed_rate(run, r);
		break;
	case TP_PROGRESS:
		an_progress_feed(&run->progress, r);
		run->bar_line = r->line;
		run->bar_rate = tp_has(r, S_PRG_RATE) ? r->num[S_PRG_RATE] : NAN;
		break;
	case TP_STAGE:
	case TP_CONFIG: /* workload sizes: tprof-replay's, but for the tokens a step trains on */
		if (r->name && r->name_len == 15 && !memcmp(r->name, "tokens_per_step", 15) &&
		    tp_has(r, S_META_VALUE) && r->num[S_META_VALUE] > 0 && isnan(run->tokens_per_step))
			run->tokens_per_step = r->num[S_META_VALUE];
		break;
	case TP_NTYPES:
		break;
	}
}
