/*
 * tprof-history - every run remembered: `add` stores a log's analysis
 * (series summaries, stage breakdown, findings) in SQLite or PostgreSQL,
 * and `list`, `show`, `rm`, `series`, `trend`, `regressions` and `compare`
 * answer from what is stored. Thin: the work is in history/ and analyze/.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/common/common.h"
#include "history/history.h"

#define TOOL "tprof-history"
/* the database is a dependency (tprof(1)'s 5); a corrupt or newer one is bad input (2) */
#define EXIT_DB TP_EXIT_INTERNAL
#define MAX_META 64

struct cli {
	const char *db, *label, *format, *output;
	struct cli_rules rules;
	enum cli_color color;
	struct hs_kv meta[MAX_META];
	size_t nmeta;
	int records, threads, quiet, wait_ms;
	struct cp_opts cp;
	struct an_opts ao;
};

static int db_exit(int st)
{
	return st == HDB_CORRUPT || st == HDB_SCHEMA || st == HS_INPUT ? TP_EXIT_INPUT : EXIT_DB;
}

static int db_fail(int st, const struct strbuf *err)
{
	tp_error(TOOL, "%s", err->len ? err->buf : "database error");
	return db_exit(st);
}

/* Renders rep to -o or standard output in the chosen format; an exit code. */
static int emit(const struct cli *c, const struct report *rep)
{
	const struct renderer *rd = cli_renderer(TOOL, c->format, c->output);
	struct cli_report_out out = { rd, c->output, c->color, "tprof run history", 0, 0 };
	return rd ? cli_write_report(TOOL, rep, &out) : TP_EXIT_INPUT;
}

static int cmd_add(const struct cli *c, struct hdb *db, char **logs, int n)
{
	struct strbuf err = STRBUF_INIT;
	struct tp_rules *rules;
	int rc = TP_EXIT_OK;
	if (cli_load_rules(TOOL, &c->rules, &rules) < 0)
		return TP_EXIT_INPUT;
	struct hs_add_opts o = { TOOL, c->label, c->meta, c->nmeta, c->records, c->threads, c->quiet, rules,
				 (int64_t)time(NULL) };
	for (int i = 0; i < n; i++) {
		int64_t id;
		int existed;
		strbuf_reset(&err);
		int st = hs_ingest(db, logs[i], &o, &id, &existed, &err);
		if (st == HS_INPUT) {
			tp_error(TOOL, "%s", err.buf);
			rc = TP_EXIT_INPUT;
			continue;
		}
		if (st != HDB_OK) { /* the database is gone or broken: the rest would fail alike */
			rc = db_fail(st, &err);
			break;
		}
		if (existed)
			printf("%s: already stored as run %lld (same content): nothing added\n", logs[i], (long long)id);
		else
			printf("%s: added as run %lld\n", logs[i], (long long)id);
	}
	if (fflush(stdout) != 0 && rc == TP_EXIT_OK)
		rc = TP_EXIT_OUTPUT;
	tp_rules_free(rules);
	strbuf_release(&err);
	return rc;
}

/* Looks RUN up; an exit code (2 for no such run). */
static int find_run(struct hdb *db, const char *arg, struct hs_run *r)
{
	struct strbuf err = STRBUF_INIT;
	int st = hs_find(db, arg, r, &err), rc = TP_EXIT_OK;
	if (st != HDB_OK) {
		rc = db_fail(st, &err);
	} else if (!r->id) {
		tp_error(TOOL, "no run '%s' in the history (a run id, a label or a hash prefix; see 'list')", arg);
		rc = TP_EXIT_INPUT;
	}
	strbuf_release(&err);
	return rc;
}

static void series_name(void *ctx, const char *name, int64_t runs)
{
	struct rtable *t = ctx;
	rt_text(t, name);
	rt_num(t, (double)runs, 0);
}

