/*
 * test_history.c - the run history (history/) on both back ends, with
 * the same tests: SQLite in a scratch file, PostgreSQL on a throwaway
 * server this suite starts itself (initdb + pg_ctl on a Unix socket in a
 * scratch directory, as the user nobody when run as root). Without the
 * server binaries the pg tests say they are skipped.
 *
 * Asserted: a sample log's stored summaries (batch time of
 * samples/pde-physical.log: n 100, median 0.184 s, min 0.083 s, max
 * 0.947 s), its metadata, stages and findings; a second add of the same
 * content is a no-op; runs found by id, label and hash prefix; rm removes
 * a run and all it holds; a 10 % step over 24 runs is reported by
 * `regressions` from the run where it starts; the comparison of two
 * stored runs; 8 processes adding the same 200 logs at once store each
 * exactly once, and 8 opening a fresh database create one schema; a
 * killed add leaves nothing; --records keeps at most 512 values; a
 * corrupt file, a newer schema, a locked file and an unreachable server
 * (its password hidden) are told apart; the CLI's exit codes for them;
 * tprof-analyze --history and tprof-plot --history on what was stored;
 * scripts/history-cluster.sh in its local and Slurm modes.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "history/history.h"
#include "history/ingest.h" /* and views.h, store.h, db.h: the tests reach inside */
#include "history/views.h"
#include "testutil.h"

#define PG_ENV "TPROF_TEST_PG" /* the throwaway server's socket directory */

/* ---- back ends ---- */

struct where {
	char spec[512];
	char *dir; /* scratch directory (logs, the SQLite file) */
};

static int pg_admin(const char *sql)
{
	struct hdb *db;
	struct strbuf err = STRBUF_INIT, uri = STRBUF_INIT;
	strbuf_addf(&uri, "postgresql://tprof@/postgres?host=%s", getenv(PG_ENV));
	int st = hdb_open(uri.buf, 0, &db, &err);
	if (st == HDB_OK) {
		st = hdb_exec(db, sql, NULL, 0, NULL, NULL, &err);
		hdb_close(db);
	}
	if (st != HDB_OK)
		cr_log_error("%s: %s", sql, err.buf);
	strbuf_release(&err);
	strbuf_release(&uri);
	return st;
}

/* A fresh database for one test; skips the test when pg is asked for and no server runs. */
static void where_init(struct where *w, const char *backend, const char *test)
{
	w->dir = tu_tmpdir("history");
	cr_assert(w->dir);
	if (!strcmp(backend, "sqlite")) {
		snprintf(w->spec, sizeof(w->spec), "%s/sub/history.db", w->dir);
		return;
	}
	if (!getenv(PG_ENV) || !*getenv(PG_ENV)) {
		tu_rmtree(w->dir);
		cr_skip_test("skipped: no throwaway PostgreSQL server (no binaries in /usr/lib/postgresql/*/bin, "
			     "or it did not start)");
	}
	/* identifiers cannot be bound; test names are fixed in this file */
	char sql[256];
	snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS t_%s", test);
	cr_assert_eq(pg_admin(sql), HDB_OK);
	snprintf(sql, sizeof(sql), "CREATE DATABASE t_%s", test);
	cr_assert_eq(pg_admin(sql), HDB_OK);
	snprintf(w->spec, sizeof(w->spec), "postgresql://tprof@/t_%s?host=%s", test, getenv(PG_ENV));
}

static void where_free(struct where *w)
{
	tu_rmtree(w->dir);
}

static struct hdb *open_ok(const struct where *w)
{
	struct hdb *db;
	struct strbuf err = STRBUF_INIT;
	int st = hs_open(w->spec, 0, &db, &err);
	cr_assert_eq(st, HDB_OK, "open %s: %s", w->spec, err.buf);
	strbuf_release(&err);
	return db;
}

/* ---- synthetic logs ---- */

static double lcg(uint64_t *st)
{
	*st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(*st >> 11) * 0x1p-53;
}

/* A log of 30 batches around `level` seconds (+-2 %) and one stage; returns its path. */
static char *write_log(const char *dir, const char *name, double level, uint64_t seed)
{
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s", dir, name);
	FILE *fp = fopen(path.buf, "w");
	cr_assert(fp);
	fprintf(fp, "run %s\n[TIMING] Data loading: %.3fs\n", name, 1 + lcg(&seed));
	for (int i = 0; i < 30; i++)
		fprintf(fp, "  Batch %d: %.4fs, GPU 23.1MB, CPU 1648.9MB, loss=0.01\n", i,
			level * (0.98 + 0.04 * lcg(&seed)));
	cr_assert_eq(fclose(fp), 0);
	return path.buf;
}

