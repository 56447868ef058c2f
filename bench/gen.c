/*
 * gen.c - writes a synthetic ML training log of a requested size to
 * stdout, for benchmarking tprof-parse against grep, rg and wc.
 *
 *   bench/gen --size 1G [--seed N] [--ranks R] [--stats]
 *
 * The log looks like the real thing: mostly noise (tqdm bars redrawn with
 * '\r', Python warnings, HF {'loss': ...} dicts, DeepSpeed/torchrun/NCCL
 * launcher lines, Hydra and coloured logger lines, wandb and XLA chatter)
 * with about one line in six a timing line in one of the formats of the
 * five instrumentation styles tprof reads: [STAGE]/[TIMING] lines, GPM
 * windows, "X complete:" lines, Batch/Epoch end/Batch timing lines,
 * "--- Profiling Metrics" blocks, [Performance] lines, scaling, runtime,
 * memory and FLOPs lines, wandb profiling/ keys, and now and then one of
 * the summary tables. With --ranks R > 1 every line carries a torchrun
 * "[rankN]: " prefix and per-rank batch statistics stay consistent.
 *
 * Output is a function of (size, seed, ranks) only. It is built in a
 * large buffer with hand-rolled formatting (no printf on the hot path) and
 * written in 4 MiB chunks, so memory is constant and throughput is well
 * above 500 MB/s. Size suffixes K, M, G are powers of 1024; the output
 * stops at the first event boundary at or past the size (an event is one
 * line or one block, at most a few KiB). --stats prints, to stderr, how
 * many lines of each kind were written.
 *
 * Exit status: 0 on success and, quietly, when the reader goes away
 * (EPIPE); 1 on a write error; 2 on a usage error.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUFSZ (4u << 20)
#define SLACK (256u << 10) /* room for the largest event */
#define MAX_RANKS 4096
#define NBATCH 50          /* batches per epoch, per rank */

static char buf[BUFSZ + SLACK];
static char *o = buf;              /* output cursor */
static uint64_t written;           /* bytes already handed to stdout */

/* ------------------------------------------------------------------ */
/* Kinds of lines, for --stats.                                        */

enum kind {
	/* noise */
	K_TQDM, K_WARNING, K_DICT, K_LAUNCHER, K_NCCL, K_LOGGER, K_WANDB, K_XLA, K_BLANK,
	K_NOISE_END,
	/* timing */
	K_STAGE = K_NOISE_END, K_TIMING, K_GPM, K_COMPLETE, K_BATCH, K_EPOCH_END, K_BATCH_TIMING,
	K_METRICS, K_PERF, K_SCALING, K_RUNTIME, K_MEMORY, K_FLOPS, K_WANDB_PROF, K_HF_HEADER,
	K_TIMING_SUMMARY, K_KAN_SUMMARY, K_SPEEDUP, K_BREAKDOWN, K_INFERENCE, K_WARMUP,
	K_PERF_SUMMARY, K_AGGREGATE,
	NKINDS
};

static const char *const kind_name[NKINDS] = {
	"tqdm", "warning", "dict", "launcher", "nccl", "logger", "wandb", "xla", "blank",
	"stage", "timing", "gpm", "complete", "batch", "epoch_end", "batch_timing",
	"metrics_block", "performance", "scaling", "runtime", "memory", "flops",
	"wandb_profiling", "hf_header", "timing_summary", "kan_summary", "speedup",
	"breakdown", "inference", "warmup", "perf_summary", "aggregate",
};

static uint64_t nlines[NKINDS];
static enum kind cur_kind;
static int nranks = 1, cur_rank;

/* ------------------------------------------------------------------ */
/* PRNG: xorshift64*.                                                  */

static uint64_t rs = 0x9e3779b97f4a7c15ULL;

static inline uint64_t rnd(void)
{
	rs ^= rs >> 12;
	rs ^= rs << 25;
	rs ^= rs >> 27;
	return rs * 0x2545f4914f6cdd1dULL;
}

/* Uniform in [0, n). */
static inline uint32_t below(uint32_t n)
{
	return (uint32_t)(((rnd() >> 32) * (uint64_t)n) >> 32);
}

/* Uniform in [lo, hi]. */
static inline long range(long lo, long hi)
{
	return lo + (long)below((uint32_t)(hi - lo + 1));
}

/* Roughly normal: base + spread * (sum of 4 uniforms - 2) / 2. */
static inline long jitter(long base, long spread)
{
	long s = (long)below(1000) + (long)below(1000) + (long)below(1000) + (long)below(1000) - 2000;
	return base + s * spread / 2000;
}

/* ------------------------------------------------------------------ */
/* Output primitives: write at o, never past the slack.                */

#define LIT(s) (memcpy(o, (s), sizeof(s) - 1), o += sizeof(s) - 1)

static inline void str(const char *s, size_t n)
{
	memcpy(o, s, n);
	o += n;
}

static inline void cstr(const char *s)
{
	str(s, strlen(s));
}

static inline void ch(char c)
{
	*o++ = c;
}

static inline void spaces(int n)
{
	while (n-- > 0)
		*o++ = ' ';
}

static int ndigits(uint64_t v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static void u64(uint64_t v)
{
	char t[24];
	int n = 0;
	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*o++ = t[--n];
}

static const uint64_t p10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000 };