/* The commands that answer with a report. */
static int cmd_report(const struct cli *c, struct hdb *db, const char *cmd, char **args, int nargs)
{
	struct report rep;
	struct strbuf err = STRBUF_INIT;
	struct hs_run a, b;
	int st = HDB_OK, rc = TP_EXIT_OK, gate = 0;
	size_t found = 0;
	report_init(&rep);
	if (!strcmp(cmd, "list")) {
		st = hs_view_list(db, c->label, &rep, &err);
	} else if (!strcmp(cmd, "series")) {
		report_section(&rep, "series", "Run history");
		st = hs_series_names(db, series_name, report_table(&rep, "series", "series", "Series stored", "series,runs"),
				     &err);
	} else if (!strcmp(cmd, "show")) {
		if (!(rc = find_run(db, args[0], &a)))
			st = hs_view_show(db, &a, &rep, &err);
	} else if (!strcmp(cmd, "trend")) {
		st = hs_view_trend(db, args[0], &c->cp, &rep, &found, &err);
		if (st == HDB_OK && !found) {
			tp_error(TOOL, "no run carries a series '%s' (see 'tprof history series')", args[0]);
			rc = TP_EXIT_INPUT;
		}
	} else if (!strcmp(cmd, "regressions")) {
		st = hs_view_regressions(db, &c->cp, &rep, &found, &err);
	} else if (!strcmp(cmd, "compare")) {
		if (!(rc = find_run(db, args[0], &a)) && !(rc = find_run(db, args[1], &b)))
			st = hs_view_compare(db, &a, &b, &c->ao, &rep, &gate, &err);
	}
	(void)nargs;
	if (st != HDB_OK)
		rc = db_fail(st, &err);
	else if (rc == TP_EXIT_OK)
		rc = emit(c, &rep);
	if (rc == TP_EXIT_OK && gate)
		rc = TP_EXIT_WARN;
	report_free(&rep);
	strbuf_release(&err);
	return rc;
}

static int cmd_rm(struct hdb *db, const char *arg)
{
	struct hs_run r;
	struct strbuf err = STRBUF_INIT;
	int found, rc = find_run(db, arg, &r);
	if (rc == TP_EXIT_OK) {
		int st = hs_rm(db, r.id, &found, &err);
		if (st != HDB_OK)
			rc = db_fail(st, &err);
		else if (found)
			printf("removed run %lld (%s)\n", (long long)r.id, r.path);
	}
	strbuf_release(&err);
	return rc;
}

/* ---- options ---- */

enum {
	OPT_DB = 256,
	OPT_WAIT,
	OPT_LABEL,
	OPT_META,
	OPT_RECORDS,
	OPT_ALPHA,
	OPT_PERM,
	OPT_SEED,
	OPT_MINRUNS,
	OPT_FAIL,
	OPT_COLOR,
};

/* The options with a syntax of their own; -1 after printing why. */
static int opt_wait(void *ctx, const char *arg)
{
	struct cli *c = ctx;
	double v;
	if (cli_number(TOOL, "--wait", arg, 0.001, 86400, &v) < 0)
		return -1;
	c->wait_ms = (int)(v * 1000);
	return 0;
}

static int opt_meta(void *ctx, const char *arg)
{
	struct cli *c = ctx;
	if (c->nmeta == MAX_META || !strchr(arg, '=') || arg[0] == '=') {
		tp_error(TOOL, "--meta wants KEY=VALUE (at most %d), not '%s'", MAX_META, arg);
		return -1;
	}
	c->meta[c->nmeta].key = xmemdup(arg, (size_t)(strchr(arg, '=') - arg));
	c->meta[c->nmeta++].value = strchr(arg, '=') + 1;
	return 0;
}

/* --alpha: of the change-point search and of the comparisons alike. */
static int opt_alpha(void *ctx, const char *arg)
{
	struct cli *c = ctx;
	double v;
	if (cli_number(TOOL, "--alpha", arg, 1e-9, 0.5, &v) < 0)
		return -1;
	c->cp.alpha = c->ao.alpha = v;
	return 0;
}

static const struct cli_option options[] = {
	{ "db", OPT_DB, "SPEC",
	  "a SQLite file or a postgresql:// URI (default: TPROF_DB,\nelse $XDG_DATA_HOME/tprof/history.db)", "@file",
	  CLI_TO_STR(struct cli, db) },
	{ "wait", OPT_WAIT, "S", "seconds to wait for a database another writer locked (60)", NULL,
	  CLI_TO_CALL(opt_wait) },
	{ "label", OPT_LABEL, "L", "add: the runs' label; list: only runs with it", NULL, CLI_TO_STR(struct cli, label) },
	{ "meta", OPT_META, "KEY=VALUE", "add: metadata of the runs (git commit, host, config...); repeat", NULL,
	  CLI_TO_CALL(opt_meta) },
	{ "records", OPT_RECORDS, NULL, "add: also keep the first 512 values of each series", NULL,
	  CLI_TO_FLAG(struct cli, records) },
	{ "alpha", OPT_ALPHA, "A", "significance of change points and comparisons (0.01 / 0.05)", NULL,
	  CLI_TO_CALL(opt_alpha) },
	{ "permutations", OPT_PERM, "N", "permutation test size of the change-point search (199)", NULL,
	  CLI_TO_INT(struct cli, cp.permutations, 19, 100000) },
	{ "seed", OPT_SEED, "N", "seed of the permutations (1): the same answer every time", NULL,
	  CLI_TO_INT(struct cli, cp.seed, 0, 1e15) },
	{ "min-runs", OPT_MINRUNS, "N", "fewest runs on either side of a change point (3)", NULL,
	  CLI_TO_INT(struct cli, cp.min_size, 2, 1000) },
	{ "fail-on-regression", OPT_FAIL, "P", "compare: exit 1 if a series got slower by more than P%", NULL,
	  CLI_TO_NUM(struct cli, ao.fail_regression_pct, 0, 1e9) },
	CLI_OPT_FORMAT(struct cli, format),
	CLI_OPT_OUTPUT(struct cli, output),
	CLI_OPT_THREADS(struct cli, threads),
	CLI_OPTS_RULES(struct cli, rules),
	CLI_OPT_COLOR(OPT_COLOR, struct cli, color),
	CLI_OPT_QUIET(struct cli, quiet),
	{ 0 },
};

