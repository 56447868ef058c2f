/*
 * tprof-analyze - answers from timing records: reads raw logs or the NDJSON
 * of tprof-parse (detected from the first line), folds the records into
 * the model, runs the analyses and renders the report. Thin: the work is
 * in load.c, model.c, analyses, and render/.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sys/stat.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/analyze.h"
#include "parse/parse.h"
#include "render/render.h"

static const char usage[] =
	"usage: tprof-analyze [OPTIONS] [FILE...]\n"
	"\n"
	"Reads training logs (plain or .gz) or the NDJSON of tprof-parse ('-' or no\n"
	"FILE: standard input); each file is a run. Without an analysis option it\n"
	"runs every analysis the input supports.\n"
	"\n"
	"Analyses:\n"
	"      --breakdown          each stage's share, unaccounted time, table and clock checks\n"
	"      --bottlenecks        thresholds and advice (see --bottleneck-pct ...)\n"
	"      --warmup             first vs steady state, where warmup ends\n"
	"      --variance           spread, quantiles, outliers, drift, memory leaks\n"
	"      --speedup            speedups against a baseline (--baseline NAME)\n"
	"      --convergence        steps/epochs/seconds to --loss-threshold X\n"
	"      --throughput         samples/s, steps/s, graphs/s, nodes/s\n"
	"      --scaling            log-log fit of time against size (--param, --predict)\n"
	"      --compare            run against run with significance tests\n"
	"      --ranks              per-rank medians and stragglers\n"
	"\n"
	"Settings:\n"
	"      --baseline NAME      speedup baseline (default: the slowest)\n"
	"      --loss-threshold X   loss value for --convergence\n"
	"      --bottleneck-pct P   share above which a stage is a bottleneck (50)\n"
	"      --optimize-pct P     share above which a stage is worth optimizing (20)\n"
	"      --data-pct P         share above which data loading is flagged (30)\n"
	"      --variance-ratio R   max/min above which a series is noisy (2)\n"
	"      --outlier-z Z        modified z-score threshold for outliers (3.5)\n"
	"      --straggler-pct P    rank slower than the median rank by P% (10)\n"
	"      --alpha A            significance level of tests (0.05)\n"
	"      --fail-on-regression P  exit 1 if a series (batches, epochs, GPM windows,\n"
	"                           metrics, operations) got slower by more than P%\n"
	"                           with significance (for CI gates)\n"
	"      --match OLD=NEW      series OLD of the first run is NEW in the others\n"
	"      --param NAME=V       size of each run, in order (repeat per run)\n"
	"      --predict NAME=V     predict the time at this size from the scaling fit\n"
	"      --label NAME         name of each run, in order (repeat per run)\n"
	"\n"
	"Input and output:\n"
	"  -f, --format FMT         table (default), json, csv, markdown, html, xlsx\n"
	"  -o, --output FILE        write to FILE (format from its extension)\n"
	"      --csv-dir DIR        also write one CSV per table into DIR (id.csv)\n"
	"  -F, --follow             follow one growing log and refresh the report every\n"
	"                           --interval S seconds (2) until SIGINT/SIGTERM\n"
	"      --interval S         seconds between refreshes with --follow\n"
	"  -j, --threads N          parser threads for large logs (default: cores)\n"
	"  -r, --rules FILE         extra line formats for raw logs (see tprof-parse)\n"
	"      --color WHEN         auto (default), always, never; NO_COLOR is respected\n"
	"  -q, --quiet              do not print parse warnings\n"
	"  -h, --help               show this help\n"
	"      --version            show the version\n"
	"\n"
	"Exit status: 0 ok, 1 --fail-on-regression tripped, 2 bad usage or input,\n"
	"3 output could not be written, 4 out of memory.\n";


static int parse_double(const char *opt, const char *arg, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(arg, &end);
	if (errno || *end || end == arg || !isfinite(*v)) {
		tp_error("tprof-analyze", "%s wants a number, not '%s'", opt, arg);
		return -1;
	}
	return 0;
}

enum {
	OPT_BASE = 256,
	OPT_BASELINE,
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
	OPT_VERSION,
};

static const struct {
	const char *name;
	unsigned bit;
} analysis_opts[] = {
	{ "breakdown", AN_BREAKDOWN }, { "bottlenecks", AN_BOTTLENECKS }, { "warmup", AN_WARMUP },
	{ "variance", AN_VARIANCE },   { "speedup", AN_SPEEDUP },         { "convergence", AN_CONVERGENCE },
	{ "throughput", AN_THROUGHPUT }, { "scaling", AN_SCALING },       { "compare", AN_COMPARE },
	{ "ranks", AN_RANKS },
};

struct output_opts {
	const struct renderer *rd;
	const char *output, *csv_dir, *color;
	int clear; /* --follow on a terminal: redraw the screen */
	int dir_only; /* -o DIR with CSV: the wide CSVs of --csv-dir, no other report */
};

