/*
 * docinput.h - whole-document inputs that become the same typed records as
 * the log lines: the JSON report of the Graph Transformer profiling
 * framework (S2), the CSV and JSON timing exports of the KAN/MLP/SIREN
 * timing utilities (S1) and Graph-LLaVA's timing_data.json (S0).
 *
 * Mapping (the public contract; see also tprof-parse(1)):
 *  - report: "timestamp" becomes every record's ts. "runtime": each member
 *    {mean, std, min, max, num_runs, unit} -> runtime record (name = key,
 *    *_ms fields converted from unit "s", "us"/"µs" or "ns"; default "ms");
 *    a bare number is a mean in ms. "memory": numeric "<x>_mb" members ->
 *    memory record named <x> ("peak_mb" -> "peak"), "<x>_gb" likewise (x1024),
 *    and each numeric member of "breakdown" (MB). "flops": "<x>_gflops" ->
 *    flops record named <x> ("total_gflops" -> "total"), "<x>_tflops" (x1000),
 *    "<x>_flops" (/1e9), and each numeric member of "breakdown" (GFLOPs, as
 *    the seed's example). Every other scalar, at any depth and in any other
 *    section, becomes a meta record whose name is its dotted path
 *    ("hardware.gpu_name", "runs.0") and whose value is the number, or the
 *    text (booleans as "true"/"false"); nulls are skipped.
 *  - timing export (JSON): a top-level object whose "timings" member (or,
 *    lacking it, the object itself minus "section"/"timestamp") maps names
 *    to seconds, or to objects with "time" (seconds), "peak_memory_mb"
 *    (-> cpu_mb), "allocated_mb" (-> gpu_mb) and "max_allocated_mb"
 *    (-> gpu_peak_mb). Summary records: name = the key, text = "section".
 *  - timing export (CSV): header with columns "Section", "Model" and
 *    "Time (s)" in any order (case-insensitive, extra columns ignored); one
 *    summary record per row.
 *  - timing_data.json: {"timings": {stage: seconds}, "total_time": x} ->
 *    summary records with text "timing_data", then name "TOTAL" for total_time.
 *  Timestamps are normalized to "YYYY-MM-DDTHH:MM:SS[.fff]" (time zone
 *  dropped); one that is not ISO 8601 is warned about and left out.
 *  A record's line is the line where its value appears (CSV: the row's
 *  first line). Values of the wrong type are warned about through the
 *  sink and skipped.
 */
#ifndef TPROF_DOCINPUT_H
#define TPROF_DOCINPUT_H

#include <stddef.h>

#include "parse/lines/parser.h"
#include "base/base.h"

enum tp_doc_kind {
	TP_DOC_NONE = 0,
	TP_DOC_JSON,        /* some JSON document: its keys pick one of the next three */
	TP_DOC_REPORT,      /* S2 profiling report */
	TP_DOC_EXPORT,      /* S1 export_timing_json */
	TP_DOC_TIMING_DATA, /* S0 timing_data.json */
	TP_DOC_CSV          /* S1 export_timing_csv */
};

/*
 * Sniffs the first bytes: TP_DOC_JSON for a document whose first non-blank
 * byte opens an object with a string key, TP_DOC_CSV for a first line that
 * is the export's header, else TP_DOC_NONE (a log). tprof-parse's NDJSON
 * (first key "type") and any other one-object-per-line stream (a first
 * line that is a whole object, followed by more lines) are not documents.
 * Looks at no more than the first 64 KiB.
 */
int tp_doc_detect(const char *buf, size_t n);

/*
 * Parses buf[0..n) as kind and emits records through sink (sink->warn may
 * be NULL). file is the display name for records and messages. Returns 0
 * (also when sink->emit asked to stop), or -1 with "file:line:col: message"
 * appended to err: invalid JSON, broken CSV quoting, a JSON document of
 * none of the known shapes, a CSV without the export's header. JSON is
 * parsed whole before anything is emitted, so on a JSON error nothing has
 * been emitted; a CSV error keeps the records of the rows before it.
 */
int tp_doc_parse(int kind, const char *buf, size_t n, const char *file,
		 const struct tp_sink *sink, struct strbuf *err);

/*
 * Reads path into buf if its name ends in .json or .csv and it is at most
 * 64 MiB, and returns tp_doc_detect's kind; TP_DOC_NONE otherwise (then
 * the file is a log, or missing: the log reader reports that).
 */
int tp_doc_load(const char *path, struct strbuf *buf);

/* "json", "report", "export", "timing-data", "csv"; NULL for others. */
const char *tp_doc_kind_name(int kind);
/* The kind with that name, or TP_DOC_NONE. */
int tp_doc_kind_from_name(const char *name);

#endif