static int64_t add_ok(struct hdb *db, const char *path, const char *label, int *existed)
{
	struct hs_add_opts o = { "test", label, NULL, 0, 0, 1, 1, NULL, 1700000000 };
	struct strbuf err = STRBUF_INIT;
	int64_t id;
	int st = hs_ingest(db, path, &o, &id, existed, &err);
	cr_assert_eq(st, HDB_OK, "add %s: %s", path, err.buf);
	strbuf_release(&err);
	return id;
}

static int64_t count_runs(struct hdb *db)
{
	struct strbuf err = STRBUF_INIT;
	int64_t n;
	cr_assert_eq(hs_count(db, &n, &err), HDB_OK, "%s", err.buf);
	strbuf_release(&err);
	return n;
}

static int get_i(void *ctx, const struct hdb_row *row)
{
	*(int64_t *)ctx = hdb_int(row, 0);
	return 1;
}

static int64_t query_int(struct hdb *db, const char *sql)
{
	struct strbuf err = STRBUF_INIT;
	int64_t v = -1;
	cr_assert_eq(hdb_exec(db, sql, NULL, 0, get_i, &v, &err), HDB_OK, "%s: %s", sql, err.buf);
	strbuf_release(&err);
	return v;
}

/* ---- reading a report ---- */

static const struct rtable *find_table(const struct report *rep, const char *id)
{
	for (size_t s = 0; s < rep->nsections; s++)
		for (size_t t = 0; t < rep->sections[s].ntables; t++)
			if (!strcmp(rep->sections[s].tables[t]->id, id))
				return rep->sections[s].tables[t];
	return NULL;
}

static size_t col_of(const struct rtable *t, const char *name)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (!strcmp(t->cols[c].name, name))
			return c;
	cr_assert_fail("no column %s in %s", name, t->id);
	return 0;
}

static const struct rcell *cell(const struct rtable *t, size_t row, const char *col)
{
	return rt_cell(t, row, col_of(t, col));
}

/* ---- the tests, each run on both back ends ---- */

