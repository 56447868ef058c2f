/*
 * store.c - the run history's schema, its migrations and the operations
 * on runs (see store.h). SQL is written once with '?' placeholders; every
 * value goes through a bound parameter.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store.h"

#define RUN_COLS "r.id, r.hash, r.path, r.size, r.added, r.label, r.records, r.warnings"
#define NRUN_COLS 8
#define SERIES_COLS "s.name, s.unit, s.n, s.mean, s.std, s.median, s.mad, s.p90, s.vmin, s.vmax, s.value"

/* Version 1. "%s" is the back end's auto-numbered key type (never user text). */
static const char *const schema_v1[] = {
	"CREATE TABLE runs (id %s, hash TEXT NOT NULL UNIQUE, path TEXT NOT NULL, size BIGINT NOT NULL, "
	"added BIGINT NOT NULL, label TEXT, records BIGINT NOT NULL, warnings BIGINT NOT NULL)",
	"CREATE INDEX runs_label ON runs (label, id)",
	"CREATE TABLE run_meta (run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, "
	"key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (run_id, key))",
	"CREATE TABLE series (run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, "
	"name TEXT NOT NULL, unit TEXT NOT NULL, n BIGINT NOT NULL, mean DOUBLE PRECISION, "
	"std DOUBLE PRECISION, median DOUBLE PRECISION, mad DOUBLE PRECISION, p90 DOUBLE PRECISION, "
	"vmin DOUBLE PRECISION, vmax DOUBLE PRECISION, value DOUBLE PRECISION, PRIMARY KEY (run_id, name))",
	"CREATE INDEX series_name ON series (name, run_id)",
	"CREATE TABLE stages (run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, "
	"name TEXT NOT NULL, seconds DOUBLE PRECISION, count BIGINT NOT NULL, PRIMARY KEY (run_id, name))",
	"CREATE TABLE findings (run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, "
	"seq BIGINT NOT NULL, severity TEXT NOT NULL, kind TEXT NOT NULL, message TEXT NOT NULL, "
	"PRIMARY KEY (run_id, seq))",
	"CREATE TABLE samples (run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, "
	"name TEXT NOT NULL, seq BIGINT NOT NULL, value DOUBLE PRECISION, PRIMARY KEY (run_id, name, seq))",
	NULL,
};

/* migrations[k] takes the schema from version k to k + 1 */
static const char *const *const migrations[HS_SCHEMA_VERSION] = { schema_v1 };

static int get_int(void *ctx, const struct hdb_row *row)
{
	*(int64_t *)ctx = hdb_int(row, 0);
	return 1;
}

static int run_migrations(struct hdb *db, int64_t from, struct strbuf *err)
{
	int st = HDB_OK;
	for (int64_t k = from; k < HS_SCHEMA_VERSION && st == HDB_OK; k++)
		for (const char *const *sql = migrations[k]; *sql && st == HDB_OK; sql++) {
			struct strbuf q = STRBUF_INIT;
			if (!strcmp(db->ops->name, "sqlite") && strstr(*sql, "id %s"))
				strbuf_addf(&q, *sql, "INTEGER PRIMARY KEY AUTOINCREMENT");
			else
				strbuf_addf(&q, *sql, db->ops->id_type);
			st = hdb_exec(db, q.buf, NULL, 0, NULL, NULL, err);
			strbuf_release(&q);
		}
	if (st != HDB_OK)
		return st;
	struct hdb_val v = HV_I(HS_SCHEMA_VERSION);
	return hdb_exec(db, from ? "UPDATE tprof_schema SET version = ?" : "INSERT INTO tprof_schema (version) VALUES (?)",
			&v, 1, NULL, NULL, err);
}

