/*
 * gen_gt.h - golden log and JSON report of seed 002's profiling package
 * (src/profiling/ and scripts/profile_model.py of the graph-transformer
 * repository), from its print statements:
 *
 *   logging   format="%(asctime)s | %(levelname)s | %(message)s", datefmt="%Y-%m-%d %H:%M:%S"
 *   RuntimeStats.__repr__    f"{mean:.2f} ± {std:.2f} {unit} (n={num_runs})"
 *   print_profiling_table    "  {name}: {mean:.2f} ± {std:.2f} ms", "  {name}: {peak_mb:.2f} MB"
 *                            (floats and dicts without peak_mb print 0.00), "  Total: {t/1e9:.2f} GFLOPs"
 *                            (MFLOPs below 1e9), "    {name}: ... GFLOPs", "  Parameters: {n:,}"
 *   ScalingExperiment.print_summary   "  {parameter_name}={val}: {mean:.2f} ms, {peak_mb:.1f} MB"
 *   FLOPsEstimate.to_dict    {"total": raw FLOPs, "total_gflops": total / 1e9, "breakdown": raw FLOPs}
 *   profile_pe_cost          {"lap": {"precomputation_ms": mean, "precomputation_std": std}, ...}
 *   save_profiling_results   json.dump(indent=2): timestamp, hardware, then the results' keys
 *
 * Known inputs: hidden 256, 6 layers, 8 heads, FFN 512 (FLOPsEstimator's
 * defaults), a 500-node graph with 2498 edges; forward 10.5 ms, backward
 * (forward + backward) 25.3 ms, training step 30.0 ms; node scaling
 * t = 20 ms x (N/100)^1.5, peak 25 MB x (N/100)^2; layer scaling
 * t = 5 + 10 L ms, peak 100 + 20 L MB. Timings are torch float32 .item()s.
 */
#ifndef TPROF_GOLDEN_GEN_GT_H
#define TPROF_GOLDEN_GEN_GT_H

#include <math.h>
#include <stdio.h>

#include "pyfmt.h"

/* ---- FLOPs: flops.py's estimate_model_flops, in integers ---- */

static inline long long gt_linear(long long in, long long out, long long b, long long s)
{
	return 2 * b * s * in * out + b * s * out;
}

enum { GT_INPUT, GT_ATTN, GT_FFN, GT_LN, GT_MPNN, GT_OUTPUT, GT_NPARTS };
static const char *const gt_parts[GT_NPARTS] = { "input_projection", "attention", "ffn", "layer_norm", "mpnn",
						  "output_projection" };

static inline long long gt_flops(long long n, long long e, long long layers, long long bd[GT_NPARTS])
{
	const long long d = 256, h = 8, f = 512, hd = d / h;
	long long attn = 3 * gt_linear(d, d, 1, n) + 2 * h * n * hd * n + 5 * h * n * n + 2 * h * n * n * hd +
			 gt_linear(d, d, 1, n);
	long long ffn = gt_linear(d, f, 1, n) + 4 * n * f + gt_linear(f, d, 1, n);
	long long mpnn = e * d + gt_linear(d, d, 1, n) + gt_linear(d, d, 1, n) + n * d;
	bd[GT_INPUT] = gt_linear(d, d, 1, n);
	bd[GT_ATTN] = layers * attn;
	bd[GT_FFN] = layers * ffn;
	bd[GT_LN] = layers * 2 * 5 * n * d;
	bd[GT_MPNN] = layers * mpnn;
	bd[GT_OUTPUT] = gt_linear(d, 1, 1, n);
	long long t = 0;
	for (int i = 0; i < GT_NPARTS; i++)
		t += bd[i];
	return t;
}

static inline double f32(double x)
{
	return (double)(float)x;
}

struct gt_rt {
	const char *name;
	double mean, std, min, max;
	int runs;
};

