/*
 * ddp.c - writes samples/ddp-4rank.log, a torchrun job with four workers, as its combined
 * output looks when every worker line is prefixed "[rankN]: ".
 *
 * Each rank prints seed-004 "Batch N:" lines (two epochs of twenty
 * batches), "Epoch end:" and "Batch timing:"; rank 3 is a straggler,
 * about 25% slower per batch. Ranks run unsynchronised within an epoch
 * and meet at a barrier between epochs, so their lines interleave by
 * time. Around them: torchrun's own (unprefixed) warning, NCCL_DEBUG=INFO
 * chatter, DDP warnings and logger lines with ANSI colours. Five lines of
 * rank 2 end in CRLF, and the job is killed while rank 3 is printing
 * batch 17 of the second epoch: the file ends mid-line, without '\n'.
 *
 * Events are generated per rank with a timestamp, then sorted and written.
 */
#include "common.h"
#include "samples.h"

#include <stdlib.h>
#include <string.h>

#define NRANKS 4
#define NEPOCHS 2
#define NBATCH 20
#define STRAGGLER 3
#define KILL_EPOCH 1
#define KILL_BATCH 17
#define MAXEV 1024

struct event {
	long t;    /* ms since 10:00:00 */
	int rank;  /* -1: the launcher */
	int seq;   /* order within a rank */
	int crlf;
	char text[480];
};

static struct event ev[MAXEV];
static int nev, seq;
static long long t0;

static struct event *add(long t, int rank, const char *text)
{
	if (nev == MAXEV) {
		fprintf(stderr, "make-samples: ddp: too many events\n");
		exit(1);
	}
	struct event *e = &ev[nev++];
	e->t = t;
	e->rank = rank;
	e->seq = seq++;
	e->crlf = 0;
	snprintf(e->text, sizeof(e->text), "%s", text);
	return e;
}

/* "\x1b[32mINFO\x1b[0m 2024-11-04 10:00:04,512 train.py:41] msg" */
static struct event *logger(long t, int rank, const char *lvl, const char *where, const char *msg)
{
	char ts[32], b[480];
	fmt_time(ts, sizeof(ts), t0 + t / 1000, "%Y-%m-%d %H:%M:%S");
	snprintf(b, sizeof(b), "\x1b[%sm%s\x1b[0m %s,%03ld %s] %s", strcmp(lvl, "INFO") ? "33" : "32",
		 lvl, ts, t % 1000, where, msg);
	return add(t, rank, b);
}

static void launcher(void)
{
	static const char *w = "W1104 10:00:01.123000 139872001234560 torch/distributed/run.py:779] ";
	char b[480];
	snprintf(b, sizeof(b), "%s", w);
	add(0, -1, b);
	snprintf(b, sizeof(b), "%s*****************************************", w);
	add(0, -1, b);
	snprintf(b, sizeof(b), "%sSetting OMP_NUM_THREADS environment variable for each process to be 1 in "
		 "default, to avoid your system being overloaded, please further tune the variable for "
		 "optimal performance in your application as needed. ", w);
	add(0, -1, b);
	snprintf(b, sizeof(b), "%s*****************************************", w);
	add(0, -1, b);
}

static void nccl(long t, int r, const char *msg)
{
	char b[480];
	snprintf(b, sizeof(b), "gpu-node07:%d:%d [%d] NCCL INFO %s", 2211843 + r, 2211843 + r, r, msg);
	add(t, r, b);
}

