/*
 * fuzz_lines.c - libFuzzer target for the streaming line parser (all the
 * built-in formats of parse/lines/lines.c, parse/lines/blocks.c and parse/lines/parser.c).
 *
 * The input is split into lines on '\n', each line copied into its own
 * exact-size allocation, and fed to a tp_parser three times:
 *   A. whole lines with tp_parser_line, no rules;
 *   B. the same lines in parts split after each '\r' (tp_parser_feed with
 *      TP_LINE_START/TP_LINE_END, as input.c hands out a line longer than
 *      its buffer): records, warnings and statistics must equal A's;
 *   C. whole lines with a small rules set (the rules are tried first).
 * Every record is checked (fuzz_common.h); on A it is also written in every
 * format, on A and C its NDJSON must read back to the same record.
 *
 * Build and run: make fuzz (mk/fuzz.mk). tests/test_regress.c includes
 * this file with FUZZ_NO_MAIN defined and calls fuzz_lines_one().
 */
#include "fuzz_common.h"
#include "parse/rules/rules.h"

static const char fz_lines_rules_text[] =
	"# a small rules set touching every kind of captured value\n"
	"stage      ^>> stage (?<name>\\w+)$\n"
	"timing     ^\\[TIME\\] (?<name>\\w+)=(?<seconds>.+)$\n"
	"aggregate  ^(?<name>\\w+) total=\\s*(?<total_s>.+?)\\s+mean=\\s*(?<mean_s>\\S+)\\s+calls=\\s*(?<count>\\d+)$\n"
	"memory     name=\"gpu_peak\"  ^mem peak gpu: (?<mb>.+)$\n"
	"memory     ^mem peak (?<name>\\w+): (?<mb>.+)$\n"
	"meta       ^config (?<key>\\w+) = (?<value>.+)$\n"
	"runtime    ^rt (?<ts>\\S+) r(?<rank>\\S+) (?<name>\\w+) (?<mean_ms>\\S+)(?: runs=(?<runs>\\S+))?\n"
	"summary    section=\"fz\" ^sum (?<name>[^:]+): (?<seconds>\\S+) (?<percent>\\S+)%$\n"
	"speedup    ^speedup (?<name>\\w+) (?<factor>\\S+)x vs (?<baseline>\\w+)\n";

static struct tp_rules *fz_lines_rules;

static const struct tp_rules *fz_lines_get_rules(void)
{
	if (!fz_lines_rules) {
		struct strbuf err = STRBUF_INIT;
		fz_lines_rules = tp_rules_compile(fz_lines_rules_text, sizeof(fz_lines_rules_text) - 1,
						  "fuzz.rules", &err);
		if (!fz_lines_rules)
			fz_fail("the built-in rules do not compile: %s", err.buf ? err.buf : "?");
		strbuf_release(&err);
	}
	return fz_lines_rules;
}

/* Appends each record's NDJSON and each warning to trace, for comparison. */
static int fz_lines_emit(void *ctx, const struct tp_record *r)
{
	struct fz_sink *s = ctx;
	fz_emit(ctx, r);
	tp_record_to_json(r, s->trace);
	strbuf_addch(s->trace, '\n');
	return 0;
}

static void fz_lines_warn(void *ctx, const char *file, uint64_t line, const char *msg)
{
	struct fz_sink *s = ctx;
	fz_warn(ctx, file, line, msg);
	strbuf_addf(s->trace, "W %llu %s\n", (unsigned long long)line, msg);
}

enum { FZ_WHOLE, FZ_PARTS, FZ_RULES };

static void fz_lines_pass(const char *buf, size_t n, int mode, struct strbuf *trace,
			  struct tp_stats *st)
{
	struct fz_sink s;
	fz_sink_init(&s);
	s.trace = trace;
	s.max_line = fz_count_lines(buf, n);
	/* the writers and the read-back are checked once per record kind:
	 * on pass A (built-in formats) and, read-back only, on C (rules) */
	s.all_formats = mode == FZ_WHOLE;
	s.check_roundtrip = mode != FZ_PARTS;
	struct tp_sink k = { fz_lines_emit, fz_lines_warn, &s };
	struct tp_parser *p = tp_parser_new("fuzz.log", &k, mode == FZ_RULES ? fz_lines_get_rules() : NULL);
	const char *e = buf + n;
	for (const char *l = buf; l < e;) {
		const char *nl = memchr(l, '\n', (size_t)(e - l));
		const char *le = nl ? nl : e;
		size_t len = (size_t)(le - l);
		if (mode != FZ_PARTS) {
			char *c = fz_copy(l, len);
			tp_parser_line(p, c, len);
			free(c);
		} else {
			/* parts end after each '\r'; the first has START, the last END */
			size_t at = 0;
			do {
				const char *cr = memchr(l + at, '\r', len - at);
				size_t pe = cr ? (size_t)(cr - l) + 1 : len;
				int flags = (at == 0 ? TP_LINE_START : 0) | (pe == len ? TP_LINE_END : 0);
				char *c = fz_copy(l + at, pe - at);
				tp_parser_feed(p, c, pe - at, flags);
				free(c);
				at = pe;
			} while (at < len);
		}
		l = nl ? nl + 1 : e;
	}
	tp_parser_finish(p);
	if (!tp_parser_idle(p))
		fz_fail("parser not idle after tp_parser_finish");
	const struct tp_stats *ps = tp_parser_stats(p);
	if (ps->lines != s.max_line)
		fz_fail("stats.lines %llu, fed %llu lines", (unsigned long long)ps->lines,
			(unsigned long long)s.max_line);
	uint64_t total = 0;
	for (int t = 0; t < TP_NTYPES; t++)
		total += ps->records[t];
	if (total != s.records)
		fz_fail("stats count %llu records, the sink got %llu", (unsigned long long)total,
			(unsigned long long)s.records);
	if (ps->malformed != s.warnings)
		fz_fail("stats count %llu warnings, the sink got %llu",
			(unsigned long long)ps->malformed, (unsigned long long)s.warnings);
	if (ps->unrecognized > ps->lines)
		fz_fail("more unrecognized lines than lines");
	*st = *ps;
	tp_parser_free(p);
	fz_sink_free(&s);
}

static int fuzz_lines_one(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct strbuf ta = STRBUF_INIT, tb = STRBUF_INIT, tc = STRBUF_INIT;
	struct tp_stats sa, sb, sc;

	fz_lines_pass(buf, size, FZ_WHOLE, &ta, &sa);
	fz_lines_pass(buf, size, FZ_PARTS, &tb, &sb);
	if (ta.len != tb.len || (ta.len && memcmp(ta.buf, tb.buf, ta.len) != 0))
		fz_fail("lines fed in parts split at '\\r' give other records or warnings:\n"
			"whole:\n%s\nparts:\n%s", ta.buf ? ta.buf : "", tb.buf ? tb.buf : "");
	if (memcmp(&sa, &sb, sizeof(sa)) != 0)
		fz_fail("lines fed in parts give other statistics");
	fz_lines_pass(buf, size, FZ_RULES, &tc, &sc);
	if (sc.lines != sa.lines || sc.bytes != sa.bytes)
		fz_fail("rules change the line or byte count");
	strbuf_release(&ta);
	strbuf_release(&tb);
	strbuf_release(&tc);
	return 0;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_lines_one(data, size);
}
#endif