/* Reads the version (0: no schema yet) and migrates, under the schema lock. */
static int migrate(struct hdb *db, struct strbuf *err)
{
	int64_t v = 0;
	int st = hdb_begin(db, 1, err);
	if (st == HDB_OK)
		st = db->ops->lock_schema(db, err);
	if (st == HDB_OK)
		st = hdb_exec(db, "CREATE TABLE IF NOT EXISTS tprof_schema (version INTEGER NOT NULL)", NULL, 0, NULL,
			      NULL, err);
	if (st == HDB_OK)
		st = hdb_exec(db, "SELECT version FROM tprof_schema", NULL, 0, get_int, &v, err);
	if (st == HDB_OK && v > HS_SCHEMA_VERSION) {
		strbuf_addf(err, "%s: history schema version %lld is newer than this tprof's (%d): upgrade tprof",
			    db->where, (long long)v, HS_SCHEMA_VERSION);
		st = HDB_SCHEMA;
	} else if (st == HDB_OK && v < 0) {
		strbuf_addf(err, "%s: history schema version %lld is not one tprof wrote", db->where, (long long)v);
		st = HDB_SCHEMA;
	}
	if (st == HDB_OK && v < HS_SCHEMA_VERSION)
		st = run_migrations(db, v, err);
	if (st == HDB_OK)
		return hdb_commit(db, err);
	hdb_rollback(db);
	return st;
}

int hs_open(const char *spec, int wait_ms, struct hdb **out, struct strbuf *err)
{
	struct hdb *db;
	int64_t v = -1;
	int st = hdb_open(spec, wait_ms, &db, err);
	if (st != HDB_OK)
		return st;
	/* the common case reads the version without taking the write lock */
	struct strbuf ignored = STRBUF_INIT;
	st = hdb_exec(db, "SELECT version FROM tprof_schema", NULL, 0, get_int, &v, &ignored);
	strbuf_release(&ignored);
	if (st == HDB_CORRUPT || st == HDB_CONNECT)
		st = hdb_exec(db, "SELECT version FROM tprof_schema", NULL, 0, get_int, &v, err);
	else if (st != HDB_OK || v != HS_SCHEMA_VERSION)
		st = migrate(db, err); /* no schema yet, an older or a newer one */
	if (st != HDB_OK) {
		hdb_close(db);
		return st;
	}
	*out = db;
	return HDB_OK;
}

/* ---- adding a run ---- */

static int insert_children(struct hdb *db, int64_t id, const struct hs_run_in *in, struct strbuf *err)
{
	int st = HDB_OK;
	for (size_t i = 0; i < in->nmeta && st == HDB_OK; i++) {
		struct hdb_val p[] = { HV_I(id), HV_S(in->meta[i].key), HV_S(in->meta[i].value) };
		st = hdb_exec(db, "INSERT INTO run_meta (run_id, key, value) VALUES (?, ?, ?)", p, 3, NULL, NULL, err);
	}
	for (size_t i = 0; i < in->nseries && st == HDB_OK; i++) {
		const struct an_summary *s = &in->series[i];
		struct hdb_val p[] = { HV_I(id),       HV_S(s->name),   HV_S(s->unit),  HV_I((int64_t)s->n),
				       HV_D(s->mean),  HV_D(s->std),    HV_D(s->median), HV_D(s->mad),
				       HV_D(s->p90),   HV_D(s->min),    HV_D(s->max),   HV_D(s->value) };
		st = hdb_exec(db,
			      "INSERT INTO series (run_id, name, unit, n, mean, std, median, mad, p90, vmin, vmax, value) "
			      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			      p, ARRAY_SIZE(p), NULL, NULL, err);
	}
	for (size_t i = 0; i < in->nstages && st == HDB_OK; i++) {
		struct hdb_val p[] = { HV_I(id), HV_S(in->stages[i].name), HV_D(in->stages[i].seconds),
				       HV_I((int64_t)in->stages[i].count) };
		st = hdb_exec(db, "INSERT INTO stages (run_id, name, seconds, count) VALUES (?, ?, ?, ?)", p, 4, NULL,
			      NULL, err);
	}
	for (size_t i = 0; i < in->nfindings && st == HDB_OK; i++) {
		const struct hs_finding *f = &in->findings[i];
		struct hdb_val p[] = { HV_I(id), HV_I((int64_t)i), HV_S(f->severity), HV_S(f->kind), HV_S(f->message) };
		st = hdb_exec(db, "INSERT INTO findings (run_id, seq, severity, kind, message) VALUES (?, ?, ?, ?, ?)", p,
			      5, NULL, NULL, err);
	}
	for (size_t i = 0; i < in->nsamples && st == HDB_OK; i++)
		for (size_t k = 0; k < in->samples[i].n && st == HDB_OK; k++) {
			struct hdb_val p[] = { HV_I(id), HV_S(in->samples[i].name), HV_I((int64_t)k),
					       HV_D(in->samples[i].v[k]) };
			st = hdb_exec(db, "INSERT INTO samples (run_id, name, seq, value) VALUES (?, ?, ?, ?)", p, 4, NULL,
				      NULL, err);
		}
	return st;
}

