/*
 * gen_seed001.c - writes the golden logs of seed 001 (madoc's
 * section1/utils/timing.py) from known durations: the stdout of a section
 * script and the CSV/JSON exports, byte for byte as that module prints them.
 *
 * Facts taken from the module's print statements (Python format specs,
 * given here as their printf equivalents; both round the binary value
 * correctly, so they print the same digits):
 *   track_time            "{name} complete: {elapsed:.2f}s total\n"   (print adds a 2nd \n)
 *   track_time_and_memory "{name} complete: {e:.2f}s, peak memory: {mb:.1f} MB\n"
 *   track_time_and_gpu    "{name} complete: {e:.2f}s, GPU peak: {mb:.1f} MB\n"
 *   print_timing_summary  "\n"+"="*60, "TIMING SUMMARY - {section}", "="*60,
 *                         "{name}:{' '*max(1,24-len(name))}{e:8.2f}s ({pct:5.1f}%)",
 *                         "-"*60, "Total time:"+16 blanks+"{total:8.2f}s",
 *                         "Average per dataset:"+8 blanks+"{avg:8.2f}s" (num_datasets > 1),
 *                         "="*60+"\n"
 *   print_speedup_analysis "Baseline: {b} ({t:.2f}s)", rows "{name:20s}: {s:5.2f}x {faster|slower}"
 *                         sorted by speedup, descending; speedup = baseline_time / elapsed
 *   DetailedTimer         "\n{name} - Detailed Breakdown:", "-"*40,
 *                         "  {phase:20s}: {e:8.2f}s ({pct:5.1f}%)" largest first, "-"*40
 *   print_inference_benchmark "\n{model} Inference Benchmark:", "-"*40,
 *                         "  Mean latency:    {v:8.3f} ms" (Min, Max alike),
 *                         "  Throughput:      {v:8.1f} samples/sec", "-"*40+"\n"
 *   print_warmup_analysis "\n{model} - Warmup Analysis:", "-"*40,
 *                         "  First epoch:      {v:8.3f}s", "  Steady state:     {v:8.3f}s",
 *                         "  Warmup overhead:  {v:8.3f}s ({pct:5.1f}%)", "-"*40+"\n"
 *                         steady = mean(epochs[1:]), overhead = first - steady,
 *                         pct = overhead / steady * 100
 *   export_timing_csv     header Section,Model,Time (s); "{elapsed:.4f}"
 *   export_timing_json    json.dump({section, timestamp, timings}, indent=2)
 *
 * Usage: gen_seed001 DIR  (writes DIR/seed001.log, DIR/seed001_timing.csv,
 * DIR/seed001_timing.json, DIR/seed001_gpu_timing.json). Not part of the build: `make golden` runs it.
 */
#include <stdio.h>
#include <string.h>

static void rule(FILE *f, char c, int n)
{
	for (int i = 0; i < n; i++)
		fputc(c, f);
	fputc('\n', f);
}

struct timer {
	const char *name;
	double s;
};

static const struct timer timers[] = {
	{ "MLP training", 125.45 }, { "SIREN training", 89.32 }, { "KAN training", 102.67 }
};
#define NT 3

static void summary(FILE *f, const char *section, int num_datasets)
{
	double total = 0;
	for (int i = 0; i < NT; i++)
		total += timers[i].s;
	fputc('\n', f);
	rule(f, '=', 60);
	fprintf(f, "TIMING SUMMARY - %s\n", section);
	rule(f, '=', 60);
	for (int i = 0; i < NT; i++) {
		int sp = 24 - (int)strlen(timers[i].name);
		fprintf(f, "%s:%*s%8.2fs (%5.1f%%)\n", timers[i].name, sp < 1 ? 1 : sp, "", timers[i].s,
			timers[i].s / total * 100);
	}
	rule(f, '-', 60);
	fprintf(f, "Total time:%16s%8.2fs\n", "", total);
	if (num_datasets > 1)
		fprintf(f, "Average per dataset:%8s%8.2fs\n", "", total / num_datasets);
	rule(f, '=', 60);
	fputc('\n', f);
}

static void speedups(FILE *f, int base)
{
	int order[NT];
	for (int i = 0; i < NT; i++)
		order[i] = i;
	/* sorted by speedup descending = by elapsed ascending */
	for (int i = 0; i < NT; i++)
		for (int j = i + 1; j < NT; j++)
			if (timers[order[j]].s < timers[order[i]].s) {
				int t = order[i];
				order[i] = order[j];
				order[j] = t;
			}
	fputc('\n', f);
	rule(f, '=', 60);
	fprintf(f, "SPEEDUP ANALYSIS\n");
	rule(f, '=', 60);
	fprintf(f, "Baseline: %s (%.2fs)\n", timers[base].name, timers[base].s);
	rule(f, '-', 60);
	for (int k = 0; k < NT; k++) {
		int i = order[k];
		if (i == base)
			continue;
		double s = timers[base].s / timers[i].s;
		fprintf(f, "%-20s: %5.2fx %s\n", timers[i].name, s, s > 1 ? "faster" : "slower");
	}
	rule(f, '=', 60);
	fputc('\n', f);
}

