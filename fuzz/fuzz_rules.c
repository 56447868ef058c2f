/*
 * fuzz_rules.c - libFuzzer target for the rules-file compiler and matcher
 * (parse/rules/rules.c).
 *
 * Input layout: the rules text, then the log lines. If the input holds a
 * line "%%", the rules are everything before it and the log everything
 * after; otherwise the first line is the rules text and the rest the log.
 *
 * The rules text goes to tp_rules_compile: on failure the message must say
 * "fuzz.rules:LINE:COL: ..." (or "fuzz.rules: ..."); on success each log
 * line goes to tp_rules_match (with one scratch, and once with none) and
 * the whole log through a tp_parser that uses the rules; the rules' own
 * @sample pieces are checked against their @expect lines (any answer, a
 * message per differing piece, each "fuzz.rules:LINE: ..."). Records are
 * checked as in every target (fuzz_common.h). A line makes one record
 * when a rule matched it (rc 1) and none otherwise, for rules without the
 * v2 features that break that count on purpose: @each and @more (several
 * records), blocks (a hold block's records come when it ends, on a later
 * line); a context, start, end, header or skip rule takes a line without a
 * record (rc 1, none made), and no line ever makes more than one.
 *
 * tests/test_regress.c includes this file with FUZZ_NO_MAIN defined and
 * calls fuzz_rules_one().
 */
#include "fuzz_common.h"
#include "parse/rules/rules.h"

static void fz_rules_split(const char *buf, size_t n, size_t *rules_n, const char **log,
			   size_t *log_n)
{
	const char *e = buf + n;
	/* a "%%" line: at the start, or after a '\n' */
	for (const char *l = buf; l < e;) {
		const char *nl = memchr(l, '\n', (size_t)(e - l));
		const char *le = nl ? nl : e;
		size_t len = (size_t)(le - l);
		if (len && l[len - 1] == '\r')
			len--;
		if (len == 2 && l[0] == '%' && l[1] == '%') {
			*rules_n = (size_t)(l - buf);
			*log = nl ? nl + 1 : e;
			*log_n = (size_t)(e - *log);
			return;
		}
		l = nl ? nl + 1 : e;
	}
	const char *nl = memchr(buf, '\n', n);
	*rules_n = nl ? (size_t)(nl - buf) : n;
	*log = nl ? nl + 1 : e;
	*log_n = (size_t)(e - *log);
}

