/*
 * cpu.c - the CPU backend: timed replays on the thread pool with the
 * monotonic clock, and the machine's peaks for the roofline.
 *
 * Peaks: memory bandwidth is measured (best of three memcpy of 64 MiB,
 * counting the bytes read and written); FP32 is an estimate, threads x
 * clock x FLOP per cycle, with FLOP per cycle = 2 (FMA) x SIMD lanes x 2
 * FMA units, the lanes those of the widest code this build runs (8 with
 * AVX2, chosen at run time; 4 otherwise: AVX-512 is not used, so counting
 * it would put a peak out of the kernels' reach). The clock is the cpufreq
 * maximum, else /proc/cpuinfo's "cpu MHz", else 2 GHz (said so).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "measure.h"

typedef void (*run_fn)(void *ctx);

/* Warm-up runs, then timed runs until trials or the budget (after the first) run out. */
static void time_runs(run_fn fn, void *ctx, const struct tpr_timing_opts *o, int warmup,
		      struct tpr_samples *out)
{
	for (int i = 0; i < warmup; i++)
		fn(ctx);
	double start = tpr_now_ms();
	for (int i = 0; i < o->trials && (i == 0 || tpr_now_ms() - start < o->budget_s * 1e3); i++) {
		double t0 = tpr_now_ms();
		fn(ctx);
		if (out->n < out->cap)
			out->ms[out->n++] = tpr_now_ms() - t0;
	}
}

static void copy_samples(const struct tpr_samples *from, struct tpr_samples *to)
{
	to->n = from->n < to->cap ? from->n : to->cap;
	memcpy(to->ms, from->ms, (size_t)to->n * sizeof(*to->ms));
}

struct walk_run {
	struct tpr_pool *pool;
	const struct tpr_graph *g;
	const struct tpr_walk_cfg *c;
	int32_t *nodes, *edges;
};

static void run_batched(void *arg)
{
	struct walk_run *r = arg;
	tpr_walk_cpu(r->pool, r->g, r->c, 0, r->g->n, r->nodes, r->edges);
}

/* One call per graph, as the GPM tower makes them. */
static void run_per_graph(void *arg)
{
	struct walk_run *r = arg;
	for (int32_t g = 0; g < r->g->ngraphs; g++)
		tpr_walk_cpu(r->pool, r->g, r->c, r->g->goff[g], r->g->goff[g + 1], r->nodes, r->edges);
}

int tpr_cpu_bench_walks(struct tpr_pool *pool, const struct tpr_graph *g,
			const struct tpr_walk_cfg *c, const struct tpr_timing_opts *o, int mode,
			struct tpr_measure *m)
{
	struct walk_run r = { pool, g, c, NULL, NULL };
	int per_graph = mode & TPR_PER_GRAPH, kernel = !(mode & TPR_NO_KERNEL);
	r.nodes = xmalloc((tpr_walk_nodes_len(c, 0, g->n) + 1) * sizeof(int32_t));
	r.edges = xmalloc((tpr_walk_edges_len(c, 0, g->n) + 1) * sizeof(int32_t));
	if (kernel)
		time_runs(run_batched, &r, o, o->warmup, &m->kernel);
	m->calls = per_graph ? g->ngraphs : 1;
	if (per_graph)
		time_runs(run_per_graph, &r, o, kernel ? (o->warmup > 0) : o->warmup, &m->call);
	else if (kernel)
		copy_samples(&m->kernel, &m->call);
	else
		time_runs(run_batched, &r, o, o->warmup, &m->call);
	free(r.nodes);
	free(r.edges);
	return 0;
}

struct attn_run {
	struct tpr_pool *pool;
	const struct tpr_attn_job *j;
	struct tpr_attn_ws *ws;
	float *out;
};

static void run_attn(void *arg)
{
	struct attn_run *r = arg;
	tpr_attn_cpu(r->pool, r->j, r->ws, r->out);
}

