/*
 * ingest.h - adding one log to the run history: its content hash and
 * size, then the load-and-analyze path of tprof-analyze (load.c, the
 * analyses), kept as series summaries, the stage breakdown and the
 * findings, stored in one transaction. Memory: one run's model at a time.
 */
#ifndef TPROF_INGEST_H
#define TPROF_INGEST_H

#include "parse/parse.h"
#include "store.h"

/* ingest's own status beside the HDB_* ones: the log could not be read */
#define HS_INPUT 100

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

/* The kept values per series with --records: the exact head of the series. */
#define HS_MAX_SAMPLES 512

/*
 * Reads and stores path. Returns HDB_OK (*existed = 1 and *id the stored
 * run when the same content was added before), HS_INPUT with a message in
 * err, or an HDB_* error of the store.
 */
int hs_ingest(struct hdb *db, const char *path, const struct hs_add_opts *o, int64_t *id, int *existed,
	      struct strbuf *err);

#endif
