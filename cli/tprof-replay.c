/*
 * tprof-replay - re-runs the kernels behind logged timings (GPM random
 * walks, graph attention) on a GPU or the CPU, times them properly and
 * judges what the log says. Thin: options here, the work in the replay
 * library, output through render/.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/render.h"
#include "replay/replay.h"

static const char usage[] =
	"usage: tprof-replay [OPTIONS]                 replay the workload the options describe\n"
	"       tprof-replay --validate LOG [OPTIONS]  judge LOG's timings against their replay\n"
	"\n"
	"Kernels: GPM pattern generation (P random walks of L steps from every node,\n"
	"uniform or node2vec) and multi-head graph attention (FP32, fused or three-step).\n"
	"\n"
	"Mode:\n"
	"      --validate LOG       replay every measurement of LOG that a kernel explains\n"
	"      --kernel K           walk, attention or all (default; without --validate)\n"
	"\n"
	"Workload (defaults: from the log, else as listed):\n"
	"      --family F           molecule (default), er, powerlaw\n"
	"      --graphs N           graphs in a batch (1000; validate: the window's)\n"
	"      --nodes N            average nodes per graph (30; validate: the window's)\n"
	"      --degree D           average degree (molecule 2.15, others 4)\n"
	"      --gamma G            power-law exponent (2.5)\n"
	"      --patterns P         walks per node (8, Graph-LLaVA's tower; GPM: 16)\n"
	"      --pattern-size L     steps per walk (5; GPM: 8)\n"
	"      --p P, --q Q         node2vec return and in-out parameters (1, 1: uniform)\n"
	"      --hidden D           attention hidden size (300)\n"
	"      --heads H            attention heads (4)\n"
	"      --layers L           model layers (validate; from the log)\n"
	"      --variant V          fused, naive (three-step) or both (default: both;\n"
	"                           validate: fused)\n"
	"      --no-project         attention without the Q, K, V projections\n"
	"      --seed S             graphs, walks and inputs (42)\n"
	"\n"
	"Timing:\n"
	"  -b, --backend B          auto (default: CUDA if a device answers), cuda, cpu\n"
	"  -j, --threads N          CPU backend threads (default: cores)\n"
	"      --warmup N           untimed runs first (3)\n"
	"      --trials N           timed runs (10)\n"
	"      --budget S           seconds of timed runs per measurement (2)\n"
	"      --band LO:HI         ratios logged/replayed judged consistent (0.5:3)\n"
	"\n"
	"Output:\n"
	"  -f, --format FMT         table (default), json, csv, markdown\n"
	"  -o, --output FILE        write to FILE (format from its extension)\n"
	"      --color WHEN         auto (default), always, never; NO_COLOR is respected\n"
	"  -h, --help               show this help\n"
	"      --version            show the version\n"
	"\n"
	"Exit status: 0 ok, 2 bad usage or input, 3 output could not be written,\n"
	"4 out of memory, 5 the device failed.\n";

enum {
	OPT_VALIDATE = 256, OPT_KERNEL, OPT_FAMILY, OPT_GRAPHS, OPT_NODES, OPT_DEGREE, OPT_GAMMA,
	OPT_PATTERNS, OPT_PSIZE, OPT_P, OPT_Q, OPT_HIDDEN, OPT_HEADS, OPT_LAYERS, OPT_VARIANT,
	OPT_NOPROJ, OPT_SEED, OPT_WARMUP, OPT_TRIALS, OPT_BUDGET, OPT_BAND, OPT_COLOR, OPT_VERSION
};

static const struct option longopts[] = {
	{ "validate", required_argument, NULL, OPT_VALIDATE },
	{ "kernel", required_argument, NULL, OPT_KERNEL },
	{ "family", required_argument, NULL, OPT_FAMILY },
	{ "graphs", required_argument, NULL, OPT_GRAPHS },
	{ "nodes", required_argument, NULL, OPT_NODES },
	{ "degree", required_argument, NULL, OPT_DEGREE },
	{ "gamma", required_argument, NULL, OPT_GAMMA },
	{ "patterns", required_argument, NULL, OPT_PATTERNS },
	{ "pattern-size", required_argument, NULL, OPT_PSIZE },
	{ "p", required_argument, NULL, OPT_P },
	{ "q", required_argument, NULL, OPT_Q },
	{ "hidden", required_argument, NULL, OPT_HIDDEN },
	{ "heads", required_argument, NULL, OPT_HEADS },
	{ "layers", required_argument, NULL, OPT_LAYERS },
	{ "variant", required_argument, NULL, OPT_VARIANT },
	{ "no-project", no_argument, NULL, OPT_NOPROJ },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "backend", required_argument, NULL, 'b' },
	{ "threads", required_argument, NULL, 'j' },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "trials", required_argument, NULL, OPT_TRIALS },
	{ "budget", required_argument, NULL, OPT_BUDGET },
	{ "band", required_argument, NULL, OPT_BAND },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

struct cli {
	struct tpr_flags f;
	const char *validate, *backend, *format, *output, *color;
	int threads;
};

/* A number in [lo, hi] (integral if asked); prints the error itself. */
static int number(const char *opt, const char *arg, double lo, double hi, int integral, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(*v) || *v < lo || *v > hi ||
	    (integral && *v != floor(*v))) {
		tp_error("tprof-replay", "--%s wants %s from %g to %g, not '%s'", opt,
			 integral ? "a whole number" : "a number", lo, hi, arg);
		return -1;
	}
	return 0;
}

