/*
 * model.h - the analysis model: what tprof-analyze keeps of each run while
 * records stream past. Everything is a per-name summary (tp_series,
 * counters, the latest row of a table), so memory grows with the number of
 * distinct names, never with the input.
 *
 * A run is one input file (or one "file" value of NDJSON input); within a
 * run, launcher ranks keep separate batch series. Records are fed in input
 * order with an_feed; an_model_free releases everything.
 */
#ifndef TPROF_MODEL_H
#define TPROF_MODEL_H

#include <stdint.h>

#include "parse/parse.h"
#include "base/base.h"


/* Longest parent name kept (a phase's, a part's). */
#define AN_PARENT_MAX 96

/* The steps worked out here (parts of role step or running, derived): from
 * a line's parts added up, from the rise of a clock over the steps between
 * two lines, from the time stamps of two lines over the steps between. */
#define AN_PARTS_STEP "step (sum of its parts)"
#define AN_CLOCK_STEP "step (clock)"
#define AN_STAMP_STEP "step (time stamps)"

/* More seconds than any run lasts (31,700 years): such a value is no
 * duration, and two of them would add up to infinity. */
#define AN_MAX_SECONDS 1e12

/*
 * A phase of the run: a [TIMING] stage of a seed, or any value whose role
 * is phase. Repeats of a name are summed (the seeds print a stage per
 * occurrence); a phase with a parent is nested in it, never a sibling of
 * it, so only phases of one parent add up.
 */
struct an_stage {
	double seconds;      /* summed over repeats */
	uint64_t count;
	uint64_t line;       /* first occurrence */
	int64_t ts;          /* epoch seconds of the first line with a timestamp, or INT64_MIN */
	int64_t seen_ts;     /* its own stamp at the first print, else the log's last before it */
	int64_t last_seen_ts; /* the same at its latest print */
	double last;         /* the latest value */
	uint64_t last_line;  /* the line of the latest value */
	int grows;           /* every repeat so far was larger than the one before */
	int inferred;        /* no reader declared the role: a name that only grows is a clock */
	int same;            /* every repeat so far was the first value, finer than a millisecond */
	double held;         /* the seconds of those repeats, added once a value differs */
	int training;        /* its name says training (an_phase_kind()): at the top, its
			      * values are spans (an_run.spans) */
	int loose;           /* no reader's and no kind's name ("Timer", "time"): at the
			      * top, its values are spans too, the steps' last resort */
	uint64_t rises;      /* repeats larger than the one before */
	uint64_t drops;      /* repeats at half the one before or less: a clock restarted */
	uint64_t dips;       /* other repeats smaller than the one before */
	double peaks;        /* the values before each drop, added up */
	char parent[AN_PARENT_MAX]; /* as its reader declared it, "" for none (read an_stage_parent) */
	char held_by[AN_PARENT_MAX]; /* the phase whose stamped span held it, "" for none */
	int rank;            /* the launcher rank of its first print (-1: none): the
			      * other ranks' copies of it are the same span again */
	double from, to;     /* the latest print's stamped span (its stamp less its
			      * seconds, its stamp; NAN: none): a print within the
			      * next one's is held once (within_last() in model.c) */
};

/*
 * A value that is no span of the run: one step's time, a part of each step,
 * a running or average mean of one, a clock reading. Never summed: the
 * analyses take medians (steps, parts, window means), the last value (an
 * average since the start, a clock) or differences.
 */
struct an_part {
	struct tp_series s;
	enum tp_role role;
	int derived;                /* made here from other values (the sum of a step's parts) */
	double steps;               /* the steps its values stand for: a window's count each, else 1 */
	char parent[AN_PARENT_MAX]; /* the step it is part of / the series it averages; "" the step */
	uint64_t line;              /* first occurrence */
	/* a step's values that behave as a clock's (clock_by_values() in model.c) */
	double seg_first, last;     /* the first value since it last fell, the last value */
	uint64_t pairs, rises;      /* consecutive values, and those that rose */
	uint64_t small_falls;       /* falls to more than half: a time's, no clock's */
	int became_clock;           /* its values made it a clock */
};

