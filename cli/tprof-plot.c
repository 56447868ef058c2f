/*
 * tprof-plot - charts of training logs: reads the inputs like
 * tprof-analyze (load.c), runs the analyses and draws the charts asked for
 * with gnuplot (gnuplot.h), each into a PNG, SVG or PDF file written
 * atomically. Thin: the work is in analyze/ and render/gnuplot.c.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli/common/common.h"
#include "history/history.h"

#define TOOL "tprof-plot"


struct plot_cli {
	unsigned charts;     /* 1 << GP_* asked for; 0: all with data */
	int all;             /* --all: every chart with data, whatever else was asked */
	const char *output, *script_dir;
	struct cli_rules rules;
	const char *history, *db; /* --history SERIES, --db SPEC */
	struct gp_opts gp;
	struct an_opts an;
	int threads, quiet;
	int size_given;      /* --size: the chart is exactly that size */
	struct cli_runs runs; /* --param, --label */
};

enum {
	OPT_CHART = 1000, /* + GP_* */
	OPT_ALL = 1100,
	OPT_SIZE,
	OPT_TITLE,
	OPT_SCRIPT,
	OPT_GNUPLOT,
	OPT_TIMEOUT,
	OPT_LABEL,
	OPT_PARAM,
	OPT_LOSS,
	OPT_HISTORY,
	OPT_DB,
};

static int opt_size(void *ctx, const char *arg);

#define P struct plot_cli
#define CHART(b) CLI_TO_BITS(P, charts, 1u << (b))
static const struct cli_option options[] = {
	CLI_HEADING("Charts:"),
	{ "stages", OPT_CHART + GP_STAGES, NULL, "each stage's share of the total, as horizontal bars", NULL,
	  CHART(GP_STAGES) },
	{ "batches", OPT_CHART + GP_BATCHES, NULL, "batch time per batch, warmup end and outliers marked", NULL,
	  CHART(GP_BATCHES) },
	{ "gpm", OPT_CHART + GP_GPM, NULL, "GPM pattern generation and total per window, average nodes", NULL,
	  CHART(GP_GPM) },
	{ "scaling", OPT_CHART + GP_SCALING, NULL, "time against size on log-log axes, fit and expected complexity",
	  NULL, CHART(GP_SCALING) },
	{ "compare", OPT_CHART + GP_COMPARE, NULL, "each item per run as grouped bars, IQR error bars", NULL,
	  CHART(GP_COMPARE) },
	{ "timeline", OPT_CHART + GP_TIMELINE, NULL, "the stages on the clock, as a Gantt chart", NULL,
	  CHART(GP_TIMELINE) },
	{ "memory", OPT_CHART + GP_MEMORY, NULL, "CPU and GPU memory per batch", NULL, CHART(GP_MEMORY) },
	{ "all", OPT_ALL, NULL, "every chart the input has data for", NULL, CLI_TO_FLAG(P, all) },
	{ "history", OPT_HISTORY, "SERIES",
	  "instead of reading logs: SERIES across the runs stored by\ntprof-history, change points marked (chart 'trend')",
	  NULL, CLI_TO_STR(P, history) },
	{ "db", OPT_DB, "SPEC",
	  "the history for --history: a SQLite file or a postgresql://\n"
	  "URI (default: TPROF_DB, else $XDG_DATA_HOME/tprof/history.db)", "@file", CLI_TO_STR(P, db) },
	CLI_HEADING("Output:"),
	{ "output", 'o', "FILE",
	  "the chart: .png, .svg or .pdf (default CHART.png); with\nseveral charts, -CHART goes before the extension\n"
	  "(-o out/run.png: out/run-stages.png, out/run-batches.png)", "@file", CLI_TO_STR(P, output) },
	{ "size", OPT_SIZE, "W,H", "size in pixels (default 1000,600; PDF at 96 per inch)", NULL, CLI_TO_CALL(opt_size) },
	{ "title", OPT_TITLE, "TEXT", "the chart's title", NULL, CLI_TO_STR(P, gp.title) },
	{ "script", OPT_SCRIPT, "DIR",
	  "keep the gnuplot script CHART.gp and its data CHART-d*.dat\nin DIR (written even when gnuplot is missing)",
	  "@dir", CLI_TO_STR(P, script_dir) },
	{ "gnuplot", OPT_GNUPLOT, "PATH", "the gnuplot program (default: gnuplot from PATH)", "@file",
	  CLI_TO_STR(P, gp.gnuplot) },
	{ "timeout", OPT_TIMEOUT, "S", "kill gnuplot after S seconds (default 60)", NULL,
	  CLI_TO_INT(P, gp.timeout_s, 1, 86400) },
	CLI_HEADING("Input:"),
	{ "label", OPT_LABEL, "NAME", "name of each run, in order (repeat per run)", NULL, CLI_TO_LABEL(P, runs) },
	{ "param", OPT_PARAM, "NAME=V", "size of each run, in order (repeat per run), for --scaling", NULL,
	  CLI_TO_PARAM(P, runs) },
	{ "loss-threshold", OPT_LOSS, "X", "loss value for the convergence analysis", NULL,
	  CLI_TO_NUM(P, an.loss_threshold, -INFINITY, INFINITY) },
	CLI_OPT_THREADS(P, threads),
	CLI_OPTS_RULES(P, rules),
	CLI_OPT_QUIET(P, quiet),
	{ 0 },
};
#undef CHART
#undef P