static const struct gt_rt gt_runtime[3] = {
	{ "forward", 10.5, 1.2, 8.9, 14.1, 100 },
	{ "backward", 25.3, 2.1, 22.0, 31.7, 50 },
	{ "training_step", 30.0, 2.5, 26.4, 37.2, 50 },
};

static const int gt_nodes[4] = { 100, 500, 1000, 2000 };
static const int gt_layers[5] = { 2, 4, 6, 8, 12 };
#define GT_PARAMS 1234567LL

static inline double gt_node_ms(int n)
{
	return 20 * pow(n / 100.0, 1.5);
}
static inline double gt_node_mb(int n)
{
	return 25 * pow(n / 100.0, 2);
}
static inline double gt_layer_ms(int l)
{
	return 5 + 10.0 * l;
}
static inline double gt_layer_mb(int l)
{
	return 100 + 20.0 * l;
}

/* ---- the console ---- */

static inline void gt_log(FILE *fp, const char *hms, const char *msg)
{
	fprintf(fp, "2024-01-01 12:%s | INFO | %s\n", hms, msg);
}

static inline void gen_gt_log(FILE *fp)
{
	long long bd[GT_NPARTS];
	long long total = gt_flops(500, 2498, 6, bd);
	static const char *const start[][2] = {
		{ "00:00", "============================================================" },
		{ "00:00", "Model Profiling" },
		{ "00:00", "============================================================" },
		{ "00:00", "Model: graph_transformer" },
		{ "00:00", "Device: cuda" },
		{ "00:00", "Profiles: ['runtime', 'memory', 'flops', 'scaling', 'pe']" },
		{ "00:00", "Using synthetic graph: 500 nodes" },
		{ "00:01", "Profiling runtime..." },
		{ "00:09", "Profiling memory..." },
		{ "00:10", "Estimating FLOPs..." },
		{ "00:10", "Running scaling experiments..." },
		{ "00:10", "  Node scaling..." },
		{ "00:31", "  Layer scaling..." },
		{ "00:44", "Profiling PE computation costs..." },
	};
	for (size_t i = 0; i < sizeof(start) / sizeof(start[0]); i++)
		gt_log(fp, start[i][0], start[i][1]);
	/* the guide's quick start: RuntimeStats and FLOPsEstimate printed whole */
	for (int i = 0; i < 3; i++)
		fprintf(fp, "%s: %.2f \xc2\xb1 %.2f ms (n=%d)\n",
			i == 0 ? "Forward" : i == 1 ? "Backward" : "Training step", f32(gt_runtime[i].mean),
			f32(gt_runtime[i].std), gt_runtime[i].runs);
	/* print_profiling_table(results, title="Profiling Results") */
	fprintf(fp, "\n============================================================\nProfiling Results\n"
		    "============================================================\n");
	fprintf(fp, "\nRuntime:\n----------------------------------------\n");
	for (int i = 0; i < 3; i++)
		fprintf(fp, "  %s: %.2f \xc2\xb1 %.2f ms\n", gt_runtime[i].name, f32(gt_runtime[i].mean),
			f32(gt_runtime[i].std));
	fprintf(fp, "\nMemory:\n----------------------------------------\n");
	fprintf(fp, "  forward: %.2f MB\n", f32(gt_node_mb(500) + 12.5));
	fprintf(fp, "  backward: %.2f MB\n", f32(3 * gt_node_mb(500) + 12.5));
	fprintf(fp, "  breakdown: %.2f MB\n", 0.0); /* a dict without peak_mb: the seed prints 0 */
	fprintf(fp, "\nFLOPs:\n----------------------------------------\n");
	fprintf(fp, "  Total: %.2f GFLOPs\n", total / 1e9);
	fprintf(fp, "  Breakdown:\n");
	for (int i = 0; i < GT_NPARTS; i++) {
		if (bd[i] > 1e9)
			fprintf(fp, "    %s: %.2f GFLOPs\n", gt_parts[i], bd[i] / 1e9);
		else
			fprintf(fp, "    %s: %.2f MFLOPs\n", gt_parts[i], bd[i] / 1e6);
	}
	char c[32];
	fprintf(fp, "\nModel Info:\n----------------------------------------\n");
	fprintf(fp, "  Parameters: %s\n", py_commas(GT_PARAMS, c));
	fprintf(fp, "  Trainable: %s\n", py_commas(GT_PARAMS, c));
	fprintf(fp, "  Memory: %.2f MB\n", GT_PARAMS * 4 / (1024.0 * 1024.0));
	fprintf(fp, "\n============================================================\n");
	/* the guide's experiment.print_summary() */
	fprintf(fp, "\n============================================================\nScaling Experiment Summary\n"
		    "============================================================\n");
	fprintf(fp, "\nnode_scaling:\n----------------------------------------\n");
	for (int i = 0; i < 4; i++)
		fprintf(fp, "  num_nodes=%d: %.2f ms, %.1f MB\n", gt_nodes[i], f32(gt_node_ms(gt_nodes[i])),
			f32(gt_node_mb(gt_nodes[i])));
	fprintf(fp, "\nlayer_scaling:\n----------------------------------------\n");
	for (int i = 0; i < 5; i++)
		fprintf(fp, "  num_layers=%d: %.2f ms, %.1f MB\n", gt_layers[i], f32(gt_layer_ms(gt_layers[i])),
			f32(gt_layer_mb(gt_layers[i])));
	gt_log(fp, "00:45", "\nResults saved to profiling_results/profile_graph_transformer_synthetic.json");
	gt_log(fp, "00:45", "\n============================================================");
	gt_log(fp, "00:45", "Profiling completed!");
	gt_log(fp, "00:45", "============================================================");
}

