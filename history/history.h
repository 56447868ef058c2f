/*
 * history.h - the public header of the run history layer: every run
 * remembered in one database (an embedded SQLite file, or PostgreSQL for a
 * team), reports across runs. It is everything another layer may use:
 *
 *   open       hs_open: a spec (a file or a postgresql:// URI), the schema
 *              brought to this tprof's version; hdb_close
 *   add        hs_ingest: read a log, analyze it, store its summaries,
 *              stages and findings in one transaction
 *   find, rm   a run by id, label or hash prefix
 *   views      reports (report.h) of the stored runs: list, show, trend,
 *              regressions, compare, and one run against its label's last
 *
 * The database interface and its two back ends (db.h, db_sqlite.c,
 * db_pg.c), the tables and their queries (store.h), the trend's points
 * (views.h) and the hash (sha256.h) stay inside history/: their headers
 * sit beside their code, and scripts/check-layers.sh fails on another
 * layer that includes them. struct hdb is opaque here.
 */
#ifndef TPROF_HISTORY_HISTORY_H
#define TPROF_HISTORY_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/analyze.h"
#include "base/base.h"
#include "parse/parse.h"

/* The status every call returns. */
enum hdb_status {
	HDB_OK = 0,
	HDB_BUSY,      /* locked by another writer past the timeout: worth retrying */
	HDB_CONFLICT,  /* a unique key already exists */
	HDB_CONNECT,   /* cannot open the file or reach the server */
	HDB_CORRUPT,   /* not a database, or a damaged one */
	HDB_SCHEMA,    /* a schema this tprof does not know (newer version) */
	HDB_FAILED     /* any other error of the database */
};
/* hs_ingest's own status beside the HDB_* ones: the log could not be read */
#define HS_INPUT 100

struct hdb; /* an open database */

/*
 * Opens spec (a SQLite file, or a postgresql:// URI; NULL: TPROF_DB, else
 * $XDG_DATA_HOME/tprof/history.db) and brings its schema to this tprof's
 * version; a writer another one locked is waited for wait_ms (0: 60 s).
 */
int hs_open(const char *spec, int wait_ms, struct hdb **out, struct strbuf *err);
void hdb_close(struct hdb *db);

/* ---- adding a log ---- */

struct hs_kv {
	const char *key, *value;
};

struct hs_add_opts {
	const char *tool;           /* message prefix */
	const char *label;          /* or NULL */
	const struct hs_kv *meta;
	size_t nmeta;
	int records;                /* also keep the first values of each series (--records) */
	int threads, quiet;
	const struct tp_rules *rules;
	int64_t added;              /* the time stored (seconds since the epoch) */
};

/*
 * Reads and stores path. Returns HDB_OK (*existed = 1 and *id the stored
 * run when the same content was added before), HS_INPUT with a message in
 * err, or an HDB_* error of the store.
 */
int hs_ingest(struct hdb *db, const char *path, const struct hs_add_opts *o, int64_t *id, int *existed,
	      struct strbuf *err);

/* ---- stored runs ---- */

struct hs_run {
	int64_t id;
	char hash[72], label[256], path[1024];
	int64_t size, added, records, warnings;
};

/*
 * RUN as the user wrote it: a run id, else a label (its latest run), else
 * a hash prefix of at least 6 hex digits. HDB_OK with r->id = 0: no such run.
 */
int hs_find(struct hdb *db, const char *run, struct hs_run *r, struct strbuf *err);

/* Deletes a run and all it holds (one transaction); *found = 0 if it was not there. */
int hs_rm(struct hdb *db, int64_t id, int *found, struct strbuf *err);

/* Every series name, sorted, with the number of runs that have it. */
typedef void (*hs_name_fn)(void *ctx, const char *name, int64_t runs);
int hs_series_names(struct hdb *db, hs_name_fn fn, void *ctx, struct strbuf *err);

/* The hash of a whole file (64 lowercase hex digits) and its size; -1 with
 * errno set if it cannot be read. A run is stored once per content hash. */
int sha256_file(const char *path, char hex[65], int64_t *size);

/* ---- views: the history as reports, for every renderer ----
 *
 *   list         the runs stored ("runs")
 *   show         one run: what was stored, meta, series, stages, findings
 *   trend        one series across runs, change points marked ("trend")
 *   regressions  every series with a change point, ranked by
 *                |change| x (1 - p), with the run where it starts
 *   compare      two stored runs, as tprof-analyze --compare
 *   recent       one run's series against the last N runs with a label
 *
 * Each returns an HDB_* status (err set on failure).
 */
int hs_view_list(struct hdb *db, const char *label, struct report *rep, struct strbuf *err);
int hs_view_show(struct hdb *db, const struct hs_run *r, struct report *rep, struct strbuf *err);
/* *npoints: runs that carry the series (0: unknown series, nothing added). */
int hs_view_trend(struct hdb *db, const char *series, const struct cp_opts *o, struct report *rep, size_t *npoints,
		  struct strbuf *err);
/* *nfound: change points listed. */
int hs_view_regressions(struct hdb *db, const struct cp_opts *o, struct report *rep, size_t *nfound,
			struct strbuf *err);
/* Returns the HDB status; *gate as an_compare's. */
int hs_view_compare(struct hdb *db, const struct hs_run *a, const struct hs_run *b, const struct an_opts *o,
		    struct report *rep, int *gate, struct strbuf *err);
/*
 * The "history" section: each series of the given summaries against the
 * same series in the last `last` runs labelled `label` (the run with hash
 * `skip_hash`, if stored, is left out: it is this run).
 */
int hs_view_recent(struct hdb *db, const char *label, size_t last, const char *skip_hash,
		   const struct an_summary *v, size_t n, const char *run_label, struct report *rep,
		   struct strbuf *err);

#endif
