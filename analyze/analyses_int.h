/*
 * analyses_int.h - what the analyses share inside analyze/ and other
 * layers do not see (analyze.h is their header): the walk over a table of
 * analyses, each part's function, the steady state and warmup of a series,
 * a comparison row, the step series, the wall and the step's parts, the
 * groups of a sweep and the keys of a run's rows.
 */
#ifndef TPROF_ANALYSES_INT_H
#define TPROF_ANALYSES_INT_H

#include "analyses.h"

/* A new table of that kind, its section, id and columns from the schema; title NULL: the schema's. */
struct rtable *an_table(struct report *rep, enum an_table_kind kind, const char *title);
/* The section of that kind (created with the schema's id and title on first use). */
struct rsection *an_section(struct report *rep, enum an_section_kind kind);

/* The groups of a scaling fit (analyses.h, AN_GROUP_ALL_RUNS): a run's
 * sweep of the parameter whose first key is first_key; its GPM windows. */
int an_sweep_group(const struct an_run *run, size_t first_key);
int an_gpm_group(const struct an_run *run);
/* The points of the fit across runs tagged with --param: per run, x the
 * parameter and y the mean (GPM pattern generation when every run has it,
 * else batch time) in ms; *what names y. Returns the count (x, y hold m->nruns). */
size_t an_run_param_points(const struct an_model *m, const struct an_opts *o, double *x, double *y,
			   const char **what);

/* The key of a row about a run's series: rank from the model's rank key ("-": none). */
struct rkey an_key(int series, const char *rank, int run, int group);

/* Runs the rows of table t asked for by o->which. Returns AN_GATE_* bits. */
int an_analyze_with(const struct an_analysis *t, const struct an_model *m, const struct an_opts *o,
		    struct report *rep);

/* The parts (analyses.c calls them in this order). */
void an_breakdown(const struct an_model *m, const struct an_opts *o, struct report *rep, int bottlenecks);
/* Single printed statistics: AGGREGATE STATISTICS rows, Batch timing, inference
 * benchmarks, Average per dataset (records.c). */
void an_records(const struct an_model *m, const struct an_opts *o, struct report *rep);
/* When the report is empty: what was read and why nothing applied. */
void an_nothing(const struct an_model *m, const struct an_opts *o, struct report *rep);
/* S2's runtime, memory and FLOP figures of each run, set against each other. */
void an_profile(const struct an_model *m, const struct an_opts *o, struct report *rep);
void an_series(const struct an_model *m, const struct an_opts *o, struct report *rep);
void an_speedup(const struct an_model *m, const struct an_opts *o, struct report *rep);
void an_scaling(const struct an_model *m, const struct an_opts *o, struct report *rep);
void an_data(const struct an_model *m, const struct an_opts *o, struct report *rep);
/* Last: the summary that leads the report (its section comes first), from the
 * model and the findings of the other analyses, which it ranks and groups. */
void an_summary(const struct an_model *m, const struct an_opts *o, struct report *rep);

/*
 * The steady state of a series (after an_warmup_end): its median, half its
 * interquartile range, the samples in it, and what the warmup cost (the
 * warmup samples' excess over the median, in the series' unit).
 */
struct an_steady {
	double median, spread, mean, sd, warmup_cost;
	uint64_t n, warmup;
};
void an_steady_state(const struct tp_series *s, struct an_steady *st);

/*
 * Where a series' warmup ends: MSER's truncation point, less the samples
 * before it that already lie in the steady band (3 MADs, at least 5 %),
 * so that flat data has none (0). *after: the mean after it (NAN if the
 * series has fewer than 5 samples, which tells no warmup).
 */
uint64_t an_warmup_end(const struct tp_series *s, double *after);

/* One item of one run against the baseline run. */
struct an_cmp_row {
	const char *name, *unit;
	const char *base_label, *label, *file;
	double base, value;  /* the two summaries */
	double p;            /* p-value of the test, NAN if none */
	int samples;         /* both sides have samples (else "cannot tell") */
	const char *test;    /* the test's name for the finding */
	int higher_better;   /* a rate: a lower value is the slower run */
};
/* A row of the "compare" table (created in *t on first use), with its finding; 1 if the gate tripped. */
int an_compare_row(struct report *rep, struct rtable **t, const struct an_opts *o, const struct an_cmp_row *c);
/* The closing "(geometric mean of ratios)" row. */
void an_compare_geomean(struct rtable *t, const char *base_label, const char *label, double logsum, size_t nlog);

/* Classifies a stage name: "data", "forward", "backward", "optimizer", "other". */
const char *an_stage_kind(const char *name);
/* S4's advice for a kind of finding, or NULL. */
const char *an_advice(const char *kind);

/* The series that says how long a step of the run takes, *what its name
 * and *scale its unit in seconds; NULL if the run has none (answer.c). */
