/*
 * tprof-analyze - answers from timing records: reads raw logs, the NDJSON
 * of tprof-parse or known documents (parse's one input reader), folds the
 * records into the model, runs the analyses and renders the report. Thin:
 * options here, the work in analyze/ and render/.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/common/common.h"
#include "history/history.h"

#define TOOL "tprof-analyze"

enum {
	OPT_ANALYSIS = 1000, /* + index in an_analyses[] */
	OPT_BASELINE = 2000,
	OPT_LOSS,
	OPT_BOTTLENECK,
	OPT_OPTIMIZE,
	OPT_DATA,
	OPT_VARRATIO,
	OPT_OUTLIER,
	OPT_STRAGGLER,
	OPT_ALPHA,
	OPT_FAIL,
	OPT_PARAM,
	OPT_MATCH,
	OPT_PREDICT,
	OPT_LABEL,
	OPT_COLOR,
	OPT_CSVDIR,
	OPT_INTERVAL,
	OPT_HISTORY,
	OPT_DB,
};

#define MAX_RUN_OPTS CLI_MAX_RUN_OPTS

/* Everything the options set. */
struct cli {
	struct an_opts o;
	unsigned which;
	const char *format, *output, *csv_dir, *db_spec;
	struct cli_rules rules;
	long history_last; /* 0: no --history */
	enum cli_color color;
	int threads, quiet, follow, interval;
	struct cli_runs runs; /* --param, --label */
	size_t nmatch;
	struct an_match match[MAX_RUN_OPTS];
	char dir[4096];    /* -o DIR/ with CSV: the directory */
};

/* The options with a syntax of their own. */
static int opt_match(void *ctx, const char *arg)
{
	struct cli *c = ctx;
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1] || c->nmatch == MAX_RUN_OPTS) {
		tp_error(TOOL, "--match wants OLD=NEW (two series names), at most %d times", MAX_RUN_OPTS);
		return -1;
	}
	*(char *)eq = '\0'; /* argv is ours to cut */
	c->match[c->nmatch].old_name = arg;
	c->match[c->nmatch++].new_name = eq + 1;
	return 0;
}

static int opt_predict(void *ctx, const char *arg)
{
	struct cli *c = ctx;
	if (an_parse_param(arg, &c->o.predict) < 0) {
		tp_error(TOOL, "--predict wants NAME=NUMBER, not '%s'", arg);
		return -1;
	}
	return 0;
}

static int opt_history(void *ctx, const char *arg)
{
	struct cli *c = ctx;
	c->history_last = 10;
	return arg ? cli_int(TOOL, "--history", arg, 1, 100000, &c->history_last) : 0;
}

#define PCT(f) CLI_TO_NUM(struct cli, o.f, 0, INFINITY)

/* The options after the analyses' own, which come from analyze's table
 * (an_analyses, with keys OPT_ANALYSIS + the row's index). */