/* ---- the JSON report: json.dump(formatted, f, indent=2, default=str) ---- */

static inline void gt_num(FILE *fp, int ind, const char *key, double v, int last)
{
	char b[40];
	fprintf(fp, "%*s\"%s\": %s%s\n", ind, "", key, py_repr(v, b), last ? "" : ",");
}

static inline void gt_int(FILE *fp, int ind, const char *key, long long v, int last)
{
	fprintf(fp, "%*s\"%s\": %lld%s\n", ind, "", key, v, last ? "" : ",");
}

static inline void gt_rtdict(FILE *fp, int ind, const char *key, double mean, double std, double mn, double mx,
			     int runs, int last)
{
	if (key)
		fprintf(fp, "%*s\"%s\": {\n", ind, "", key);
	else
		fprintf(fp, "%*s{\n", ind, "");
	gt_num(fp, ind + 2, "mean", f32(mean), 0);
	gt_num(fp, ind + 2, "std", f32(std), 0);
	gt_num(fp, ind + 2, "min", f32(mn), 0);
	gt_num(fp, ind + 2, "max", f32(mx), 0);
	gt_int(fp, ind + 2, "num_runs", runs, 0);
	fprintf(fp, "%*s\"unit\": \"ms\"\n%*s}%s\n", ind + 2, "", ind, "", last ? "" : ",");
}

static inline void gt_memdict(FILE *fp, int ind, const char *key, double peak, int last)
{
	if (key)
		fprintf(fp, "%*s\"%s\": {\n", ind, "", key);
	else
		fprintf(fp, "%*s{\n", ind, "");
	gt_num(fp, ind + 2, "peak_mb", peak, 0);
	gt_num(fp, ind + 2, "allocated_mb", 16.5, 0);
	gt_num(fp, ind + 2, "reserved_mb", 1024.0, 0);
	fprintf(fp, "%*s\"device\": \"cuda\"\n%*s}%s\n", ind + 2, "", ind, "", last ? "" : ",");
}

