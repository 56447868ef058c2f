/*
 * test_docinput.c - unit tests of whole-document inputs (parse/input/docinput.c):
 * the S2 JSON report verbatim, the S1 CSV and JSON exports of
 * the timers {'MLP': 120.0, 'SIREN': 90.0, 'KAN': 150.0}, S0's
 * timing_data.json, detection (NDJSON is never a document), and errors
 * with file:line:col for broken JSON and broken CSV quoting.
 */
#include <criterion/criterion.h>

#include <string.h>

#include "parse/input/docinput.h"
#include "testutil.h"

/* The "JSON Output" example of S2, verbatim. */
static const char seed002_report[] =
	"{\n"
	"  \"timestamp\": \"2024-01-01T12:00:00\",\n"
	"  \"hardware\": {\n"
	"    \"cuda_available\": true,\n"
	"    \"gpu_name\": \"NVIDIA A100\",\n"
	"    \"gpu_memory_gb\": 40.0\n"
	"  },\n"
	"  \"model_info\": {\n"
	"    \"total_parameters\": 1234567,\n"
	"    \"parameter_memory_mb\": 4.71\n"
	"  },\n"
	"  \"runtime\": {\n"
	"    \"forward\": {\"mean\": 10.5, \"std\": 1.2, \"unit\": \"ms\"},\n"
	"    \"backward\": {\"mean\": 25.3, \"std\": 2.1, \"unit\": \"ms\"}\n"
	"  },\n"
	"  \"memory\": {\n"
	"    \"peak_mb\": 512.0,\n"
	"    \"breakdown\": {\n"
	"      \"parameters\": 50.0,\n"
	"      \"activations\": 400.0\n"
	"    }\n"
	"  },\n"
	"  \"flops\": {\n"
	"    \"total_gflops\": 12.5,\n"
	"    \"breakdown\": {\n"
	"      \"attention\": 8.0,\n"
	"      \"ffn\": 3.5\n"
	"    }\n"
	"  }\n"
	"}\n";

/* Runs tp_doc_parse on a NUL-terminated text; the error text, if any, is
 * left in err. */
static int parse_doc(int kind, const char *text, const char *file, struct collector *c,
		     struct strbuf *err)
{
	struct tp_sink sink = collect_sink(c);

	strbuf_reset(err);
	return tp_doc_parse(kind, text, strlen(text), file, &sink, err);
}

static const struct tp_record *find(const struct collector *c, enum tp_type t,
				    const char *name)
{
	const struct tp_record *r = collected_find(c, t, name);
	cr_assert_not_null(r, "no %s record \"%s\"", tp_schemas[t].type_name, name);
	return r;
}

static void expect_num(const struct tp_record *r, int slot, double want)
{
	cr_expect(tp_has(r, slot), "%s: slot %d missing", r->name, slot);
	cr_expect_eq(r->num[slot], want, "%s: slot %d is %.17g, want %.17g", r->name, slot,
		     r->num[slot], want);
}

/* ---- S2 report --------------------------------------------------- */

