/*
 * fuzz_docs.c - libFuzzer target for the whole-document inputs
 * (parse/input/docinput.c): S2's JSON report, S1's CSV and JSON
 * timing exports, S0's timing_data.json.
 *
 * The input goes to tp_doc_detect, then to tp_doc_parse as every kind (the
 * detected one and each forced one, as if named by the user), once with a
 * sink that asks to stop after the first record and once with no warn
 * callback. Contract checked: the return value is 0 or -1, -1 comes with
 * one "fuzz.doc:LINE:COL: message", a JSON kind that fails has emitted
 * nothing, records point at lines of the document, and every record passes
 * the common checks (fuzz_common.h).
 *
 * tests/test_regress.c includes this file with FUZZ_NO_MAIN defined and
 * calls fuzz_docs_one().
 */
#include "parse/input/docinput.h"
#include "fuzz_common.h"

/* "fuzz.doc:LINE:COL: " with LINE, COL >= 1. */
static int fz_docs_msg_ok(const char *m)
{
	unsigned long a, b;
	int off = 0;
	if (!m || strncmp(m, "fuzz.doc:", 9) != 0)
		return 0;
	if (sscanf(m + 9, "%lu:%lu: %n", &a, &b, &off) != 2 || off == 0)
		return 0;
	return a >= 1 && b >= 1 && m[9 + off] != '\0';
}

static void fz_docs_parse(int kind, const char *buf, size_t n, uint64_t lines, int variant)
{
	struct fz_sink s;
	struct strbuf err = STRBUF_INIT;
	fz_sink_init(&s);
	s.max_line = lines;
	struct tp_sink k = fz_tp_sink(&s);
	if (variant == 1)
		s.max_records = 1;
	if (variant == 2)
		k.warn = NULL;
	int rc = tp_doc_parse(kind, buf, n, "fuzz.doc", &k, &err);
	if (rc != 0 && rc != -1)
		fz_fail("tp_doc_parse(%s) returned %d", tp_doc_kind_name(kind), rc);
	if (rc < 0 && !fz_docs_msg_ok(err.buf))
		fz_fail("tp_doc_parse(%s) failed without 'fuzz.doc:LINE:COL: message': %s",
			tp_doc_kind_name(kind), err.buf ? err.buf : "(none)");
	if (rc == 0 && err.len)
		fz_fail("tp_doc_parse(%s) succeeded with a message: %s", tp_doc_kind_name(kind),
			err.buf);
	if (rc < 0 && kind != TP_DOC_CSV && s.records)
		fz_fail("tp_doc_parse(%s) failed after emitting %llu records", tp_doc_kind_name(kind),
			(unsigned long long)s.records);
	if (variant == 1 && s.records > 1)
		fz_fail("tp_doc_parse(%s) went on after the sink asked to stop (%llu records)",
			tp_doc_kind_name(kind), (unsigned long long)s.records);
	fz_sink_free(&s);
	strbuf_release(&err);
}

static int fuzz_docs_one(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	uint64_t lines = fz_count_lines(buf, size);
	if (!lines)
		lines = 1; /* an empty document's errors are at 1:1 */

	int kind = tp_doc_detect(buf, size);
	if (kind != TP_DOC_NONE && kind != TP_DOC_JSON && kind != TP_DOC_CSV)
		fz_fail("tp_doc_detect returned %d", kind);
	if (kind != TP_DOC_NONE)
		fz_docs_parse(kind, buf, size, lines, 0);
	for (int k = TP_DOC_JSON; k <= TP_DOC_CSV; k++) {
		if (tp_doc_kind_from_name(tp_doc_kind_name(k)) != k)
			fz_fail("kind %d does not survive its name", k);
		fz_docs_parse(k, buf, size, lines, 0);
	}
	fz_docs_parse(TP_DOC_JSON, buf, size, lines, 1);
	fz_docs_parse(TP_DOC_CSV, buf, size, lines, 1);
	fz_docs_parse(TP_DOC_JSON, buf, size, lines, 2);
	fz_docs_parse(TP_DOC_CSV, buf, size, lines, 2);
	return 0;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_docs_one(data, size);
}
#endif