/* v / 10^dec with exactly dec decimals: fix(12345, 2) -> "123.45" */
static void fix(uint64_t v, int dec)
{
	u64(v / p10[dec]);
	if (!dec)
		return;
	uint64_t f = v % p10[dec];
	*o++ = '.';
	for (int i = dec - 1; i >= 0; i--) {
		o[i] = (char)('0' + f % 10);
		f /= 10;
	}
	o += dec;
}

static int fix_len(uint64_t v, int dec)
{
	return ndigits(v / p10[dec]) + (dec ? dec + 1 : 0);
}

/* fix() right-justified in width columns */
static void fixw(uint64_t v, int dec, int width)
{
	spaces(width - fix_len(v, dec));
	fix(v, dec);
}

/* "+12.3" (tenths) right-justified in width columns */
static void plusw(uint64_t v, int width)
{
	spaces(width - 1 - fix_len(v, 1));
	ch('+');
	fix(v, 1);
}

/* Pads with blanks so that the text since start is width columns. */
static void pad_from(const char *start, int width)
{
	spaces(width - (int)(o - start));
}

static void two(unsigned v)
{
	*o++ = (char)('0' + v / 10 % 10);
	*o++ = (char)('0' + v % 10);
}

static void rule(char c, int n)
{
	memset(o, c, (size_t)n);
	o += n;
	*o++ = '\n';
}

/* Starts a line of the current kind: counts it, writes the rank prefix. */
static void bol(void)
{
	nlines[cur_kind]++;
	if (nranks > 1) {
		LIT("[rank");
		u64((uint64_t)cur_rank);
		LIT("]: ");
	}
}

static inline void eol(void)
{
	*o++ = '\n';
}

/* ------------------------------------------------------------------ */
/* Simulated clock and timestamps.                                     */

static uint64_t now_ms;     /* since base_day 00:00:00 UTC */
static int64_t base_day;    /* days since 1970-01-01 */
static int64_t cached_day = -1;
static char day_str[32];

static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static void civil_from_days(int64_t z, int *y, unsigned *m, unsigned *d)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

/* "YYYY-MM-DD HH:MM:SS" for now_ms */
static void stamp(void)
{
	int64_t day = base_day + (int64_t)(now_ms / 86400000);
	unsigned s = (unsigned)(now_ms / 1000 % 86400);
	if (day != cached_day) {
		int y;
		unsigned m, d;
		civil_from_days(day, &y, &m, &d);
		snprintf(day_str, sizeof(day_str), "%04d-%02u-%02u", y, m, d);
		cached_day = day;
	}
	str(day_str, 10);
	ch(' ');
	two(s / 3600);
	ch(':');
	two(s / 60 % 60);
	ch(':');
	two(s % 60);
}

static void stamp_ms(char sep)
{
	stamp();
	ch(sep);
	unsigned ms = (unsigned)(now_ms % 1000);
	ch((char)('0' + ms / 100));
	two(ms % 100);
}

static void tick(long lo, long hi)
{
	now_ms += (uint64_t)range(lo, hi);
}

/* A value from a table of string literals. */
struct lit {
	const char *s;
	size_t n;
};
#define L(s) { s, sizeof(s) - 1 }
#define PICK(t) (t)[below(sizeof(t) / sizeof((t)[0]))]

static void lit(struct lit l)
{
	str(l.s, l.n);
}

/* ------------------------------------------------------------------ */
/* Noise.                                                              */

/* tqdm's 10-cell bars for 0..80 eighths, built once. */
static char bars[81][32];
static unsigned char bar_len[81];

static void init_bars(void)
{
	static const char *const part[8] = { " ", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };
	for (int v = 0; v <= 80; v++) {
		char *b = bars[v];
		int full = v / 8;
		b[0] = 0;
		for (int i = 0; i < full; i++)
			strcat(b, "█");
		if (full < 10) {
			strcat(b, part[v % 8]);
			for (int i = full + 1; i < 10; i++)
				strcat(b, " ");
		}
		bar_len[v] = (unsigned char)strlen(b);
	}
}

static void interval(uint64_t s)
{
	if (s >= 3600) {
		u64(s / 3600);
		ch(':');
		two((unsigned)(s / 60 % 60));
	} else {
		two((unsigned)(s / 60));
	}
	ch(':');
	two((unsigned)(s % 60));
}

struct bar {
	uint32_t n, total;
	uint64_t el_cs;   /* elapsed, centiseconds */
	uint32_t step_cs; /* per iteration */
};
static struct bar tq = { 0, 0, 0, 0 };

/* One redraw: "\r 12%|█▏        | 75/625 [04:41<34:22,  3.75s/it]" */
static void redraw(const struct bar *b)
{
	uint32_t v = (uint32_t)((uint64_t)b->n * 80 / b->total);
	uint32_t pct = (uint32_t)(((uint64_t)b->n * 200 + b->total) / (2 * (uint64_t)b->total));
	ch('\r');
	spaces(3 - ndigits(pct));
	u64(pct);
	LIT("%|");
	str(bars[v], bar_len[v]);
	LIT("| ");
	u64(b->n);
	ch('/');
	u64(b->total);
	LIT(" [");
	interval(b->el_cs / 100);
	ch('<');
	interval((uint64_t)(b->total - b->n) * b->step_cs / 100);
	LIT(", ");
	if (b->step_cs >= 100) {
		fixw(b->step_cs, 2, 5);
		LIT("s/it]");
	} else {
		fixw(10000 * 100 / b->step_cs, 2, 5);
		LIT("it/s]");
	}
}

