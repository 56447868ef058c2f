/*
 * db_sqlite.c - the embedded SQLite back end of the run history: one
 * file, WAL journal (readers never wait for the writer), a busy timeout so
 * that concurrent writers queue instead of failing, and BEGIN IMMEDIATE
 * for writing transactions (the write lock is taken up front, so two
 * writers never deadlock upgrading a read lock).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "db.h"

struct sdb {
	struct hdb base;
	sqlite3 *h;
};

static int status_of(int code)
{
	switch (code & 0xff) {
	case SQLITE_OK:
	case SQLITE_ROW:
	case SQLITE_DONE:
		return HDB_OK;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return HDB_BUSY;
	case SQLITE_CONSTRAINT:
		return HDB_CONFLICT;
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		return HDB_CORRUPT;
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
	case SQLITE_READONLY:
		return HDB_CONNECT;
	default:
		return HDB_FAILED;
	}
}

static int fail(struct sdb *d, int code, struct strbuf *err)
{
	strbuf_addf(err, "%s: %s", d->base.where, sqlite3_errmsg(d->h));
	if ((code & 0xff) == SQLITE_BUSY)
		strbuf_addstr(err, " (another process holds the lock)");
	return status_of(code);
}

static int bind_all(sqlite3_stmt *st, const struct hdb_val *p, size_t np)
{
	int rc = SQLITE_OK;
	for (size_t i = 0; i < np && rc == SQLITE_OK; i++) {
		int k = (int)i + 1;
		switch (p[i].type) {
		case HV_NULL:
			rc = sqlite3_bind_null(st, k);
			break;
		case HV_INT:
			rc = sqlite3_bind_int64(st, k, p[i].i);
			break;
		case HV_DOUBLE:
			rc = sqlite3_bind_double(st, k, p[i].d);
			break;
		case HV_TEXT:
			rc = sqlite3_bind_text(st, k, p[i].s, -1, SQLITE_TRANSIENT);
			break;
		}
	}
	return rc;
}

static int s_exec(struct hdb *db, const char *sql, const struct hdb_val *p, size_t np, hdb_row_fn fn, void *ctx,
		  struct strbuf *err)
{
	struct sdb *d = (struct sdb *)db;
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(d->h, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return fail(d, rc, err);
	rc = bind_all(st, p, np);
	if (rc != SQLITE_OK) {
		sqlite3_finalize(st);
		return fail(d, rc, err);
	}
	struct hdb_row row = { db, st, (size_t)sqlite3_column_count(st) };
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (fn && fn(ctx, &row)) {
			rc = SQLITE_DONE;
			break;
		}
	int out = rc == SQLITE_DONE ? HDB_OK : fail(d, rc, err);
	sqlite3_finalize(st);
	return out;
}

static int s_begin(struct hdb *db, int write, struct strbuf *err)
{
	return s_exec(db, write ? "BEGIN IMMEDIATE" : "BEGIN", NULL, 0, NULL, NULL, err);
}

static int s_lock_schema(struct hdb *db, struct strbuf *err)
{
	(void)db, (void)err; /* BEGIN IMMEDIATE already excludes other writers */
	return HDB_OK;
}

static const char *s_text(const struct hdb_row *r, size_t col)
{
	return (const char *)sqlite3_column_text(r->impl, (int)col);
}

static int s_null(const struct hdb_row *r, size_t col)
{
	return sqlite3_column_type(r->impl, (int)col) == SQLITE_NULL;
}

static int64_t s_int(const struct hdb_row *r, size_t col)
{
	return sqlite3_column_int64(r->impl, (int)col);
}

static double s_double(const struct hdb_row *r, size_t col)
{
	return sqlite3_column_double(r->impl, (int)col);
}

static void s_close(struct hdb *db)
{
	struct sdb *d = (struct sdb *)db;
	sqlite3_close(d->h);
	free(d->base.where);
	free(d);
}

static const struct hdb_ops sqlite_ops = {
	"sqlite", "INTEGER PRIMARY KEY", s_exec, s_begin, s_lock_schema, s_text, s_null, s_int, s_double, s_close,
};

int hdb_sqlite_open(const char *path, int wait_ms, struct hdb **out, struct strbuf *err)
{
	struct sdb *d = xcalloc(1, sizeof(*d));
	d->base.ops = &sqlite_ops;
	d->base.where = xstrdup(path);
	int rc = sqlite3_open_v2(path, &d->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		int st = d->h ? fail(d, rc, err) : HDB_FAILED;
		if (!d->h)
			strbuf_addf(err, "%s: cannot open", path);
		s_close(&d->base);
		return st == HDB_OK ? HDB_CONNECT : st;
	}
	sqlite3_busy_timeout(d->h, wait_ms);
	sqlite3_extended_result_codes(d->h, 0);
	/* WAL: readers do not block the writer; NORMAL sync is safe in WAL
	 * (a power cut loses at most the last commits, never consistency) */
	static const char *const setup[] = { "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL",
					     "PRAGMA foreign_keys=ON" };
	for (size_t i = 0; i < ARRAY_SIZE(setup); i++) {
		int st, tries = 0;
		/* the first opens of a new database race to switch it to WAL, and
		 * SQLite may answer BUSY there at once, without its busy handler:
		 * up to a second more, 10 ms at a time */
		while ((st = s_exec(&d->base, setup[i], NULL, 0, NULL, NULL, err)) == HDB_BUSY && tries++ < 100) {
			struct timespec ts = { 0, 10000000L };
			strbuf_reset(err);
			nanosleep(&ts, NULL);
		}
		if (st != HDB_OK) {
			s_close(&d->base);
			return st;
		}
	}
	*out = &d->base;
	return HDB_OK;
}
