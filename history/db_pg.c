/*
 * db_pg.c - the PostgreSQL back end of the run history, through libpq:
 * one connection, parameters sent apart from the SQL text (PQexecParams),
 * '?' placeholders numbered to $1, $2, ... here. Concurrent writers are
 * ordinary transactions; schema creation is serialised with a
 * transaction-scoped advisory lock.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "db.h"

/* "tprofhis" in ASCII: the advisory lock key of schema changes */
#define SCHEMA_LOCK_KEY "7454727970686973"

struct pdb {
	struct hdb base;
	PGconn *c;
};

/* Where a row is: the result and the row number. */
struct pg_at {
	PGresult *r;
	int i;
};

/* SQLSTATE classes: 08 connection, 23505 unique violation, 40 rollbacks (retry), 55P03 lock. */
static int status_of(const char *state)
{
	if (!state)
		return HDB_CONNECT;
	if (!strcmp(state, "23505"))
		return HDB_CONFLICT;
	if (!strncmp(state, "08", 2) || !strcmp(state, "57P01"))
		return HDB_CONNECT;
	if (!strncmp(state, "40", 2) || !strcmp(state, "55P03"))
		return HDB_BUSY;
	if (!strncmp(state, "XX", 2))
		return HDB_CORRUPT;
	return HDB_FAILED;
}

/* The SQL with its '?' numbered ($1...); none of tprof's SQL has '?' in a literal. */
static void number_params(const char *sql, struct strbuf *out)
{
	int k = 0;
	for (const char *p = sql; *p; p++) {
		if (*p == '?')
			strbuf_addf(out, "$%d", ++k);
		else
			strbuf_addch(out, *p);
	}
}

static void message(struct pdb *d, const PGresult *res, struct strbuf *err)
{
	const char *m = res ? PQresultErrorMessage(res) : PQerrorMessage(d->c);
	size_t n = strlen(m);
	while (n && (m[n - 1] == '\n' || m[n - 1] == ' '))
		n--;
	strbuf_addf(err, "%s: %.*s", d->base.where, (int)n, m);
}

static int p_exec(struct hdb *db, const char *sql, const struct hdb_val *p, size_t np, hdb_row_fn fn, void *ctx,
		  struct strbuf *err)
{
	struct pdb *d = (struct pdb *)db;
	struct strbuf q = STRBUF_INIT, vals = STRBUF_INIT;
	const char **values = xcalloc(np ? np : 1, sizeof(*values));
	size_t *offs = xcalloc(np ? np : 1, sizeof(*offs));
	number_params(sql, &q);
	/* numbers as text in one buffer; pointers taken once it stops growing */
	for (size_t i = 0; i < np; i++) {
		offs[i] = vals.len;
		if (p[i].type == HV_INT)
			strbuf_addf(&vals, "%lld", (long long)p[i].i);
		else if (p[i].type == HV_DOUBLE)
			strbuf_addf(&vals, "%.17g", p[i].d);
		strbuf_addch(&vals, '\0');
	}
	for (size_t i = 0; i < np; i++)
		values[i] = p[i].type == HV_NULL ? NULL : p[i].type == HV_TEXT ? p[i].s : vals.buf + offs[i];
	PGresult *res = PQexecParams(d->c, q.buf, (int)np, NULL, values, NULL, NULL, 0);
	int st = HDB_OK;
	ExecStatusType es = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
	if (es == PGRES_TUPLES_OK) {
		struct hdb_row row = { db, NULL, (size_t)PQnfields(res) };
		int n = PQntuples(res);
		for (int i = 0; i < n; i++) {
			struct pg_at at = { res, i };
			row.impl = &at;
			if (fn && fn(ctx, &row))
				break;
		}
	} else if (es != PGRES_COMMAND_OK) {
		st = status_of(res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL);
		message(d, res, err);
	}
	PQclear(res);
	free(values);
	free(offs);
	strbuf_release(&q);
	strbuf_release(&vals);
	return st;
}

static int p_begin(struct hdb *db, int write, struct strbuf *err)
{
	(void)write; /* rows are locked as they are written */
	return p_exec(db, "BEGIN", NULL, 0, NULL, NULL, err);
}

static int p_lock_schema(struct hdb *db, struct strbuf *err)
{
	return p_exec(db, "SELECT pg_advisory_xact_lock(" SCHEMA_LOCK_KEY ")", NULL, 0, NULL, NULL, err);
}

static const char *p_text(const struct hdb_row *r, size_t col)
{
	const struct pg_at *at = r->impl;
	return PQgetvalue(at->r, at->i, (int)col);
}

static int p_null(const struct hdb_row *r, size_t col)
{
	const struct pg_at *at = r->impl;
	return PQgetisnull(at->r, at->i, (int)col);
}

static int64_t p_int(const struct hdb_row *r, size_t col)
{
	return strtoll(p_text(r, col), NULL, 10);
}

static double p_double(const struct hdb_row *r, size_t col)
{
	return strtod(p_text(r, col), NULL);
}

static void p_close(struct hdb *db)
{
	struct pdb *d = (struct pdb *)db;
	PQfinish(d->c);
	free(d->base.where);
	free(d);
}

static const struct hdb_ops pg_ops = {
	"postgresql", "BIGSERIAL PRIMARY KEY", p_exec, p_begin, p_lock_schema, p_text, p_null, p_int, p_double, p_close,
};

/* The URI for messages: a password (user:PASSWORD@ or password=PASSWORD) replaced by "***". */
static char *redact(const char *uri)
{
	struct strbuf sb = STRBUF_INIT;
	const char *scheme = strstr(uri, "://"), *at = strchr(uri, '@');
	const char *colon = scheme ? memchr(scheme + 3, ':', at ? (size_t)(at - scheme - 3) : 0) : NULL;
	if (colon && at) {
		strbuf_add(&sb, uri, (size_t)(colon - uri) + 1);
		strbuf_addstr(&sb, "***");
		uri = at;
	}
	const char *pw = strstr(uri, "password=");
	if (pw) {
		strbuf_add(&sb, uri, (size_t)(pw - uri) + 9);
		strbuf_addstr(&sb, "***");
		uri = pw + 9 + strcspn(pw + 9, "&");
	}
	strbuf_addstr(&sb, uri);
	return sb.buf;
}

int hdb_pg_open(const char *uri, int wait_ms, struct hdb **out, struct strbuf *err)
{
	struct pdb *d = xcalloc(1, sizeof(*d));
	d->base.ops = &pg_ops;
	d->base.where = redact(uri);
	d->c = PQconnectdb(uri);
	if (!d->c || PQstatus(d->c) != CONNECTION_OK) {
		if (d->c)
			message(d, NULL, err);
		else
			strbuf_addf(err, "%s: cannot connect", d->base.where);
		p_close(&d->base);
		return HDB_CONNECT;
	}
	/* quiet NOTICEs such as "relation already exists, skipping"; a bounded wait for locks */
	int st = p_exec(&d->base, "SET client_min_messages TO warning", NULL, 0, NULL, NULL, err);
	if (st == HDB_OK) {
		struct hdb_val v = HV_I(wait_ms);
		st = p_exec(&d->base, "SELECT set_config('lock_timeout', ?::text || 'ms', false)", &v, 1, NULL, NULL, err);
	}
	if (st != HDB_OK) {
		p_close(&d->base);
		return st;
	}
	*out = &d->base;
	return HDB_OK;
}