static void bar_advance(void)
{
	if (tq.n >= tq.total) {
		tq.total = (uint32_t)range(100, 5000);
		tq.n = 0;
		tq.el_cs = 0;
		tq.step_cs = (uint32_t)range(20, 600);
	}
	tq.n++;
	tq.el_cs += tq.step_cs;
}

static void noise_tqdm(void)
{
	int k = (int)range(1, 8);
	bol();
	for (int i = 0; i < k && tq.n <= tq.total; i++) {
		bar_advance();
		redraw(&tq);
	}
	eol();
}

static const struct lit warnings[] = {
	L("/usr/local/lib/python3.10/dist-packages/torch/utils/checkpoint.py:429: UserWarning: torch.utils.checkpoint: please pass in use_reentrant=True or use_reentrant=False explicitly. The default value of use_reentrant will be updated to be False in the future."),
	L("/usr/local/lib/python3.10/dist-packages/transformers/generation/configuration_utils.py:392: UserWarning: `do_sample` is set to `False`. However, `temperature` is set to `0.9` -- this flag is only used in sample-based generation modes."),
	L("/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py:558: UserWarning: This DataLoader will create 8 worker processes in total. Our suggested max number of worker in current system is 4, which is smaller than what this DataLoader is going to create."),
	L("/opt/conda/lib/python3.10/site-packages/torch/autograd/graph.py:744: UserWarning: Grad strides do not match bucket view strides. This may indicate grad was not created according to the gradient layout contract."),
	L("/opt/conda/lib/python3.10/site-packages/torch_geometric/typing.py:54: UserWarning: An issue occurred while importing 'pyg-lib'. Disabling its usage."),
	L("/home/user/.local/lib/python3.10/site-packages/equinox/_jit.py:49: UserWarning: A JAX array is being set as a static field; this is probably a mistake."),
	L("/usr/local/lib/python3.10/dist-packages/torch/_utils.py:831: UserWarning: TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only storage class."),
	L("/opt/conda/lib/python3.10/site-packages/torch/nn/modules/activation.py:1160: UserWarning: Converting mask without torch.bool dtype to bool; this will negatively affect performance."),
};

static void noise_warning(void)
{
	bol();
	lit(PICK(warnings));
	eol();
	bol();
	LIT("  warnings.warn(");
	eol();
}

static const struct lit lrs[] = {
	L("2e-05"), L("1.9999865623437016e-05"), L("1.998374480522929e-05"), L("1.9876543209876543e-05"),
	L("1.5e-05"), L("9.552642710005333e-06"), L("7.463953938275836e-06"), L("0.0010526315789473684"),
	L("0.0019983744805229294"), L("0.001"), L("0.0005"), L("3.0219561743709544e-06"),
};

static uint32_t dict_step;

/* {'loss': 1.2345, 'learning_rate': 2e-05, 'epoch': 0.16} */
static void noise_dict(void)
{
	dict_step += 10;
	bol();
	LIT("{'loss': ");
	fix((uint64_t)range(2000, 25000), 4);
	LIT(", 'learning_rate': ");
	lit(PICK(lrs));
	LIT(", 'epoch': ");
	fix(dict_step % 1000 * 100 / 313, 2);
	ch('}');
	eol();
}

static const struct lit ds_msgs[] = {
	L("[INFO] [real_accelerator.py:203:get_accelerator] Setting ds_accelerator to cuda (auto detect)"),
	L("[INFO] [launch.py:151:main] nnodes=1, num_local_procs=8, node_rank=0"),
	L("[INFO] [launch.py:163:main] dist_world_size=8"),
	L("[INFO] [comm.py:668:init_distributed] Initializing TorchBackend in DeepSpeed with backend nccl"),
	L("[INFO] [config.py:988:print]   gradient_accumulation_steps .. 4"),
	L("[INFO] [config.py:988:print]   zero_optimization_stage ...... 2"),
	L("[INFO] [logging.py:96:log_dist] [Rank 0] DeepSpeed info: version=0.12.6, git-hash=unknown, git-branch=unknown"),
	L("[WARNING] [stage_1_and_2.py:1854:step] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768"),
	L("[INFO] [launch.py:347:main] Process 2087311 exits successfully."),
};

static void noise_launcher(void)
{
	bol();
	if (below(4) == 0) {
		LIT("W1104 10:00:01.123000 139872001234560 torch/distributed/run.py:779] *****************************************");
	} else {
		ch('[');
		stamp_ms(',');
		LIT("] ");
		lit(PICK(ds_msgs));
	}
	eol();
}

static const struct lit nccl_msgs[] = {
	L("NCCL INFO Bootstrap : Using eth0:10.1.4.17<0>"),
	L("NCCL INFO NET/Plugin : dlerror=libnccl-net.so: cannot open shared object file: No such file or directory No plugin found (libnccl-net.so), using internal implementation"),
	L("NCCL INFO Channel 03/24 :    0   1   2   3   4   5   6   7"),
	L("NCCL INFO Channel 11/0 : 2[2] -> 3[3] via P2P/IPC/read"),
	L("NCCL INFO Connected all rings"),
	L("NCCL INFO threadThresholds 8/8/64 | 64/8/64 | 512 | 512"),
	L("NCCL INFO comm 0x55d1c3a20 rank 2 nranks 8 cudaDev 2 nvmlDev 2 busId 5b000 commId 0x8f1d2e3c4b5a6978 - Init COMPLETE"),
};