Test(docinput, seed002_report_values)
{
	struct collector c = { 0 };
	struct strbuf err = STRBUF_INIT;
	const struct tp_record *r;

	cr_assert_eq(tp_doc_detect(seed002_report, strlen(seed002_report)), TP_DOC_JSON);
	cr_assert_eq(parse_doc(TP_DOC_JSON, seed002_report, "report.json", &c, &err), 0, "%s",
		     err.buf);
	cr_expect_eq(c.nwarn, 0, "warning: %s", c.nwarn ? c.warnings[0] : "");
	cr_expect_eq(c.n, 13);

	r = find(&c, TP_RUNTIME, "forward");
	expect_num(r, S_RT_MEAN_MS, 10.5);
	expect_num(r, S_RT_STD_MS, 1.2);
	cr_expect_eq(r->line, 13);
	cr_expect_str_eq(r->file, "report.json");
	cr_expect_str_eq(r->ts, "2024-01-01T12:00:00");
	cr_expect_eq(r->rank, -1);
	r = find(&c, TP_RUNTIME, "backward");
	expect_num(r, S_RT_MEAN_MS, 25.3);
	expect_num(r, S_RT_STD_MS, 2.1);
	cr_expect_eq(r->line, 14);

	r = find(&c, TP_MEMORY, "peak");
	expect_num(r, S_MEM_MB, 512.0);
	cr_expect_eq(r->line, 17);
	expect_num(find(&c, TP_MEMORY, "parameters"), S_MEM_MB, 50.0);
	r = find(&c, TP_MEMORY, "activations");
	expect_num(r, S_MEM_MB, 400.0);
	cr_expect_eq(r->line, 20);

	expect_num(find(&c, TP_FLOPS, "total"), S_FLOPS_GFLOPS, 12.5);
	expect_num(find(&c, TP_FLOPS, "attention"), S_FLOPS_GFLOPS, 8.0);
	expect_num(find(&c, TP_FLOPS, "ffn"), S_FLOPS_GFLOPS, 3.5);

	r = find(&c, TP_META, "hardware.gpu_name");
	cr_expect_str_eq(r->text, "NVIDIA A100");
	cr_expect_not(tp_has(r, S_META_VALUE));
	cr_expect_eq(r->line, 5);
	cr_expect_str_eq(find(&c, TP_META, "hardware.cuda_available")->text, "true");
	expect_num(find(&c, TP_META, "hardware.gpu_memory_gb"), S_META_VALUE, 40.0);
	expect_num(find(&c, TP_META, "model_info.total_parameters"), S_META_VALUE, 1234567.0);
	expect_num(find(&c, TP_META, "model_info.parameter_memory_mb"), S_META_VALUE, 4.71);

	/* Document order, and every record carries the report's timestamp. */
	cr_expect_eq(c.v[0].rec.type, TP_META);
	cr_expect_str_eq(c.v[0].rec.name, "hardware.cuda_available");
	cr_expect_eq(c.v[5].rec.type, TP_RUNTIME);
	cr_expect_eq(c.v[12].rec.type, TP_FLOPS);
	for (size_t i = 0; i < c.n; i++)
		cr_expect_str_eq(c.v[i].rec.ts, "2024-01-01T12:00:00");
	collector_free(&c);
	strbuf_release(&err);
}

Test(docinput, report_forced_kind_and_units)
{
	struct collector c = { 0 };
	struct strbuf err = STRBUF_INIT;
	const char *doc =
		"{\"timestamp\": \"2024-01-01 12:00:00.5+02:00\",\n"
		" \"runtime\": {\"a\": {\"mean\": 0.25, \"std\": 0.01, \"min\": 0.2, \"max\": 0.3,"
		" \"num_runs\": 100, \"unit\": \"s\"},\n"
		"  \"b\": {\"mean\": 1500, \"unit\": \"us\"}, \"c\": 7.5,\n"
		"  \"d\": {\"mean\": 1, \"unit\": \"fortnights\"}, \"e\": {\"std\": 1}},\n"
		" \"memory\": {\"allocated_mb\": 10, \"reserved_gb\": 2, \"device\": \"cuda:0\"},\n"
		" \"flops\": {\"attn_flops\": 3e9, \"total\": 42}}";
	const struct tp_record *r;

	cr_assert_eq(parse_doc(TP_DOC_REPORT, doc, "r.json", &c, &err), 0, "%s", err.buf);
	r = find(&c, TP_RUNTIME, "a");
	expect_num(r, S_RT_MEAN_MS, 250.0);
	expect_num(r, S_RT_STD_MS, 10.0);
	expect_num(r, S_RT_MIN_MS, 200.0);
	expect_num(r, S_RT_MAX_MS, 300.0);
	expect_num(r, S_RT_RUNS, 100.0);
	cr_expect_str_eq(r->ts, "2024-01-01T12:00:00.500");
	expect_num(find(&c, TP_RUNTIME, "b"), S_RT_MEAN_MS, 1.5);
	expect_num(find(&c, TP_RUNTIME, "c"), S_RT_MEAN_MS, 7.5);
	cr_expect_null(collected_find(&c, TP_RUNTIME, "d"));
	cr_expect_null(collected_find(&c, TP_RUNTIME, "e"));
	cr_assert_eq(c.nwarn, 2);
	cr_expect_str_eq(c.warnings[0], "4: runtime \"d\": unknown \"unit\": skipped");
	cr_expect_str_eq(c.warnings[1], "4: runtime \"e\": no numeric \"mean\": skipped");
	expect_num(find(&c, TP_MEMORY, "allocated"), S_MEM_MB, 10.0);
	expect_num(find(&c, TP_MEMORY, "reserved"), S_MEM_MB, 2048.0);
	cr_expect_str_eq(find(&c, TP_META, "memory.device")->text, "cuda:0");
	expect_num(find(&c, TP_FLOPS, "attn"), S_FLOPS_GFLOPS, 3.0);
	expect_num(find(&c, TP_META, "flops.total"), S_META_VALUE, 42.0);
	collector_free(&c);
	strbuf_release(&err);
}