static inline void gt_sweep(FILE *fp, const char *exp, const char *param, const int *vals, int n, int nodes_sweep,
			    int last)
{
	fprintf(fp, "    \"%s\": {\n      \"parameter_name\": \"%s\",\n      \"parameter_values\": [\n", exp, param);
	for (int i = 0; i < n; i++)
		fprintf(fp, "        %d%s\n", vals[i], i + 1 < n ? "," : "");
	fprintf(fp, "      ],\n      \"runtime\": [\n");
	for (int i = 0; i < n; i++) {
		double ms = nodes_sweep ? gt_node_ms(vals[i]) : gt_layer_ms(vals[i]);
		gt_rtdict(fp, 8, NULL, ms, ms / 20, ms * 0.95, ms * 1.1, 20, i + 1 == n);
	}
	fprintf(fp, "      ],\n      \"memory\": [\n");
	for (int i = 0; i < n; i++)
		gt_memdict(fp, 8, NULL, nodes_sweep ? gt_node_mb(vals[i]) : gt_layer_mb(vals[i]), i + 1 == n);
	fprintf(fp, "      ],\n      \"flops\": [\n");
	for (int i = 0; i < n; i++) {
		long long bd[GT_NPARTS];
		int nn = nodes_sweep ? vals[i] : 500;
		fprintf(fp, "        %lld%s\n", gt_flops(nn, 5LL * nn - 2, nodes_sweep ? 6 : vals[i], bd),
			i + 1 < n ? "," : "");
	}
	fprintf(fp, "      ]\n    }%s\n", last ? "" : ",");
}