static void noise_nccl(void)
{
	bol();
	LIT("gpu-node07:");
	u64(2211843u + (unsigned)cur_rank);
	ch(':');
	u64(2211843u + (unsigned)cur_rank);
	LIT(" [");
	u64((uint64_t)cur_rank);
	LIT("] ");
	lit(PICK(nccl_msgs));
	eol();
}

static const struct lit hydra_loggers[] = {
	L("[__main__][INFO] - "), L("[src.training.synthetic_trainer][INFO] - "),
	L("[src.data.heat][INFO] - "), L("[src.utils.memory_monitor][INFO] - "),
};

static void noise_logger(void)
{
	bol();
	switch (below(3)) {
	case 0:
		ch('[');
		stamp_ms(',');
		ch(']');
		lit(PICK(hydra_loggers));
		LIT("Epoch ");
		u64((uint64_t)range(1, 50));
		LIT("/50 done | train_loss ");
		fix((uint64_t)range(100, 9999), 5);
		LIT(" | val_loss ");
		fix((uint64_t)range(100, 9999), 5);
		break;
	case 1:
		LIT("\x1b[32mINFO\x1b[0m ");
		stamp_ms(',');
		LIT(" train.py:97] step ");
		u64((uint64_t)range(1, 20000));
		LIT(" loss ");
		fix((uint64_t)range(100, 99999), 5);
		LIT(" lr 1.0e-03");
		break;
	default:
		stamp_ms(',');
		LIT(" - INFO - Profiling batch: 32 graphs, ");
		u64((uint64_t)range(3000, 6000));
		LIT(" nodes, ");
		u64((uint64_t)range(6000, 12000));
		LIT(" edges");
		break;
	}
	eol();
}

static const struct lit wandb_msgs[] = {
	L("wandb: Tracking run with wandb version 0.16.0"),
	L("wandb: Run data is saved locally in /home/user/foundational_ssm/wandb/run-20241103_142233-7k3p9q2x"),
	L("wandb: Run `wandb offline` to turn off syncing."),
	L("wandb: ⭐️ View project at https://wandb.ai/ssm-lab/foundational-ssm-decoding"),
	L("wandb:                               train_loss █▆▅▄▃▂▂▁▁▁"),
	L("wandb: Waiting for W&B process to finish... (success)."),
	L("wandb: "),
};

static void noise_wandb(void)
{
	bol();
	lit(PICK(wandb_msgs));
	eol();
}

static const struct lit xla_msgs[] = {
	L(": W external/xla/xla/service/gpu/nvptx_compiler.cc:742] The NVIDIA driver's CUDA version is 12.2 which is older than the ptxas CUDA version (12.3.107). Because the driver is older than the ptxas version, XLA is disabling parallel compilation, which may slow down compilation."),
	L(": E external/xla/xla/service/slow_operation_alarm.cc:65] Constant folding an instruction is taking > 1s:"),
	L(": E external/xla/xla/service/slow_operation_alarm.cc:133] The operation took 1.615775s"),
};

static void noise_xla(void)
{
	bol();
	stamp();
	ch('.');
	u64((uint64_t)range(100000, 999999));
	lit(PICK(xla_msgs));
	eol();
}

static void noise_blank(void)
{
	bol();
	eol();
}

/* ------------------------------------------------------------------ */
/* Timing lines (seeds 000 - 004).                                     */

static const struct lit stage_names[] = {
	L("Argument parsing"), L("LLM model loading"), L("Graph tower initialization (gpm)"),
	L("Dataset loading and preprocessing"), L("Trainer initialization"), L("Main training loop"),
	L("State saving"), L("Evaluation"),
};

/* "12.34s", "2345.67s (39.09min)" or "4000.00s (1.11h)" */
static void dur_cs(uint64_t cs)
{
	fix(cs, 2);
	ch('s');
	if (cs >= 360000) {
		LIT(" (");
		fix((cs + 1800) / 3600, 2);
		LIT("h)");
	} else if (cs >= 6000) {
		LIT(" (");
		fix((cs + 30) / 60, 2);
		LIT("min)");
	}
}

static void ts_bracket(void)
{
	ch('[');
	stamp();
	LIT("] ");
}

static void t_stage(void)
{
	bol();
	ts_bracket();
	LIT("[STAGE] ");
	lit(PICK(stage_names));
	eol();
}

static void t_timing(void)
{
	bol();
	ts_bracket();
	LIT("[TIMING] ");
	lit(PICK(stage_names));
	LIT(": ");
	dur_cs(below(8) ? (uint64_t)range(5, 6000) : (uint64_t)range(6000, 500000));
	eol();
}

static void t_gpm(void)
{
	uint64_t pat = (uint64_t)jitter(11890, 1200);
	bol();
	if (below(4) == 0) { /* printed while a bar is live */
		bar_advance();
		redraw(&tq);
	}
	LIT("[GPM TIMING] Last 100 graphs: Pattern gen=");
	fix(pat, 2);
	LIT("ms, Total=");
	fix(pat + (uint64_t)jitter(32600, 3000), 2);
	LIT("ms, Avg nodes=");
	fix((uint64_t)jitter(289, 30), 1);
	eol();
}

static const struct lit models[] = { L("MLP"), L("SIREN"), L("KAN"), L("MLP training"),
				     L("KAN training"), L("Data generation") };