/*
 * One row of a printed summary table. The latest printing of a table wins;
 * within one printing a repeated name is summed (S4 prints a row per
 * track() call, so operations tracked with aggregate=True repeat): times,
 * percentages and memory deltas add up, the peak is the largest.
 */
struct an_row {
	double seconds, percent, cpu_mb, gpu_mb, gpu_peak_mb;
	unsigned has;   /* enum an_row_has: which of the five were printed */
	uint64_t line;  /* first row of the name in its printing */
	uint64_t count; /* rows of the name in its printing */
	unsigned gen;   /* the printing it belongs to */
};

/* The bits of an_row.has, in the order of its fields (the model fills them
 * by that index). */
enum an_row_has {
	AN_ROW_SECONDS = 1u << 0,
	AN_ROW_PERCENT = 1u << 1,
	AN_ROW_CPU = 1u << 2,
	AN_ROW_GPU = 1u << 3,
	AN_ROW_PEAK = 1u << 4,
};

/* Whether the row has every field of bits (AN_ROW_... or'ed). */
static inline int an_row_has(const struct an_row *row, unsigned bits)
{
	return (row->has & bits) == bits;
}
struct an_table {
	struct tp_map rows; /* name -> an_row, TOTAL included */
	uint64_t line;      /* first row's line */
	uint64_t last_line; /* latest row's line */
	unsigned gen;       /* printings seen - 1 */
	int closed;         /* the latest row was the TOTAL: a new row starts a new printing */
};

/*
 * S4's "Batch timing: avg=, min=, max=" closes an epoch with the
 * statistics of ALL its batches; only the first verbose_batches of them
 * were printed as "Batch N:" lines. One epoch's both views.
 */
struct an_epoch_batches {
	double seed_avg, seed_min, seed_max; /* as printed (NAN if absent) */
	double n, sum, min, max;             /* the Batch lines printed in the epoch */
	uint64_t line;                       /* the Batch timing line */
};

/* A batch series of one rank. */
struct an_batches {
	struct tp_series seconds, cpu_mb, gpu_mb, loss;
	struct tp_trace t_seconds, t_cpu_mb, t_gpu_mb, t_loss; /* for charts */
	struct tp_series epochs;    /* "Epoch end:" times of this rank */
	struct tp_trace t_epochs;
	double elapsed;             /* summed batch seconds */
	uint64_t epochs_before;     /* epoch records seen before the latest batch */
	/* convergence: first batch with loss <= threshold */
	int converged;
	uint64_t conv_batch, conv_line, conv_epochs;
	double conv_seconds;
	uint64_t first_line;
	struct an_epoch_batches cur, last; /* since the last Batch timing line; the last closed epoch */
	uint64_t timing_lines;
	/* the steps an epoch begins with (the index falls to half or less, or
	 * the first), and the others: a loader that restarts its workers makes
	 * each epoch's first step slow, which is no step time */
	struct tp_series starts, inner;
	double last_index; /* NAN: none yet */
	/* the last batch printed with an index and a time stamp but no duration,
	 * and the last with an index and a clock's reading on its line */
	double stamp_t, stamp_index; /* NAN: none yet */
	double clock_t, clock_index;
};

struct an_named_series {
	struct tp_series s;
	double last_total, last_count; /* metric: the run's time so far and its count */
	uint64_t repeats;              /* metric: prints that repeated a known count */
	double sum_aux;                /* e.g. GPM: graphs; a clock: the time it covered, over its restarts */
	int average;                   /* a rate: its reader said it is a mean over the run so far */
	uint64_t line;
};

struct an_progress;

struct an_clock_issue {
	uint64_t line, prev_line;
	int kind; /* 0 timestamp went backwards, 1 stage longer than the time since the previous line */
	double a, b; /* kind 0: seconds back; kind 1: stage seconds, elapsed seconds */
	char name[96];
};
#define AN_MAX_CLOCK_ISSUES 64

struct an_run {
	char *file;
	char *label;
	int index; /* position in an_model.runs */
	uint64_t nrec[TP_NTYPES];
	uint64_t warnings; /* lines with a known marker that could not be read */
	uint64_t first_line, last_line;

