/*
 * db.c - choosing the back end from the spec, the default database path,
 * and the calls every back end shares (see db.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "db.h"

int hdb_is_pg(const char *spec)
{
	return spec && (!strncmp(spec, "postgresql://", 13) || !strncmp(spec, "postgres://", 11));
}

int hdb_default_spec(struct strbuf *sb)
{
	const char *env = getenv("TPROF_DB"), *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	if (env && *env)
		strbuf_addstr(sb, env);
	else if (xdg && *xdg == '/')
		strbuf_addf(sb, "%s/tprof/history.db", xdg);
	else if (home && *home)
		strbuf_addf(sb, "%s/.local/share/tprof/history.db", home);
	else
		return -1;
	return 0;
}

/* mkdir -p of the directory part of path. */
static int make_parents(const char *path, struct strbuf *err)
{
	char *dir = xstrdup(path);
	int rc = 0;
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
			strbuf_addf(err, "cannot create %s: %s", dir, strerror(errno));
			rc = -1;
			break;
		}
		*p = '/';
	}
	free(dir);
	return rc;
}

int hdb_open(const char *spec, int wait_ms, struct hdb **out, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int rc;
	*out = NULL;
	if (wait_ms <= 0)
		wait_ms = HDB_WAIT_MS;
	if (!spec || !*spec) {
		if (hdb_default_spec(&path) < 0) {
			strbuf_addstr(err, "no database given and neither TPROF_DB, XDG_DATA_HOME nor HOME is set");
			return HDB_CONNECT;
		}
		spec = path.buf;
	}
	if (hdb_is_pg(spec)) {
		rc = hdb_pg_open(spec, wait_ms, out, err);
	} else if (make_parents(spec, err) < 0) {
		rc = HDB_CONNECT;
	} else {
		rc = hdb_sqlite_open(spec, wait_ms, out, err);
	}
	strbuf_release(&path);
	return rc;
}

void hdb_close(struct hdb *db)
{
	if (db)
		db->ops->close(db);
}

int hdb_exec(struct hdb *db, const char *sql, const struct hdb_val *p, size_t np, hdb_row_fn fn, void *ctx,
	     struct strbuf *err)
{
	return db->ops->exec(db, sql, p, np, fn, ctx, err);
}

int hdb_begin(struct hdb *db, int write, struct strbuf *err)
{
	return db->ops->begin(db, write, err);
}

int hdb_commit(struct hdb *db, struct strbuf *err)
{
	return db->ops->exec(db, "COMMIT", NULL, 0, NULL, NULL, err);
}

void hdb_rollback(struct hdb *db)
{
	struct strbuf ignored = STRBUF_INIT;
	db->ops->exec(db, "ROLLBACK", NULL, 0, NULL, NULL, &ignored);
	strbuf_release(&ignored);
}

const char *hdb_text(const struct hdb_row *r, size_t col)
{
	return r->db->ops->row_null(r, col) ? NULL : r->db->ops->row_text(r, col);
}

int64_t hdb_int(const struct hdb_row *r, size_t col)
{
	return r->db->ops->row_null(r, col) ? 0 : r->db->ops->row_int(r, col);
}

double hdb_double(const struct hdb_row *r, size_t col)
{
	return r->db->ops->row_null(r, col) ? NAN : r->db->ops->row_double(r, col);
}