#define BOTH(name)                                   \
	static void name##_body(const char *backend); \
	Test(sqlite, name) { name##_body("sqlite"); }   \
	Test(pg, name, .timeout = 120) { name##_body("pg"); } \
	static void name##_body(const char *backend)

struct seen {
	struct an_summary batch;
	int nseries, has_git, stage_ok, bottleneck;
};

static void seen_series(void *ctx, const struct an_summary *s)
{
	struct seen *c = ctx;
	c->nseries++;
	if (!strcmp(s->name, "batch time"))
		c->batch = *s;
}

static void seen_meta(void *ctx, const char *key, const char *value)
{
	struct seen *c = ctx;
	c->has_git |= !strcmp(key, "git") && !strcmp(value, "abc123");
}

static void seen_stage(void *ctx, const char *name, double seconds, int64_t count)
{
	struct seen *c = ctx;
	c->stage_ok |= !strcmp(name, "Argument parsing") && fabs(seconds - 0.14) < 1e-9 && count == 1;
}

static void seen_finding(void *ctx, const char *severity, const char *kind, const char *message)
{
	struct seen *c = ctx;
	/* a notice: 1.25 s at stake in the 29 s its time stamps span */
	c->bottleneck |= !strcmp(severity, "notice") && !strcmp(kind, "bottleneck") &&
			 strstr(message, "'optimization' is 56.9%") != NULL;
}

BOTH(add_sample_once)
{
	struct where w;
	where_init(&w, backend, "add_sample_once");
	struct hdb *db = open_ok(&w);
	struct hs_kv meta[] = { { "git", "abc123" } };
	struct hs_add_opts o = { "test", "nightly", meta, 1, 1, 1, 1, NULL, 1700000000 };
	struct strbuf err = STRBUF_INIT;
	int64_t id, id2;
	int existed;
	cr_assert_eq(hs_ingest(db, "samples/pde-physical.log", &o, &id, &existed, &err), HDB_OK, "%s", err.buf);
	cr_expect_eq(existed, 0);
	cr_expect_eq(id, 1);
	cr_assert_eq(hs_ingest(db, "samples/pde-physical.log", &o, &id2, &existed, &err), HDB_OK, "%s", err.buf);
	cr_expect_eq(existed, 1, "the same content twice is a no-op");
	cr_expect_eq(id2, id);
	cr_expect_eq(count_runs(db), 1);

	struct seen c = { 0 };
	struct hs_detail_fns f = { seen_series, seen_meta, seen_stage, seen_finding, &c };
	cr_assert_eq(hs_detail(db, id, &f, &err), HDB_OK, "%s", err.buf);
	cr_expect_eq(c.batch.n, 100);
	cr_expect(fabs(c.batch.median - 0.184) < 1e-9, "median %.17g", c.batch.median);
	cr_expect(fabs(c.batch.min - 0.083) < 1e-12 && fabs(c.batch.max - 0.947) < 1e-12);
	cr_expect(fabs(c.batch.p90 - 0.193) < 0.0015, "p90 %g", c.batch.p90);
	cr_expect_str_eq(c.batch.unit, "s");
	cr_expect(c.has_git);
	cr_expect(c.bottleneck, "the 56.9 %% optimization bottleneck is stored");
	cr_expect_gt(c.nseries, 5);
	/* --records: the first values of each series, bounded */
	cr_expect_eq(query_int(db, "SELECT count(*) FROM samples WHERE name = 'batch time'"), 100);
	cr_expect_eq(query_int(db, "SELECT count(*) FROM tprof_schema WHERE version = 1"), 1);
	int64_t nsamples = query_int(db, "SELECT count(*) FROM samples");

	/* stages of a [TIMING] log */
	o.label = NULL, o.records = 0;
	cr_assert_eq(hs_ingest(db, "samples/graph-llava-pretrain.log", &o, &id2, &existed, &err), HDB_OK, "%s",
		     err.buf);
	memset(&c, 0, sizeof(c));
	cr_assert_eq(hs_detail(db, id2, &f, &err), HDB_OK, "%s", err.buf);
	cr_expect(c.stage_ok, "stage 'Argument parsing' 0.14 s stored");
	cr_expect_eq(query_int(db, "SELECT count(*) FROM samples"), nsamples, "no samples without --records");
	hdb_close(db);
	strbuf_release(&err);
	where_free(&w);
}

BOTH(find_and_rm)
{
	struct where w;
	where_init(&w, backend, "find_and_rm");
	struct hdb *db = open_ok(&w);
	char *a = write_log(w.dir, "a.log", 0.5, 1), *b = write_log(w.dir, "b.log", 0.5, 2);
	int existed;
	int64_t ia = add_ok(db, a, "base", &existed), ib = add_ok(db, b, NULL, &existed);
	struct hs_run r;
	struct strbuf err = STRBUF_INIT;
	char hash[65], name[300];
	int64_t size;
	cr_assert_eq(hs_find(db, "base", &r, &err), HDB_OK);
	cr_expect_eq(r.id, ia, "by label");
	cr_assert_eq(sha256_file(b, hash, &size), 0);
	hash[8] = '\0';
	cr_assert_eq(hs_find(db, hash, &r, &err), HDB_OK);
	cr_expect_eq(r.id, ib, "by hash prefix");
	hs_run_name(&r, name, sizeof(name));
	cr_expect_str_eq(name, "#2 b.log");
	cr_assert_eq(hs_find(db, "2", &r, &err), HDB_OK);
	cr_expect_eq(r.id, ib, "by id");
	cr_expect_str_eq(r.path, b);
	cr_assert_eq(hs_find(db, "nosuch", &r, &err), HDB_OK);
	cr_expect_eq(r.id, 0);

	int found;
	cr_assert_eq(hs_rm(db, ia, &found, &err), HDB_OK, "%s", err.buf);
	cr_expect_eq(found, 1);
	cr_assert_eq(hs_rm(db, ia, &found, &err), HDB_OK, "%s", err.buf);
	cr_expect_eq(found, 0);
	cr_expect_eq(count_runs(db), 1);
	cr_expect_eq(query_int(db, "SELECT count(*) FROM series WHERE run_id = 1"), 0, "its series went with it");
	cr_expect_eq(query_int(db, "SELECT count(*) FROM stages WHERE run_id = 1"), 0);
	cr_expect_gt(query_int(db, "SELECT count(*) FROM series WHERE run_id = 2"), 0);
	/* the content can come back: a new run */
	cr_expect_eq(add_ok(db, a, NULL, &existed), 3);
	cr_expect_eq(existed, 0);
	free(a);
	free(b);
	hdb_close(db);
	strbuf_release(&err);
	where_free(&w);
}

BOTH(step_found_across_runs)
{
	struct where w;
	where_init(&w, backend, "step_found_across_runs");
	struct hdb *db = open_ok(&w);
	uint64_t seed = 77;
	int existed;
	/* 24 runs, 5 % noise between runs, 10 % slower from the 13th */
	for (int i = 0; i < 24; i++) {
		char name[32];
		double u = lcg(&seed), v = lcg(&seed);
		double noise = sqrt(-2 * log(u + 1e-300)) * cos(2 * M_PI * v);
		snprintf(name, sizeof(name), "run%02d.log", i);
		char *p = write_log(w.dir, name, (i >= 12 ? 0.55 : 0.5) * (1 + 0.05 * noise), (uint64_t)i + 100);
		add_ok(db, p, i == 12 ? "the-change" : NULL, &existed);
		free(p);
	}
	struct report rep;
	struct strbuf err = STRBUF_INIT;
	struct cp_opts o;
	size_t found;
	cp_opts_default(&o);
	report_init(&rep);
	cr_assert_eq(hs_view_regressions(db, &o, &rep, &found, &err), HDB_OK, "%s", err.buf);
	const struct rtable *t = find_table(&rep, "regressions");
	cr_assert(t && t->nrows >= 1, "a change point is listed");
	cr_expect_str_eq(cell(t, 0, "series")->s, "batch time");
	cr_expect_str_eq(cell(t, 0, "from_run")->s, "the-change", "shown by its label");
	cr_expect_eq(cell(t, 0, "run_id")->v, 13);
	cr_expect_str_eq(cell(t, 0, "direction")->s, "slower");
	cr_expect(cell(t, 0, "change")->v > 5 && cell(t, 0, "change")->v < 15, "change %g %%", cell(t, 0, "change")->v);
	report_free(&rep);

	size_t npoints;
	report_init(&rep);
	cr_assert_eq(hs_view_trend(db, "batch time", &o, &rep, &npoints, &err), HDB_OK, "%s", err.buf);
	cr_expect_eq(npoints, 24);
	t = find_table(&rep, "trend");
	cr_assert(t && t->nrows == 24);
	for (size_t i = 0; i < 24; i++) {
		const struct rcell *c = cell(t, i, "change_point");
		cr_expect_eq(c->kind == RC_TEXT, i == 12, "row %zu marked %d", i, c->kind == RC_TEXT);
	}
	report_free(&rep);
	report_init(&rep);
	cr_assert_eq(hs_view_trend(db, "no such series", &o, &rep, &npoints, &err), HDB_OK);
	cr_expect_eq(npoints, 0);
	report_free(&rep);
	hdb_close(db);
	strbuf_release(&err);
	where_free(&w);
}

BOTH(compare_stored_runs)
{
	struct where w;
	where_init(&w, backend, "compare_stored_runs");
	struct hdb *db = open_ok(&w);
	char *a = write_log(w.dir, "a.log", 0.5, 1), *b = write_log(w.dir, "b.log", 0.6, 2);
	int existed, gate;
	add_ok(db, a, "before", &existed);
	add_ok(db, b, "after", &existed);
	struct hs_run ra, rb;
	struct strbuf err = STRBUF_INIT;
	struct report rep;
	struct an_opts o;
	an_opts_default(&o);
	o.fail_regression_pct = 10;
	cr_assert_eq(hs_find(db, "before", &ra, &err), HDB_OK);
	cr_assert_eq(hs_find(db, "after", &rb, &err), HDB_OK);
	report_init(&rep);
	cr_assert_eq(hs_view_compare(db, &ra, &rb, &o, &rep, &gate, &err), HDB_OK, "%s", err.buf);
	const struct rtable *t = find_table(&rep, "compare");
	cr_assert(t);
	size_t row = t->nrows;
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(cell(t, i, "item")->s, "batch time"))
			row = i;
	cr_assert(row < t->nrows, "batch time compared");
	cr_expect(fabs(cell(t, row, "ratio")->v - 1.2) < 0.02, "ratio %g", cell(t, row, "ratio")->v);
	cr_expect_str_eq(cell(t, row, "verdict")->s, "slower (significant)");
	cr_expect_str_eq(cell(t, row, "baseline_run")->s, "before");
	cr_expect_eq(gate, 1, "a 20 %% slowdown trips a 10 %% gate");
	report_free(&rep);
	free(a);
	free(b);
	hdb_close(db);
	strbuf_release(&err);
	where_free(&w);
}

#define NPROC 8
#define NLOGS 200

/* One writer: adds every log, starting at its own offset; exits with how many it added. */
static void writer(const char *spec, char **logs, int k)
{
	struct hdb *db;
	struct strbuf err = STRBUF_INIT;
	int added = 0;
	if (hs_open(spec, 0, &db, &err) != HDB_OK) {
		fprintf(stderr, "writer %d: %s\n", k, err.buf);
		_exit(255);
	}
	struct hs_add_opts o = { "test", NULL, NULL, 0, 0, 1, 1, NULL, 1700000000 };
	for (int i = 0; i < NLOGS; i++) {
		int64_t id;
		int existed;
		strbuf_reset(&err);
		if (hs_ingest(db, logs[(i + k * NLOGS / NPROC) % NLOGS], &o, &id, &existed, &err) != HDB_OK) {
			fprintf(stderr, "writer %d: %s\n", k, err.buf);
			_exit(254);
		}
		added += !existed;
	}
	hdb_close(db);
	strbuf_release(&err);
	_exit(added);
}

BOTH(concurrent_adds)
{
	struct where w;
	where_init(&w, backend, "concurrent_adds");
	struct hdb *db = open_ok(&w); /* the schema exists before the writers start */
	char *logs[NLOGS];
	for (int i = 0; i < NLOGS; i++) {
		char name[32];
		snprintf(name, sizeof(name), "c%03d.log", i);
		logs[i] = write_log(w.dir, name, 0.5 + 0.001 * i, (uint64_t)i);
	}
	pid_t pids[NPROC];
	for (int k = 0; k < NPROC; k++) {
		fflush(NULL);
		pids[k] = fork();
		cr_assert(pids[k] >= 0);
		if (pids[k] == 0)
			writer(w.spec, logs, k);
	}
	int total = 0;
	for (int k = 0; k < NPROC; k++) {
		int status;
		cr_assert_eq(waitpid(pids[k], &status, 0), pids[k]);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) <= NLOGS, "writer %d: status %d", k, status);
		total += WEXITSTATUS(status);
	}
	cr_expect_eq(total, NLOGS, "the writers added %d runs between them", total);
	cr_expect_eq(count_runs(db), NLOGS, "nothing lost, nothing duplicated");
	cr_expect_eq(query_int(db, "SELECT count(DISTINCT hash) FROM runs"), NLOGS);
	/* every run whole: the same series count in each */
	cr_expect_eq(query_int(db, "SELECT count(*) FROM series"), NLOGS * query_int(db, "SELECT count(*) FROM series WHERE run_id = 1"));
	cr_expect_eq(query_int(db, "SELECT count(*) FROM stages"), NLOGS);
	for (int i = 0; i < NLOGS; i++)
		free(logs[i]);
	hdb_close(db);
	where_free(&w);
}