Test(docinput, report_bad_timestamp_and_nested_meta)
{
	struct collector c = { 0 };
	struct strbuf err = STRBUF_INIT;
	const char *doc = "{\"timestamp\": \"yesterday\", \"hardware\": {\"gpus\": [\"A\", null, 2],"
			  " \"x\": {\"y\": false}}}";

	cr_assert_eq(parse_doc(TP_DOC_JSON, doc, "r.json", &c, &err), 0, "%s", err.buf);
	cr_assert_eq(c.nwarn, 1);
	cr_expect_str_eq(c.warnings[0], "1: \"timestamp\" is not an ISO 8601 date-time: ignored");
	cr_assert_eq(c.n, 3);
	cr_expect_str_eq(c.v[0].rec.name, "hardware.gpus.0");
	cr_expect_str_eq(c.v[0].rec.text, "A");
	cr_expect_null(c.v[0].rec.ts);
	cr_expect_str_eq(c.v[1].rec.name, "hardware.gpus.2");
	expect_num(&c.v[1].rec, S_META_VALUE, 2.0);
	cr_expect_str_eq(c.v[2].rec.name, "hardware.x.y");
	cr_expect_str_eq(c.v[2].rec.text, "false");
	collector_free(&c);
	strbuf_release(&err);
}

/* ---- S1 exports -------------------------------------------------- */

static void expect_timers(const struct collector *c, const char *section, uint64_t first_line)
{
	static const char *const names[] = { "MLP", "SIREN", "KAN" };
	static const double secs[] = { 120.0, 90.0, 150.0 };

	cr_assert_eq(c->n, 3);
	for (size_t i = 0; i < 3; i++) {
		const struct tp_record *r = &c->v[i].rec;
		cr_expect_eq(r->type, TP_SUMMARY);
		cr_expect_str_eq(r->name, names[i]);
		expect_num(r, S_SECONDS, secs[i]);
		if (section)
			cr_expect_str_eq(r->text, section);
		else
			cr_expect_null(r->text);
		cr_expect_eq(r->line, first_line + i);
	}
}

/* What Python's csv.writer writes (\r\n line ends). */
static const char seed001_csv[] = "Section,Model,Time (s)\r\n"
				  "Section 1.1,MLP,120.0\r\n"
				  "Section 1.1,SIREN,90.0\r\n"
				  "Section 1.1,KAN,150.0\r\n";

Test(docinput, seed001_csv_export)
{
	struct collector c = { 0 };
	struct strbuf err = STRBUF_INIT;

	cr_assert_eq(tp_doc_detect(seed001_csv, strlen(seed001_csv)), TP_DOC_CSV);
	cr_assert_eq(parse_doc(TP_DOC_CSV, seed001_csv, "sec1_timing.csv", &c, &err), 0, "%s",
		     err.buf);
	cr_expect_eq(c.nwarn, 0);
	expect_timers(&c, "Section 1.1", 2);
	cr_expect_str_eq(c.v[0].rec.file, "sec1_timing.csv");
	cr_expect_null(c.v[0].rec.ts);
	collector_free(&c);
	strbuf_release(&err);
}