static const struct cli_option settings[] = {
	CLI_HEADING("Settings:"),
	{ "baseline", OPT_BASELINE, "NAME", "speedup baseline (default: the slowest)", NULL,
	  CLI_TO_STR(struct cli, o.baseline) },
	{ "loss-threshold", OPT_LOSS, "X", "loss value for --convergence", NULL,
	  CLI_TO_NUM(struct cli, o.loss_threshold, -INFINITY, INFINITY) },
	{ "bottleneck-pct", OPT_BOTTLENECK, "P", "share above which a stage is a bottleneck (50)", NULL,
	  PCT(bottleneck_pct) },
	{ "optimize-pct", OPT_OPTIMIZE, "P", "share above which a stage is worth optimizing (20)", NULL,
	  PCT(optimize_pct) },
	{ "data-pct", OPT_DATA, "P", "share above which data loading is flagged (30)", NULL, PCT(data_pct) },
	{ "variance-ratio", OPT_VARRATIO, "R", "max/min above which a series is noisy (2)", NULL,
	  PCT(variance_ratio) },
	{ "outlier-z", OPT_OUTLIER, "Z", "modified z-score threshold for outliers (3.5)", NULL, PCT(outlier_z) },
	{ "straggler-pct", OPT_STRAGGLER, "P", "rank slower than the median rank by P% (10)", NULL,
	  PCT(straggler_pct) },
	{ "alpha", OPT_ALPHA, "A", "significance level of tests (0.05)", NULL, PCT(alpha) },
	{ "fail-on-regression", OPT_FAIL, "P",
	  "exit 1 if a series (batches, epochs, GPM windows,\nmetrics, operations) got slower by more than P%\n"
	  "with significance (for CI gates)", NULL, PCT(fail_regression_pct) },
	{ "match", OPT_MATCH, "OLD=NEW", "series OLD of the first run is NEW in the others", NULL,
	  CLI_TO_CALL(opt_match) },
	{ "param", OPT_PARAM, "NAME=V", "size of each run, in order (repeat per run)", NULL, CLI_TO_PARAM(struct cli, runs) },
	{ "predict", OPT_PREDICT, "NAME=V", "predict the time at this size from the scaling fit", NULL,
	  CLI_TO_CALL(opt_predict) },
	{ "label", OPT_LABEL, "NAME", "name of each run, in order (repeat per run)", NULL, CLI_TO_LABEL(struct cli, runs) },
	{ "history", OPT_HISTORY, "[=N]",
	  "compare each labelled run with the last N (10) runs with\nits label stored by tprof-history (see --db)", NULL,
	  CLI_TO_CALL(opt_history) },
	{ "db", OPT_DB, "SPEC",
	  "the history: a SQLite file or a postgresql:// URI\n(default: TPROF_DB, else $XDG_DATA_HOME/tprof/history.db)",
	  "@file", CLI_TO_STR(struct cli, db_spec) },
	CLI_HEADING("Input and output:"),
	CLI_OPT_FORMAT(struct cli, format),
	CLI_OPT_OUTPUT(struct cli, output),
	{ "csv-dir", OPT_CSVDIR, "DIR", "also write one CSV per table into DIR (id.csv)", "@dir",
	  CLI_TO_STR(struct cli, csv_dir) },
	{ "follow", 'F', NULL,
	  "follow one growing log and refresh the report every\n--interval S seconds (2) until SIGINT/SIGTERM", NULL,
	  CLI_TO_FLAG(struct cli, follow) },
	{ "interval", OPT_INTERVAL, "S", "seconds between refreshes with --follow", NULL,
	  CLI_TO_INT(struct cli, interval, 1, 86400) },
	CLI_OPT_THREADS(struct cli, threads),
	CLI_OPTS_RULES(struct cli, rules),
	CLI_OPT_COLOR(OPT_COLOR, struct cli, color),
	CLI_OPT_QUIET(struct cli, quiet),
	{ 0 },
};

static const struct cli_tool tool_proto = {
	.name = TOOL,
	.usage = "[OPTIONS] [FILE...]",
	.about = "Reads training logs (plain or .gz), the NDJSON of tprof-parse or a known\n"
		 "report document ('-' or no FILE: standard input); each file is a run.\n"
		 "Without an analysis option it runs every analysis the input supports.\n",
	.opts = settings, /* main puts the analyses' rows before these */
	.trailer = "Exit status: 0 ok, 1 --fail-on-regression tripped, 2 bad usage or input,\n"
		   "3 output could not be written, 4 out of memory, 5 the --history database could\n"
		   "not be reached.\n",
	.operands = "@file",
	.formats = cli_report_formats,
};

/* --history: what the report adds from the stored runs. */
struct history_view {
	struct hdb *db;      /* the open database, or NULL */
	size_t last;         /* N of --history=N */
	size_t nlabels;      /* runs named with --label (the first nlabels) */
};

#define MAX_SUMMARIES 2048

/* --history: each labelled run against the last runs with its label; -1 on a database error. */
static int add_history(const struct an_model *model, const struct history_view *h, struct report *rep)
{
	struct an_summary *v = xcalloc(MAX_SUMMARIES, sizeof(*v));
	struct strbuf err = STRBUF_INIT;
	int rc = 0;
	for (size_t r = 0; r < model->nruns && r < h->nlabels && !rc; r++) {
		const struct an_run *run = model->runs[r];
		char hash[65];
		int64_t size;
		size_t n = an_run_summaries(run, v, MAX_SUMMARIES);
		int hashed = sha256_file(run->file, hash, &size) == 0;
		if (hs_view_recent(h->db, run->label, h->last, hashed ? hash : NULL, v, n, run->label, rep, &err) !=
		    HDB_OK) {
			tp_error(TOOL, "--history: %s", err.buf);
			rc = -1;
		}
	}
	free(v);
	strbuf_release(&err);
	return rc;
}