static void breakdown(FILE *f)
{
	static const struct timer ph[] = { { "backward_pass", 12.45 }, { "forward_pass", 8.34 },
					   { "data_loading", 1.76 } };
	double total = 0;
	for (int i = 0; i < 3; i++)
		total += ph[i].s;
	fprintf(f, "\nTraining - Detailed Breakdown:\n");
	rule(f, '-', 40);
	for (int i = 0; i < 3; i++)
		fprintf(f, "  %-20s: %8.2fs (%5.1f%%)\n", ph[i].name, ph[i].s, ph[i].s / total * 100);
	rule(f, '-', 40);
}

static void inference(FILE *f)
{
	fprintf(f, "\nKAN Inference Benchmark:\n");
	rule(f, '-', 40);
	fprintf(f, "  Mean latency:    %8.3f ms\n", 2.345);
	fprintf(f, "  Min latency:     %8.3f ms\n", 2.123);
	fprintf(f, "  Max latency:     %8.3f ms\n", 3.456);
	fprintf(f, "  Throughput:      %8.1f samples/sec\n", 426.3);
	rule(f, '-', 40);
	fputc('\n', f);
}

static void warmup(FILE *f, const char *model, const double *ep, int n)
{
	double steady = 0;
	for (int i = 1; i < n; i++)
		steady += ep[i];
	steady /= n - 1;
	double over = ep[0] - steady;
	fprintf(f, "\n%s - Warmup Analysis:\n", model);
	rule(f, '-', 40);
	fprintf(f, "  First epoch:      %8.3fs\n", ep[0]);
	fprintf(f, "  Steady state:     %8.3fs\n", steady);
	fprintf(f, "  Warmup overhead:  %8.3fs (%5.1f%%)\n", over, over / steady * 100);
	rule(f, '-', 40);
	fputc('\n', f);
}

int main(int argc, char **argv)
{
	char path[4096];
	if (argc != 2) {
		fprintf(stderr, "usage: gen_seed001 DIR\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/seed001.log", argv[1]);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	for (int i = 0; i < NT; i++)
		fprintf(f, "%s complete: %.2fs total\n\n", timers[i].name, timers[i].s);
	fprintf(f, "%s complete: %.2fs, GPU peak: %.1f MB\n\n", "KAN grid search", 12.45, 1024.3);
	fprintf(f, "%s complete: %.2fs, peak memory: %.1f MB\n\n", "Model", 45.32, 234.5);
	summary(f, "Section 1.1", 9);
	speedups(f, 0);  /* baseline None: the slowest, MLP training */
	speedups(f, 1);  /* baseline='SIREN training': the others are slower */
	breakdown(f);
	inference(f);
	static const double mlp[] = { 5.2, 3.1, 3.0, 3.1, 3.0, 2.9 };
	static const double siren[] = { 2.9, 3.1, 3.0, 3.2 };
	warmup(f, "MLP", mlp, 6);
	warmup(f, "SIREN", siren, 4); /* a first epoch faster than the rest */
	fprintf(f, "Timing data exported to: sec1_timing.csv\n");
	fprintf(f, "Timing data exported to: sec1_timing.json\n");
	if (fclose(f)) {
		perror(path);
		return 1;
	}

	snprintf(path, sizeof(path), "%s/seed001_timing.csv", argv[1]);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	fprintf(f, "Section,Model,Time (s)\r\n"); /* csv.writer ends rows with \r\n */
	for (int i = 0; i < NT; i++)
		fprintf(f, "Section 1.1,%s,%.4f\r\n", timers[i].name, timers[i].s);
	if (fclose(f)) {
		perror(path);
		return 1;
	}

	snprintf(path, sizeof(path), "%s/seed001_timing.json", argv[1]);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	/* json.dump writes floats in repr (shortest) form and no final newline */
	fprintf(f, "{\n  \"section\": \"Section 1.1\",\n  \"timestamp\": \"2024-11-24 12:00:00\",\n"
		   "  \"timings\": {\n    \"MLP training\": 125.45,\n    \"SIREN training\": 89.32,\n"
		   "    \"KAN training\": 102.67\n  }\n}");
	if (fclose(f)) {
		perror(path);
		return 1;
	}

	/* export_timing_json of track_time_and_gpu's and track_time_and_memory's
	 * timers: a dict per timer ({'time', GPU stats} / {'time', memory}) */
	snprintf(path, sizeof(path), "%s/seed001_gpu_timing.json", argv[1]);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	fprintf(f, "{\n  \"section\": \"Section 1.2\",\n  \"timestamp\": \"2024-11-24 12:30:00\",\n"
		   "  \"timings\": {\n"
		   "    \"KAN grid search\": {\n      \"time\": 12.45,\n      \"allocated_mb\": 512.1,\n"
		   "      \"reserved_mb\": 1024.0,\n      \"max_allocated_mb\": 1024.3\n    },\n"
		   "    \"Model\": {\n      \"time\": 45.32,\n      \"peak_memory_mb\": 234.5,\n"
		   "      \"current_memory_mb\": 123.4\n    }\n  }\n}");
	if (fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}
