/*
 * record.h - the typed timing record, the one data model that flows from
 * the parsers to the analysis and the renderers.
 *
 * A record has a type, a position (file, 1-based line), an optional
 * timestamp and launcher rank, up to two strings (name and text) and up to
 * TP_NUM_SLOTS numbers. Which strings and numbers a type uses, and their
 * public field names, are given by its schema (tp_schema), so the NDJSON,
 * CSV and table writers and the NDJSON reader are generic.
 *
 * Strings are borrowed: a record's name/text/ts/file point into memory owned
 * by whoever produced the record (the line buffer or a parser's block
 * state) and are valid only during the callback that receives it. Copy what
 * you keep.
 *
 * Units (part of the public contract): durations in seconds unless the field
 * ends in _ms; memory in MB as printed; FLOPs in GFLOPs.
 */
#ifndef TPROF_RECORD_H
#define TPROF_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "base/base.h"

enum tp_type {
	TP_STAGE,
	TP_TIMING,
	TP_SUMMARY,
	TP_GPM,
	TP_META,
	TP_COMPLETE,
	TP_SPEEDUP,
	TP_LATENCY,
	TP_WARMUP,
	TP_RUNTIME,
	TP_SCALING,
	TP_MEMORY,
	TP_FLOPS,
	TP_METRIC,
	TP_BATCH,
	TP_EPOCH,
	TP_AGGREGATE,
	TP_PERF,
	TP_CONFIG,
	TP_RATE,
	TP_PROGRESS,
	TP_NTYPES
};

#define TP_NUM_SLOTS 16

/* How a schema field is stored in the record. */
enum tp_field_kind {
	TP_F_NAME,  /* rec->name */
	TP_F_TEXT,  /* rec->text */
	TP_F_NUM,   /* rec->num[slot], present if bit slot of rec->has */
	TP_F_INT,   /* like TP_F_NUM but written without decimals */
	TP_F_VALUE  /* meta value: num[slot] if present, else text */
};

struct tp_field {
	const char *name; /* public field name, e.g. "seconds" */
	enum tp_field_kind kind;
	int slot;         /* for NUM/INT/VALUE */
	const char *unit; /* "s", "ms", "MB", "%", "" ... for table headers and docs */
};

struct tp_schema {
	const char *type_name; /* "timing" */
	int nfields;
	struct tp_field fields[TP_NUM_SLOTS + 2];
};

extern const struct tp_schema tp_schemas[TP_NTYPES];

/* Numeric slot numbers per type, named for readable parser code. */
enum {
	/* timing, complete, summary, perf, batch, epoch: seconds in slot 0 */
	S_SECONDS = 0,
	/* timing: the steps a value spans ("Time(1000 iters): 3.87s"), absent for one */
	S_TIM_COUNT = 1,
	/* summary */
	S_SUM_PERCENT = 1, S_SUM_CPU_MB = 2, S_SUM_GPU_MB = 3, S_SUM_GPU_PEAK_MB = 4,
	/* gpm */
	S_GPM_GRAPHS = 0, S_GPM_PATTERN_MS = 1, S_GPM_TOTAL_MS = 2, S_GPM_AVG_NODES = 3,
	/* meta, config */
	S_META_VALUE = 0,
	/* complete */
	S_CPL_PEAK_MB = 1, S_CPL_GPU_PEAK_MB = 2,
	/* speedup */
	S_SPD_FACTOR = 0, S_SPD_BASELINE_S = 1,
	/* latency */
	S_LAT_MEAN_MS = 0, S_LAT_MIN_MS = 1, S_LAT_MAX_MS = 2, S_LAT_THROUGHPUT = 3,
	/* warmup */
	S_WU_FIRST_S = 0, S_WU_STEADY_S = 1, S_WU_OVERHEAD_S = 2, S_WU_OVERHEAD_PCT = 3,
	/* runtime */
	S_RT_MEAN_MS = 0, S_RT_STD_MS = 1, S_RT_MIN_MS = 2, S_RT_MAX_MS = 3, S_RT_RUNS = 4,
	S_RT_MEDIAN_MS = 5, S_RT_IQR_MS = 6, S_RT_Q1_MS = 7, S_RT_Q3_MS = 8,
	S_RT_THREADS = 9, /* a benchmark's threads ("..., 4 threads") */
	/* scaling */
	S_SC_VALUE = 0, S_SC_MEAN_MS = 1, S_SC_STD_MS = 2, S_SC_PEAK_MB = 3, S_SC_GFLOPS = 4,
	/* memory / flops */
	S_MEM_MB = 0, S_FLOPS_GFLOPS = 0,
	/* metric */
	S_MET_STEP = 0, S_MET_AVG_S = 1, S_MET_TOTAL_S = 2, S_MET_COUNT = 3,
	/* batch: seconds in 0 */
	S_BAT_INDEX = 1, S_BAT_GPU_MB = 2, S_BAT_CPU_MB = 3, S_BAT_LOSS = 4,
	/* epoch: seconds in 0 (epochs are numbered by the analysis, in order) */
	S_EP_GPU_MB = 2, S_EP_RESERVED_MB = 3, S_EP_PEAK_MB = 4,
	/* aggregate; a profiler row's own side in self/total, its device side in device_* */
	S_AGG_COUNT = 0, S_AGG_TOTAL_S = 1, S_AGG_MEAN_S = 2, S_AGG_MIN_S = 3, S_AGG_MAX_S = 4,
	S_AGG_SELF_S = 5, S_AGG_SELF_PCT = 6, S_AGG_TOTAL_PCT = 7, S_AGG_DEV_SELF_S = 8,
	S_AGG_DEV_SELF_PCT = 9, S_AGG_DEV_TOTAL_S = 10, S_AGG_DEV_TOTAL_PCT = 11, S_AGG_DEV_MEAN_S = 12,
	/* perf: seconds in 0 */
	S_PERF_CPU_DELTA_MB = 1, S_PERF_GPU_DELTA_MB = 2, S_PERF_GPU_PEAK_MB = 3,
	/* rate: value per second, its unit ("samples/s") in text */
	S_RATE_VALUE = 0,
	/* progress: one redraw of a progress bar; its description in name, the
	 * rate's unit ("it/s") in text */
	S_PRG_N = 0, S_PRG_TOTAL = 1, S_PRG_ELAPSED_S = 2, S_PRG_REMAINING_S = 3, S_PRG_RATE = 4
};