/* Analyzes the model and writes the report (and --csv-dir); an exit code. */
static int write_report(const struct an_model *model, const struct an_opts *o, const struct cli_report_out *out,
			const char *csv_dir, const struct history_view *h, int *gate)
{
	struct report rep;
	struct strbuf err = STRBUF_INIT;
	int rc = TP_EXIT_OK;
	report_init(&rep);
	*gate = an_analyze(model, o, &rep);
	/* a CI log shows which series tripped the gate, wherever the report goes */
	for (size_t i = 0; (*gate & AN_GATE_REGRESSION) && i < rep.nfindings; i++)
		if (!strcmp(rep.findings[i].kind, "gate"))
			tp_error(TOOL, "%s", rep.findings[i].message);
	if (h && h->db && add_history(model, h, &rep) < 0)
		rc = TP_EXIT_INTERNAL;
	if (csv_dir && !out->input_failed && render_csv_dir(&rep, csv_dir, &err) < 0) {
		tp_error(TOOL, "--csv-dir: %s", err.buf);
		rc = TP_EXIT_OUTPUT;
	}
	/* no renderer: -o DIR/ wrote the CSVs of csv_dir and nothing else */
	int w = out->rd ? cli_write_report(TOOL, &rep, out) : TP_EXIT_OK;
	report_free(&rep);
	strbuf_release(&err);
	return rc != TP_EXIT_OK ? rc : w;
}

/* Set by SIGINT/SIGTERM in --follow: the one global, as signal handlers need. */
static volatile sig_atomic_t stop_following;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_following = 1;
}

struct follow_ctx {
	struct an_model *model;
	const struct an_opts *o;
	const struct cli_report_out *out;
	const char *csv_dir;
	int rc;
};

static int follow_feed(void *ctx, const struct tp_record *r)
{
	struct follow_ctx *fc = ctx;
	an_feed(fc->model, r);
	return 0;
}

static void follow_warn(void *ctx, const char *file, uint64_t line, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "" TOOL ": %s:%llu: warning: %s\n", file, (unsigned long long)line, msg);
}

static void follow_tick(void *ctx, int final)
{
	struct follow_ctx *fc = ctx;
	int gate;
	(void)final;
	fc->rc = write_report(fc->model, fc->o, fc->out, fc->csv_dir, NULL, &gate);
	if (fc->rc == TP_EXIT_OK && (gate & AN_GATE_REGRESSION))
		fc->rc = TP_EXIT_WARN;
}

static void follow_note(void *ctx, const char *path, const char *msg)
{
	(void)ctx;
	fprintf(stderr, TOOL ": %s: %s; reading it from the start\n", path, msg);
}

