/*
 * tprof-plot - charts of training logs: reads the inputs like
 * tprof-analyze (load.c), runs the analyses and draws the charts asked for
 * with gnuplot (gnuplot.h), each into a PNG, SVG or PDF file written
 * atomically. Thin: the work is in analyze/ and render/gnuplot.c.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "render/render.h"
#include "parse/parse.h"

#define TOOL "tprof-plot"

static const char usage[] =
	"usage: tprof-plot [OPTIONS] [FILE...]\n"
	"\n"
	"Reads training logs (plain or .gz), the NDJSON of tprof-parse or a known\n"
	"report document, like tprof-analyze ('-' or no FILE: standard input; each\n"
	"file is a run), and draws charts with gnuplot. Without a chart option it\n"
	"draws every chart the input has data for.\n"
	"\n"
	"Charts:\n"
	"      --stages             each stage's share of the total, as horizontal bars\n"
	"      --batches            batch time per batch, warmup end and outliers marked\n"
	"      --gpm                GPM pattern generation and total per window, average nodes\n"
	"      --scaling            time against size on log-log axes, fit and expected complexity\n"
	"      --compare            each item per run as grouped bars, IQR error bars\n"
	"      --timeline           the stages on the clock, as a Gantt chart\n"
	"      --memory             CPU and GPU memory per batch\n"
	"      --all                every chart the input has data for\n"
	"\n"
	"Output:\n"
	"  -o, --output FILE        the chart: .png, .svg or .pdf (default CHART.png); with\n"
	"                           several charts, -CHART goes before the extension\n"
	"                           (-o out/run.png: out/run-stages.png, out/run-batches.png)\n"
	"      --size W,H           size in pixels (default 1000,600; PDF at 96 per inch)\n"
	"      --title TEXT         the chart's title\n"
	"      --script DIR         keep the gnuplot script CHART.gp and its data CHART-d*.dat\n"
	"                           in DIR (written even when gnuplot is missing)\n"
	"      --gnuplot PATH       the gnuplot program (default: gnuplot from PATH)\n"
	"      --timeout S          kill gnuplot after S seconds (default 60)\n"
	"\n"
	"Input:\n"
	"      --label NAME         name of each run, in order (repeat per run)\n"
	"      --param NAME=V       size of each run, in order (repeat per run), for --scaling\n"
	"      --loss-threshold X   loss value for the convergence analysis\n"
	"  -j, --threads N          parser threads for large logs (default: cores)\n"
	"  -r, --rules FILE         extra line formats for raw logs (see tprof-parse)\n"
	"  -q, --quiet              do not print parse warnings\n"
	"  -h, --help               show this help\n"
	"      --version            show the version\n"
	"\n"
	"Exit status: 0 ok, 2 bad usage or input (or no data for a chart asked for),\n"
	"3 output could not be written, 4 out of memory, 5 gnuplot missing or failed.\n";

#define MAX_RUN_OPTS 256

struct plot_cli {
	unsigned charts;     /* 1 << GP_* asked for; 0: all with data */
	int all;             /* --all: every chart with data, whatever else was asked */
	const char *output, *script_dir, *rules_path;
	struct gp_opts gp;
	struct an_opts an;
	int threads, quiet;
	int size_given;      /* --size: the chart is exactly that size */
	struct an_param params[MAX_RUN_OPTS];
	size_t nparams, nlabels;
	const char *labels[MAX_RUN_OPTS];
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
	OPT_VERSION,
};


static int parse_int(const char *s, char **end, int lo, int hi, int *v)
{
	errno = 0;
	long x = strtol(s, end, 10);
	if (errno || *end == s || x < lo || x > hi)
		return -1;
	*v = (int)x;
	return 0;
}

static int parse_size(const char *arg, struct gp_opts *o)
{
	char *end;
	if (parse_int(arg, &end, 64, 10000, &o->width) < 0 || *end != ',')
		return -1;
	if (parse_int(end + 1, &end, 64, 10000, &o->height) < 0 || *end)
		return -1;
	return 0;
}

/* The options that take a value; 0 ok, else an exit code. */
static int value_option(struct plot_cli *c, int opt, const char *arg)
{
	char *end;
	switch (opt) {
	case OPT_SIZE:
		c->size_given = 1;
		if (parse_size(arg, &c->gp) == 0)
			return 0;
		tp_error(TOOL, "--size wants W,H in pixels (64 to 10000), not '%s'", arg);
		return TP_EXIT_INPUT;
	case OPT_TIMEOUT:
		if (parse_int(arg, &end, 1, 86400, &c->gp.timeout_s) == 0 && !*end)
			return 0;
		tp_error(TOOL, "--timeout wants seconds (1 to 86400), not '%s'", arg);
		return TP_EXIT_INPUT;
	case 'j':
		if (parse_int(arg, &end, 1, 256, &c->threads) == 0 && !*end)
			return 0;
		tp_error(TOOL, "--threads wants a number from 1 to 256");
		return TP_EXIT_INPUT;
	case OPT_PARAM:
		if (c->nparams < MAX_RUN_OPTS && an_parse_param(arg, &c->params[c->nparams]) == 0) {
			c->nparams++;
			return 0;
		}
		tp_error(TOOL, "--param wants NAME=NUMBER, not '%s'", arg);
		return TP_EXIT_INPUT;
	case OPT_LABEL:
		if (c->nlabels < MAX_RUN_OPTS) {
			c->labels[c->nlabels++] = arg;
			return 0;
		}
		tp_error(TOOL, "too many --label options");
		return TP_EXIT_INPUT;
	case OPT_LOSS:
		errno = 0;
		c->an.loss_threshold = strtod(arg, &end);
		if (!errno && !*end && end != arg && isfinite(c->an.loss_threshold))
			return 0;
		tp_error(TOOL, "--loss-threshold wants a number, not '%s'", arg);
		return TP_EXIT_INPUT;
	}
	return TP_EXIT_INPUT;
}