static void t_complete(void)
{
	bol();
	lit(PICK(models));
	LIT(" complete: ");
	fix((uint64_t)range(100, 50000), 2);
	switch (below(3)) {
	case 0:
		LIT("s total");
		break;
	case 1:
		LIT("s, peak memory: ");
		fix((uint64_t)range(100, 20000), 1);
		LIT(" MB");
		break;
	default:
		LIT("s, GPU peak: ");
		fix((uint64_t)range(1000, 400000), 1);
		LIT(" MB");
		break;
	}
	eol();
}

/* Per-rank epoch state for Batch lines. */
struct rank_state {
	uint32_t batch;  /* next batch index */
	uint32_t epoch;
	uint64_t sum_ms, lo_ms, hi_ms;
	uint64_t cpu_dmb; /* tenths of MB */
	uint64_t loss;    /* 1e-6 */
	uint64_t step;    /* profiling metrics step */
	uint64_t met_us[3];
};
static struct rank_state *ranks;

static void epoch_end(struct rank_state *r)
{
	uint64_t total = r->sum_ms + (uint64_t)range(150, 900);
	uint64_t avg = (2 * r->sum_ms + NBATCH) / (2 * NBATCH);
	cur_kind = K_EPOCH_END;
	bol();
	LIT("  Epoch end: ");
	fix(total, 3);
	LIT("s total, GPU 14.4MB, 3236MB reserved, peak 2880MB");
	eol();
	cur_kind = K_BATCH_TIMING;
	bol();
	LIT("  Batch timing: avg=");
	fix(avg, 3);
	LIT("s, min=");
	fix(r->lo_ms, 3);
	LIT("s, max=");
	fix(r->hi_ms, 3);
	ch('s');
	eol();
	r->batch = 0;
	r->epoch++;
	r->sum_ms = r->hi_ms = 0;
	r->lo_ms = UINT64_MAX;
}

static void t_batch(void)
{
	struct rank_state *r = &ranks[cur_rank];
	if (r->batch == NBATCH) {
		epoch_end(r);
		return;
	}
	uint64_t ms = r->batch == 0 && r->epoch == 0 ? (uint64_t)range(450, 650)
						      : (uint64_t)jitter(cur_rank == nranks - 1 && nranks > 1 ? 231 : 185, 16);
	if (below(200) == 0)
		ms += (uint64_t)range(300, 900); /* an outlier */
	r->sum_ms += ms;
	r->lo_ms = ms < r->lo_ms ? ms : r->lo_ms;
	r->hi_ms = ms > r->hi_ms ? ms : r->hi_ms;
	r->cpu_dmb += (uint64_t)range(15, 28);
	r->loss = r->loss * 997 / 1000 + (uint64_t)range(0, 20);
	bol();
	LIT("  Batch ");
	u64(r->batch++);
	LIT(": ");
	fix(ms, 3);
	LIT("s, GPU 23.1MB, CPU ");
	fix(r->cpu_dmb, 1);
	LIT("MB, loss=");
	fix(r->loss, 6);
	eol();
}

static const char *const met_names[3] = { "data_batch_production", "loss_fn_computation",
					  "make_step_total" };
static const uint32_t met_base_us[3] = { 23400, 45600, 78900 };

/* "--- Profiling Metrics (Step N) ---" + cumulative avg/total/count */
static void t_metrics(void)
{
	struct rank_state *r = &ranks[cur_rank];
	r->step += 10;
	bol();
	LIT("--- Profiling Metrics (Step ");
	u64(r->step);
	LIT(") ---");
	eol();
	for (int i = 0; i < 3; i++) {
		r->met_us[i] += 10 * (uint64_t)jitter(met_base_us[i], met_base_us[i] / 8);
		uint64_t total_cs = (r->met_us[i] + 5000) / 10000;
		uint64_t avg = (r->met_us[i] / r->step + 50) / 100; /* 1e-4 s */
		bol();
		cstr(met_names[i]);
		LIT(": avg=");
		fix(avg, 4);
		LIT("s, total=");
		fix(total_cs, 2);
		LIT("s, count=");
		u64(r->step);
		eol();
	}
}

static const struct lit perf_ops[] = { L("critical_operation"), L("data processing"),
				       L("checkpoint save"), L("model forward") };

static void t_perf(void)
{
	bol();
	LIT("[Performance] ");
	lit(PICK(perf_ops));
	LIT(": ");
	fix((uint64_t)range(10, 5000), 3);
	LIT("s, CPU +");
	fix((uint64_t)range(0, 5000), 1);
	LIT("MB, GPU +");
	fix((uint64_t)range(0, 10000), 1);
	LIT("MB");
	eol();
	bol();
	LIT("              GPU peak: ");
	fix((uint64_t)range(100, 40000), 1);
	LIT("MB");
	eol();
}

static void t_scaling(void)
{
	static const uint32_t ns[] = { 100, 500, 1000, 2000, 5000 };
	static const uint32_t ls[] = { 2, 4, 6, 8, 12, 16 };
	bol();
	if (below(2)) {
		uint64_t n = ns[below(5)];
		LIT("N=");
		u64(n);
		LIT(": ");
		fix(180 + n / 5 + n * n / 1000, 2); /* ~ 1.8 + 0.002N + 1e-5 N^2 ms */
	} else {
		uint64_t l = ls[below(6)];
		LIT("L=");
		u64(l);
		LIT(": ");
		fix(120 + 68 * l, 2);
	}
	LIT(" ms");
	eol();
}

static const struct lit rt_names[] = { L("Forward: "), L("Backward: "), L("Training step: ") };