/*
 * What a timing value IS, so that nothing nested or cumulative is summed.
 * Declared by the reader (a rule's role="..."), else implied by the type
 * (tp_role_of). Shares are taken only among values of one parent.
 */
enum tp_role {
	TP_ROLE_NONE,      /* undeclared: the analysis infers one, or none */
	TP_ROLE_STEP,      /* one iteration's time */
	TP_ROLE_COMPONENT, /* a part of each step of its parent ("data_time" in "time") */
	TP_ROLE_PHASE,     /* a span of the run (start-up, training, evaluation), nested in its parent */
	TP_ROLE_RUNNING,   /* a mean over a window of steps: a sampled series of its parent */
	TP_ROLE_AVERAGE,   /* a mean since the start: its last value is the run's mean of its parent */
	TP_ROLE_CLOCK,     /* a cumulative elapsed or wall reading: the last one is a span */
	TP_ROLE_RATE,      /* a throughput of the task its parent names */
	TP_ROLE_ETA,       /* an estimate of time remaining */
	TP_ROLE_QUANTITY,  /* not a time: a count, parameters, FLOPs, memory, a size */
	TP_NROLES
};

struct tp_record {
	enum tp_type type;
	const char *file; /* display name of the input; never NULL */
	uint64_t line;    /* 1-based line of the record's first line */
	const char *ts;   /* ISO 8601 "YYYY-MM-DDTHH:MM:SS[.fff]" or NULL */
	int rank;         /* launcher process number, -1 if none */
	const char *name;
	size_t name_len;
	const char *text;
	size_t text_len;
	double num[TP_NUM_SLOTS];
	unsigned has; /* bit i set: num[i] present */
	enum tp_role role;  /* as declared; TP_ROLE_NONE if nothing declared one */
	const char *parent; /* what it belongs to (a phase, a step, a series), or NULL */
	size_t parent_len;
	/* what made it: a rule's "FILE:LINE" or "format NAME:LINE"; NULL for
	 * the built-in readers (shown by tprof-parse --explain, never output) */
	const char *origin;
};

/*
 * The has bits: bit `slot` of a record's has (and of the copies of it the
 * analysis keeps) says num[slot] is present. The slots are named per type
 * (S_SECONDS, S_META_VALUE, ...), so a mask is TP_HAS(S_...), never a bare
 * number: a reader sees which value is tested.
 */
#define TP_HAS(slot) (1u << (slot))

/* Whether has holds slot's bit. */
static inline int tp_has_slot(unsigned has, int slot)
{
	return (int)((has >> slot) & 1u);
}

static inline void tp_set(struct tp_record *r, int slot, double v)
{
	r->num[slot] = v;
	r->has |= TP_HAS(slot);
}
static inline int tp_has(const struct tp_record *r, int slot)
{
	return tp_has_slot(r->has, slot);
}

/*
 * A gpm record's avg_nodes is the CUMULATIVE average over the run so far
 * (gpm.py: total_nodes_processed / len(forward_times)); its pattern_gen_ms
 * and total_ms are per-graph means over the window's graphs. The window's
 * own mean size, from this average (after `graphs_after` graphs) and the
 * previous one (before the window's `graphs`); *err bounds what the 0.1
 * rounding of both printed averages can move it by.
 */
static inline double tp_gpm_window_nodes(double avg, double graphs_after, double prev_avg,
					 double graphs, double *err)
{
	double before = graphs_after - graphs;
	*err = 0.05 * (graphs_after + before) / graphs;
	return (avg * graphs_after - prev_avg * before) / graphs;
}

/* The public names of every type, separated by sep ("stage timing ..."). */
void tp_type_names(struct strbuf *sb, const char *sep);

/* Type from its public name ("timing"), or -1. */
int tp_type_from_name(const char *s, size_t n);

/* The public name of a role ("phase"); "" for TP_ROLE_NONE. */
const char *tp_role_name(enum tp_role role);

/* A role from its public name, or -1. */
int tp_role_from_name(const char *s, size_t n);

/* The role a record has: its declared one, else the one its type implies
 * (a batch is a step, a rate a rate, memory and FLOPs quantities, a seed
 * stage or epoch a phase), else TP_ROLE_NONE. */
enum tp_role tp_role_of(const struct tp_record *r);

/* Index of a field by public name within a type's schema, or -1. */
int tp_field_index(enum tp_type t, const char *name, size_t n);

#endif