static int fuzz_rules_one(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data, *log;
	size_t rules_n, log_n;
	struct strbuf err = STRBUF_INIT;

	fz_rules_split(buf, size, &rules_n, &log, &log_n);
	char *text = fz_copy(buf, rules_n);
	struct tp_rules *rules = tp_rules_compile(text, rules_n, "fuzz.rules", &err);
	free(text);
	if (!rules) {
		if (!err.buf || strncmp(err.buf, "fuzz.rules:", 11) != 0)
			fz_fail("tp_rules_compile failed without a 'fuzz.rules:...' message: %s",
				err.buf ? err.buf : "(none)");
		if (strchr(err.buf, '\n') && strchr(err.buf, '\n')[1] != '\0')
			fz_fail("tp_rules_compile error of more than one line: %s", err.buf);
		strbuf_release(&err);
		return 0;
	}
	if (err.len)
		fz_fail("tp_rules_compile succeeded with a message: %s", err.buf);
	size_t count = tp_rules_count(rules);
	int one_per_line = !memmem(buf, rules_n, "@each", 5) && !memmem(buf, rules_n, "@more", 5) &&
			   !memmem(buf, rules_n, "@block", 6) && !memmem(buf, rules_n, "context", 7);
	/* a context, start, end, header or skip rule takes a line without a record */
	int takes = 0;
	for (size_t i = 0; i < count; i++) {
		struct tp_rule_info info;
		tp_rules_info(rules, i, &info);
		takes |= tp_type_from_name(info.makes, strlen(info.makes)) < 0;
	}

	struct fz_sink s;
	fz_sink_init(&s);
	s.max_line = fz_count_lines(log, log_n);
	struct tp_sink k = fz_tp_sink(&s);
	struct tp_rules_scratch *scratch = tp_rules_scratch_new(rules);
	const char *e = log + log_n;
	uint64_t lineno = 0;
	for (const char *l = log; l < e;) {
		const char *nl = memchr(l, '\n', (size_t)(e - l));
		const char *le = nl ? nl : e;
		size_t len = (size_t)(le - l);
		char *c = fz_copy(l, len);
		uint64_t before = s.records;
		lineno++;
		int rc = tp_rules_match(rules, scratch, c, len, "fuzz.log", lineno, &k);
		if (rc < -1 || rc > 1)
			fz_fail("tp_rules_match returned %d", rc);
		if (one_per_line && ((rc == 1 && !takes && s.records != before + 1) || (rc != 1 && s.records != before) ||
				     s.records > before + 1))
			fz_fail("tp_rules_match returned %d but emitted %llu records", rc,
				(unsigned long long)(s.records - before));
		if (count == 0 && rc != 0)
			fz_fail("an empty rules set matched");
		/* the same without a scratch must give the same answer (blocks and
		 * contexts live in the scratch) */
		if (lineno <= 4 && one_per_line) {
			uint64_t after = s.records;
			int rc2 = tp_rules_match(rules, NULL, c, len, "fuzz.log", lineno, &k);
			if (rc2 != rc || s.records - after != after - before)
				fz_fail("tp_rules_match with and without a scratch: %d vs %d", rc, rc2);
		}
		free(c);
		l = nl ? nl + 1 : e;
	}
	tp_rules_finish(rules, scratch, &k);
	if (!tp_rules_scratch_idle(scratch, lineno + 1 + 16))
		fz_fail("tp_rules_finish left a block open");
	tp_rules_scratch_free(scratch);

	/* the whole log through a parser that tries the rules first */
	struct fz_sink s2;
	fz_sink_init(&s2);
	s2.max_line = s.max_line;
	struct tp_sink k2 = fz_tp_sink(&s2);
	struct tp_parser *p = tp_parser_new("fuzz.log", &k2, rules);
	tp_parse_buffer(p, log, log_n);
	tp_parser_finish(p);
	if (tp_parser_stats(p)->lines != s2.max_line)
		fz_fail("parser with rules counted %llu lines, not %llu",
			(unsigned long long)tp_parser_stats(p)->lines, (unsigned long long)s2.max_line);
	tp_parser_free(p);

	/* the file's own proof: a count no larger than its pieces, one message line each */
	size_t nsamples;
	tp_rules_samples(rules, &nsamples);
	struct strbuf serr = STRBUF_INIT;
	size_t bad = tp_rules_check_samples(rules, 1, &serr);
	if (bad > nsamples)
		fz_fail("tp_rules_check_samples: %zu of %zu pieces differ", bad, nsamples);
	if (bad != 0 && (!serr.buf || strncmp(serr.buf, "fuzz.rules:", 11) != 0))
		fz_fail("tp_rules_check_samples without a 'fuzz.rules:LINE:' message: %s", serr.buf ? serr.buf : "");
	if (!bad && serr.len)
		fz_fail("tp_rules_check_samples: no difference but a message: %s", serr.buf);
	size_t lines = 0;
	for (size_t i = 0; i < serr.len; i++)
		lines += serr.buf[i] == '\n';
	if (bad && lines + 1 < bad)
		fz_fail("tp_rules_check_samples: %zu differences in %zu message lines", bad, lines + 1);
	strbuf_release(&serr);

	fz_sink_free(&s);
	fz_sink_free(&s2);
	tp_rules_free(rules);
	strbuf_release(&err);
	return 0;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_rules_one(data, size);
}
#endif
