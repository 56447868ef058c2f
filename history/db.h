/*
 * db.h - the one small interface the run history stores through, with two
 * back ends: embedded SQLite (a file path) and PostgreSQL (a postgresql://
 * or postgres:// URI, through libpq). The store above it (store.c) writes
 * its SQL once, with '?' placeholders; the PostgreSQL back end numbers
 * them ($1, $2, ...). Values only ever travel as bound parameters.
 *
 * Every call returns an HDB_* status and, on failure, a message in err.
 */
#ifndef TPROF_HDB_H
#define TPROF_HDB_H

#include <stddef.h>
#include <stdint.h>

#include "history.h"

enum hdb_type { HV_NULL, HV_INT, HV_DOUBLE, HV_TEXT };

struct hdb_val {
	enum hdb_type type;
	int64_t i;
	double d;
	const char *s;
};
#define HV_I(x) ((struct hdb_val){ .type = HV_INT, .i = (x) })
#define HV_D(x) ((struct hdb_val){ .type = isfinite(x) ? HV_DOUBLE : HV_NULL, .d = (x) })
#define HV_S(x) ((struct hdb_val){ .type = (x) ? HV_TEXT : HV_NULL, .s = (x) })


/* A result row, valid during the callback only. */
struct hdb_row {
	const struct hdb *db;
	void *impl;
	size_t ncols;
};
const char *hdb_text(const struct hdb_row *r, size_t col); /* NULL for NULL */
int64_t hdb_int(const struct hdb_row *r, size_t col);      /* 0 for NULL */
double hdb_double(const struct hdb_row *r, size_t col);    /* NAN for NULL */

/* Called per row; a non-zero return stops the query (HDB_OK is still returned). */
typedef int (*hdb_row_fn)(void *ctx, const struct hdb_row *row);

struct hdb_ops {
	const char *name;     /* "sqlite", "postgresql" */
	const char *id_type;  /* an auto-numbered primary key column type */
	int (*exec)(struct hdb *db, const char *sql, const struct hdb_val *p, size_t np, hdb_row_fn fn, void *ctx,
		    struct strbuf *err);
	/* write = 1: take the write lock now (SQLite BEGIN IMMEDIATE) */
	int (*begin)(struct hdb *db, int write, struct strbuf *err);
	/* Serialises schema changes between concurrent openers (inside a transaction). */
	int (*lock_schema)(struct hdb *db, struct strbuf *err);
	const char *(*row_text)(const struct hdb_row *r, size_t col);
	int (*row_null)(const struct hdb_row *r, size_t col);
	int64_t (*row_int)(const struct hdb_row *r, size_t col);
	double (*row_double)(const struct hdb_row *r, size_t col);
	void (*close)(struct hdb *db);
};

struct hdb {
	const struct hdb_ops *ops;
	char *where; /* the path or the URI without its password, for messages */
};

/* Whether spec names a PostgreSQL server (postgresql:// or postgres://). */
int hdb_is_pg(const char *spec);

/*
 * Opens spec: a PostgreSQL URI, or a file path (created with its missing
 * parent directories; NULL or "": TPROF_DB, else
 * $XDG_DATA_HOME/tprof/history.db, else ~/.local/share/tprof/history.db).
 * wait_ms: how long to wait for a lock another writer holds (SQLite's
 * busy timeout, PostgreSQL's lock_timeout); 0 for the default, 60 s.
 */
#define HDB_WAIT_MS 60000
int hdb_open(const char *spec, int wait_ms, struct hdb **out, struct strbuf *err);

/* The default spec (TPROF_DB, else the XDG path) into sb; -1 if no home is known. */
int hdb_default_spec(struct strbuf *sb);

int hdb_exec(struct hdb *db, const char *sql, const struct hdb_val *p, size_t np, hdb_row_fn fn, void *ctx,
	     struct strbuf *err);
int hdb_begin(struct hdb *db, int write, struct strbuf *err);
int hdb_commit(struct hdb *db, struct strbuf *err);
void hdb_rollback(struct hdb *db);

/* Back ends (db_sqlite.c, db_pg.c). */
int hdb_sqlite_open(const char *path, int wait_ms, struct hdb **out, struct strbuf *err);
int hdb_pg_open(const char *uri, int wait_ms, struct hdb **out, struct strbuf *err);

#endif