Test(docinput, csv_quoted_reordered_multiline)
{
	struct collector c = { 0 };
	struct strbuf err = STRBUF_INIT;
	const char *csv = "\"Model\",\"Time (s)\",\"Section\",\"Note\"\n"
			  "\"MLP\",\"120.0\",\"a \"\"quoted\"\"\nsection\",x\n"
			  "\n"
			  "SIREN, 90.0 ,s\n"
			  "KAN,fast,s\n"
			  "GAN\n"
			  "BERT,1e3,s";

	cr_assert_eq(tp_doc_detect(csv, strlen(csv)), TP_DOC_CSV);
	cr_assert_eq(parse_doc(TP_DOC_CSV, csv, "t.csv", &c, &err), 0, "%s", err.buf);
	cr_assert_eq(c.n, 3);
	cr_expect_str_eq(c.v[0].rec.name, "MLP");
	cr_expect_str_eq(c.v[0].rec.text, "a \"quoted\"\nsection");
	cr_expect_eq(c.v[0].rec.line, 2);
	cr_expect_str_eq(c.v[1].rec.name, "SIREN");
	expect_num(&c.v[1].rec, S_SECONDS, 90.0);
	cr_expect_eq(c.v[1].rec.line, 5);
	cr_expect_str_eq(c.v[2].rec.name, "BERT");
	expect_num(&c.v[2].rec, S_SECONDS, 1000.0);
	cr_expect_eq(c.v[2].rec.line, 8);
	cr_assert_eq(c.nwarn, 2);
	cr_expect_str_eq(c.warnings[0], "6: CSV \"Time (s)\" is not a number: skipped");
	cr_expect_str_eq(c.warnings[1], "7: CSV row has 1 cells, too few for the header: skipped");
	collector_free(&c);
	strbuf_release(&err);
}

Test(docinput, csv_broken_quoting)
{
	struct collector c = { 0 };
	struct strbuf err = STRBUF_INIT;

	cr_expect_eq(parse_doc(TP_DOC_CSV,
			       "Section,Model,Time (s)\nS,MLP,120.0\nS,SI\"REN,90.0\nS,KAN,150.0\n",
			       "b.csv", &c, &err),
		     -1);
	cr_expect_str_eq(err.buf, "b.csv:3:5: broken CSV quoting");
	cr_assert_eq(c.n, 1); /* the row before the error stays emitted */
	cr_expect_str_eq(c.v[0].rec.name, "MLP");
	collector_free(&c);

	cr_expect_eq(parse_doc(TP_DOC_CSV, "Section,Model,Time (s)\nS,\"MLP\"x,1\n", "b.csv", &c,
			       &err),
		     -1);
	cr_expect_str_eq(err.buf, "b.csv:2:8: broken CSV quoting");
	collector_free(&c);

	cr_expect_eq(parse_doc(TP_DOC_CSV,
			       "Section,Model,Time (s)\nS,MLP,1\nS,\"a\"\"b\",\"KAN,150.0\nmore\n",
			       "b.csv", &c, &err),
		     -1);
	cr_expect_str_eq(err.buf, "b.csv:3:10: unterminated quoted CSV field");
	cr_expect_eq(c.n, 1);
	collector_free(&c);
	strbuf_release(&err);
}

Test(docinput, csv_without_header)
{
	struct collector c = { 0 };
	struct strbuf err = STRBUF_INIT;

	cr_expect_eq(tp_doc_detect("a,b,c\n1,2,3\n", 12), TP_DOC_NONE);
	cr_expect_eq(parse_doc(TP_DOC_CSV, "a,b,c\n1,2,3\n", "x.csv", &c, &err), -1);
	cr_expect(strstr(err.buf, "x.csv:1:1: not a timing CSV export") == err.buf, "%s", err.buf);
	cr_expect_eq(c.n, 0);
	cr_expect_eq(parse_doc(TP_DOC_CSV, "", "e.csv", &c, &err), -1);
	cr_expect(strstr(err.buf, "e.csv:1:1: not a timing CSV export") == err.buf, "%s", err.buf);
	collector_free(&c);
	strbuf_release(&err);
}

Test(docinput, seed001_json_export)
{
	struct collector c = { 0 };
	struct strbuf err = STRBUF_INIT;
	const char *doc = "{\n"
			  "  \"section\": \"Section 1.1\",\n"
			  "  \"timestamp\": \"2024-01-01T12:00:00.123456\",\n"
			  "  \"timings\": {\n"
			  "    \"MLP\": 120.0,\n"
			  "    \"SIREN\": 90.0,\n"
			  "    \"KAN\": 150.0\n"
			  "  }\n"
			  "}";

	cr_assert_eq(tp_doc_detect(doc, strlen(doc)), TP_DOC_JSON);
	cr_assert_eq(parse_doc(TP_DOC_JSON, doc, "sec1_timing.json", &c, &err), 0, "%s", err.buf);
	expect_timers(&c, "Section 1.1", 5);
	cr_expect_str_eq(c.v[0].rec.ts, "2024-01-01T12:00:00.123");
	collector_free(&c);
	strbuf_release(&err);
}