static int add_once(struct hdb *db, const struct hs_run_in *in, int64_t *id, int *existed, struct strbuf *err)
{
	*id = 0;
	*existed = 0;
	int st = hdb_begin(db, 1, err);
	if (st != HDB_OK)
		return st;
	struct hdb_val p[] = { HV_S(in->hash), HV_S(in->path), HV_I(in->size), HV_I(in->added), HV_S(in->label),
			       HV_I((int64_t)in->records), HV_I((int64_t)in->warnings) };
	st = hdb_exec(db,
		      "INSERT INTO runs (hash, path, size, added, label, records, warnings) VALUES (?, ?, ?, ?, ?, ?, ?) "
		      "ON CONFLICT (hash) DO NOTHING RETURNING id",
		      p, ARRAY_SIZE(p), get_int, id, err);
	if (st == HDB_OK && !*id) {
		*existed = 1;
		st = hdb_exec(db, "SELECT id FROM runs WHERE hash = ?", p, 1, get_int, id, err);
		hdb_rollback(db);
		return st;
	}
	if (st == HDB_OK)
		st = insert_children(db, *id, in, err);
	if (st == HDB_OK)
		st = hdb_commit(db, err);
	if (st != HDB_OK) {
		hdb_rollback(db);
		*id = 0;
	}
	return st;
}

int hs_add(struct hdb *db, const struct hs_run_in *in, int64_t *id, int *existed, struct strbuf *err)
{
	int st = HDB_BUSY;
	/* the busy timeout already waited; a few more tries with a growing pause */
	for (int attempt = 0; attempt < 6 && st == HDB_BUSY; attempt++) {
		if (attempt) {
			struct timespec ts = { 0, (long)(20000000L << attempt) % 1000000000L };
			nanosleep(&ts, NULL);
		}
		strbuf_reset(err);
		st = add_once(db, in, id, existed, err);
	}
	return st;
}

/* ---- reading ---- */

static void row_run(const struct hdb_row *row, size_t c, struct hs_run *r)
{
	const char *s;
	memset(r, 0, sizeof(*r));
	r->id = hdb_int(row, c);
	snprintf(r->hash, sizeof(r->hash), "%s", (s = hdb_text(row, c + 1)) ? s : "");
	snprintf(r->path, sizeof(r->path), "%s", (s = hdb_text(row, c + 2)) ? s : "");
	r->size = hdb_int(row, c + 3);
	r->added = hdb_int(row, c + 4);
	snprintf(r->label, sizeof(r->label), "%s", (s = hdb_text(row, c + 5)) ? s : "");
	r->records = hdb_int(row, c + 6);
	r->warnings = hdb_int(row, c + 7);
}

static void row_summary(const struct hdb_row *row, size_t c, struct an_summary *s)
{
	const char *t;
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", (t = hdb_text(row, c)) ? t : "");
	snprintf(s->unit, sizeof(s->unit), "%s", (t = hdb_text(row, c + 1)) ? t : "");
	s->n = (uint64_t)hdb_int(row, c + 2);
	s->mean = hdb_double(row, c + 3);
	s->std = hdb_double(row, c + 4);
	s->median = hdb_double(row, c + 5);
	s->mad = hdb_double(row, c + 6);
	s->p90 = hdb_double(row, c + 7);
	s->min = hdb_double(row, c + 8);
	s->max = hdb_double(row, c + 9);
	s->value = hdb_double(row, c + 10);
}

