/*
 * fuzz_discover.c - libFuzzer target for the template miner
 * (parse/discover/discover.c) and the progress reader (parse/discover/progress.c).
 *
 * The input is one log buffer, parsed with progress records and template
 * discovery on (the miner fed in input order, as the driver does on one
 * thread):
 *   A. by the plain per-line path, with --discover-min taken from the
 *      input's first byte (1 to 4);
 *   B. with the candidate search, portable and Teddy matchers (the lines
 *      that may hold a unit chosen by the vector test): records, warnings
 *      and statistics must equal A's byte for byte;
 *   C. every template the miner holds at the end is written as rules
 *      (tprof-parse --discover), which must compile, and read back its
 *      sample line with every record checked.
 * Besides, tp_disc_next_line must never skip a line that tp_disc_has_unit
 * accepts, must count the line ends it passes, and the miner never holds
 * more than TP_DISC_MAX_TEMPLATES.
 * Every record is checked (fuzz_common.h) and written in every format.
 *
 * Build and run: make fuzz (mk/fuzz.mk). tests/test_regress.c includes
 * this file with FUZZ_NO_MAIN defined and calls fuzz_discover_one().
 */
#include "fuzz_common.h"
#include "parse/discover/discover.h"
#include "parse/rules/rules.h"
#include "parse/scan/scan.h"

struct fz_disc {
	struct tp_miner *miner;
	struct tp_sink sink;
};

static void fz_disc_hook(void *ctx, const struct tp_disc_line *ln)
{
	struct fz_disc *d = ctx;
	if (!ln->s || !ln->file || ln->line == 0)
		fz_fail("a line for the miner without text, file or number");
	fz_touch(ln->s, ln->n);
	tp_miner_line(d->miner, ln, &d->sink);
}

static int fz_disc_emit(void *ctx, const struct tp_record *r)
{
	struct fz_sink *s = ctx;
	fz_emit(ctx, r);
	tp_record_to_json(r, s->trace);
	strbuf_addch(s->trace, '\n');
	return 0;
}

static void fz_disc_warn(void *ctx, const char *file, uint64_t line, const char *msg)
{
	struct fz_sink *s = ctx;
	fz_warn(ctx, file, line, msg);
	strbuf_addf(s->trace, "W %llu %s\n", (unsigned long long)line, msg);
}

/* Compiled once per process. */
static struct tp_scanner *fz_disc_scanners[2];
static int fz_disc_tried[2];

static const struct tp_scanner *fz_disc_scanner(int k)
{
	static const enum tp_scan_backend kinds[2] = { TP_SCAN_PORTABLE, TP_SCAN_TEDDY };
	if (!fz_disc_tried[k]) {
		struct strbuf err = STRBUF_INIT;
		fz_disc_scanners[k] = tp_scanner_new(&tp_builtin_markers, 1, kinds[k], &err);
		fz_disc_tried[k] = 1;
		strbuf_release(&err);
	}
	return fz_disc_scanners[k];
}

/* The rules of every template, compiled, read back each one's sample line. */
static void fz_disc_rules(struct tp_miner *m, uint64_t lines)
{
	if (tp_miner_ntemplates(m) > TP_DISC_MAX_TEMPLATES)
		fz_fail("the miner holds %zu templates, past its bound", tp_miner_ntemplates(m));
	struct tp_template_info ti;
	for (size_t i = 0; tp_miner_template(m, i, &ti); i++) {
		if (ti.count == 0 || !ti.text || !ti.sample || ti.sample_line == 0 || ti.sample_line > lines)
			fz_fail("template %u: count %llu, sample line %llu of %llu", ti.id,
				(unsigned long long)ti.count, (unsigned long long)ti.sample_line,
				(unsigned long long)lines);
		struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
		tp_miner_rules(m, ti.id, &sb);
		if (sb.len) {
			struct tp_rules *rs = tp_rules_compile(sb.buf, sb.len, "discovered.rules", &err);
			if (!rs)
				fz_fail("the rules of template %u do not compile: %s\n%s", ti.id,
					err.buf ? err.buf : "?", sb.buf);
			struct fz_sink s;
			fz_sink_init(&s);
			struct tp_sink k = fz_tp_sink(&s);
			tp_rules_match(rs, NULL, ti.sample, strlen(ti.sample), "fuzz.log", 1, &k);
			fz_sink_free(&s);
			tp_rules_free(rs);
		}
		strbuf_release(&sb);
		strbuf_release(&err);
	}
}