Test(docinput, seed001_json_export_nested_and_bare)
{
	struct collector c = { 0 };
	struct strbuf err = STRBUF_INIT;
	const char *nested =
		"{\"section\": \"S\", \"timings\": {"
		"\"KAN training\": {\"time\": 12.45, \"allocated_mb\": 512.1, \"reserved_mb\": 1024.0,"
		" \"max_allocated_mb\": 1024.3},"
		" \"Model\": {\"time\": 45.32, \"peak_memory_mb\": 234.5, \"current_memory_mb\": 123.4},"
		" \"broken\": {\"peak_memory_mb\": 1}}}";
	const struct tp_record *r;

	cr_assert_eq(parse_doc(TP_DOC_JSON, nested, "n.json", &c, &err), 0, "%s", err.buf);
	cr_assert_eq(c.n, 2);
	r = find(&c, TP_SUMMARY, "KAN training");
	expect_num(r, S_SECONDS, 12.45);
	expect_num(r, S_SUM_GPU_MB, 512.1);
	expect_num(r, S_SUM_GPU_PEAK_MB, 1024.3);
	cr_expect_not(tp_has(r, S_SUM_CPU_MB));
	r = find(&c, TP_SUMMARY, "Model");
	expect_num(r, S_SECONDS, 45.32);
	expect_num(r, S_SUM_CPU_MB, 234.5);
	cr_assert_eq(c.nwarn, 1);
	cr_expect_str_eq(c.warnings[0], "1: timer \"broken\": no time in seconds: skipped");
	collector_free(&c);

	/* The timers dict itself, as json.dump(timers) writes it. */
	cr_assert_eq(parse_doc(TP_DOC_JSON, "{\"MLP\": 120.0,\n \"SIREN\": 90.0,\n \"KAN\": 150.0}",
			       "bare.json", &c, &err),
		     0, "%s", err.buf);
	expect_timers(&c, NULL, 1);
	collector_free(&c);
	strbuf_release(&err);
}

/* ---- S0 timing_data.json ----------------------------------------- */

Test(docinput, seed000_timing_data)
{
	struct collector c = { 0 };
	struct strbuf err = STRBUF_INIT;
	const char *doc = "{\n"
			  "  \"timings\": {\n"
			  "    \"Argument parsing\": 0.12,\n"
			  "    \"LLM model loading\": 44.23,\n"
			  "    \"Main training loop\": 2345.67\n"
			  "  },\n"
			  "  \"total_time\": 2409.93\n"
			  "}";

	cr_assert_eq(tp_doc_detect(doc, strlen(doc)), TP_DOC_JSON);
	cr_assert_eq(parse_doc(TP_DOC_JSON, doc, "timing_data.json", &c, &err), 0, "%s", err.buf);
	cr_assert_eq(c.n, 4);
	cr_expect_str_eq(c.v[0].rec.name, "Argument parsing");
	expect_num(&c.v[0].rec, S_SECONDS, 0.12);
	cr_expect_eq(c.v[0].rec.line, 3);
	cr_expect_str_eq(c.v[2].rec.name, "Main training loop");
	expect_num(&c.v[2].rec, S_SECONDS, 2345.67);
	cr_expect_str_eq(c.v[3].rec.name, "WALL"); /* wall time, not the rows' TOTAL */
	expect_num(&c.v[3].rec, S_SECONDS, 2409.93);
	cr_expect_eq(c.v[3].rec.line, 7);
	for (size_t i = 0; i < c.n; i++) {
		cr_expect_eq(c.v[i].rec.type, TP_SUMMARY);
		cr_expect_str_eq(c.v[i].rec.text, "timing_data");
	}
	collector_free(&c);
	strbuf_release(&err);
}

/* ---- detection, errors, stopping ---------------------------------------- */