static int one_run(void *ctx, const struct hdb_row *row)
{
	row_run(row, 0, ctx);
	return 1;
}

static int is_hex(const char *s)
{
	for (; *s; s++)
		if (!strchr("0123456789abcdef", *s))
			return 0;
	return 1;
}

int hs_find(struct hdb *db, const char *run, struct hs_run *r, struct strbuf *err)
{
	char *end;
	long long id = strtoll(run, &end, 10);
	int st = HDB_OK;
	memset(r, 0, sizeof(*r));
	if (*run && !*end && id > 0) {
		struct hdb_val p = HV_I(id);
		st = hdb_exec(db, "SELECT " RUN_COLS " FROM runs r WHERE r.id = ?", &p, 1, one_run, r, err);
	}
	if (st == HDB_OK && !r->id) {
		struct hdb_val p = HV_S(run);
		st = hdb_exec(db, "SELECT " RUN_COLS " FROM runs r WHERE r.label = ? ORDER BY r.id DESC LIMIT 1", &p, 1,
			      one_run, r, err);
	}
	if (st == HDB_OK && !r->id && strlen(run) >= 6 && is_hex(run)) {
		struct hdb_val p[] = { HV_I((int64_t)strlen(run)), HV_S(run) };
		st = hdb_exec(db, "SELECT " RUN_COLS " FROM runs r WHERE substr(r.hash, 1, ?) = ? ORDER BY r.id", p, 2,
			      one_run, r, err);
	}
	return st;
}

struct runs_ctx {
	hs_run_fn fn;
	void *ctx;
};

static int each_run(void *ctx, const struct hdb_row *row)
{
	struct runs_ctx *c = ctx;
	struct hs_run r;
	row_run(row, 0, &r);
	return c->fn(c->ctx, &r);
}

int hs_runs(struct hdb *db, const char *label, hs_run_fn fn, void *ctx, struct strbuf *err)
{
	struct runs_ctx c = { fn, ctx };
	struct hdb_val p = HV_S(label);
	if (label)
		return hdb_exec(db, "SELECT " RUN_COLS " FROM runs r WHERE r.label = ? ORDER BY r.id", &p, 1, each_run,
				&c, err);
	return hdb_exec(db, "SELECT " RUN_COLS " FROM runs r ORDER BY r.id", NULL, 0, each_run, &c, err);
}

int hs_rm(struct hdb *db, int64_t id, int *found, struct strbuf *err)
{
	int64_t got = 0;
	struct hdb_val p = HV_I(id);
	int st = hdb_begin(db, 1, err);
	if (st == HDB_OK)
		st = hdb_exec(db, "DELETE FROM runs WHERE id = ? RETURNING id", &p, 1, get_int, &got, err);
	if (st == HDB_OK)
		st = hdb_commit(db, err);
	else
		hdb_rollback(db);
	*found = got != 0;
	return st;
}

static int each_series(void *ctx, const struct hdb_row *row)
{
	const struct hs_detail_fns *f = ctx;
	struct an_summary s;
	row_summary(row, 0, &s);
	f->series(f->ctx, &s);
	return 0;
}

static int each_meta(void *ctx, const struct hdb_row *row)
{
	const struct hs_detail_fns *f = ctx;
	f->meta(f->ctx, hdb_text(row, 0), hdb_text(row, 1));
	return 0;
}

static int each_stage(void *ctx, const struct hdb_row *row)
{
	const struct hs_detail_fns *f = ctx;
	f->stage(f->ctx, hdb_text(row, 0), hdb_double(row, 1), hdb_int(row, 2));
	return 0;
}