/* 8 processes open a database nobody created yet: one creates the schema, none fails. */
BOTH(concurrent_first_open)
{
	struct where w;
	where_init(&w, backend, "concurrent_first_open");
	pid_t pids[NPROC];
	for (int k = 0; k < NPROC; k++) {
		fflush(NULL);
		pids[k] = fork();
		cr_assert(pids[k] >= 0);
		if (pids[k] == 0) {
			struct hdb *c;
			struct strbuf err = STRBUF_INIT;
			int st = hs_open(w.spec, 0, &c, &err);
			if (st != HDB_OK)
				fprintf(stderr, "opener %d: %s\n", k, err.buf);
			else
				hdb_close(c);
			_exit(st);
		}
	}
	for (int k = 0; k < NPROC; k++) {
		int status;
		cr_assert_eq(waitpid(pids[k], &status, 0), pids[k]);
		cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == HDB_OK, "opener %d: status %d", k, status);
	}
	struct hdb *db = open_ok(&w);
	cr_expect_eq(query_int(db, "SELECT count(*) FROM tprof_schema"), 1, "one version row");
	hdb_close(db);
	where_free(&w);
}

BOTH(killed_add_leaves_nothing)
{
	struct where w;
	where_init(&w, backend, "killed_add_leaves_nothing");
	struct hdb *db = open_ok(&w);
	fflush(NULL);
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		/* half an add: the run row is written, then the process dies */
		struct hdb *c;
		struct strbuf err = STRBUF_INIT;
		struct hdb_val p[] = { HV_S("feed"), HV_S("x.log"), HV_I(1), HV_I(1), HV_S(NULL), HV_I(1), HV_I(0) };
		if (hs_open(w.spec, 0, &c, &err) != HDB_OK || hdb_begin(c, 1, &err) != HDB_OK ||
		    hdb_exec(c, "INSERT INTO runs (hash, path, size, added, label, records, warnings) "
				"VALUES (?, ?, ?, ?, ?, ?, ?)", p, 7, NULL, NULL, &err) != HDB_OK)
			_exit(1);
		raise(SIGKILL);
		_exit(2);
	}
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "status %d", status);
	hdb_close(db);
	db = open_ok(&w);
	cr_expect_eq(count_runs(db), 0, "no half-stored run");
	char *a = write_log(w.dir, "a.log", 0.5, 1);
	int existed;
	cr_expect_gt(add_ok(db, a, NULL, &existed), 0, "the next add works");
	cr_expect_eq(existed, 0);
	cr_expect_eq(count_runs(db), 1);
	free(a);
	hdb_close(db);
	where_free(&w);
}

