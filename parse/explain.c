/*
 * explain.c - tprof-parse --explain: for each input line, which reader or
 * rule took it and what it extracted, the way a regex tester shows a
 * pattern at work. One thread, line by line; records of a multi-line block
 * appear under the line that ended the block.
 *
 *   run.log:12: formats/01-hf-trainer.rules:20 -> {"type":"rate",...}
 *   run.log:13: built-in -> {"type":"timing",...}
 *   run.log:14: - {'loss': 0.3, 'epoch': 1.0}
 */
#include "explain.h"

#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "input.h"
#include "parser.h"

struct explainer {
	struct strbuf out;
	const char *file;
	uint64_t records; /* for the current line */
	unsigned long warnings;
};

static int ex_emit(void *ctx, const struct tp_record *r)
{
	struct explainer *x = ctx;
	strbuf_addf(&x->out, "%s:%llu: %s -> ", r->file, (unsigned long long)r->line,
		    r->origin ? r->origin : "built-in");
	tp_emit_record(TP_OUT_NDJSON, r, &x->out);
	x->records++;
	return 0;
}

static void ex_warn(void *ctx, const char *file, uint64_t line, const char *msg)
{
	struct explainer *x = ctx;
	strbuf_addf(&x->out, "%s:%llu: warning: %s\n", file, (unsigned long long)line, msg);
	x->warnings++;
}

/* The line as text a terminal can show: control bytes as '?', cut at 160. */
static void add_shown(struct strbuf *sb, const char *s, size_t n)
{
	size_t k = n > 160 ? 160 : n;
	for (size_t i = 0; i < k; i++) {
		unsigned char c = (unsigned char)s[i];
		strbuf_addch(sb, c < 0x20 || c == 0x7f ? '?' : c);
	}
	if (k < n)
		strbuf_addstr(sb, "...");
}

static int explain_file(const char *path, const struct tp_rules *rules, struct strbuf *err)
{
	struct tp_input in;
	if (tp_input_open(&in, path, err) < 0)
		return -1;
	struct explainer x = { STRBUF_INIT, in.name, 0, 0 };
	struct tp_sink sink = { ex_emit, ex_warn, &x };
	struct tp_parser *p = tp_parser_new(in.name, &sink, rules);
	const char *s;
	size_t n;
	int flags, rc;
	uint64_t lineno = 0;
	struct strbuf text = STRBUF_INIT;
	while ((rc = tp_input_next(&in, &s, &n, &flags, err)) > 0) {
		if (flags & TP_LINE_START) {
			lineno++;
			x.records = 0;
			strbuf_reset(&text);
		}
		if (text.len < 200)
			strbuf_add(&text, s, n < 200 ? n : 200);
		tp_parser_feed(p, s, n, flags);
		if ((flags & TP_LINE_END) && !x.records && tp_parser_stats(p)->unrecognized) {
			/* a line that made nothing shows its text, to compare with the patterns */
			strbuf_addf(&x.out, "%s:%llu: - ", in.name, (unsigned long long)lineno);
			add_shown(&x.out, text.buf ? text.buf : "", text.len);
			strbuf_addch(&x.out, '\n');
		}
		if ((flags & TP_LINE_END)) {
			tp_parser_take_stats(p, NULL);
			fwrite(x.out.buf ? x.out.buf : "", 1, x.out.len, stdout);
			strbuf_reset(&x.out);
		}
	}
	tp_parser_finish(p);
	fwrite(x.out.buf ? x.out.buf : "", 1, x.out.len, stdout);
	tp_parser_free(p);
	tp_input_close(&in);
	strbuf_release(&x.out);
	strbuf_release(&text);
	return rc < 0 ? -1 : 0;
}

int tp_explain(int nfiles, char **files, const struct tp_rules *rules, struct strbuf *err)
{
	int failed = 0;
	for (int i = 0; i < (nfiles ? nfiles : 1); i++) {
		strbuf_reset(err);
		if (explain_file(nfiles ? files[i] : "-", rules, err) < 0) {
			tp_error("tprof-parse", "%s", err->len ? err->buf : files[i]);
			failed = 1;
		}
	}
	if (fflush(stdout) != 0)
		return TP_EXIT_OUTPUT;
	return failed ? TP_EXIT_INPUT : TP_EXIT_OK;
}