	struct tp_map stages;     /* an_stage: [TIMING] records */
	struct tp_map rises;      /* name -> an_named_series: an inferred phase's rises between
				   * its prints, the steps of a clock (an_stage_is_clock) */
	struct tp_map spans;      /* name -> an_named_series: a top-level training phase's values
				   * (an epoch's time printed per epoch), a clock's rises
				   * between its prints (last_total: its last reading) */
	struct tp_map completes;  /* an_nums: "X complete:" records (alternatives to compare) */
	struct tp_map tables;     /* section -> an_table */
	struct tp_map ranks;      /* "rank" (decimal, "-" for none) -> an_batches */
	/* GPM windows: per-graph means as printed, and the cumulative average size */
	struct tp_series gpm_pattern_ms, gpm_total_ms, gpm_avg_nodes;
	struct tp_trace t_gpm_pattern_ms, t_gpm_total_ms, t_gpm_avg_nodes; /* for charts */
	/* graphs so far, nodes so far (latest cumulative average x graphs), and the
	 * run's pattern-generation and forward time in ms (sum of graphs x mean) */
	double gpm_graphs, gpm_nodes, gpm_pattern_sum, gpm_total_sum;
	struct tp_series gpm_window_nodes; /* the own mean size of each fit point's windows */
	/* the fit point being pooled: graphs and cumulative average where it
	 * starts, its graphs x pattern gen ms, its windows; windows pooled so far */
	double gpm_blk_graphs0, gpm_blk_avg0, gpm_blk_pattern;
	uint64_t gpm_blk_windows, gpm_pooled;
	/* log(mean nodes) vs log(pattern gen ms) per fit point, for a scaling fit */
	double gl_n, gl_x, gl_y, gl_xx, gl_xy, gl_yy;
	struct tp_map metrics;    /* name -> an_named_series of avg_s */
	struct tp_map aggregates; /* name -> struct tp_record copy (numbers only) */
	struct tp_map perfs;      /* name -> an_named_series of seconds */
	struct tp_map latencies;  /* name -> record numbers */
	struct tp_map warmups;    /* name -> record numbers */
	struct tp_map speedups;   /* "baseline\x1fbaseline_s\x1fname" -> record numbers, baseline in text */
	struct tp_map runtimes;   /* name -> record numbers */
	struct tp_map measured;  /* "name\x1fcase" of the runtimes with runs (feed_runtime) */
	struct tp_map scaling;    /* "param\x1fvalue" -> record numbers */
	struct tp_map memory;     /* name -> record numbers */
	struct tp_map flops;      /* name -> record numbers */
	struct tp_map meta;       /* key -> an_nums (value in num[0] or text) */
	struct tp_map rates;      /* "name unit" -> an_named_series of per-second values */
	struct an_progress *progress; /* progress bars (progress.h), NULL: none */
	uint64_t bar_line;        /* the line of the last progress record, 0: none */
	double bar_rate;          /* and its rate */
	struct tp_map parts;      /* name -> an_part: steps, components, means, clocks by role */
	uint64_t not_time;        /* timing values whose role says they are no time (quantity, eta) */
	double tokens_per_step;   /* the tokens a step trains on, as the log printed it (config), or NAN */
	uint64_t crashes;         /* Python tracebacks before the first step: launches that ended */
	uint64_t crash_line;      /* the last one's line */
	int crash_pending;        /* one was read, and no stamp after it yet */
	int64_t launch_ts;        /* the first stamp after the last such crash: the launch that ran */
	uint64_t impossible;      /* time values over AN_MAX_SECONDS, left out */
	uint64_t impossible_line; /* the first one's line */
	char loop[AN_PARENT_MAX]; /* a seed's training stage ("Main training loop"), or "" */