static int each_finding(void *ctx, const struct hdb_row *row)
{
	const struct hs_detail_fns *f = ctx;
	f->finding(f->ctx, hdb_text(row, 0), hdb_text(row, 1), hdb_text(row, 2));
	return 0;
}

int hs_detail(struct hdb *db, int64_t id, const struct hs_detail_fns *f, struct strbuf *err)
{
	struct hdb_val p = HV_I(id);
	int st = HDB_OK;
	if (f->meta)
		st = hdb_exec(db, "SELECT key, value FROM run_meta WHERE run_id = ? ORDER BY key", &p, 1, each_meta,
			      (void *)f, err);
	if (st == HDB_OK && f->series)
		st = hdb_exec(db, "SELECT " SERIES_COLS " FROM series s WHERE s.run_id = ? ORDER BY s.name", &p, 1,
			      each_series, (void *)f, err);
	if (st == HDB_OK && f->stage)
		st = hdb_exec(db, "SELECT name, seconds, count FROM stages WHERE run_id = ? ORDER BY seconds DESC, name",
			      &p, 1, each_stage, (void *)f, err);
	if (st == HDB_OK && f->finding)
		st = hdb_exec(db, "SELECT severity, kind, message FROM findings WHERE run_id = ? ORDER BY seq", &p, 1,
			      each_finding, (void *)f, err);
	return st;
}

struct trend_ctx {
	hs_point_fn fn;
	void *ctx;
};

static int each_point(void *ctx, const struct hdb_row *row)
{
	struct trend_ctx *c = ctx;
	struct hs_run r;
	struct an_summary s;
	row_run(row, 0, &r);
	row_summary(row, NRUN_COLS, &s);
	c->fn(c->ctx, &r, &s);
	return 0;
}

int hs_trend(struct hdb *db, const char *series, hs_point_fn fn, void *ctx, struct strbuf *err)
{
	struct trend_ctx c = { fn, ctx };
	struct hdb_val p = HV_S(series);
	return hdb_exec(db,
			"SELECT " RUN_COLS ", " SERIES_COLS " FROM series s JOIN runs r ON r.id = s.run_id "
			"WHERE s.name = ? ORDER BY r.id",
			&p, 1, each_point, &c, err);
}

struct values_ctx {
	hs_value_fn fn;
	void *ctx;
};

static int each_value(void *ctx, const struct hdb_row *row)
{
	struct values_ctx *c = ctx;
	c->fn(c->ctx, hdb_int(row, 0), hdb_double(row, 1), hdb_text(row, 2));
	return 0;
}

int hs_values(struct hdb *db, const char *series, hs_value_fn fn, void *ctx, struct strbuf *err)
{
	struct values_ctx c = { fn, ctx };
	struct hdb_val p = HV_S(series);
	return hdb_exec(db, "SELECT run_id, value, unit FROM series WHERE name = ? ORDER BY run_id", &p, 1, each_value,
			&c, err);
}

struct names_ctx {
	hs_name_fn fn;
	void *ctx;
};

static int each_name(void *ctx, const struct hdb_row *row)
{
	struct names_ctx *c = ctx;
	c->fn(c->ctx, hdb_text(row, 0), hdb_int(row, 1));
	return 0;
}

int hs_series_names(struct hdb *db, hs_name_fn fn, void *ctx, struct strbuf *err)
{
	struct names_ctx c = { fn, ctx };
	return hdb_exec(db, "SELECT name, count(*) FROM series GROUP BY name ORDER BY name", NULL, 0, each_name, &c, err);
}

int hs_count(struct hdb *db, int64_t *n, struct strbuf *err)
{
	*n = 0;
	return hdb_exec(db, "SELECT count(*) FROM runs", NULL, 0, get_int, n, err);
}

void hs_run_name(const struct hs_run *r, char *buf, size_t size)
{
	const char *base = strrchr(r->path, '/');
	if (r->label[0])
		snprintf(buf, size, "%s", r->label);
	else
		snprintf(buf, size, "#%lld %s", (long long)r->id, base ? base + 1 : r->path);
}