/* --follow: refresh the report as the log grows, a last one at SIGINT/SIGTERM. */
static int follow_mode(struct an_model *model, const struct an_opts *o, struct cli_report_out *out,
		       const char *csv_dir, const char *path, const struct tp_rules *rules, int interval_s)
{
	struct follow_ctx fc = { model, o, out, csv_dir, TP_EXIT_OK };
	struct tp_run_opts ro = { .threads = 1, .fmt = -1, .rules = rules };
	struct tp_follow_opts fo = { .poll_ms = 200, .tick_ms = interval_s * 1000, .stop = &stop_following,
				     .tick = follow_tick, .note = follow_note, .ctx = &fc };
	struct sigaction sa;
	struct tp_stats st = { 0 };
	struct strbuf err = STRBUF_INIT;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal; /* no SA_RESTART: the sleep ends at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	out->clear = !out->output && isatty(1);
	ro.sink.emit = follow_feed;
	ro.sink.warn = follow_warn;
	ro.sink.ctx = &fc;
	an_model_run(model, path);
	int rc = tp_follow_run(path, &ro, &fo, &st, &err);
	if (rc < 0) {
		tp_error(TOOL, "%s", err.buf);
		fc.rc = TP_EXIT_INPUT;
	}
	strbuf_release(&err);
	return fc.rc;
}

/*
 * CSV to a directory (one that exists, or a name ending with '/', made if
 * missing): the wide CSVs of --csv-dir in it and no other report; the long
 * form stays -f csv to a file. Sets c->dir; -1 after the message.
 */
static int csv_to_dir(struct cli *c)
{
	struct stat st;
	const char *o = c->output;
	if (!o || !*o || c->csv_dir || (c->format && strcmp(c->format, "csv")) || strlen(o) >= sizeof(c->dir) ||
	    (o[strlen(o) - 1] != '/' && !(stat(o, &st) == 0 && S_ISDIR(st.st_mode))))
		return 0;
	size_t n = strlen(o);
	memcpy(c->dir, o, n + 1);
	while (n > 1 && c->dir[n - 1] == '/')
		c->dir[--n] = '\0';
	if (mkdir(c->dir, 0777) < 0 && errno != EEXIST) {
		tp_error(TOOL, "cannot make %s: %s", c->dir, strerror(errno));
		return -1;
	}
	c->csv_dir = c->dir;
	return 0;
}

/* --history: the database of stored runs; an exit status. */
static int open_history(const struct cli *c, struct history_view *h)
{
	struct strbuf err = STRBUF_INIT;
	int rc = TP_EXIT_OK;
	if (!c->runs.nlabels) {
		tp_error(TOOL, "--history compares runs with the stored runs of their label: give --label");
		rc = TP_EXIT_INPUT;
	} else {
		int st = hs_open(c->db_spec, 0, &h->db, &err);
		if (st != HDB_OK) {
			tp_error(TOOL, "--history: %s", err.buf);
			rc = st == HDB_CORRUPT || st == HDB_SCHEMA ? TP_EXIT_INPUT : TP_EXIT_INTERNAL;
		}
	}
	strbuf_release(&err);
	return rc;
}

int main(int argc, char **argv)
{
	struct cli c = { .threads = tp_ncpus(), .interval = 2 };
	cli_rules_init(&c.rules);
	int first;
	an_opts_default(&c.o);
	struct cli_option *opts = cli_analysis_options(an_analyses, OPT_ANALYSIS, offsetof(struct cli, which), settings);
	struct cli_tool tool = tool_proto;
	tool.opts = opts;
	int rc = cli_parse(&tool, argc, argv, NULL, &c, &first);
	free(opts);
	if (rc != CLI_CONTINUE)
		return rc;
	/* --compare or --fail-on-regression: an empty comparison is an error */
	int compare_asked = (c.which & AN_COMPARE) || !isnan(c.o.fail_regression_pct);
	if (c.which)
		c.o.which = c.which;
	if ((c.o.which & AN_CONVERGENCE) && c.which && isnan(c.o.loss_threshold)) {
		tp_error(TOOL, "--convergence needs --loss-threshold X");
		return TP_EXIT_INPUT;
	}
	if (c.follow && argc - first != 1) {
		tp_error(TOOL, "--follow wants exactly one FILE");
		return TP_EXIT_INPUT;
	}
	const struct renderer *rd = cli_renderer(TOOL, c.format, c.output);
	struct tp_rules *rules;
	if (!rd || cli_load_rules(TOOL, &c.rules, &rules) < 0)
		return TP_EXIT_INPUT;
	signal(SIGPIPE, SIG_IGN);

	struct an_model model;
	an_model_init(&model, c.o.loss_threshold);
	int failed = 0, gate = 0;
	if (!c.follow)
		failed = cli_load_runs(TOOL, &model, argv + first, argc - first, c.threads, rules, c.quiet,
				       c.runs.labels, c.runs.nlabels) < 0;
	c.o.run_params = c.runs.params;
	c.o.nrun_params = c.runs.nparams;
	c.o.match = c.match;
	c.o.nmatch = c.nmatch;
	struct cli_report_out out = { rd, c.output, c.color, "tprof-analyze report", 0, failed };
	if (csv_to_dir(&c) < 0) {
		an_model_free(&model);
		tp_rules_free(rules);
		return TP_EXIT_OUTPUT;
	}
	if (c.dir[0])
		out.rd = NULL, out.output = NULL;
	struct history_view h = { NULL, (size_t)c.history_last, c.runs.nlabels };
	rc = c.history_last ? open_history(&c, &h) : TP_EXIT_OK;
	if (rc == TP_EXIT_OK && c.follow)
		rc = follow_mode(&model, &c.o, &out, c.csv_dir, argv[first], rules, c.interval);
	else if (rc == TP_EXIT_OK)
		rc = write_report(&model, &c.o, &out, c.csv_dir, &h, &gate);
	hdb_close(h.db);
	if (rc == TP_EXIT_OK && failed)
		rc = TP_EXIT_INPUT;
	if (rc == TP_EXIT_OK && (gate & AN_GATE_EMPTY) && compare_asked) {
		/* a gate that compared nothing must not pass */
		tp_error(TOOL, "the runs share no series: nothing to compare (see --match)");
		rc = TP_EXIT_INPUT;
	}
	if (rc == TP_EXIT_OK && (gate & AN_GATE_REGRESSION))
		rc = TP_EXIT_WARN;
	an_model_free(&model);
	tp_rules_free(rules);
	return rc;
}