/* Analyzes the model and writes the report (and --csv-dir); an exit code. */
static int write_report(const struct an_model *model, const struct an_opts *o, const struct output_opts *oo,
			int input_failed, int *gate)
{
	struct report rep;
	struct strbuf err = STRBUF_INIT;
	struct outfile of;
	int rc = TP_EXIT_OK;
	report_init(&rep);
	*gate = an_analyze(model, o, &rep);
	/* a CI log shows which series tripped the gate, wherever the report goes */
	for (size_t i = 0; (*gate & AN_GATE_REGRESSION) && i < rep.nfindings; i++)
		if (!strcmp(rep.findings[i].kind, "gate"))
			tp_error("tprof-analyze", "%s", rep.findings[i].message);
	if (oo->csv_dir && !input_failed && render_csv_dir(&rep, oo->csv_dir, &err) < 0) {
		tp_error("tprof-analyze", "--csv-dir: %s", err.buf);
		rc = TP_EXIT_OUTPUT;
	}
	strbuf_reset(&err);
	if (oo->dir_only) {
		/* nothing more to write */
	} else if (outfile_open(&of, oo->output, &err) < 0) {
		tp_error("tprof-analyze", "%s", err.buf);
		rc = TP_EXIT_OUTPUT;
	} else {
		struct render_ctx ctx = { 0 };
		ctx.tool = "tprof-analyze";
		ctx.title = "tprof-analyze report";
		ctx.color = !strcmp(oo->color, "always") ||
			    (!strcmp(oo->color, "auto") && !oo->output && isatty(1) && !tp_no_color());
		ctx.width = !oo->output || !strcmp(oo->output, "-") ? render_term_width(1) : 0;
		if (oo->clear)
			outfile_write(&of, "\x1b[H\x1b[2J", 7);
		strbuf_reset(&err);
		int r = oo->rd->render(&rep, &ctx, &of, &err);
		if (input_failed && oo->output && strcmp(oo->output, "-")) {
			outfile_abort(&of);
			tp_error("tprof-analyze", "%s not written because of the input errors above", oo->output);
		} else {
			int werr = outfile_close(&of);
			if ((r < 0 && err.len) || (werr && werr != EPIPE)) {
				tp_error("tprof-analyze", "cannot write %s: %s",
					 oo->output ? oo->output : "standard output", err.len ? err.buf : strerror(werr));
				rc = TP_EXIT_OUTPUT;
			}
		}
	}
	report_free(&rep);
	strbuf_release(&err);
	return rc;
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
	const struct output_opts *oo;
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
	fprintf(stderr, "tprof-analyze: %s:%llu: warning: %s\n", file, (unsigned long long)line, msg);
}