static void t_runtime(void)
{
	bol();
	lit(PICK(rt_names));
	fix((uint64_t)range(200, 5000), 2);
	LIT(" ± ");
	fix((uint64_t)range(5, 300), 2);
	LIT(" ms");
	eol();
}

static const struct lit mem_names[] = { L("Peak memory: "), L("Parameters: "), L("Activations: "),
					L("Node PE: "), L("Relative PE (sparse): ") };

static void t_memory(void)
{
	bol();
	if (below(6) == 0) {
		LIT("PE precomputation: ");
		fix((uint64_t)range(100, 5000), 2);
		LIT(" ms (one-time)");
	} else {
		lit(PICK(mem_names));
		fix((uint64_t)range(10, 100000), 2);
		LIT(" MB");
	}
	eol();
}

static const struct lit flops_names[] = { L("Total: "), L("Attention: "), L("FFN: "), L("MPNN: ") };

static void t_flops(void)
{
	bol();
	lit(PICK(flops_names));
	fix((uint64_t)range(10, 5000), 2);
	LIT(" GFLOPs");
	eol();
}

static const struct lit wandb_keys[] = {
	L("wandb:   profiling/data_batch_production_avg_time "),
	L("wandb: profiling/data_batch_production_total_time "),
	L("wandb:     profiling/loss_fn_computation_avg_time "),
	L("wandb:       profiling/make_step_total_avg_time "),
};

static void t_wandb_prof(void)
{
	bol();
	lit(PICK(wandb_keys));
	fix((uint64_t)range(100, 99999), 5);
	eol();
}

static void t_hf_header(void)
{
	static const char *const l[] = {
		"***** Running training *****", "  Num examples = 10,000", "  Num Epochs = 2",
		"  Instantaneous batch size per device = 8",
		"  Total train batch size (w. parallel, distributed & accumulation) = 32",
		"  Gradient Accumulation steps = 4", "  Total optimization steps = 625",
	};
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++) {
		bol();
		cstr(l[i]);
		eol();
	}
}

/* Percentage x10 of part in whole, rounded. */
static uint64_t permille(uint64_t part, uint64_t whole)
{
	return (2000 * part + whole) / (2 * whole);
}

/* S0's [TIMING SUMMARY] table. */
static void t_timing_summary(void)
{
	uint64_t cs[7], total = 0;
	for (int i = 0; i < 7; i++)
		total += cs[i] = i == 5 ? (uint64_t)range(60000, 900000) : (uint64_t)range(5, 6000);
	bol();
	rule('=', 80);
	bol();
	LIT("[TIMING SUMMARY]\n");
	bol();
	rule('=', 80);
	for (int i = 0; i < 7; i++) {
		char *s;
		uint64_t pm = permille(cs[i], total);
		bol();
		LIT("  ");
		s = o;
		lit(stage_names[i]);
		pad_from(s, 40);
		LIT(": ");
		s = o;
		dur_cs(cs[i]);
		pad_from(s, 20);
		LIT(" (");
		fix(pm, 1);
		LIT("%)");
		eol();
	}
	bol();
	LIT("  TOTAL                                   : ");
	dur_cs(total);
	eol();
	bol();
	rule('=', 80);
}

/* S1's TIMING SUMMARY - Section block. */
static void t_kan_summary(void)
{
	static const struct lit names[] = { L("MLP training:"), L("SIREN training:"), L("KAN training:") };
	uint64_t cs[3], total = 0, nds = (uint64_t)range(1, 9);
	for (int i = 0; i < 3; i++)
		total += cs[i] = (uint64_t)range(1000, 30000);
	bol();
	rule('=', 60);
	bol();
	LIT("TIMING SUMMARY - Section 1.");
	u64((uint64_t)range(1, 9));
	eol();
	bol();
	rule('=', 60);
	for (int i = 0; i < 3; i++) {
		char *s;
		bol();
		s = o;
		lit(names[i]);
		pad_from(s, 25);
		fixw(cs[i], 2, 8);
		LIT("s (");
		fixw(permille(cs[i], total), 1, 5);
		LIT("%)");
		eol();
	}
	bol();
	rule('-', 60);
	bol();
	LIT("Total time:              ");
	fixw(total, 2, 8);
	ch('s');
	eol();
	bol();
	LIT("Average per dataset:     ");
	fixw((2 * total + nds) / (2 * nds), 2, 8);
	ch('s');
	eol();
	bol();
	rule('=', 60);
}

static void t_speedup(void)
{
	uint64_t base = (uint64_t)range(10000, 20000), a = base * 100 / (uint64_t)range(120, 200);
	uint64_t b = base * 100 / (uint64_t)range(101, 119);
	bol();
	rule('=', 60);
	bol();
	LIT("SPEEDUP ANALYSIS\n");
	bol();
	rule('=', 60);
	bol();
	LIT("Baseline: KAN (");
	fix(base, 2);
	LIT("s)");
	eol();
	bol();
	rule('-', 60);
	bol();
	LIT("SIREN                : ");
	fixw((200 * base + a) / (2 * a), 2, 5);
	LIT("x faster\n");
	bol();
	LIT("MLP                  : ");
	fixw((200 * base + b) / (2 * b), 2, 5);
	LIT("x faster\n");
	bol();
	rule('=', 60);
}

