/*
 * tprof-replay - re-runs the kernels behind logged timings (GPM random
 * walks, graph attention) on a GPU or the CPU, times them properly and
 * judges what the log says. Thin: options here, the work in the replay
 * library, output through render/.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/common/common.h"
#include "replay/replay.h"

#define TOOL "tprof-replay"

enum {
	OPT_VALIDATE = 256, OPT_KERNEL, OPT_FAMILY, OPT_GRAPHS, OPT_NODES, OPT_DEGREE, OPT_GAMMA,
	OPT_PATTERNS, OPT_PSIZE, OPT_P, OPT_Q, OPT_HIDDEN, OPT_HEADS, OPT_LAYERS, OPT_VARIANT,
	OPT_NOPROJ, OPT_SEED, OPT_WARMUP, OPT_TRIALS, OPT_BUDGET, OPT_BAND, OPT_COLOR, OPT_PRECISION,
	OPT_GEMM, OPT_SPREAD
};

struct cli {
	struct tpr_flags f;
	int validate;
	const char *log, *backend, *format, *output;
	enum cli_color color;
	int threads;
};

static int parse_band(const char *arg, struct tpr_flags *f)
{
	char *end;
	double lo = strtod(arg, &end), hi;
	if (end == arg || *end != ':' || (hi = strtod(end + 1, &end), *end) || !(lo > 0) || !(hi > lo) ||
	    !isfinite(hi)) {
		tp_error(TOOL, "--band wants LO:HI with 0 < LO < HI, not '%s'", arg);
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
	} else if (!strcmp(opt, "precision")) {
		if (tpr_precision_parse(arg, &c->f.precision) == 0)
			return 0;
	} else if (!strcmp(opt, "gemm")) {
		c->f.gemm = !strcmp(arg, "auto") ? TPR_GEMM_AUTO : !strcmp(arg, "cublas") ? TPR_GEMM_CUBLAS
			    : TPR_GEMM_OWN;
		if (!strcmp(arg, "auto") || !strcmp(arg, "cublas") || !strcmp(arg, "own"))
			return 0;
	} else if (!strcmp(opt, "variant")) {
		c->f.variant = !strcmp(arg, "fused") ? 1 : !strcmp(arg, "naive") ? 0 : !strcmp(arg, "both") ? -1 : -2;
		if (c->f.variant >= -1)
			return 0;
	}
	tp_error(TOOL, "--%s: unknown value '%s' (see --help)", opt, arg);
	return -1;
}

/* The options with a word for a value; -1 after the message. */
static int opt_kernel(void *ctx, const char *arg) { return parse_word("kernel", arg, ctx); }
static int opt_family(void *ctx, const char *arg) { return parse_word("family", arg, ctx); }
static int opt_variant(void *ctx, const char *arg) { return parse_word("variant", arg, ctx); }
static int opt_precision(void *ctx, const char *arg) { return parse_word("precision", arg, ctx); }
static int opt_gemm(void *ctx, const char *arg) { return parse_word("gemm", arg, ctx); }
static int opt_band(void *ctx, const char *arg) { return parse_band(arg, &((struct cli *)ctx)->f); }

