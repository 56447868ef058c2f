/*
 * store.h - the run history's tables and the operations on them, written
 * once over db.h for both back ends. Schema (version 1):
 *
 *   tprof_schema (version)                    one row: the schema version
 *   runs     (id, hash UNIQUE, path, size, added, label, records, warnings)
 *   run_meta (run_id, key, value)             --meta key=value
 *   series   (run_id, name, unit, n, mean, std, median, mad, p90,
 *             vmin, vmax, value)              one summary per series
 *   stages   (run_id, name, seconds, count)   the stage breakdown
 *   findings (run_id, seq, severity, kind, message)
 *   samples  (run_id, name, seq, value)       --records: the first values
 *
 * Opening migrates an older schema inside one transaction (concurrent
 * openers wait for each other) and refuses a newer one. Adding a run is
 * one transaction: a killed add leaves nothing behind, and the unique
 * content hash makes a second add of the same log a no-op.
 */
#ifndef TPROF_STORE_H
#define TPROF_STORE_H

#include "analyze/analyze.h"
#include "db.h"

#define HS_SCHEMA_VERSION 1

struct hs_stage {
	const char *name;
	double seconds;
	uint64_t count;
};

struct hs_finding {
	const char *severity, *kind, *message;
};

struct hs_samples {
	const char *name;
	const double *v;
	size_t n;
};

/* Everything stored of one run. */
struct hs_run_in {
	const char *hash, *path, *label;
	int64_t size, added;
	uint64_t records, warnings;
	const struct hs_kv *meta;
	size_t nmeta;
	const struct an_summary *series;
	size_t nseries;
	const struct hs_stage *stages;
	size_t nstages;
	const struct hs_finding *findings;
	size_t nfindings;
	const struct hs_samples *samples;
	size_t nsamples;
};

/*
 * Stores a run in one transaction. *id is the new run's id, or with
 * *existed = 1 the id of the run that already has this hash (nothing
 * stored). SQLite's lock is waited for (busy timeout) and the whole
 * transaction retried a few times before HDB_BUSY is returned.
 */
int hs_add(struct hdb *db, const struct hs_run_in *in, int64_t *id, int *existed, struct strbuf *err);

/* Every run, oldest first (label: NULL = any). */
typedef int (*hs_run_fn)(void *ctx, const struct hs_run *r);
int hs_runs(struct hdb *db, const char *label, hs_run_fn fn, void *ctx, struct strbuf *err);

/* A run's series summaries, meta, stages and findings, by callbacks (any may be NULL). */
struct hs_detail_fns {
	void (*series)(void *ctx, const struct an_summary *s);
	void (*meta)(void *ctx, const char *key, const char *value);
	void (*stage)(void *ctx, const char *name, double seconds, int64_t count);
	void (*finding)(void *ctx, const char *severity, const char *kind, const char *message);
	void *ctx;
};
int hs_detail(struct hdb *db, int64_t id, const struct hs_detail_fns *f, struct strbuf *err);

/* One series across runs, oldest first. */
typedef void (*hs_point_fn)(void *ctx, const struct hs_run *r, const struct an_summary *s);
int hs_trend(struct hdb *db, const char *series, hs_point_fn fn, void *ctx, struct strbuf *err);

/* One series' compared value per run, oldest first: 16 bytes a run for the change-point search. */
typedef void (*hs_value_fn)(void *ctx, int64_t run_id, double value, const char *unit);
int hs_values(struct hdb *db, const char *series, hs_value_fn fn, void *ctx, struct strbuf *err);

/* The number of runs stored. */
int hs_count(struct hdb *db, int64_t *n, struct strbuf *err);

/* "label", else "#id file" (the file name without its directories). */
void hs_run_name(const struct hs_run *r, char *buf, size_t size);

#endif