BOTH(newer_schema_refused)
{
	struct where w;
	where_init(&w, backend, "newer_schema_refused");
	struct hdb *db = open_ok(&w);
	struct strbuf err = STRBUF_INIT;
	cr_assert_eq(hdb_exec(db, "UPDATE tprof_schema SET version = 99", NULL, 0, NULL, NULL, &err), HDB_OK);
	hdb_close(db);
	cr_expect_eq(hs_open(w.spec, 0, &db, &err), HDB_SCHEMA);
	cr_expect(strstr(err.buf, "version 99 is newer"), "%s", err.buf);
	strbuf_release(&err);
	where_free(&w);
}

/* ---- one back end only ---- */

Test(sqlite, corrupt_file)
{
	char *dir = tu_tmpdir("history");
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct hdb *db;
	strbuf_addf(&path, "%s/bad.db", dir);
	FILE *fp = fopen(path.buf, "w");
	cr_assert(fp);
	for (int i = 0; i < 200; i++)
		fputs("this is not a database, only text that looks like one\n", fp);
	cr_assert_eq(fclose(fp), 0);
	cr_expect_eq(hs_open(path.buf, 0, &db, &err), HDB_CORRUPT);
	cr_expect(strstr(err.buf, "not a database"), "%s", err.buf);
	strbuf_release(&path);
	strbuf_release(&err);
	tu_rmtree(dir);
}