#define C struct cli
static const struct cli_option options[] = {
	CLI_HEADING("Mode:"),
	{ "validate", OPT_VALIDATE, NULL,
	  "replay every measurement of LOG that a kernel explains\n(a log, its NDJSON, a document, or '-')", NULL,
	  CLI_TO_FLAG(C, validate) },
	{ "kernel", OPT_KERNEL, "K", "walk, attention or all (default; without --validate)", "walk attention all",
	  CLI_TO_CALL(opt_kernel) },
	CLI_HEADING("Workload (defaults: from the log, else as listed):"),
	{ "family", OPT_FAMILY, "F", "molecule (default), er, powerlaw", "molecule er powerlaw", CLI_TO_CALL(opt_family) },
	{ "graphs", OPT_GRAPHS, "N", "graphs in a batch (1000; validate: the window's)", NULL,
	  CLI_TO_WHOLE(C, f.graphs, 1, 1e8) },
	{ "nodes", OPT_NODES, "N", "average nodes per graph (30; validate: the window's)", NULL,
	  CLI_TO_NUM(C, f.nodes, 1, 1e9) },
	{ "spread", OPT_SPREAD, "F", "graph sizes vary by up to F around --nodes (0.43;\nvalidate: windows 0.3, "
	  "models 0)", NULL, CLI_TO_NUM(C, f.spread, 0, 0.9) },
	{ "degree", OPT_DEGREE, "D", "average degree (molecule 2.15, others 4)", NULL, CLI_TO_NUM(C, f.degree, 0, 1000) },
	{ "gamma", OPT_GAMMA, "G", "power-law exponent (2.5)", NULL, CLI_TO_NUM(C, f.gamma, 2.0001, 100) },
	{ "patterns", OPT_PATTERNS, "P", "walks per node (8, Graph-LLaVA's tower; GPM: 16)", NULL,
	  CLI_TO_WHOLE(C, f.patterns, 1, 1e6) },
	{ "pattern-size", OPT_PSIZE, "L", "steps per walk (5; GPM: 8)", NULL, CLI_TO_WHOLE(C, f.pattern_size, 0, 1e6) },
	{ "p", OPT_P, "P", "node2vec return parameter (1: uniform)", NULL, CLI_TO_NUM(C, f.p, 1e-6, 1e6) },
	{ "q", OPT_Q, "Q", "node2vec in-out parameter (1: uniform)", NULL, CLI_TO_NUM(C, f.q, 1e-6, 1e6) },
	{ "hidden", OPT_HIDDEN, "D", "attention hidden size (300)", NULL, CLI_TO_WHOLE(C, f.hidden, 1, 65536) },
	{ "heads", OPT_HEADS, "H", "attention heads (4)", NULL, CLI_TO_WHOLE(C, f.heads, 1, 4096) },
	{ "layers", OPT_LAYERS, "L", "model layers (validate; from the log)", NULL, CLI_TO_WHOLE(C, f.layers, 1, 10000) },
	{ "variant", OPT_VARIANT, "V", "fused, naive (three-step) or both (default: both;\nvalidate: the faster of both)",
	  "fused naive both", CLI_TO_CALL(opt_variant) },
	{ "no-project", OPT_NOPROJ, NULL, "attention without the Q, K, V projections", NULL, CLI_TO_UNFLAG(C, f.project) },
	{ "precision", OPT_PRECISION, "P", "fp32 (default), tf32 or bf16: as the run's framework\n"
	  "computes (PyTorch: FP32 matmuls, TF32 with allow_tf32,\nBF16 under autocast)", "fp32 tf32 bf16",
	  CLI_TO_CALL(opt_precision) },
	{ "gemm", OPT_GEMM, "G", "CUDA projections: auto (cuBLAS where it loads), cublas,\nown", "auto cublas own",
	  CLI_TO_CALL(opt_gemm) },
	{ "seed", OPT_SEED, "S", "graphs, walks and inputs (42)", NULL, CLI_TO_INT(C, f.seed, 0, 9007199254740991.0) },
	CLI_HEADING("Timing:"),
	{ "backend", 'b', "B", "auto (default: CUDA if a device answers), cuda, cpu", "auto cuda cpu",
	  CLI_TO_STR(C, backend) },
	{ "threads", 'j', "N", "CPU backend threads (default: cores)", NULL, CLI_TO_THREADS(C, threads) },
	{ "warmup", OPT_WARMUP, "N", "untimed runs first (3)", NULL, CLI_TO_INT(C, f.timing.warmup, 0, 1000) },
	{ "trials", OPT_TRIALS, "N", "timed runs (10)", NULL, CLI_TO_INT(C, f.timing.trials, 1, 100000) },
	{ "budget", OPT_BUDGET, "S", "seconds of timed runs per measurement (2)", NULL,
	  CLI_TO_NUM(C, f.timing.budget_s, 0, 3600) },
	{ "band", OPT_BAND, "LO:HI", "ratios logged/replayed judged consistent (0.5:3)", NULL, CLI_TO_CALL(opt_band) },
	CLI_HEADING("Output:"),
	CLI_OPT_FORMAT(C, format),
	CLI_OPT_OUTPUT(C, output),
	CLI_OPT_COLOR(OPT_COLOR, C, color),
	{ 0 },
};
#undef C