/* Parses buf (progress and discovery on) with sc (NULL: plain) into trace. */
static void fz_disc_pass(const char *buf, size_t n, unsigned min, const struct tp_scanner *sc,
			 struct strbuf *trace, struct tp_stats *st, int check_rules)
{
	struct fz_sink s;
	fz_sink_init(&s);
	s.max_line = fz_count_lines(buf, n);
	s.trace = trace;
	s.all_formats = sc == NULL;
	struct tp_sink k = { fz_disc_emit, fz_disc_warn, &s };
	struct tp_parser *p = tp_parser_new("fuzz.log", &k, NULL);
	struct fz_disc d = { tp_miner_new(min), k };
	tp_parser_set_scanner(p, sc);
	tp_parser_set_discover(p, fz_disc_hook, &d);
	char *c = fz_copy(buf, n); /* exact size: a read past the end is caught by ASan */
	tp_parse_buffer(p, c, n);
	tp_parser_finish(p);
	memset(st, 0, sizeof(*st));
	tp_parser_take_stats(p, st);
	tp_parser_free(p);
	if (check_rules)
		fz_disc_rules(d.miner, s.max_line);
	free(c);
	tp_miner_free(d.miner);
	fz_sink_free(&s);
}

/* tp_disc_next_line skips no line that holds a number with a unit. */
static void fz_disc_prefilter(const char *buf, size_t n)
{
	char *c = fz_copy(buf, n);
	const char *s = c, *e = c + n;
	while (s < e) {
		uint64_t ends = 0, seen = 0;
		const char *next = tp_disc_next_line(s, e, e, &ends);
		if (next < s || next > e || (next < e && next > c && next[-1] != '\n'))
			fz_fail("tp_disc_next_line returned %td, not a line start in [%td, %td]", next - c, s - c,
				e - c);
		for (const char *q = s; q < next; q++)
			seen += *q == '\n';
		if (ends != seen)
			fz_fail("tp_disc_next_line counted %llu line ends before %td, not %llu",
				(unsigned long long)ends, next - c, (unsigned long long)seen);
		for (const char *q = s; q < next;) {
			const char *nl = memchr(q, '\n', (size_t)(e - q));
			const char *le = nl ? nl : e;
			if (tp_disc_has_unit(q, le) || tp_disc_has_counter(q, le))
				fz_fail("tp_disc_next_line skipped line at %td, which holds a unit or a count", q - c);
			q = nl ? nl + 1 : e;
		}
		if (next >= e)
			break;
		const char *nl = memchr(next, '\n', (size_t)(e - next));
		if (!tp_disc_has_unit(next, nl ? nl : e) && !tp_disc_has_counter(next, nl ? nl : e))
			fz_fail("tp_disc_next_line stopped at line %td, which holds no unit and no count", next - c);
		s = nl ? nl + 1 : e;
	}
	free(c);
}

static int fuzz_discover_one(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	unsigned min = size ? 1 + (unsigned)(data[0] & 3) : 3;
	fz_disc_prefilter(buf, size);
	struct strbuf ta = STRBUF_INIT;
	struct tp_stats sa;
	fz_disc_pass(buf, size, min, NULL, &ta, &sa, 1);
	for (int k = 0; k < 2; k++) {
		const struct tp_scanner *sc = fz_disc_scanner(k);
		if (!sc)
			continue; /* Teddy does not run on this CPU */
		struct strbuf tb = STRBUF_INIT;
		struct tp_stats sb;
		fz_disc_pass(buf, size, min, sc, &tb, &sb, 0);
		if (ta.len != tb.len || (ta.len && memcmp(ta.buf, tb.buf, ta.len) != 0))
			fz_fail("with the %s candidate search, discovery reads other records:\nplain:\n%s\nfast:\n%s",
				tp_scanner_backend(sc), ta.buf ? ta.buf : "", tb.buf ? tb.buf : "");
		if (memcmp(&sa, &sb, sizeof(sb)) != 0)
			fz_fail("with the %s candidate search, other statistics (lines %llu/%llu, "
				"unrecognized %llu/%llu)",
				tp_scanner_backend(sc), (unsigned long long)sa.lines, (unsigned long long)sb.lines,
				(unsigned long long)sa.unrecognized, (unsigned long long)sb.unrecognized);
		strbuf_release(&tb);
	}
	strbuf_release(&ta);
	return 0;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_discover_one(data, size);
}
#endif