Test(sqlite, locked_file)
{
	struct where w;
	where_init(&w, "sqlite", "locked");
	struct hdb *holder = open_ok(&w), *db = NULL;
	struct strbuf err = STRBUF_INIT;
	cr_assert_eq(hdb_begin(holder, 1, &err), HDB_OK, "%s", err.buf);
	cr_assert_eq(hs_open(w.spec, 20, &db, &err), HDB_OK, "reading needs no lock in WAL: %s", err.buf);
	char *a = write_log(w.dir, "a.log", 0.5, 1);
	struct hs_add_opts o = { "test", NULL, NULL, 0, 0, 1, 1, NULL, 1700000000 };
	int64_t id;
	int existed;
	strbuf_reset(&err);
	cr_expect_eq(hs_ingest(db, a, &o, &id, &existed, &err), HDB_BUSY);
	cr_expect(strstr(err.buf, "locked"), "%s", err.buf);
	hdb_rollback(holder);
	cr_expect_eq(hs_ingest(db, a, &o, &id, &existed, &err), HDB_OK, "%s", err.buf);
	free(a);
	hdb_close(holder);
	hdb_close(db);
	strbuf_release(&err);
	where_free(&w);
}

/* --records keeps at most HS_MAX_SAMPLES values of a series. */
Test(sqlite, records_bounded)
{
	struct where w;
	where_init(&w, "sqlite", "records");
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	strbuf_addf(&path, "%s/long.log", w.dir);
	FILE *fp = fopen(path.buf, "w");
	cr_assert(fp);
	for (int i = 0; i < 700; i++)
		fprintf(fp, "  Batch %d: %.3fs, GPU 23.1MB, CPU 1648.9MB, loss=0.01\n", i, 0.5 + 0.001 * (i % 10));
	cr_assert_eq(fclose(fp), 0);
	struct hdb *db = open_ok(&w);
	struct hs_add_opts o = { "test", NULL, NULL, 0, 1, 1, 1, NULL, 1700000000 };
	int64_t id;
	int existed;
	cr_assert_eq(hs_ingest(db, path.buf, &o, &id, &existed, &err), HDB_OK, "%s", err.buf);
	cr_expect_eq(query_int(db, "SELECT count(*) FROM samples WHERE name = 'batch time'"), HS_MAX_SAMPLES);
	cr_expect_eq(query_int(db, "SELECT n FROM series WHERE name = 'batch time'"), 700, "the summary has them all");
	hdb_close(db);
	strbuf_release(&path);
	strbuf_release(&err);
	where_free(&w);
}

Test(pg, unreachable_server)
{
	struct hdb *db;
	struct strbuf err = STRBUF_INIT;
	cr_expect_eq(hs_open("postgresql://tprof:secret@/x?host=/nonexistent-dir&connect_timeout=2", 0, &db, &err),
		     HDB_CONNECT);
	cr_expect(strstr(err.buf, "nonexistent-dir"), "%s", err.buf);
	cr_expect(!strstr(err.buf, "secret"), "the password is not shown: %s", err.buf);
	strbuf_reset(&err);
	cr_expect_eq(hs_open("postgresql:///x?host=/nonexistent-dir&password=hidden&connect_timeout=2", 0, &db, &err),
		     HDB_CONNECT);
	cr_expect(!strstr(err.buf, "hidden") && strstr(err.buf, "password=***&connect_timeout=2"), "%s", err.buf);
	strbuf_release(&err);
}