static void nccl_init(int r, long t)
{
	char m[256];
	nccl(t, r, "Bootstrap : Using eth0:10.1.4.17<0>");
	nccl(t, r, "NET/Plugin : dlerror=libnccl-net.so: cannot open shared object file: No such file or "
		   "directory No plugin found (libnccl-net.so), using internal implementation");
	nccl(t, r, "cudaDriverVersion 12020");
	if (r == 0)
		add(t, r, "NCCL version 2.18.1+cuda12.1");
	nccl(t + 40, r, "NET/IB : No device found.");
	nccl(t + 40, r, "NET/Socket : Using [0]eth0:10.1.4.17<0>");
	nccl(t + 41, r, "Using network Socket");
	snprintf(m, sizeof(m), "comm 0x55d1c3a%d0 rank %d nranks 4 cudaDev %d nvmlDev %d busId %x000 "
		 "commId 0x8f1d2e3c4b5a6978 - Init START", r, r, r, r, 0x1b + r * 0x20);
	nccl(t + 60, r, m);
	snprintf(m, sizeof(m), "Setting affinity for GPU %d to ffff,ffffffff", r);
	nccl(t + 61, r, m);
	for (int c = 0; r == 0 && c < 12; c++) {
		snprintf(m, sizeof(m), "Channel %02d/12 :    0   1   2   3", c);
		nccl(t + 70, r, m);
	}
	snprintf(m, sizeof(m), "Trees [0] %d/-1/-1->%d->%d [1] %d/-1/-1->%d->%d", (r + 1) % 4, r, r ? r - 1 : -1,
		 (r + 1) % 4, r, r ? r - 1 : -1);
	nccl(t + 71, r, m);
	nccl(t + 71, r, "P2P Chunksize set to 524288");
	for (int c = 0; c < 12; c++) {
		snprintf(m, sizeof(m), "Channel %02d/0 : %d[%d] -> %d[%d] via P2P/IPC/read", c, r, r,
			 (r + 1) % 4, (r + 1) % 4);
		nccl(t + 90 + c, r, m);
	}
	nccl(t + 130, r, "Connected all rings");
	nccl(t + 131, r, "Connected all trees");
	nccl(t + 131, r, "threadThresholds 8/8/64 | 32/8/64 | 512 | 512");
	nccl(t + 131, r, "12 coll channels, 0 nvls channels, 16 p2p channels, 16 p2p channels per peer");
	snprintf(m, sizeof(m), "comm 0x55d1c3a%d0 rank %d nranks 4 cudaDev %d nvmlDev %d busId %x000 "
		 "commId 0x8f1d2e3c4b5a6978 - Init COMPLETE", r, r, r, r, 0x1b + r * 0x20);
	nccl(t + 140, r, m);
}

static void startup(int r, long t)
{
	char m[256];
	snprintf(m, sizeof(m), "world_size=4 rank=%d local_rank=%d device=cuda:%d", r, r, r);
	logger(t, r, "INFO", "train.py:41", m);
	add(t + 900, r, "Files already downloaded and verified");
	snprintf(m, sizeof(m), "DistributedSampler: 640 samples per replica (num_replicas=4, rank=%d), "
		 "batch_size=32, drop_last=False", r);
	logger(t + 905, r, "INFO", "train.py:63", m);
	nccl_init(r, t + 1200);
}

static void ddp_warning(int r, long t)
{
	add(t, r, "/opt/conda/lib/python3.10/site-packages/torch/autograd/graph.py:744: UserWarning: Grad "
		  "strides do not match bucket view strides. This may indicate grad was not created according "
		  "to the gradient layout contract, or that the param's strides changed since DDP was "
		  "constructed.  This is not an error, but may impair performance.");
	add(t, r, "grad.sizes() = [256, 128, 1, 1], strides() = [128, 1, 128, 128]");
	add(t, r, "bucket_view.sizes() = [256, 128, 1, 1], strides() = [128, 1, 1, 1] (Triggered internally "
		  "at ../torch/csrc/distributed/c10d/reducer.cpp:320.)");
	add(t, r, "  return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the "
		  "backward pass");
}

struct rank {
	long cpu;    /* tenths of MB */
	double loss;
};

static long batch_ms(int r, int e, int b)
{
	double scale = r == STRAGGLER ? 1.25 : 1.0;
	if (e == 0 && b == 0)
		return lround_((540 + rng_gauss() * 15) * scale);
	return lround_((181 + rng_gauss() * 4) * scale);
}

static int is_crlf(int r, int e, int b)
{
	return r == 2 && e == 1 && b >= 3 && b <= 6;
}

