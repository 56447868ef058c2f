/*
 * record.c - the schema of every record type: public field names, where
 * each field lives in struct tp_record, and its unit. This table is the
 * public contract documented in tprof-parse(1); change both together.
 */
#include "record.h"

#include <string.h>

#define NAME(n) { n, TP_F_NAME, 0, "" }
#define TEXT(n) { n, TP_F_TEXT, 0, "" }
#define NUM(n, s, u) { n, TP_F_NUM, s, u }
#define INT(n, s) { n, TP_F_INT, s, "" }

const struct tp_schema tp_schemas[TP_NTYPES] = {
	[TP_STAGE] = { "stage", 1, { NAME("name") } },
	[TP_TIMING] = { "timing", 3, { NAME("name"), NUM("seconds", S_SECONDS, "s"), INT("count", S_TIM_COUNT) } },
	[TP_SUMMARY] = { "summary", 7,
			 { TEXT("section"), NAME("name"), NUM("seconds", S_SECONDS, "s"),
			   NUM("percent", S_SUM_PERCENT, "%"), NUM("cpu_mb", S_SUM_CPU_MB, "MB"),
			   NUM("gpu_mb", S_SUM_GPU_MB, "MB"),
			   NUM("gpu_peak_mb", S_SUM_GPU_PEAK_MB, "MB") } },
	[TP_GPM] = { "gpm", 4,
		     { INT("graphs", S_GPM_GRAPHS), NUM("pattern_gen_ms", S_GPM_PATTERN_MS, "ms"),
		       NUM("total_ms", S_GPM_TOTAL_MS, "ms"),
		       NUM("avg_nodes", S_GPM_AVG_NODES, "") } },
	[TP_META] = { "meta", 2, { NAME("key"), { "value", TP_F_VALUE, S_META_VALUE, "" } } },
	[TP_COMPLETE] = { "complete", 4,
			  { NAME("name"), NUM("seconds", S_SECONDS, "s"),
			    NUM("peak_mb", S_CPL_PEAK_MB, "MB"),
			    NUM("gpu_peak_mb", S_CPL_GPU_PEAK_MB, "MB") } },
	[TP_SPEEDUP] = { "speedup", 4,
			 { NAME("name"), NUM("factor", S_SPD_FACTOR, "x"), TEXT("baseline"),
			   NUM("baseline_s", S_SPD_BASELINE_S, "s") } },
	[TP_LATENCY] = { "latency", 5,
			 { NAME("name"), NUM("mean_ms", S_LAT_MEAN_MS, "ms"),
			   NUM("min_ms", S_LAT_MIN_MS, "ms"), NUM("max_ms", S_LAT_MAX_MS, "ms"),
			   NUM("throughput", S_LAT_THROUGHPUT, "/s") } },
	[TP_WARMUP] = { "warmup", 5,
			{ NAME("name"), NUM("first_s", S_WU_FIRST_S, "s"),
			  NUM("steady_s", S_WU_STEADY_S, "s"), NUM("overhead_s", S_WU_OVERHEAD_S, "s"),
			  NUM("overhead_pct", S_WU_OVERHEAD_PCT, "%") } },
	[TP_RUNTIME] = { "runtime", 12,
			 { NAME("name"), NUM("mean_ms", S_RT_MEAN_MS, "ms"),
			   NUM("std_ms", S_RT_STD_MS, "ms"), NUM("min_ms", S_RT_MIN_MS, "ms"),
			   NUM("max_ms", S_RT_MAX_MS, "ms"), INT("runs", S_RT_RUNS),
			   NUM("median_ms", S_RT_MEDIAN_MS, "ms"), NUM("iqr_ms", S_RT_IQR_MS, "ms"),
			   NUM("q1_ms", S_RT_Q1_MS, "ms"), NUM("q3_ms", S_RT_Q3_MS, "ms"), TEXT("case"),
			   INT("threads", S_RT_THREADS) } },
	[TP_SCALING] = { "scaling", 6,
			 { NAME("param"), NUM("value", S_SC_VALUE, ""),
			   NUM("mean_ms", S_SC_MEAN_MS, "ms"), NUM("std_ms", S_SC_STD_MS, "ms"),
			   NUM("peak_mb", S_SC_PEAK_MB, "MB"), NUM("gflops", S_SC_GFLOPS, "") } },
	[TP_MEMORY] = { "memory", 2, { NAME("name"), NUM("mb", S_MEM_MB, "MB") } },
	[TP_FLOPS] = { "flops", 2, { NAME("name"), NUM("gflops", S_FLOPS_GFLOPS, "GFLOP") } },
	[TP_METRIC] = { "metric", 5,
			{ NAME("name"), INT("step", S_MET_STEP), NUM("avg_s", S_MET_AVG_S, "s"),
			  NUM("total_s", S_MET_TOTAL_S, "s"), INT("count", S_MET_COUNT) } },
	[TP_BATCH] = { "batch", 5,
		       { INT("index", S_BAT_INDEX),
			 NUM("seconds", S_SECONDS, "s"), NUM("gpu_mb", S_BAT_GPU_MB, "MB"),
			 NUM("cpu_mb", S_BAT_CPU_MB, "MB"), NUM("loss", S_BAT_LOSS, "") } },
	[TP_EPOCH] = { "epoch", 4,
		       { NUM("seconds", S_SECONDS, "s"),
			 NUM("gpu_mb", S_EP_GPU_MB, "MB"), NUM("reserved_mb", S_EP_RESERVED_MB, "MB"),
			 NUM("peak_mb", S_EP_PEAK_MB, "MB") } },
	[TP_AGGREGATE] = { "aggregate", 14,
			   { NAME("name"), INT("count", S_AGG_COUNT),
			     NUM("total_s", S_AGG_TOTAL_S, "s"), NUM("mean_s", S_AGG_MEAN_S, "s"),
			     NUM("min_s", S_AGG_MIN_S, "s"), NUM("max_s", S_AGG_MAX_S, "s"),
			     NUM("self_s", S_AGG_SELF_S, "s"), NUM("self_pct", S_AGG_SELF_PCT, "%"),
			     NUM("total_pct", S_AGG_TOTAL_PCT, "%"),
			     NUM("device_self_s", S_AGG_DEV_SELF_S, "s"),
			     NUM("device_self_pct", S_AGG_DEV_SELF_PCT, "%"),
			     NUM("device_total_s", S_AGG_DEV_TOTAL_S, "s"),
			     NUM("device_total_pct", S_AGG_DEV_TOTAL_PCT, "%"),
			     NUM("device_mean_s", S_AGG_DEV_MEAN_S, "s") } },
	[TP_PERF] = { "perf", 5,
		      { NAME("name"), NUM("seconds", S_SECONDS, "s"),
			NUM("cpu_delta_mb", S_PERF_CPU_DELTA_MB, "MB"),
			NUM("gpu_delta_mb", S_PERF_GPU_DELTA_MB, "MB"),
			NUM("gpu_peak_mb", S_PERF_GPU_PEAK_MB, "MB") } },
	[TP_CONFIG] = { "config", 2, { NAME("key"), { "value", TP_F_VALUE, S_META_VALUE, "" } } },
	[TP_RATE] = { "rate", 3,
		      { NAME("name"), NUM("value", S_RATE_VALUE, "/s"), TEXT("unit") } },
	[TP_PROGRESS] = { "progress", 7,
			  { NAME("name"), INT("n", S_PRG_N), INT("total", S_PRG_TOTAL),
			    NUM("elapsed_s", S_PRG_ELAPSED_S, "s"),
			    NUM("remaining_s", S_PRG_REMAINING_S, "s"), NUM("rate", S_PRG_RATE, "/s"),
			    TEXT("unit") } },
};