static const struct cli_tool tool = {
	.name = TOOL,
	.usage = "[OPTIONS]                   replay the workload the options describe\n"
		 "--validate [OPTIONS] [LOG]  judge LOG's timings against their replay",
	.about = "Kernels: GPM pattern generation (P random walks of L steps from every node,\n"
		 "uniform or node2vec) and multi-head graph attention (fused or three-step).\n"
		 "With --validate, LOG is a training log (plain or .gz), the NDJSON of\n"
		 "tprof-parse or a known report document; '-' or no LOG: standard input.\n"
		 "TPROF_REPLAY_PEAKS=\"name=H100,fp32=67,tf32=495,bf16=989,bw=3.35\" (TFLOP/s,\n"
		 "TB/s): judge --validate against the logged GPU's figures.\n",
	.opts = options,
	.trailer = "Exit status: 0 ok, 2 bad usage or input, 3 output could not be written,\n"
		   "4 out of memory, 5 the device failed.\n",
	.operands = "@file",
	.formats = cli_report_formats,
};


static int run(const struct cli *c, const struct renderer *rd)
{
	struct tpr_backend be;
	struct strbuf note = STRBUF_INIT, err = STRBUF_INIT;
	int code = TP_EXIT_OK, rc;
	if (c->validate && strcmp(c->log, "-") && access(c->log, R_OK) != 0) {
		tp_error(TOOL, "%s: %s", c->log, strerror(errno));
		return TP_EXIT_INPUT;
	}
	if (tpr_backend_open(&be, c->backend, c->threads, &note, &err, &code) < 0) {
		tp_error(TOOL, "%s", err.buf);
		strbuf_release(&err);
		return code;
	}
	if (note.len)
		tp_error(TOOL, "%s", note.buf);
	struct report rep;
	report_init(&rep);
	if (c->validate)
		rc = tpr_validate(&be, c->log, &c->f, &rep, &err, &code);
	else
		rc = tpr_benchmark(&be, &c->f, &rep, &err, &code);
	if (rc < 0)
		tp_error(TOOL, "%s", err.buf);
	else {
		struct cli_report_out out = { rd, c->output, c->color, "tprof-replay report", 0, 0 };
		code = cli_write_report(TOOL, &rep, &out);
	}
	report_free(&rep);
	tpr_backend_close(&be);
	strbuf_release(&note);
	strbuf_release(&err);
	return code;
}

int main(int argc, char **argv)
{
	struct cli c = { .backend = "auto", .log = "-" };
	int first;
	tpr_flags_default(&c.f);
	int rc = cli_parse(&tool, argc, argv, NULL, &c, &first);
	if (rc != CLI_CONTINUE)
		return rc;
	if (first < argc && !c.validate) {
		tp_error(TOOL, "unexpected argument '%s' (a log to judge goes with --validate)", argv[first]);
		return TP_EXIT_INPUT;
	}
	if (argc - first > 1) {
		tp_error(TOOL, "--validate judges one log at a time, not %d", argc - first);
		return TP_EXIT_INPUT;
	}
	if (first < argc)
		c.log = argv[first];
	const char *peaks = getenv("TPROF_REPLAY_PEAKS");
	if (peaks && *peaks) {
		struct strbuf err = STRBUF_INIT;
		int bad = tpr_peaks_parse(peaks, &c.f.peaks, &err) < 0;
		if (bad)
			tp_error(TOOL, "TPROF_REPLAY_PEAKS: %s", err.buf);
		strbuf_release(&err);
		if (bad)
			return TP_EXIT_INPUT;
		c.f.have_peaks = 1;
	}
	const struct renderer *rd = cli_renderer(TOOL, c.format, c.output);
	if (!rd)
		return TP_EXIT_INPUT;
	signal(SIGPIPE, SIG_IGN);
	return run(&c, rd);
}