Test(cli, exit_codes)
{
	char *dir = tu_tmpdir("history");
	struct tu_result r = tu_run("printf 'garbage garbage garbage garbage garbage garbage garbage garbage\\n%%.0s' "
				    "$(seq 100) >'%s/bad.db'; $B/tprof-history --db '%s/bad.db' list",
				    dir, dir);
	cr_expect_eq(r.status, 2, "corrupt: %d %s", r.status, r.err.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-history --db 'postgresql:///x?host=/nonexistent-dir' list");
	cr_expect_eq(r.status, 5, "unreachable: %d %s", r.status, r.err.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-history --db '%s/h.db' add --label first samples/pde-physical.log && "
		   "$B/tprof-history --db '%s/h.db' add samples/pde-physical.log",
		   dir, dir);
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.out.buf, "added as run 1"), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "already stored as run 1"), "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-history --db '%s/h.db' show 7", dir);
	cr_expect_eq(r.status, 2, "unknown run: %d", r.status);
	tu_result_free(&r);
	r = tu_run("$B/tprof-history --db '%s/h.db' -f json show first", dir);
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.out.buf, "\"batch time\""), "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-history --db '%s/h.db' add '%s/missing.log'", dir, dir);
	cr_expect_eq(r.status, 2, "unreadable log: %d", r.status);
	tu_result_free(&r);
	r = tu_run("TPROF_DB='%s/env.db' $B/tprof history add samples/pde-physical.log && test -s '%s/env.db'", dir, dir);
	cr_expect_eq(r.status, 0, "TPROF_DB and the dispatcher: %s", r.err.buf);
	tu_result_free(&r);
	tu_rmtree(dir);
}

/* tprof-analyze --history and tprof-plot --history read what tprof-history stored. */
Test(cli, analyze_and_plot_history)
{
	char *dir = tu_tmpdir("history");
	struct strbuf db = STRBUF_INIT, cmd = STRBUF_INIT;
	strbuf_addf(&db, "%s/h.db", dir);
	for (int i = 0; i < 12; i++) {
		char name[32];
		snprintf(name, sizeof(name), "s%02d.log", i);
		char *p = write_log(dir, name, i < 6 ? 0.5 : 0.6, (uint64_t)i + 1);
		strbuf_addf(&cmd, " '%s'", p);
		free(p);
	}
	char *now = write_log(dir, "now.log", 0.7, 99);
	struct tu_result r = tu_run("$B/tprof-history --db '%s' add -q --label nightly%s", db.buf, cmd.buf);
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-analyze -q --db '%s' --label nightly --history=5 -f json '%s'", db.buf, now);
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.out.buf, "\"history-slower\""), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "slower than all of them"), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "last 5 runs labelled 'nightly'"), "%s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-analyze -q --db '%s' --history '%s'", db.buf, now);
	cr_expect_eq(r.status, 2, "--history without --label");
	tu_result_free(&r);
	/* the chart's script: one change point, at the 7th run */
	r = tu_run("$B/tprof-plot --db '%s' --history 'batch time' --script '%s/gp' -o '%s/t.svg'; "
		   "grep -c 'set arrow from' '%s/gp/trend.gp'; grep -o 'set arrow from [0-9]*' '%s/gp/trend.gp'",
		   db.buf, dir, dir, dir, dir);
	cr_expect(strstr(r.out.buf, "1\nset arrow from 7\n"), "%s %s", r.out.buf, r.err.buf);
	tu_result_free(&r);
	/* the HTML report of a trend carries its chart (where gnuplot is installed) */
	r = tu_run("command -v gnuplot >/dev/null || exit 77; $B/tprof-history --db '%s' trend 'batch time' "
		   "-o '%s/t.html' && grep -c 'id=\"chart-trend\"' '%s/t.html'", db.buf, dir, dir);
	cr_expect(r.status == 77 || !strcmp(r.out.buf, "1\n"), "%d %s %s", r.status, r.out.buf, r.err.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-plot --db '%s' --history 'no such series' -o '%s/t.svg'", db.buf, dir);
	cr_expect_eq(r.status, 2, "%s", r.err.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-history --db '%s' regressions -f csv", db.buf);
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out.buf, "regressions,regressions,1,from_run,,nightly\r\n"), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "regressions,regressions,1,run_id,,7\r\n"), "%s", r.out.buf);
	cr_expect(strstr(r.out.buf, "regressions,regressions,1,direction,,slower\r\n"), "%s", r.out.buf);
	tu_result_free(&r);
	free(now);
	strbuf_release(&db);
	strbuf_release(&cmd);
	tu_rmtree(dir);
}