void tp_type_names(struct strbuf *sb, const char *sep)
{
	for (int t = 0; t < TP_NTYPES; t++)
		strbuf_addf(sb, "%s%s", t ? sep : "", tp_schemas[t].type_name);
}

int tp_type_from_name(const char *s, size_t n)
{
	for (int t = 0; t < TP_NTYPES; t++) {
		const char *tn = tp_schemas[t].type_name;
		if (strlen(tn) == n && memcmp(tn, s, n) == 0)
			return t;
	}
	return -1;
}

int tp_field_index(enum tp_type t, const char *name, size_t n)
{
	if ((int)t < 0 || t >= TP_NTYPES)
		return -1;
	const struct tp_schema *sc = &tp_schemas[t];
	for (int i = 0; i < sc->nfields; i++)
		if (strlen(sc->fields[i].name) == n && memcmp(sc->fields[i].name, name, n) == 0)
			return i;
	return -1;
}

static const char *const role_names[TP_NROLES] = {
	[TP_ROLE_NONE] = "", [TP_ROLE_STEP] = "step", [TP_ROLE_COMPONENT] = "component",
	[TP_ROLE_PHASE] = "phase", [TP_ROLE_RUNNING] = "running", [TP_ROLE_AVERAGE] = "average",
	[TP_ROLE_CLOCK] = "clock", [TP_ROLE_RATE] = "rate", [TP_ROLE_ETA] = "eta",
	[TP_ROLE_QUANTITY] = "quantity",
};

const char *tp_role_name(enum tp_role role)
{
	return (int)role >= 0 && role < TP_NROLES ? role_names[role] : "";
}

int tp_role_from_name(const char *s, size_t n)
{
	for (int i = 1; i < TP_NROLES; i++)
		if (strlen(role_names[i]) == n && !memcmp(role_names[i], s, n))
			return i;
	return -1;
}

enum tp_role tp_role_of(const struct tp_record *r)
{
	if (r->role != TP_ROLE_NONE)
		return r->role;
	switch (r->type) {
	case TP_TIMING:
	case TP_COMPLETE:
	case TP_EPOCH:
		return TP_ROLE_PHASE;
	case TP_BATCH:
		return TP_ROLE_STEP;
	case TP_RATE:
		return TP_ROLE_RATE;
	case TP_PROGRESS:
		return TP_ROLE_CLOCK;
	case TP_MEMORY:
	case TP_FLOPS:
	case TP_CONFIG:
		return TP_ROLE_QUANTITY;
	default:
		return TP_ROLE_NONE;
	}
}