int tpr_cpu_bench_attn(struct tpr_pool *pool, const struct tpr_attn_job *j,
		       const struct tpr_timing_opts *o, struct tpr_measure *m)
{
	struct attn_run r = { pool, j, tpr_attn_ws_new(j, tpr_pool_size(pool)), NULL };
	r.out = xmalloc((size_t)j->n * j->dim * sizeof(float));
	time_runs(run_attn, &r, o, o->warmup, &m->kernel);
	copy_samples(&m->kernel, &m->call);
	m->calls = 1;
	m->precision = TPR_FP32; /* whatever the job asked: the CPU computes in FP32 */
	free(r.out);
	tpr_attn_ws_free(r.ws);
	return 0;
}

/* ---- machine facts ---------------------------------------------------- */

/* The value after "key" and ':' on the first matching line of /proc/cpuinfo. */
static int cpuinfo_field(const char *key, char *out, size_t n)
{
	FILE *fp = fopen("/proc/cpuinfo", "r");
	char line[512];
	int found = 0;
	if (!fp)
		return 0;
	while (!found && fgets(line, sizeof(line), fp)) {
		char *colon = strchr(line, ':');
		if (strncmp(line, key, strlen(key)) || !colon)
			continue;
		colon++;
		colon += strspn(colon, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(out, n, "%s", colon);
		found = 1;
	}
	fclose(fp);
	return found;
}

static double clock_ghz(const char **src)
{
	FILE *fp = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
	double khz = 0;
	char buf[64];
	if (fp) {
		if (fscanf(fp, "%lf", &khz) != 1)
			khz = 0;
		fclose(fp);
	}
	if (khz > 0) {
		*src = "cpufreq maximum";
		return khz / 1e6;
	}
	if (cpuinfo_field("cpu MHz", buf, sizeof(buf)) && atof(buf) > 0) {
		*src = "/proc/cpuinfo";
		return atof(buf) / 1e3;
	}
	*src = "assumed";
	return 2.0;
}

static int simd_lanes(const char **isa)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
		*isa = "AVX2";
		return 8;
	}
#endif
	*isa = "128-bit SIMD";
	return 4;
}

/*
 * Best of three memcpy of TPR_MEMCPY_BYTES, counting bytes read plus
 * written. Plain malloc: a machine too small for 128 MiB of buffers gets
 * no bandwidth figure (NAN), not an out-of-memory exit.
 */
static double memcpy_gbs(void)
{
	char *a = malloc(TPR_MEMCPY_BYTES), *b = malloc(TPR_MEMCPY_BYTES);
	double best = INFINITY;
	if (!a || !b) {
		free(a);
		free(b);
		return NAN;
	}
	memset(a, 1, TPR_MEMCPY_BYTES);
	memset(b, 2, TPR_MEMCPY_BYTES); /* fault the pages in before timing */
	for (int i = 0; i < 3; i++) {
		double t0 = tpr_now_ms();
		memcpy(i % 2 ? a : b, i % 2 ? b : a, TPR_MEMCPY_BYTES);
		double t = tpr_now_ms() - t0;
		best = t < best ? t : best;
	}
	free(a);
	free(b);
	return 2.0 * TPR_MEMCPY_BYTES / (best * 1e-3) / 1e9;
}

void tpr_cpu_info(struct tpr_device_info *info, int threads)
{
	const char *clk_src, *isa;
	memset(info, 0, sizeof(*info));
	snprintf(info->kind, sizeof(info->kind), "cpu");
	if (!cpuinfo_field("model name", info->name, sizeof(info->name)))
		snprintf(info->name, sizeof(info->name), "unknown CPU");
	info->units = threads;
	info->clock_ghz = clock_ghz(&clk_src);
	int lanes = simd_lanes(&isa);
	info->peak_gflops = threads * info->clock_ghz * 2.0 * lanes * 2.0;
	info->peak_tf32 = info->peak_bf16 = info->peak_gflops; /* FP32 arithmetic whatever was asked */
	info->peak_gbs = memcpy_gbs();
	snprintf(info->gemm, sizeof(info->gemm), "FP32 loops on the thread pool");
	snprintf(info->peak_note, sizeof(info->peak_note),
		 "estimate: %d threads x %.2f GHz (%s) x 2 FMA units x %d %s lanes x 2; bandwidth: "
		 "measured memcpy of %u MiB",
		 threads, info->clock_ghz, clk_src, lanes, isa, TPR_MEMCPY_BYTES >> 20);
}