/* scripts/history-cluster.sh: the local and Slurm modes store every listed log once. */
Test(cli, cluster_script)
{
	char *dir = tu_tmpdir("history");
	struct strbuf list = STRBUF_INIT;
	for (int i = 0; i < 12; i++) {
		char name[32];
		snprintf(name, sizeof(name), "n%02d.log", i);
		char *p = write_log(dir, name, 0.5, (uint64_t)i + 7);
		strbuf_addf(&list, "%s\n%s\n", p, p); /* every log twice */
		free(p);
	}
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/list.txt", dir);
	FILE *fp = fopen(path.buf, "w");
	cr_assert(fp);
	fputs(list.buf, fp);
	cr_assert_eq(fclose(fp), 0);
	struct tu_result r = tu_run("TPROF=$B/tprof TPROF_DB='%s/a.db' sh scripts/history-cluster.sh local '%s' 4 "
				    "--label cluster && $B/tprof-history --db '%s/a.db' list -f csv | grep -c ',id,'",
				    dir, path.buf, dir);
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect(strstr(r.out.buf, "\n12\n") || !strncmp(r.out.buf, "12\n", 3), "12 runs: %s", r.out.buf);
	tu_result_free(&r);
	r = tu_run("for t in 3 4 5; do SLURM_ARRAY_TASK_ID=$t SLURM_ARRAY_TASK_MIN=3 SLURM_ARRAY_TASK_COUNT=3 "
		   "TPROF=$B/tprof TPROF_DB='%s/b.db' sh scripts/history-cluster.sh slurm '%s' >/dev/null || exit 1; "
		   "done; $B/tprof-history --db '%s/b.db' list -f csv | grep -c ',id,'",
		   dir, path.buf, dir);
	cr_expect_eq(r.status, 0, "%s", r.err.buf);
	cr_expect_str_eq(r.out.buf, "12\n");
	tu_result_free(&r);
	r = tu_run("sh scripts/history-cluster.sh slurm '%s'", path.buf);
	cr_expect_neq(r.status, 0, "slurm mode outside a job array fails");
	tu_result_free(&r);
	strbuf_release(&list);
	strbuf_release(&path);
	tu_rmtree(dir);
}

/* ---- the throwaway PostgreSQL server ---- */

/* Runs argv-like shell text as the server's user (nobody when root). */
static int as_pg_user(const char *dir, const char *cmd)
{
	struct strbuf sb = STRBUF_INIT;
	if (geteuid() == 0)
		strbuf_addf(&sb, "runuser -u nobody -- sh -c '%s' >>'%s/setup.log' 2>&1", cmd, dir);
	else
		strbuf_addf(&sb, "sh -c '%s' >>'%s/setup.log' 2>&1", cmd, dir);
	int st = system(sb.buf);
	strbuf_release(&sb);
	return st;
}

/* The server binaries' directory (the newest version), or NULL. */
static char *pg_bindir(void)
{
	struct tu_result r = tu_run("ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1");
	char *dir = NULL;
	size_t n = r.out.len;
	while (n && r.out.buf[n - 1] == '\n')
		n--;
	if (n) {
		char *d = xmemdup(r.out.buf, n), path[600];
		snprintf(path, sizeof(path), "%s/pg_ctl", d);
		if (access(path, X_OK) == 0)
			dir = d;
		else
			free(d);
	}
	tu_result_free(&r);
	return dir;
}

/* Starts the server in a scratch directory; returns it (NULL: skipped, why printed). */
static char *pg_start(char **bindir)
{
	*bindir = pg_bindir();
	if (!*bindir) {
		fprintf(stderr, "test_history: no PostgreSQL server binaries: the pg tests are skipped\n");
		return NULL;
	}
	char *dir = tu_tmpdir("pg");
	char cmd[2048];
	if (!dir || chmod(dir, 0777) < 0)
		return NULL;
	snprintf(cmd, sizeof(cmd),
		 "%s/initdb -D %s/data -A trust -U tprof --no-sync -E UTF8 && "
		 "%s/pg_ctl -D %s/data -l %s/server.log -w -o \"-k %s -c listen_addresses= -c fsync=off\" start",
		 *bindir, dir, *bindir, dir, dir, dir);
	if (as_pg_user(dir, cmd) != 0) {
		fprintf(stderr, "test_history: the PostgreSQL server did not start (see %s/setup.log): pg tests skipped\n",
			dir);
		return NULL;
	}
	return dir;
}

static void pg_stop(char *dir, char *bindir)
{
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "%s/pg_ctl -D %s/data -m immediate -w stop", bindir, dir);
	as_pg_user(dir, cmd);
	tu_rmtree(dir);
	free(bindir);
}

/* Criterion's main, with the server around the run (workers inherit PG_ENV and start none). */
int main(int argc, char **argv)
{
	char *dir = NULL, *bindir = NULL;
	int want_pg = 1;
	/* a --filter that cannot select a pg test needs no server */
	for (int i = 1; i < argc; i++) {
		const char *f = !strncmp(argv[i], "--filter=", 9) ? argv[i] + 9
				: !strcmp(argv[i], "--filter") && i + 1 < argc ? argv[i + 1] : NULL;
		if (f && !strstr(f, "pg") && f[0] != '*')
			want_pg = 0;
	}
	if (want_pg && !getenv(PG_ENV)) {
		dir = pg_start(&bindir);
		setenv(PG_ENV, dir ? dir : "", 1);
	}
	struct criterion_test_set *tests = criterion_initialize();
	int rc = 0;
	if (criterion_handle_args(argc, argv, true))
		rc = !criterion_run_all_tests(tests);
	criterion_finalize(tests);
	if (dir)
		pg_stop(dir, bindir);
	else
		free(bindir);
	return rc;
}