static const struct cli_tool tool = {
	.name = TOOL,
	.usage = "[OPTIONS] COMMAND [ARGS]",
	.about = "Commands:\n"
		 "  add LOG...            store each log's analysis (a log already stored is skipped)\n"
		 "  list                  the runs stored (--label: only those)\n"
		 "  show RUN              one run: metadata, series summaries, stages, findings\n"
		 "  rm RUN                delete a run\n"
		 "  series                the series names stored, with how many runs carry each\n"
		 "  trend SERIES          one series across runs, change points marked\n"
		 "  regressions           every series with a change point, largest first\n"
		 "  compare RUN RUN       the second run against the first, as tprof-analyze --compare\n"
		 "RUN is a run id, a label (its latest run) or a hash prefix of 6 or more hex digits.\n",
	.opts = options,
	.trailer = "Exit status: 0 ok, 1 --fail-on-regression tripped, 2 bad usage, unreadable log,\n"
		   "unknown run or series, a corrupt database or one with a newer schema, 3 output\n"
		   "could not be written, 4 out of memory, 5 the database could not be reached,\n"
		   "stayed locked or failed.\n",
	.operands = "add list show rm series trend regressions compare",
	.formats = cli_report_formats,
};

/* How many arguments each command takes (max -1: any number, at least min). */
static const struct {
	const char *name;
	int min, max;
} commands[] = {
	{ "add", 1, -1 },   { "list", 0, 0 },        { "show", 1, 1 },    { "rm", 1, 1 },
	{ "series", 0, 0 }, { "trend", 1, 1 },       { "regressions", 0, 0 }, { "compare", 2, 2 },
};

int main(int argc, char **argv)
{
	struct cli c = { 0 };
	cli_rules_init(&c.rules);
	int first;
	c.threads = tp_ncpus();
	cp_opts_default(&c.cp);
	an_opts_default(&c.ao);
	int rc = cli_parse(&tool, argc, argv, NULL, &c, &first);
	if (rc != CLI_CONTINUE)
		goto out;
	rc = TP_EXIT_OK;
	optind = first;
	if (optind >= argc) {
		cli_usage(&tool, stderr);
		rc = TP_EXIT_INPUT;
		goto out;
	}
	const char *cmd = argv[optind];
	int nargs = argc - optind - 1;
	size_t k = 0;
	while (k < ARRAY_SIZE(commands) && strcmp(commands[k].name, cmd))
		k++;
	if (k == ARRAY_SIZE(commands)) {
		tp_error(TOOL, "unknown command '%s' (see --help)", cmd);
		rc = TP_EXIT_INPUT;
		goto out;
	}
	if (nargs < commands[k].min || (commands[k].max >= 0 && nargs > commands[k].max)) {
		tp_error(TOOL, "%s takes %s", cmd,
			 !strcmp(cmd, "add") ? "one or more LOG files" : commands[k].max == 0 ? "no argument"
			 : commands[k].max == 1 ? "one argument" : "two RUN arguments");
		rc = TP_EXIT_INPUT;
		goto out;
	}
	signal(SIGPIPE, SIG_IGN);
	struct strbuf err = STRBUF_INIT;
	struct hdb *db;
	int st = hs_open(c.db, c.wait_ms, &db, &err);
	if (st != HDB_OK) {
		rc = db_fail(st, &err);
		strbuf_release(&err);
		goto out;
	}
	strbuf_release(&err);
	char **args = argv + optind + 1;
	if (!strcmp(cmd, "add"))
		rc = cmd_add(&c, db, args, nargs);
	else if (!strcmp(cmd, "rm"))
		rc = cmd_rm(db, args[0]);
	else
		rc = cmd_report(&c, db, cmd, args, nargs);
	hdb_close(db);
out:
	for (size_t i = 0; i < c.nmeta; i++)
		free((char *)c.meta[i].key);
	return rc;
}