static void follow_tick(void *ctx, int final)
{
	struct follow_ctx *fc = ctx;
	int gate;
	(void)final;
	fc->rc = write_report(fc->model, fc->o, fc->oo, 0, &gate);
	if (fc->rc == TP_EXIT_OK && (gate & AN_GATE_REGRESSION))
		fc->rc = TP_EXIT_WARN;
}

static void follow_note(void *ctx, const char *path, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "tprof-analyze: %s: %s; reading it from the start\n", path, msg);
}

/* --follow: refresh the report as the log grows, a last one at SIGINT/SIGTERM. */
static int follow_mode(struct an_model *model, const struct an_opts *o, struct output_opts *oo, const char *path,
		       const struct tp_rules *rules, int interval_s)
{
	struct follow_ctx fc = { model, o, oo, TP_EXIT_OK };
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
	oo->clear = !oo->output && isatty(1);
	ro.sink.emit = follow_feed;
	ro.sink.warn = follow_warn;
	ro.sink.ctx = &fc;
	an_model_run(model, path);
	int rc = tp_follow_run(path, &ro, &fo, &st, &err);
	if (rc < 0) {
		tp_error("tprof-analyze", "%s", err.buf);
		fc.rc = TP_EXIT_INPUT;
	}
	strbuf_release(&err);
	return fc.rc;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "breakdown", no_argument, NULL, 1000 },
		{ "bottlenecks", no_argument, NULL, 1001 },
		{ "warmup", no_argument, NULL, 1002 },
		{ "variance", no_argument, NULL, 1003 },
		{ "speedup", no_argument, NULL, 1004 },
		{ "convergence", no_argument, NULL, 1005 },
		{ "throughput", no_argument, NULL, 1006 },
		{ "scaling", no_argument, NULL, 1007 },
		{ "compare", no_argument, NULL, 1008 },
		{ "ranks", no_argument, NULL, 1009 },
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		{ "loss-threshold", required_argument, NULL, OPT_LOSS },
		{ "bottleneck-pct", required_argument, NULL, OPT_BOTTLENECK },
		{ "optimize-pct", required_argument, NULL, OPT_OPTIMIZE },
		{ "data-pct", required_argument, NULL, OPT_DATA },
		{ "variance-ratio", required_argument, NULL, OPT_VARRATIO },
		{ "outlier-z", required_argument, NULL, OPT_OUTLIER },
		{ "straggler-pct", required_argument, NULL, OPT_STRAGGLER },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "fail-on-regression", required_argument, NULL, OPT_FAIL },
		{ "param", required_argument, NULL, OPT_PARAM },
		{ "match", required_argument, NULL, OPT_MATCH },
		{ "predict", required_argument, NULL, OPT_PREDICT },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "csv-dir", required_argument, NULL, OPT_CSVDIR },
		{ "follow", no_argument, NULL, 'F' },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "threads", required_argument, NULL, 'j' },
		{ "rules", required_argument, NULL, 'r' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	struct an_opts o;
	an_opts_default(&o);
	unsigned which = 0;
	const char *format = NULL, *output = NULL, *rules_path = NULL, *color = "auto", *csv_dir = NULL;
	int threads = tp_ncpus(), opt, quiet = 0, follow = 0, interval = 2;
	struct an_param params[256];
	struct an_match matches[256];
	size_t nparams = 0, nlabels = 0, nmatch = 0;
	int compare_asked = 0;
	const char *labels[256];
	char *end;

	while ((opt = getopt_long(argc, argv, "f:o:j:r:qhF", longopts, NULL)) != -1) {
		double v;
		if (opt >= 1000 && opt < 1000 + (int)ARRAY_SIZE(analysis_opts)) {
			which |= analysis_opts[opt - 1000].bit;
			compare_asked |= analysis_opts[opt - 1000].bit == AN_COMPARE;
			continue;
		}
		switch (opt) {
		case OPT_BASELINE:
			o.baseline = optarg;
			break;
		case OPT_MATCH: {
			const char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg || !eq[1] || nmatch == ARRAY_SIZE(matches)) {
				tp_error("tprof-analyze", "--match wants OLD=NEW (two series names), at most %zu times",
					 ARRAY_SIZE(matches));
				return TP_EXIT_INPUT;
			}
			*(char *)eq = '\0';
			matches[nmatch].old_name = optarg;
			matches[nmatch++].new_name = eq + 1;
			break;
		}
		case OPT_LOSS:
			if (parse_double("--loss-threshold", optarg, &o.loss_threshold) < 0)
				return TP_EXIT_INPUT;
			break;
		case OPT_BOTTLENECK:
		case OPT_OPTIMIZE:
		case OPT_DATA:
		case OPT_VARRATIO:
		case OPT_OUTLIER:
		case OPT_STRAGGLER:
		case OPT_ALPHA:
		case OPT_FAIL:
			if (parse_double(argv[optind - 1], optarg, &v) < 0)
				return TP_EXIT_INPUT;
			if (v < 0) {
				tp_error("tprof-analyze", "%s wants a number >= 0, not '%s'", argv[optind - 1], optarg);
				return TP_EXIT_INPUT;
			}
			if (opt == OPT_BOTTLENECK)
				o.bottleneck_pct = v;
			else if (opt == OPT_OPTIMIZE)
				o.optimize_pct = v;
			else if (opt == OPT_DATA)
				o.data_pct = v;
			else if (opt == OPT_VARRATIO)
				o.variance_ratio = v;
			else if (opt == OPT_OUTLIER)
				o.outlier_z = v;
			else if (opt == OPT_STRAGGLER)
				o.straggler_pct = v;
			else if (opt == OPT_ALPHA)
				o.alpha = v;
			else
				o.fail_regression_pct = v;
			break;
		case OPT_PARAM:
			if (nparams == ARRAY_SIZE(params) || an_parse_param(optarg, &params[nparams]) < 0) {
				tp_error("tprof-analyze", "--param wants NAME=NUMBER, not '%s'", optarg);
				return TP_EXIT_INPUT;
			}
			nparams++;
			break;
		case OPT_PREDICT:
			if (an_parse_param(optarg, &o.predict) < 0) {
				tp_error("tprof-analyze", "--predict wants NAME=NUMBER, not '%s'", optarg);
				return TP_EXIT_INPUT;
			}
			break;
		case OPT_LABEL:
			if (nlabels == ARRAY_SIZE(labels)) {
				tp_error("tprof-analyze", "too many --label options");
				return TP_EXIT_INPUT;
			}
			labels[nlabels++] = optarg;
			break;
		case OPT_CSVDIR:
			csv_dir = optarg;
			break;
		case 'F':
			follow = 1;
			break;
		case OPT_INTERVAL:
			errno = 0;
			interval = (int)strtol(optarg, &end, 10);
			if (errno || *end || interval < 1 || interval > 86400) {
				tp_error("tprof-analyze", "--interval wants whole seconds from 1 to 86400");
				return TP_EXIT_INPUT;
			}
			break;
		case OPT_COLOR:
			if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never")) {
				tp_error("tprof-analyze", "--color wants auto, always or never");
				return TP_EXIT_INPUT;
			}
			color = optarg;
			break;
		case 'f':
			format = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'j':
			errno = 0;
			threads = (int)strtol(optarg, &end, 10);
			if (errno || *end || threads < 1 || threads > 256) {
				tp_error("tprof-analyze", "--threads wants a number from 1 to 256");
				return TP_EXIT_INPUT;
			}
			break;
		case 'r':
			rules_path = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return TP_EXIT_OK;
		case OPT_VERSION:
			printf("tprof-analyze %s\n", TPROF_VERSION);
			return TP_EXIT_OK;
		default:
			fputs(usage, stderr);
			return TP_EXIT_INPUT;
		}
	}
	if (which)
		o.which = which;
	if ((o.which & AN_CONVERGENCE) && which && isnan(o.loss_threshold)) {
		tp_error("tprof-analyze", "--convergence needs --loss-threshold X");
		return TP_EXIT_INPUT;
	}

	const struct renderer *rd = NULL;
	if (format) {
		rd = render_find(format);
		if (!rd) {
			struct strbuf names = STRBUF_INIT;
			render_names(&names);
			tp_error("tprof-analyze", "unknown format '%s' (%s)", format, names.buf);
			strbuf_release(&names);
			return TP_EXIT_INPUT;
		}
	} else if (output && strcmp(output, "-")) {
		rd = render_for_path(output);
	}
	if (!rd)
		rd = render_find("table");

	signal(SIGPIPE, SIG_IGN);
	struct strbuf err = STRBUF_INIT;
	struct tp_rules *rules = NULL;
	if (rules_path && !(rules = tp_rules_load(rules_path, &err))) {
		tp_error("tprof-analyze", "%s", err.buf);
		strbuf_release(&err);
		return TP_EXIT_INPUT;
	}

	struct an_model model;
	struct an_load_stats ls = { .tool = "tprof-analyze", .quiet = quiet };
	an_model_init(&model, o.loss_threshold);
	if (follow && argc - optind != 1) {
		tp_error("tprof-analyze", "--follow wants exactly one FILE");
		tp_rules_free(rules);
		strbuf_release(&err);
		return TP_EXIT_INPUT;
	}
	if (!follow)
		an_load_inputs(&model, argv + optind, argc - optind, threads, rules, &ls);
	for (size_t i = 0; i < nlabels && i < model.nruns; i++) {
		free(model.runs[i]->label);
		model.runs[i]->label = xstrdup(labels[i]);
	}
	o.run_params = params;
	o.nrun_params = nparams;
	o.match = matches;
	o.nmatch = nmatch;

	struct output_opts oo = { rd, output, csv_dir, color, 0, 0 };
	/* CSV to a directory: one wide CSV per table (the long form stays -f csv -o FILE) */
	struct stat dst;
	char dirbuf[4096];
	if (output && (!format || !strcmp(format, "csv")) && !csv_dir && strlen(output) < sizeof(dirbuf) &&
	    ((*output && output[strlen(output) - 1] == '/') || (stat(output, &dst) == 0 && S_ISDIR(dst.st_mode)))) {
		size_t n = strlen(output);
		memcpy(dirbuf, output, n + 1);
		while (n > 1 && dirbuf[n - 1] == '/')
			dirbuf[--n] = '\0';
		if (mkdir(dirbuf, 0777) < 0 && errno != EEXIST) {
			tp_error("tprof-analyze", "cannot make %s: %s", dirbuf, strerror(errno));
			an_model_free(&model);
			tp_rules_free(rules);
			strbuf_release(&err);
			return TP_EXIT_OUTPUT;
		}
		oo.csv_dir = dirbuf;
		oo.output = NULL;
		oo.dir_only = 1;
	}
	int gate = 0, rc;
	if (follow) {
		rc = follow_mode(&model, &o, &oo, argv[optind], rules, interval);
	} else {
		rc = write_report(&model, &o, &oo, ls.failed, &gate);
	}
	if (rc == TP_EXIT_OK && ls.failed)
		rc = TP_EXIT_INPUT;
	if (rc == TP_EXIT_OK && (gate & AN_GATE_EMPTY) && (compare_asked || !isnan(o.fail_regression_pct))) {
		/* a gate that compared nothing must not pass */
		tp_error("tprof-analyze", "the runs share no series: nothing to compare (see --match)");
		rc = TP_EXIT_INPUT;
	}
	if (rc == TP_EXIT_OK && (gate & AN_GATE_REGRESSION))
		rc = TP_EXIT_WARN;
	an_model_free(&model);
	tp_rules_free(rules);
	strbuf_release(&err);
	return rc;
}