static int parse_band(const char *arg, struct tpr_flags *f)
{
	char *end;
	double lo = strtod(arg, &end), hi;
	if (end == arg || *end != ':' || (hi = strtod(end + 1, &end), *end) || !(lo > 0) || !(hi > lo) ||
	    !isfinite(hi)) {
		tp_error("tprof-replay", "--band wants LO:HI with 0 < LO < HI, not '%s'", arg);
		return -1;
	}
	f->band_lo = lo;
	f->band_hi = hi;
	return 0;
}

static int parse_word(const char *opt, const char *arg, struct cli *c)
{
	if (!strcmp(opt, "kernel")) {
		c->f.kernels = !strcmp(arg, "walk") ? TPR_K_WALK : !strcmp(arg, "attention") ? TPR_K_ATTN
			       : !strcmp(arg, "all") ? TPR_K_WALK | TPR_K_ATTN : 0;
		if (c->f.kernels)
			return 0;
	} else if (!strcmp(opt, "family")) {
		if (tpr_family_parse(arg, &c->f.family) == 0)
			return 0;
	} else if (!strcmp(opt, "variant")) {
		c->f.variant = !strcmp(arg, "fused") ? 1 : !strcmp(arg, "naive") ? 0 : !strcmp(arg, "both") ? -1 : -2;
		if (c->f.variant >= -1)
			return 0;
	} else if (!strcmp(opt, "color")) {
		c->color = arg;
		if (!strcmp(arg, "auto") || !strcmp(arg, "always") || !strcmp(arg, "never"))
			return 0;
	}
	tp_error("tprof-replay", "--%s: unknown value '%s' (see --help)", opt, arg);
	return -1;
}

/* Numeric workload and timing options; returns -1 on a bad value. */
static int parse_number_opt(int opt, const char *arg, struct cli *c)
{
	struct tpr_flags *f = &c->f;
	double v;
	switch (opt) {
	case OPT_GRAPHS: return number("graphs", arg, 1, 1e8, 1, &f->graphs);
	case OPT_NODES: return number("nodes", arg, 1, 1e9, 0, &f->nodes);
	case OPT_DEGREE: return number("degree", arg, 0, 1000, 0, &f->degree);
	case OPT_GAMMA: return number("gamma", arg, 2.0001, 100, 0, &f->gamma);
	case OPT_PATTERNS: return number("patterns", arg, 1, 1e6, 1, &f->patterns);
	case OPT_PSIZE: return number("pattern-size", arg, 0, 1e6, 1, &f->pattern_size);
	case OPT_P: return number("p", arg, 1e-6, 1e6, 0, &f->p);
	case OPT_Q: return number("q", arg, 1e-6, 1e6, 0, &f->q);
	case OPT_HIDDEN: return number("hidden", arg, 1, 65536, 1, &f->hidden);
	case OPT_HEADS: return number("heads", arg, 1, 4096, 1, &f->heads);
	case OPT_LAYERS: return number("layers", arg, 1, 10000, 1, &f->layers);
	case OPT_BUDGET: return number("budget", arg, 0, 3600, 0, &f->timing.budget_s);
	case OPT_SEED:
		if (number("seed", arg, 0, 9007199254740991.0, 1, &v) < 0)
			return -1;
		f->seed = (uint64_t)v;
		return 0;
	case OPT_WARMUP:
		if (number("warmup", arg, 0, 1000, 1, &v) < 0)
			return -1;
		f->timing.warmup = (int)v;
		return 0;
	case OPT_TRIALS:
		if (number("trials", arg, 1, 100000, 1, &v) < 0)
			return -1;
		f->timing.trials = (int)v;
		return 0;
	case 'j':
		if (number("threads", arg, 1, 256, 1, &v) < 0)
			return -1;
		c->threads = (int)v;
		return 0;
	}
	return -1;
}

static int print_usage(int asked)
{
	fputs(usage, asked ? stdout : stderr);
	return asked ? TP_EXIT_OK : TP_EXIT_INPUT;
}

static int print_version(void)
{
	printf("tprof-replay %s\n", TPROF_VERSION);
	return TP_EXIT_OK;
}

