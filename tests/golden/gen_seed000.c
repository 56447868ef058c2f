/*
 * gen_seed000.c - writes the golden log of seed 000 (Graph-LLaVA's
 * TimeProfiler in llava/train/train_drug.py) and its timing_data.json
 * export from known stage durations. The [GPM TIMING] line is not written
 * here (it has its own golden log).
 *
 * Facts (the profiler's output as documented with its code):
 *   "[%Y-%m-%d %H:%M:%S] [STAGE] {name}" when a stage starts,
 *   "[%Y-%m-%d %H:%M:%S] [TIMING] {name}: {d:.2f}s" when it ends, with
 *   " ({d/60:.2f}min)" appended from 60 s and " ({d/3600:.2f}h)" from 3600 s;
 *   the run opens with the banner "[ts] [TIMING] === TRAINING PIPELINE START ==="
 *   (a [TIMING] line without a duration);
 *   summary(): "="*80, "[TIMING SUMMARY]", "="*80,
 *   "  {name:<40}: {duration:<20} ({pct:.1f}%)" per stage, pct = d / total * 100,
 *   "  {'TOTAL':<40}: {total}" with total the sum of the stages, "="*80;
 *   the Hugging Face Trainer's header before the training loop, through
 *   transformers' explicit format "[LEVEL|file.py:line] asctime >> message";
 *   train_mem.py's export: json.dump({'timings': profiler.timings,
 *   'total_time': time.time() - profiler.start_time}, indent=2), so
 *   total_time is wall time since the profiler started and is larger than
 *   the sum of the stages by the time spent outside them.
 *
 * Usage: gen_seed000 DIR (writes DIR/seed000.log, DIR/seed000_timing_data.json).
 */
#include <stdio.h>
#include <string.h>

struct stage {
	const char *name;
	double s;
};

static const struct stage stages[] = {
	{ "Argument parsing", 0.12 },
	{ "LLM model loading", 44.23 },
	{ "Graph tower initialization (gpm)", 2.45 },
	{ "Dataset loading and preprocessing", 12.34 },
	{ "Trainer initialization", 0.89 },
	{ "Main training loop", 6234.56 },
	{ "State saving", 4.23 },
};
#define NS (sizeof(stages) / sizeof(stages[0]))
static const double outside = 5.94; /* seconds between the stages */

static void duration(char *b, size_t n, double d)
{
	if (d >= 3600)
		snprintf(b, n, "%.2fs (%.2fh)", d, d / 3600);
	else if (d >= 60)
		snprintf(b, n, "%.2fs (%.2fmin)", d, d / 60);
	else
		snprintf(b, n, "%.2fs", d);
}

static void stamp(char *b, size_t n, double t)
{
	long s = (long)t;
	snprintf(b, n, "[2024-10-13 %02ld:%02ld:%02ld]", 22 + s / 3600, s / 60 % 60, s % 60);
}

/*
 * The Hugging Face Trainer's header, through transformers' explicit log
 * format "[%(levelname)s|%(filename)s:%(lineno)s] %(asctime)s >> %(message)s"
 * (asctime "2024-10-13 22:01:05,120").
 */
static void trainer_header(FILE *f, double t)
{
	static const struct {
		int lineno;
		const char *msg;
	} lines[] = { { 2134, "***** Running training *****" },
		      { 2135, "  Num examples = 10,000" },
		      { 2136, "  Num Epochs = 2" },
		      { 2137, "  Instantaneous batch size per device = 16" },
		      { 2140, "  Total train batch size (w. parallel, distributed & accumulation) = 32" },
		      { 2141, "  Gradient Accumulation steps = 1" },
		      { 2142, "  Total optimization steps = 625" } };
	long s = (long)t;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		fprintf(f, "[INFO|trainer.py:%d] 2024-10-13 %02ld:%02ld:%02ld,120 >> %s\n", lines[i].lineno,
			22 + s / 3600, s / 60 % 60, s % 60, lines[i].msg);
}

int main(int argc, char **argv)
{
	char path[4096], ts[64], d[64];
	if (argc != 2) {
		fprintf(stderr, "usage: gen_seed000 DIR\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/seed000.log", argv[1]);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	double t = 0, total = 0;
	stamp(ts, sizeof(ts), t);
	fprintf(f, "%s [TIMING] === TRAINING PIPELINE START ===\n", ts);
	for (size_t i = 0; i < NS; i++) {
		t += outside / NS;
		stamp(ts, sizeof(ts), t);
		fprintf(f, "%s [STAGE] %s\n", ts, stages[i].name);
		if (!strcmp(stages[i].name, "Main training loop"))
			trainer_header(f, t);
		t += stages[i].s;
		stamp(ts, sizeof(ts), t);
		duration(d, sizeof(d), stages[i].s);
		fprintf(f, "%s [TIMING] %s: %s\n", ts, stages[i].name, d);
		total += stages[i].s;
	}
	char eq[81];
	memset(eq, '=', 80);
	eq[80] = '\0';
	fprintf(f, "\n%s\n[TIMING SUMMARY]\n%s\n", eq, eq);
	for (size_t i = 0; i < NS; i++) {
		duration(d, sizeof(d), stages[i].s);
		fprintf(f, "  %-40s: %-20s (%.1f%%)\n", stages[i].name, d, stages[i].s / total * 100);
	}
	duration(d, sizeof(d), total);
	fprintf(f, "  %-40s: %s\n%s\n", "TOTAL", d, eq);
	if (fclose(f)) {
		perror(path);
		return 1;
	}

	snprintf(path, sizeof(path), "%s/seed000_timing_data.json", argv[1]);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	fprintf(f, "{\n  \"timings\": {\n");
	for (size_t i = 0; i < NS; i++)
		fprintf(f, "    \"%s\": %.2f%s\n", stages[i].name, stages[i].s, i + 1 < NS ? "," : "");
	fprintf(f, "  },\n  \"total_time\": %.2f\n}", total + outside);
	if (fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}