/* One epoch of rank r starting at t; returns the time its epoch ends. */
static long epoch(int r, int e, long t, struct rank *st)
{
	char m[480];
	long sum = 0, lo = 1000000, hi = 0;
	for (int b = 0; b < NBATCH; b++) {
		long ms = batch_ms(r, e, b);
		t += ms;
		st->loss = st->loss * 0.955 + 0.00045 + rng_gauss() * 0.0003;
		if (e == KILL_EPOCH && b == KILL_BATCH && r == STRAGGLER) {
			snprintf(m, sizeof(m), "  Batch %d: %ld.%ld", b, ms / 1000, (ms % 1000) / 100);
			add(t, r, m)->crlf = -1; /* cut here */
			return t;
		}
		snprintf(m, sizeof(m), "  Batch %d: %ld.%03lds, GPU %d.6MB, CPU %ld.%ldMB, loss=%.6f", b,
			 ms / 1000, ms % 1000, 1432 + r, st->cpu / 10, st->cpu % 10, st->loss);
		add(t, r, m)->crlf = is_crlf(r, e, b);
		if (e == 0 && b == 0)
			ddp_warning(r, t + 1);
		st->cpu += 9 + lround_(rng_gauss() * 3);
		sum += ms;
		lo = ms < lo ? ms : lo;
		hi = ms > hi ? ms : hi;
		if ((b + 1) % 5 == 0) {
			snprintf(m, sizeof(m), "epoch %d/%d step %d/%d loss %.5f", e + 1, NEPOCHS, b + 1, NBATCH,
				 st->loss);
			logger(t + 1, r, "INFO", "train.py:97", m)->crlf = is_crlf(r, e, b);
		}
	}
	long total = sum + rng_range(140, 220);
	long avg = div_round(sum, NBATCH);
	t += total - sum;
	snprintf(m, sizeof(m), "  Epoch end: %ld.%03lds total, GPU %d.0MB, 6144MB reserved, peak %dMB",
		 total / 1000, total % 1000, 1216 + r, 5873 + r * 3);
	add(t, r, m);
	snprintf(m, sizeof(m), "  Batch timing: avg=%ld.%03lds, min=%ld.%03lds, max=%ld.%03lds", avg / 1000,
		 avg % 1000, lo / 1000, lo % 1000, hi / 1000, hi % 1000);
	add(t, r, m);
	snprintf(m, sizeof(m), "epoch %d/%d done, waiting at barrier", e + 1, NEPOCHS);
	logger(t + 2, r, "INFO", "train.py:121", m);
	return t;
}

static int cmp(const void *a, const void *b)
{
	const struct event *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void write_events(void)
{
	qsort(ev, (size_t)nev, sizeof(ev[0]), cmp);
	for (int i = 0; i < nev; i++) {
		if (ev[i].rank >= 0)
			say("[rank%d]: ", ev[i].rank);
		put(ev[i].text);
		if (ev[i].crlf < 0)
			return; /* killed mid-line */
		put(ev[i].crlf ? "\r\n" : "\n");
	}
}

/* Drops what would have been printed after the kill. */
static void drop_after_kill(void)
{
	long kill = -1;
	for (int i = 0; i < nev; i++)
		if (ev[i].crlf < 0)
			kill = ev[i].t;
	int k = 0;
	for (int i = 0; i < nev; i++)
		if (ev[i].t < kill || ev[i].crlf < 0)
			ev[k++] = ev[i];
	nev = k;
}

void gen_ddp(const char *dir)
{
	struct rank st[NRANKS];
	long start = 6000;

	rng_seed(1005);
	t0 = utc(2024, 11, 4, 10, 0, 0);
	nev = seq = 0;
	launcher();
	for (int r = 0; r < NRANKS; r++) {
		startup(r, 3100 + r * 37);
		st[r].cpu = 22114 + r * 37;
		st[r].loss = 0.0213 + r * 0.0004;
	}
	for (int e = 0; e < NEPOCHS; e++) {
		long barrier = 0;
		for (int r = 0; r < NRANKS; r++) {
			char m[64];
			snprintf(m, sizeof(m), "epoch %d/%d start", e + 1, NEPOCHS);
			logger(start + r, r, "INFO", "train.py:84", m);
			long end = epoch(r, e, start + r * 3, &st[r]);
			barrier = end > barrier ? end : barrier;
		}
		if (e == 0)
			logger(barrier + 5, 0, "WARNING", "train.py:133",
			       "barrier wait: ranks 0-2 idle for up to 1.1s per epoch waiting for rank 3");
		start = barrier + 25;
	}
	drop_after_kill();
	out_open(dir, "ddp-4rank.log");
	write_events();
	out_close();
}