const struct tp_series *an_step_series(const struct an_run *run, const char **what, double *scale);
/* The step series of a log that prints nothing finer than a training
 * phase's spans (an epoch's time each epoch) or a clock once a loop (the
 * time between its prints): the one printed most often, at least three
 * times; NULL if none. */
const struct tp_series *an_span_steps(const struct an_run *run, const char **what);

/* The run's wall time (NAN if unknown), its top-level phases' sum in
 * *in_stages (NAN if none) and in *from what gave it (answer.c). */
double an_run_wall(const struct an_run *run, double *in_stages, enum an_wall_from *from);

/* How many steps ran (the batch indices say, else the step bar's windows,
 * else one per value: a window mean's are fewer, no more) into *iters, and
 * the step series (an_step_series()); NULL if the run has none, or fewer
 * than ten, or an epochs' or GPM windows' one. */
const struct tp_series *an_steps_ran(const struct an_run *run, double *iters, const char **what, double *scale);

/* The steps a step series named what stands for: a part's count of steps
 * where its values are windows' means (EDSR's prints every 100 batches, a
 * profiler's mean over its calls), else its values (answer.c). */
double an_series_steps(const struct an_run *run, const char *what, const struct tp_series *s);

/* Samples far slower than the others at a fixed period of the series (an
 * evaluation inside every Nth step): the period in samples, how many such
 * samples the series holds (estimated past the kept extremes), their mean
 * and the series' median; 0 if none (parts.c). */
struct an_periodic {
	uint64_t period;
	double count, mean, median;
	uint64_t line; /* the slowest one's */
};
int an_periodic_slow(const struct tp_series *s, struct an_periodic *p);

/* The English ordinal suffix of n ("st" of 21, "th" of 250). */
const char *an_ordinal(uint64_t n);

/* Idle time (gaps between stamped lines of more than AN_IDLE_GAP that no
 * phase filled) after the latest step's stamp (model.c). */
double an_run_idle_after_steps(const struct an_run *run);

/* The step's parts as shares of its step, and evaluation, checkpoint and
 * start-up phases as shares of the wall, with their findings (parts.c). */
void an_step_parts(const struct an_model *m, const struct an_opts *o, struct report *rep, int bottlenecks);

/* ---- queries of the model (model.c, parts.c) ---- */

/* The run for a file name, or NULL: a lookup that creates nothing. */
struct an_run *an_model_find(struct an_model *m, const char *file);

/* Whether b's epochs begin with a slow step: three or more of each kind,
 * the first steps' median above 1.5 times the others'; the medians. */
int an_epoch_starts_slow(const struct an_batches *b, double *starts, double *inner);

/* The role the analysis gives a record: the declared or implied one (record.h);
 * for a timing value nothing declared, what its name says (a mean, a clock,
 * an ETA), else a phase. */
enum tp_role an_role(const struct tp_record *r);

/* What a phase is by its name: "evaluation", "checkpoint", "startup",
 * "training" or "other" (parts.c). */
const char *an_phase_kind(const char *name);

/* s is a phase whose parent is p (NULL: the top level, which holds the
 * phases whose parent never printed). */
int an_stage_in(const struct an_run *run, const struct an_stage *s, const char *p);

/* A gap between stamped lines longer than this (seconds) that no phase
 * printed at its end fills is idle: no time of the run's. */
#define AN_IDLE_GAP 1800

/* The seconds of the run's idle gaps (AN_IDLE_GAP) and of the launches
 * that crashed before the one that ran, their number in *n. */
double an_run_idle(const struct an_run *run, uint64_t *n);

/* The seconds from the log's first stamp to the launch after the last
 * crash before the first step (a Python traceback each), or 0. */
double an_run_crashed(const struct an_run *run);

/* The phase s is in, "" at the top: its declared parent where that printed,
 * else the phase whose stamped span held it, where that printed. */
const char *an_stage_parent(const struct an_run *run, const struct an_stage *s);

/* A phase whose repeats only grew, or grew and restarted from near zero (an
 * undeclared cumulative reading, an epoch's clock): no span to add. */
int an_stage_is_clock(const struct an_stage *s);

/* A phase whose prints add up to spans of the run: no clock, and no name
 * no reader declared whose prints add up to more than the stamps span. */
int an_stage_is_span(const struct an_run *run, const struct an_stage *s);

/* The seconds such a clock measured: its last reading, plus the reading
 * before each restart. */
double an_stage_clock_span(const struct an_stage *s);

/* The run's part of that name and role, or NULL. */
const struct an_part *an_part_find(const struct an_run *run, const char *name);

/* The iterations the run's batch indices say ran (0: none). */
double an_run_iters(const struct an_run *run);

/* The seconds of the evaluations found by their steps' stamps (eval_span()
 * in model.c), and in *runs how many. */
double an_run_eval_stamped(const struct an_run *run, uint64_t *runs);

#endif