/* Returns -1 to continue, else the exit status. */
static int parse_args(int argc, char **argv, struct cli *c)
{
	int opt;
	while ((opt = getopt_long(argc, argv, "b:j:f:o:h", longopts, NULL)) != -1) {
		int rc = 0;
		if (opt == OPT_VALIDATE)
			c->validate = optarg;
		else if (opt == OPT_KERNEL)
			rc = parse_word("kernel", optarg, c);
		else if (opt == OPT_FAMILY)
			rc = parse_word("family", optarg, c);
		else if (opt == OPT_VARIANT)
			rc = parse_word("variant", optarg, c);
		else if (opt == OPT_COLOR)
			rc = parse_word("color", optarg, c);
		else if (opt == OPT_NOPROJ)
			c->f.project = 0;
		else if (opt == OPT_BAND)
			rc = parse_band(optarg, &c->f);
		else if (opt == 'b')
			c->backend = optarg;
		else if (opt == 'f')
			c->format = optarg;
		else if (opt == 'o')
			c->output = optarg;
		else if (opt == 'h' || opt == '?')
			return print_usage(opt == 'h');
		else if (opt == OPT_VERSION)
			return print_version();
		else
			rc = parse_number_opt(opt, optarg, c);
		if (rc < 0)
			return TP_EXIT_INPUT;
	}
	if (optind < argc) {
		tp_error("tprof-replay", "unexpected argument '%s' (the log goes after --validate)", argv[optind]);
		return TP_EXIT_INPUT;
	}
	return -1;
}

static const struct renderer *pick_renderer(const struct cli *c)
{
	const struct renderer *rd = NULL;
	if (c->format) {
		rd = render_find(c->format);
		if (!rd) {
			struct strbuf names = STRBUF_INIT;
			render_names(&names);
			tp_error("tprof-replay", "unknown format '%s' (%s)", c->format, names.buf);
			strbuf_release(&names);
		}
		return rd;
	}
	if (c->output && strcmp(c->output, "-"))
		rd = render_for_path(c->output);
	return rd ? rd : render_find("table");
}

static int write_report(const struct cli *c, const struct renderer *rd, const struct report *rep)
{
	struct outfile of;
	struct strbuf err = STRBUF_INIT;
	int rc = TP_EXIT_OK;
	if (outfile_open(&of, c->output, &err) < 0) {
		tp_error("tprof-replay", "%s", err.buf);
		strbuf_release(&err);
		return TP_EXIT_OUTPUT;
	}
	struct render_ctx ctx = { 0 };
	ctx.tool = "tprof-replay";
	ctx.title = "tprof-replay report";
	ctx.color = !strcmp(c->color, "always") ||
		    (!strcmp(c->color, "auto") && !c->output && isatty(1) && !tp_no_color());
	int r = rd->render(rep, &ctx, &of, &err);
	int werr = outfile_close(&of);
	if ((r < 0 && err.len) || (werr && werr != EPIPE)) {
		tp_error("tprof-replay", "cannot write %s: %s", c->output ? c->output : "standard output",
			 err.len ? err.buf : strerror(werr));
		rc = TP_EXIT_OUTPUT;
	}
	strbuf_release(&err);
	return rc;
}

static int run(const struct cli *c, const struct renderer *rd)
{
	struct tpr_backend be;
	struct strbuf note = STRBUF_INIT, err = STRBUF_INIT;
	int code = TP_EXIT_OK, rc;
	if (c->validate && access(c->validate, R_OK) != 0) {
		tp_error("tprof-replay", "%s: %s", c->validate, strerror(errno));
		return TP_EXIT_INPUT;
	}
	if (tpr_backend_open(&be, c->backend, c->threads, &note, &err, &code) < 0) {
		tp_error("tprof-replay", "%s", err.buf);
		strbuf_release(&err);
		return code;
	}
	if (note.len)
		tp_error("tprof-replay", "%s", note.buf);
	struct report rep;
	report_init(&rep);
	if (c->validate)
		rc = tpr_validate(&be, c->validate, &c->f, &rep, &err, &code);
	else
		rc = tpr_benchmark(&be, &c->f, &rep, &err, &code);
	if (rc < 0)
		tp_error("tprof-replay", "%s", err.buf);
	else
		code = write_report(c, rd, &rep);
	report_free(&rep);
	tpr_backend_close(&be);
	strbuf_release(&note);
	strbuf_release(&err);
	return code;
}

int main(int argc, char **argv)
{
	struct cli c = { .backend = "auto", .color = "auto" };
	tpr_flags_default(&c.f);
	int rc = parse_args(argc, argv, &c);
	if (rc >= 0)
		return rc;
	if (c.validate && !strcmp(c.validate, "-")) {
		tp_error("tprof-replay", "--validate needs a file: the log is read twice");
		return TP_EXIT_INPUT;
	}
	const struct renderer *rd = pick_renderer(&c);
	if (!rd)
		return TP_EXIT_INPUT;
	signal(SIGPIPE, SIG_IGN);
	return run(&c, rd);
}