static void t_breakdown(void)
{
	static const struct lit ph[] = { L("backward_pass"), L("forward_pass"), L("data_loading") };
	uint64_t cs[3] = { (uint64_t)range(900, 1500), (uint64_t)range(500, 899), (uint64_t)range(50, 499) };
	uint64_t total = cs[0] + cs[1] + cs[2];
	bol();
	LIT("Training - Detailed Breakdown:\n");
	bol();
	rule('-', 40);
	for (int i = 0; i < 3; i++) {
		char *s;
		bol();
		LIT("  ");
		s = o;
		lit(ph[i]);
		pad_from(s, 20);
		LIT(": ");
		fixw(cs[i], 2, 8);
		LIT("s (");
		fixw(permille(cs[i], total), 1, 5);
		LIT("%)");
		eol();
	}
	bol();
	rule('-', 40);
}

static void t_inference(void)
{
	uint64_t mean = (uint64_t)range(300, 5000); /* us */
	bol();
	LIT("KAN Inference Benchmark:\n");
	bol();
	rule('-', 40);
	bol();
	LIT("  Mean latency:        ");
	fix(mean, 3);
	LIT(" ms\n");
	bol();
	LIT("  Min latency:         ");
	fix(mean * 9 / 10, 3);
	LIT(" ms\n");
	bol();
	LIT("  Max latency:         ");
	fix(mean * 3 / 2, 3);
	LIT(" ms\n");
	bol();
	LIT("  Throughput:          ");
	fix((20000000 + mean) / (2 * mean), 1);
	LIT(" samples/sec\n");
	bol();
	rule('-', 40);
}

static void t_warmup(void)
{
	uint64_t steady = (uint64_t)range(1000, 6000), first = steady + (uint64_t)range(100, 5000);
	bol();
	LIT("MLP - Warmup Analysis:\n");
	bol();
	rule('-', 40);
	bol();
	LIT("  First epoch:           ");
	fix(first, 3);
	LIT("s\n");
	bol();
	LIT("  Steady state:          ");
	fix(steady, 3);
	LIT("s\n");
	bol();
	LIT("  Warmup overhead:       ");
	fix(first - steady, 3);
	LIT("s (");
	fixw(permille(first - steady, steady), 1, 5);
	LIT("%)\n");
	bol();
	rule('-', 40);
}

/* S4's PERFORMANCE SUMMARY table. */
static void t_perf_summary(void)
{
	static const struct lit ops[] = { L("data loading"), L("load_ground_truth"), L("model forward"),
					  L("optimization") };
	uint64_t total = 0;
	bol();
	rule('=', 90);
	bol();
	LIT("PERFORMANCE SUMMARY\n");
	bol();
	rule('=', 90);
	bol();
	LIT("Operation                      Time (s)     CPU (MB)        GPU (MB)        GPU Peak\n");
	bol();
	rule('-', 90);
	for (int i = 0; i < 4; i++) {
		char *s;
		uint64_t ms = (uint64_t)range(50, 3000), cpu = (uint64_t)range(0, 6000);
		uint64_t gpu = (uint64_t)range(0, 13000);
		total += ms;
		bol();
		s = o;
		lit(ops[i]);
		pad_from(s, 30);
		ch(' ');
		fixw(ms, 3, 10);
		ch(' ');
		plusw(cpu, 14);
		ch(' ');
		plusw(gpu, 14);
		ch(' ');
		fixw(gpu + (uint64_t)range(0, 20000), 1, 11);
		eol();
	}
	bol();
	rule('-', 90);
	bol();
	LIT("TOTAL                          ");
	fixw(total, 3, 10);
	LIT("s\n");
	bol();
	rule('=', 90);
}

/* S4's AGGREGATE STATISTICS table. */
static void t_aggregate(void)
{
	static const struct lit ops[] = { L("batch_forward"), L("batch_backward") };
	bol();
	rule('=', 90);
	bol();
	LIT("AGGREGATE STATISTICS (for repeated operations)\n");
	bol();
	rule('=', 90);
	bol();
	LIT("Operation                      Count    Total (s)    Mean (s)     Min (s)      Max (s)\n");
	bol();
	rule('-', 90);
	for (int i = 0; i < 2; i++) {
		char *s;
		uint64_t n = (uint64_t)range(20, 500), mean = (uint64_t)range(40, 200);
		bol();
		s = o;
		lit(ops[i]);
		pad_from(s, 30);
		ch(' ');
		s = o;
		u64(n);
		pad_from(s, 5);
		ch(' ');
		fixw(n * mean, 3, 9);
		ch(' ');
		fixw(mean, 3, 12);
		ch(' ');
		fixw(mean * 4 / 5, 3, 12);
		ch(' ');
		fixw(mean * 4, 3, 12);
		eol();
	}
	bol();
	rule('=', 90);
}

/* ------------------------------------------------------------------ */
/* The mix.                                                            */

struct event {
	enum kind kind;
	void (*fn)(void);
	unsigned weight;
};

/* Multi-line blocks, rarer than any single line: one is drawn uniformly. */
static const struct event blocks[] = {
	{ K_HF_HEADER, t_hf_header, 1 },
	{ K_TIMING_SUMMARY, t_timing_summary, 1 },
	{ K_KAN_SUMMARY, t_kan_summary, 1 },
	{ K_SPEEDUP, t_speedup, 1 },
	{ K_BREAKDOWN, t_breakdown, 1 },
	{ K_INFERENCE, t_inference, 1 },
	{ K_WARMUP, t_warmup, 1 },
	{ K_PERF_SUMMARY, t_perf_summary, 1 },
	{ K_AGGREGATE, t_aggregate, 1 },
};