static const struct cli_tool tool = {
	.name = TOOL,
	.usage = "[OPTIONS] [FILE...]",
	.about = "Reads training logs (plain or .gz), the NDJSON of tprof-parse or a known\n"
		 "report document, like tprof-analyze ('-' or no FILE: standard input; each\n"
		 "file is a run), and draws charts with gnuplot. Without a chart option it\n"
		 "draws every chart the input has data for.\n",
	.opts = options,
	.trailer = "Exit status: 0 ok, 2 bad usage or input (or no data for a chart asked for, or a\n"
		   "corrupt history), 3 output could not be written, 4 out of memory, 5 gnuplot\n"
		   "missing or failed, or the history database could not be reached.\n",
	.operands = "@file",
};

static int parse_size(const char *arg, struct gp_opts *o)
{
	char *end;
	errno = 0;
	long w = strtol(arg, &end, 10), h;
	if (errno || end == arg || *end != ',' || w < 64 || w > 10000)
		return -1;
	const char *p = end + 1;
	h = strtol(p, &end, 10);
	if (errno || end == p || *end || h < 64 || h > 10000)
		return -1;
	o->width = (int)w;
	o->height = (int)h;
	return 0;
}

/* --size W,H; -1 after the message. */
static int opt_size(void *ctx, const char *arg)
{
	struct plot_cli *c = ctx;
	c->size_given = 1;
	if (parse_size(arg, &c->gp) == 0)
		return 0;
	tp_error(TOOL, "--size wants W,H in pixels (64 to 10000), not '%s'", arg);
	return -1;
}

/* The output file of chart ch: -o FILE as is for one chart, else with -CHART before the extension. */
static void output_name(const struct plot_cli *c, enum gp_chart ch, int several, struct strbuf *sb)
{
	strbuf_reset(sb);
	if (!c->output) {
		strbuf_addf(sb, "%s%s", gp_chart_name(ch), gp_term_ext(c->gp.term));
		return;
	}
	if (!several) {
		strbuf_addstr(sb, c->output);
		return;
	}
	const char *dot = strrchr(c->output, '.');
	strbuf_add(sb, c->output, (size_t)(dot - c->output));
	strbuf_addf(sb, "-%s%s", gp_chart_name(ch), dot);
}

static int exit_code(enum gp_status st)
{
	switch (st) {
	case GP_OK:
		return TP_EXIT_OK;
	case GP_NODATA:
		return TP_EXIT_INPUT;
	case GP_ESCRIPT:
	case GP_EOUTPUT:
		return TP_EXIT_OUTPUT;
	default:
		return TP_EXIT_INTERNAL;
	}
}

/* Draws one chart; after gnuplot was found missing only the script is written. */
static enum gp_status one_chart(const struct plot_cli *c, const struct report *rep, enum gp_chart ch, int several,
				int *no_gnuplot)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	enum gp_status st;
	output_name(c, ch, several, &out);
	struct gp_opts o = c->gp;
	if (!c->size_given)
		o.height = gp_suggested_height(rep, ch, o.height);
	if (*no_gnuplot)
		st = c->script_dir ? gp_write_script(rep, ch, &o, c->script_dir, &err) : GP_NOGNUPLOT;
	else
		st = gp_plot_file(rep, ch, &o, out.buf, c->script_dir, &err);
	if (st == GP_NOGNUPLOT && !*no_gnuplot) {
		tp_error(TOOL, "%s", err.buf);
		*no_gnuplot = 1;
	} else if (*no_gnuplot && st == GP_OK) {
		st = GP_NOGNUPLOT; /* the script is there; the chart is not */
	} else if (st != GP_OK && st != GP_NOGNUPLOT) {
		tp_error(TOOL, "%s: %s", gp_chart_name(ch), err.buf);
	}
	strbuf_release(&out);
	strbuf_release(&err);
	return st;
}