	/* clock checks */
	int64_t last_ts;          /* INT64_MIN if none yet */
	int64_t rank_ts[3];       /* the last stamp of each tp_ts_rank, INT64_MIN if none */
	uint64_t last_ts_line;
	int last_ts_prank; /* the process rank of that line's record (-1: none) */
	int last_ts_step;         /* the line of last_ts printed a step */
	int ts_rank;              /* how complete the span's stamps are (tp_ts_rank), -1: none yet */
	/* gaps of more than AN_IDLE_GAP s between stamped lines that no phase
	 * printed at their end fills: launches appended to one log, idle in
	 * between (an_run_idle) */
	double idle_s;            /* those gaps, added */
	double idle_since_step;   /* those of them after the latest step's stamp */
	char big[2][AN_PARENT_MAX]; /* the two phases of the most seconds, largest first ("": none) */
	unsigned adoptions;       /* declared phases that looked for phases in their span */
	uint64_t idle_gaps;
	double gap;               /* the gap before the line gap_line, until a phase on it fills it */
	uint64_t gap_line;
	uint64_t nclock;          /* issues found (only the first AN_MAX_CLOCK_ISSUES kept) */
	struct an_clock_issue clock[AN_MAX_CLOCK_ISSUES];
	int64_t first_ts, max_ts;
	uint64_t ts_lines[2];     /* the first and last lines with a stamp, 0: none */
	int64_t year_shift;       /* seconds added to dates printed without a year, or to
				   * times of day printed without a date (whole days) */
	int64_t first_step_ts, last_step_ts; /* time stamps of the first and last value printed at a step */
	int64_t last_value_ts;    /* of the last value read (no span meta), or INT64_MIN */
	uint64_t first_step_line;            /* the first value printed at a step's line, 0: none yet */
	/* evaluations by their steps' stamps (an_run_eval_stamped()): a run of
	 * values named as an evaluation's between training steps */
	int64_t train_ts, eval_from, eval_to; /* INT64_MIN: none yet */
	int eval_open;
	double eval_stamped;      /* the closed ones' seconds */
	uint64_t eval_runs, eval_line;
	char eval_name[64];       /* the first one's value's name */
	double first_step_index;  /* the iteration the first step printed is at (a batch's index), or NAN */
	/* iterations the batch indices count (of rank 0 or none): each rise of
	 * the index, and a fall to half or less as a new epoch's count from 0
	 * (a smaller fall is a second counter: ignored); 0 if none */
	double iters, iter_index;
	double iter_start;        /* the index a count began at, until the next print says
				   * how many steps it stands for (settle_start), or NAN */
	int iter_rose;            /* the index rose from one print to the next once */
	double iter_peak;         /* where the count fell from last, NAN: it has not */
	double iter_seg_max;      /* the highest index since that fall */
	double iters_at_fall;     /* iters when it fell */
	uint64_t iter_line;
	/* the line being read: its step's parts so far (a step printed only as
	 * its parts is their sum), its clock's reading and the step index it
	 * printed without a duration (with its rank) */
	uint64_t parts_line, clock_line, index_line;
	double parts_sum, parts_steps, clock_value, index_value;
	int parts_n, index_rank;
	/* a step's clock at the last print of a metric ("step:250 ...
	 * train_time:21165ms"), and what it rose by since the print before,
	 * over how many steps: on window_line, a step time that equals the
	 * rise is the window's ("this_step:3654.5ms" every 50 steps) */
	double clock_step, clock_total, window_steps, window_seconds;
	uint64_t window_line;
};

/* Numbers of one record, kept as the latest value for a name. */
struct an_nums {
	double num[TP_NUM_SLOTS];
	unsigned has;
	uint64_t line;
	char text[96]; /* speedup baseline, meta text value */
};

struct an_model {
	struct an_run **runs;
	size_t nruns, alloc;
	double loss_threshold;     /* NAN: no convergence tracking */
	uint64_t records;          /* read from the logs, the time stamps' span aside */
	uint64_t spans;            /* "log start" and "log end": the time stamps alone */
};

void an_model_init(struct an_model *m, double loss_threshold);
/* The run for a file name (created in order of first appearance). */
struct an_run *an_model_run(struct an_model *m, const char *file);
void an_feed(struct an_model *m, const struct tp_record *r);
void an_model_free(struct an_model *m);


#endif