static inline void gen_gt_json(FILE *fp)
{
	long long bd[GT_NPARTS];
	long long total = gt_flops(500, 2498, 6, bd);
	double pmb = GT_PARAMS * 4 / (1024.0 * 1024.0);
	fprintf(fp, "{\n  \"timestamp\": \"2024-01-01T12:00:45.123456\",\n");
	fprintf(fp, "  \"hardware\": {\n    \"platform\": \"Linux-5.15.0-x86_64-with-glibc2.35\",\n"
		    "    \"processor\": \"x86_64\",\n    \"python_version\": \"3.10.12\",\n"
		    "    \"torch_version\": \"2.1.2+cu121\",\n    \"cuda_available\": true,\n"
		    "    \"cuda_version\": \"12.1\",\n    \"cudnn_version\": 8902,\n    \"gpu_count\": 1,\n"
		    "    \"gpus\": [\n      {\n        \"name\": \"NVIDIA A100-SXM4-40GB\",\n"
		    "        \"total_memory_gb\": 39.3853759765625,\n        \"compute_capability\": \"8.0\",\n"
		    "        \"multi_processor_count\": 108\n      }\n    ]\n  },\n");
	fprintf(fp, "  \"config\": {\n    \"model\": \"graph_transformer\",\n    \"dataset\": \"synthetic\",\n"
		    "    \"num_nodes\": 500,\n    \"num_edges\": 2498,\n    \"name\": \"graph_transformer\",\n"
		    "    \"num_features\": 16,\n    \"num_classes\": 1,\n    \"hidden_dim\": 256,\n"
		    "    \"num_layers\": 6,\n    \"num_heads\": 8\n  },\n");
	fprintf(fp, "  \"model_info\": {\n");
	gt_int(fp, 4, "total_parameters", GT_PARAMS, 0);
	gt_int(fp, 4, "trainable_parameters", GT_PARAMS, 0);
	gt_int(fp, 4, "frozen_parameters", 0, 0);
	gt_num(fp, 4, "parameter_memory_mb", pmb, 0);
	gt_num(fp, 4, "buffer_memory_mb", 0.0, 0);
	fprintf(fp, "    \"layer_counts\": {\n      \"GraphTransformer\": 1,\n      \"Linear\": 38\n    }\n  },\n");
	fprintf(fp, "  \"runtime\": {\n");
	for (int i = 0; i < 3; i++)
		gt_rtdict(fp, 4, gt_runtime[i].name, gt_runtime[i].mean, gt_runtime[i].std, gt_runtime[i].min,
			  gt_runtime[i].max, gt_runtime[i].runs, i == 2);
	fprintf(fp, "  },\n  \"memory\": {\n");
	gt_num(fp, 4, "parameter_memory_mb", pmb, 0);
	gt_num(fp, 4, "buffer_memory_mb", 0.0, 0);
	gt_memdict(fp, 4, "forward", f32(gt_node_mb(500) + 12.5), 0);
	gt_memdict(fp, 4, "backward", f32(3 * gt_node_mb(500) + 12.5), 0);
	/* get_memory_breakdown: activations = forward peak - parameters - input */
	double input = (500 * 16 * 4 + 2 * 4996 * 8) / (1024.0 * 1024.0);
	fprintf(fp, "    \"breakdown\": {\n");
	gt_num(fp, 6, "parameters", pmb, 0);
	gt_num(fp, 6, "gradients", 0.0, 0);
	gt_num(fp, 6, "input_data", input, 0);
	gt_num(fp, 6, "positional_encodings", 0.0, 0);
	gt_num(fp, 6, "forward_activations", f32(gt_node_mb(500) + 12.5) - pmb - input, 0);
	gt_num(fp, 6, "backward_memory", f32(3 * gt_node_mb(500) + 12.5) - pmb, 1);
	fprintf(fp, "    }\n  },\n  \"flops\": {\n");
	gt_int(fp, 4, "total", total, 0);
	gt_num(fp, 4, "total_gflops", total / 1e9, 0);
	fprintf(fp, "    \"breakdown\": {\n");
	for (int i = 0; i < GT_NPARTS; i++)
		gt_int(fp, 6, gt_parts[i], bd[i], i + 1 == GT_NPARTS);
	fprintf(fp, "    },\n    \"parameters\": {\n");
	gt_int(fp, 6, "total", GT_PARAMS, 0);
	gt_int(fp, 6, "trainable", GT_PARAMS, 0);
	gt_int(fp, 6, "frozen", 0, 1);
	fprintf(fp, "    }\n  },\n  \"scaling\": {\n");
	gt_sweep(fp, "node_scaling", "num_nodes", gt_nodes, 4, 1, 0);
	gt_sweep(fp, "layer_scaling", "num_layers", gt_layers, 5, 0, 1);
	fprintf(fp, "  },\n  \"pe_costs\": {\n");
	static const char *const pe[3] = { "lap", "rwse", "hks" };
	static const double pe_ms[3] = { 12.34, 3.21, 15.67 };
	for (int i = 0; i < 3; i++) {
		fprintf(fp, "    \"%s\": {\n", pe[i]);
		gt_num(fp, 6, "precomputation_ms", f32(pe_ms[i]), 0);
		gt_num(fp, 6, "precomputation_std", f32(pe_ms[i] / 10), 1);
		fprintf(fp, "    }%s\n", i < 2 ? "," : "");
	}
	fprintf(fp, "  }\n}");
}

static inline void gen_gt_expected(FILE *fp)
{
	long long bd[GT_NPARTS];
	long long total = gt_flops(500, 2498, 6, bd);
	fprintf(fp, "flops total %lld (%.4f GFLOPs)\n", total, total / 1e9);
	for (int i = 0; i < GT_NPARTS; i++)
		fprintf(fp, "flops %s %lld (%.4f%%)\n", gt_parts[i], bd[i], 100.0 * bd[i] / total);
	fprintf(fp, "forward GFLOP/s %.4f\n", total / 1e9 / (f32(10.5) / 1000));
	fprintf(fp, "optimizer step ms (training_step - backward) %.4f\n", f32(30.0) - f32(25.3));
	fprintf(fp, "backward only ms (backward - forward) %.4f\n", f32(25.3) - f32(10.5));
	fprintf(fp, "node scaling exponent 1.5 (runtime), 2 (memory)\n");
	fprintf(fp, "layer scaling: t = 5 + 10 L (log-log slope over L=2..12 below 1: fixed cost)\n");
}

#endif