Test(docinput, detect)
{
	static const struct {
		const char *text;
		int kind;
	} cases[] = {
		{ "", TP_DOC_NONE },
		{ "   \n", TP_DOC_NONE },
		{ "[2024-10-13 22:30:00] [STAGE] start\n", TP_DOC_NONE },
		{ "{\"type\":\"timing\",\"file\":\"a\",\"line\":1}\n{\"type\":\"stage\"}\n",
		  TP_DOC_NONE },
		{ "{\"type\":\"timing\"}", TP_DOC_NONE },
		{ "{\"loss\": 0.5}\n{\"loss\": 0.4}\n", TP_DOC_NONE },
		{ "{'MLP': 120.0}\n", TP_DOC_NONE },
		{ "[1, 2]", TP_DOC_NONE },
		{ "{\"MLP\": 120.0}", TP_DOC_JSON },
		{ "{\"MLP\": 120.0}\n", TP_DOC_JSON },
		{ "\xEF\xBB\xBF\n  {\n  \"timings\": {}\n}", TP_DOC_JSON },
		{ "{}", TP_DOC_NONE },
		{ "\"Section\",\"Model\",\"Time (s)\"\r\n", TP_DOC_CSV },
		{ "section,model,time (s)", TP_DOC_CSV },
		{ "Section,Model\n", TP_DOC_NONE },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		cr_expect_eq(tp_doc_detect(cases[i].text, strlen(cases[i].text)), cases[i].kind,
			     "case %zu <%s>", i, cases[i].text);
	cr_expect_eq(tp_doc_detect(seed002_report, 1), TP_DOC_NONE);
}

Test(docinput, invalid_json_reports_position)
{
	struct collector c = { 0 };
	struct strbuf err = STRBUF_INIT;

	cr_expect_eq(parse_doc(TP_DOC_JSON, "{\n  \"runtime\": {\"forward\": {\"mean\": 1e999}}\n}",
			       "r.json", &c, &err),
		     -1);
	cr_expect_str_eq(err.buf, "r.json:2:35: invalid JSON: number out of range");
	cr_expect_eq(c.n, 0);
	cr_expect_eq(parse_doc(TP_DOC_JSON, "{\"timings\": {\"a\": 1}", "t.json", &c, &err), -1);
	cr_expect_str_eq(err.buf,
			 "t.json:1:21: invalid JSON: unexpected end of input, expected ',' or '}'");
	cr_expect_eq(c.n, 0);
	collector_free(&c);
	strbuf_release(&err);
}

Test(docinput, unknown_json_shape)
{
	struct collector c = { 0 };
	struct strbuf err = STRBUF_INIT;

	cr_expect_eq(parse_doc(TP_DOC_JSON, "{\"name\": \"x\", \"lr\": \"0.1\"}", "c.json", &c, &err),
		     -1);
	cr_expect(strstr(err.buf, "c.json:1:1: not a known timing document") == err.buf, "%s",
		  err.buf);
	cr_expect_eq(parse_doc(TP_DOC_TIMING_DATA, "  [1]", "c.json", &c, &err), -1);
	cr_expect(strstr(err.buf, "c.json:1:3: not a known timing document") == err.buf, "%s",
		  err.buf);
	cr_expect_eq(parse_doc(TP_DOC_TIMING_DATA, "{\"total_time\": 1}", "c.json", &c, &err), -1);
	cr_expect_eq(parse_doc(TP_DOC_NONE, "{}", "c.json", &c, &err), -1);
	cr_expect_eq(c.n, 0);
	collector_free(&c);
	strbuf_release(&err);
}

Test(docinput, sink_can_stop)
{
	struct collector c = { 0 };
	struct strbuf err = STRBUF_INIT;

	c.stop_after = 2;
	cr_expect_eq(parse_doc(TP_DOC_JSON, seed002_report, "r.json", &c, &err), 0);
	cr_expect_eq(c.n, 2);
	collector_free(&c);
	c.stop_after = 1;
	cr_expect_eq(parse_doc(TP_DOC_CSV, seed001_csv, "r.csv", &c, &err), 0);
	cr_expect_eq(c.n, 1);
	collector_free(&c);
	strbuf_release(&err);
}

Test(docinput, kind_names)
{
	cr_expect_str_eq(tp_doc_kind_name(TP_DOC_REPORT), "report");
	cr_expect_str_eq(tp_doc_kind_name(TP_DOC_TIMING_DATA), "timing-data");
	cr_expect_null(tp_doc_kind_name(TP_DOC_NONE));
	cr_expect_null(tp_doc_kind_name(99));
	cr_expect_eq(tp_doc_kind_from_name("csv"), TP_DOC_CSV);
	cr_expect_eq(tp_doc_kind_from_name("nope"), TP_DOC_NONE);
}