/* Every chart asked for (or every chart with data); returns the exit code. */
static int draw_charts(const struct plot_cli *c, const struct report *rep)
{
	unsigned todo = c->all ? 0 : c->charts;
	int several, rc = TP_EXIT_OK, no_gnuplot = 0;
	if (!todo)
		for (int ch = 0; ch < GP_NCHARTS; ch++)
			if (gp_has_data(rep, (enum gp_chart)ch, &c->gp))
				todo |= 1u << ch;
	if (!todo) {
		tp_error(TOOL, "nothing to chart: the input has no stages, batches, GPM windows, scaling sweeps, "
			       "comparison, timeline or memory");
		return TP_EXIT_INPUT;
	}
	several = (todo & (todo - 1)) != 0;
	for (int ch = 0; ch < GP_NCHARTS; ch++) {
		if (!(todo & (1u << ch)))
			continue;
		int e = exit_code(one_chart(c, rep, (enum gp_chart)ch, several, &no_gnuplot));
		rc = e > rc ? e : rc;
	}
	return rc;
}

static int check_output(struct plot_cli *c)
{
	if (!c->output)
		return 0;
	int t = gp_term_for_path(c->output);
	if (t < 0 || !strcmp(c->output, "-")) {
		tp_error(TOOL, "-o wants a file name ending in .png, .svg or .pdf, not '%s'", c->output);
		return -1;
	}
	c->gp.term = (enum gp_term)t;
	return 0;
}

/* Reads the inputs and runs the analyses; returns -1 to go on, else the exit code. */
static int load(struct plot_cli *c, char **files, int nfiles, struct an_model *m, struct report *rep)
{
	struct tp_rules *rules;
	m->loss_threshold = c->an.loss_threshold;
	if (cli_load_rules(TOOL, &c->rules, &rules) < 0)
		return TP_EXIT_INPUT;
	int failed = cli_load_runs(TOOL, m, files, nfiles, c->threads, rules, c->quiet, c->runs.labels, c->runs.nlabels) < 0;
	tp_rules_free(rules);
	c->an.run_params = c->runs.params;
	c->an.nrun_params = c->runs.nparams;
	an_analyze(m, &c->an, rep);
	if (failed) {
		tp_error(TOOL, "no chart drawn because of the input errors above");
		return TP_EXIT_INPUT;
	}
	return -1;
}

/* --history SERIES: the trend of the stored runs; returns -1 to go on, else the exit code. */
static int load_history(struct plot_cli *c, struct report *rep)
{
	struct strbuf err = STRBUF_INIT;
	struct hdb *db;
	struct cp_opts o;
	size_t n = 0;
	int rc = -1;
	cp_opts_default(&o);
	int st = hs_open(c->db, 0, &db, &err);
	if (st == HDB_OK) {
		st = hs_view_trend(db, c->history, &o, rep, &n, &err);
		hdb_close(db);
	}
	if (st != HDB_OK) {
		tp_error(TOOL, "%s", err.buf);
		rc = st == HDB_CORRUPT || st == HDB_SCHEMA ? TP_EXIT_INPUT : TP_EXIT_INTERNAL;
	} else if (!n) {
		tp_error(TOOL, "no stored run carries a series '%s' (see 'tprof history series')", c->history);
		rc = TP_EXIT_INPUT;
	}
	c->charts = 1u << GP_TREND;
	c->all = 0;
	strbuf_release(&err);
	return rc;
}

int main(int argc, char **argv)
{
	struct plot_cli c;
	memset(&c, 0, sizeof(c));
	cli_rules_init(&c.rules);
	gp_opts_default(&c.gp);
	an_opts_default(&c.an);
	c.threads = tp_ncpus();
	int first;
	int rc = cli_parse(&tool, argc, argv, NULL, &c, &first);
	if (rc != CLI_CONTINUE)
		return rc;
	if (check_output(&c) < 0)
		return TP_EXIT_INPUT;
	signal(SIGPIPE, SIG_IGN);

	struct an_model model;
	struct report rep;
	report_init(&rep);
	if (c.history && first < argc) {
		tp_error(TOOL, "--history reads the stored runs: give no FILE");
		report_free(&rep);
		return TP_EXIT_INPUT;
	}
	an_model_init(&model, NAN);
	rc = c.history ? load_history(&c, &rep) : load(&c, argv + first, argc - first, &model, &rep);
	if (rc < 0)
		rc = draw_charts(&c, &rep);
	report_free(&rep);
	an_model_free(&model);
	return rc;
}