/* Returns -1 to go on, else the exit code. */
static int parse_args(struct plot_cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "stages", no_argument, NULL, OPT_CHART + GP_STAGES },
		{ "batches", no_argument, NULL, OPT_CHART + GP_BATCHES },
		{ "gpm", no_argument, NULL, OPT_CHART + GP_GPM },
		{ "scaling", no_argument, NULL, OPT_CHART + GP_SCALING },
		{ "compare", no_argument, NULL, OPT_CHART + GP_COMPARE },
		{ "timeline", no_argument, NULL, OPT_CHART + GP_TIMELINE },
		{ "memory", no_argument, NULL, OPT_CHART + GP_MEMORY },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "output", required_argument, NULL, 'o' },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "title", required_argument, NULL, OPT_TITLE },
		{ "script", required_argument, NULL, OPT_SCRIPT },
		{ "gnuplot", required_argument, NULL, OPT_GNUPLOT },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "param", required_argument, NULL, OPT_PARAM },
		{ "loss-threshold", required_argument, NULL, OPT_LOSS },
		{ "threads", required_argument, NULL, 'j' },
		{ "rules", required_argument, NULL, 'r' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	int opt, rc;
	while ((opt = getopt_long(argc, argv, "o:j:r:qh", longopts, NULL)) != -1) {
		if (opt >= OPT_CHART && opt < OPT_CHART + GP_NCHARTS) {
			c->charts |= 1u << (opt - OPT_CHART);
			continue;
		}
		switch (opt) {
		case OPT_ALL:
			c->all = 1;
			break;
		case 'o':
			c->output = optarg;
			break;
		case OPT_TITLE:
			c->gp.title = optarg;
			break;
		case OPT_SCRIPT:
			c->script_dir = optarg;
			break;
		case OPT_GNUPLOT:
			c->gp.gnuplot = optarg;
			break;
		case 'r':
			c->rules_path = optarg;
			break;
		case 'q':
			c->quiet = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return TP_EXIT_OK;
		case OPT_VERSION:
			printf("tprof-plot %s\n", TPROF_VERSION);
			return TP_EXIT_OK;
		case '?':
			fputs(usage, stderr);
			return TP_EXIT_INPUT;
		default:
			if ((rc = value_option(c, opt, optarg)) != 0)
				return rc;
		}
	}
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
	struct strbuf err = STRBUF_INIT;
	struct tp_rules *rules = NULL;
	an_model_init(m, c->an.loss_threshold);
	if (c->rules_path && !(rules = tp_rules_load(c->rules_path, &err))) {
		tp_error(TOOL, "%s", err.buf);
		strbuf_release(&err);
		return TP_EXIT_INPUT;
	}
	struct an_load_stats ls = { .tool = TOOL, .quiet = c->quiet };
	an_load_inputs(m, files, nfiles, c->threads, rules, &ls);
	tp_rules_free(rules);
	strbuf_release(&err);
	for (size_t i = 0; i < c->nlabels && i < m->nruns; i++) {
		free(m->runs[i]->label);
		m->runs[i]->label = xstrdup(c->labels[i]);
	}
	c->an.run_params = c->params;
	c->an.nrun_params = c->nparams;
	an_analyze(m, &c->an, rep);
	if (ls.failed) {
		tp_error(TOOL, "no chart drawn because of the input errors above");
		return TP_EXIT_INPUT;
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct plot_cli c;
	memset(&c, 0, sizeof(c));
	gp_opts_default(&c.gp);
	an_opts_default(&c.an);
	c.threads = tp_ncpus();
	int rc = parse_args(&c, argc, argv);
	if (rc >= 0)
		return rc;
	if (check_output(&c) < 0)
		return TP_EXIT_INPUT;
	signal(SIGPIPE, SIG_IGN);

	struct an_model model;
	struct report rep;
	report_init(&rep);
	rc = load(&c, argv + optind, argc - optind, &model, &rep);
	if (rc < 0)
		rc = draw_charts(&c, &rep);
	report_free(&rep);
	an_model_free(&model);
	return rc;
}