static void t_block(void)
{
	const struct event *b = &blocks[below(sizeof(blocks) / sizeof(blocks[0]))];
	cur_kind = b->kind;
	b->fn();
}

static const struct event events[] = {
	{ K_TQDM, noise_tqdm, 380 },
	{ K_WARNING, noise_warning, 60 },
	{ K_DICT, noise_dict, 120 },
	{ K_LAUNCHER, noise_launcher, 70 },
	{ K_NCCL, noise_nccl, 60 },
	{ K_LOGGER, noise_logger, 150 },
	{ K_WANDB, noise_wandb, 30 },
	{ K_XLA, noise_xla, 20 },
	{ K_BLANK, noise_blank, 40 },
	{ K_STAGE, t_stage, 12 },
	{ K_TIMING, t_timing, 12 },
	{ K_GPM, t_gpm, 25 },
	{ K_COMPLETE, t_complete, 8 },
	{ K_BATCH, t_batch, 75 },
	{ K_METRICS, t_metrics, 4 },
	{ K_PERF, t_perf, 5 },
	{ K_SCALING, t_scaling, 5 },
	{ K_RUNTIME, t_runtime, 5 },
	{ K_MEMORY, t_memory, 5 },
	{ K_FLOPS, t_flops, 4 },
	{ K_WANDB_PROF, t_wandb_prof, 4 },
	{ K_HF_HEADER, t_block, 3 }, /* one of the blocks below */
};
#define NEVENTS (sizeof(events) / sizeof(events[0]))

/* 4096-entry lookup from a uniform draw to an event. */
static unsigned char pick[4096];

static void init_pick(void)
{
	unsigned total = 0, at = 0;
	for (size_t i = 0; i < NEVENTS; i++)
		total += events[i].weight;
	for (size_t i = 0; i < NEVENTS; i++) {
		unsigned end = (unsigned)((uint64_t)(at + events[i].weight) * 4096 / total);
		for (unsigned j = (unsigned)((uint64_t)at * 4096 / total); j < end; j++)
			pick[j] = (unsigned char)i;
		at += events[i].weight;
	}
}

/* ------------------------------------------------------------------ */
/* Driver.                                                             */

static void flush_out(void)
{
	size_t n = (size_t)(o - buf);
	if (n && fwrite(buf, 1, n, stdout) != n) {
		if (errno == EPIPE)
			exit(0);
		fprintf(stderr, "gen: write error: %s\n", strerror(errno));
		exit(1);
	}
	written += n;
	o = buf;
}

static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	default: break;
	}
	if (*end == 'i')
		end++;
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: gen --size SIZE[K|M|G] [--seed N] [--ranks R] [--stats]\n");
	exit(2);
}

static void print_stats(void)
{
	uint64_t noise = 0, timing = 0;
	for (int k = 0; k < NKINDS; k++) {
		if (k < K_NOISE_END)
			noise += nlines[k];
		else
			timing += nlines[k];
	}
	for (int k = 0; k < NKINDS; k++)
		fprintf(stderr, "%-16s %12llu\n", kind_name[k], (unsigned long long)nlines[k]);
	fprintf(stderr, "%-16s %12llu\n%-16s %12llu (%.1f%%)\n%-16s %12llu\n%-16s %12llu\n", "noise lines",
		(unsigned long long)noise, "timing lines", (unsigned long long)timing,
		100.0 * (double)timing / (double)(noise + timing ? noise + timing : 1), "total lines",
		(unsigned long long)(noise + timing), "bytes", (unsigned long long)written);
}

int main(int argc, char **argv)
{
	uint64_t size = 0, seed = 1;
	int have_size = 0, stats = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--size") && i + 1 < argc) {
			if (parse_size(argv[++i], &size))
				usage();
			have_size = 1;
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			seed = strtoull(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--ranks") && i + 1 < argc) {
			nranks = atoi(argv[++i]);
			if (nranks < 1 || nranks > MAX_RANKS)
				usage();
		} else if (!strcmp(argv[i], "--stats")) {
			stats = 1;
		} else {
			usage();
		}
	}
	if (!have_size)
		usage();

	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IONBF, 0);
	rs ^= seed * 0xbf58476d1ce4e5b9ULL;
	if (!rs)
		rs = 1;
	base_day = days_from_civil(2024, 10, 13);
	now_ms = 22 * 3600000ULL;
	init_bars();
	init_pick();
	ranks = calloc((size_t)nranks, sizeof(*ranks));
	if (!ranks) {
		fprintf(stderr, "gen: out of memory\n");
		return 1;
	}
	for (int r = 0; r < nranks; r++) {
		ranks[r].lo_ms = UINT64_MAX;
		ranks[r].cpu_dmb = 16489;
		ranks[r].loss = 9458;
	}

	while (written + (uint64_t)(o - buf) < size) {
		const struct event *e = &events[pick[below(4096)]];
		cur_kind = e->kind;
		cur_rank = nranks > 1 ? (int)below((uint32_t)nranks) : 0;
		e->fn();
		tick(0, 400);
		if ((size_t)(o - buf) >= BUFSZ)
			flush_out();
	}
	flush_out();
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno == EPIPE)
			return 0;
		fprintf(stderr, "gen: write error: %s\n", strerror(errno));
		return 1;
	}
	if (stats)
		print_stats();
	free(ranks);
	return 0;
}
