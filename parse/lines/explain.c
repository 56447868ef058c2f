/*
 * explain.c - tprof-parse --explain: for each input line, which reader or
 * rule took it and what it extracted, the way a regex tester shows a
 * pattern at work. One thread, line by line; records of a multi-line block
 * appear under the line that ended the block, and those of a discovered
 * template under the line that made it a series.
 *
 *   run.log:12: formats/01-hf-trainer.rules:20 -> {"type":"rate",...}
 *   run.log:13: built-in -> {"type":"timing",...}
 *   run.log:14: - {'loss': 0.3, 'epoch': 1.0}
 *   run.log:15: template 2 (seen 1) - E2E latency=7.99s ...
 *   run.log:17: template 2 (seen 3): E2E latency=<*>s ... -> {"type":"timing",...}
 *
 * And tprof-parse --discover: the templates of each input, as a rules
 * file (discover.h).
 */
#include "parse/parse.h"

#include <stdio.h>
#include <string.h>

#include "parse/discover/discover.h"
#include "parse/emit.h"
#include "parse/input/input.h"
#include "parser.h"

struct explainer {
	struct strbuf out;
	const char *file;
	uint64_t records; /* for the current line */
	unsigned long warnings;
	struct tp_miner *miner;
	unsigned tmpl;    /* the template the current line joined, 0: none */
	struct tp_sink sink;
	int quiet;        /* --discover: no records or warnings shown */
};

static int ex_emit(void *ctx, const struct tp_record *r)
{
	struct explainer *x = ctx;
	if (x->quiet)
		return 0;
	strbuf_addf(&x->out, "%s:%llu: %s -> ", r->file, (unsigned long long)r->line,
		    r->origin ? r->origin : "built-in");
	tp_emit_record(TP_OUT_NDJSON, r, &x->out);
	x->records++;
	return 0;
}

static void ex_warn(void *ctx, const char *file, uint64_t line, const char *msg)
{
	struct explainer *x = ctx;
	if (x->quiet)
		return;
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

static void ex_disc(void *ctx, const struct tp_disc_line *ln)
{
	struct explainer *x = ctx;
	x->tmpl = tp_miner_line(x->miner, ln, &x->sink);
}

/* One thread, line by line; fn is called at the end of each line. */
static int read_lines(const char *path, const struct tp_rules *rules, const struct tp_run_opts *o,
		      struct explainer *x, void (*fn)(struct explainer *x, struct tp_parser *p, uint64_t lineno,
						     const struct strbuf *text),
		      struct strbuf *err)
{
	struct tp_input in;
	if (tp_input_open(&in, path, err) < 0)
		return -1;
	x->file = in.name;
	x->sink = (struct tp_sink){ ex_emit, ex_warn, x };
	struct tp_parser *p = tp_parser_new(in.name, &x->sink, rules);
	tp_parser_set_progress(p, !o->no_progress);
	if (x->miner)
		tp_parser_set_discover(p, ex_disc, x);
	const char *s;
	size_t n;
	int flags, rc;
	uint64_t lineno = 0;
	struct strbuf text = STRBUF_INIT;
	while ((rc = tp_input_next(&in, &s, &n, &flags, err)) > 0) {
		if (flags & TP_LINE_START) {
			lineno++;
			x->records = 0;
			x->tmpl = 0;
			strbuf_reset(&text);
		}
		if (text.len < 200)
			strbuf_add(&text, s, n < 200 ? n : 200);
		tp_parser_feed(p, s, n, flags);
		if (flags & TP_LINE_END)
			fn(x, p, lineno, &text);
	}
	tp_parser_finish(p);
	fwrite(x->out.buf ? x->out.buf : "", 1, x->out.len, stdout);
	strbuf_reset(&x->out);
	tp_parser_free(p);
	tp_input_close(&in);
	strbuf_release(&text);
	return rc < 0 ? -1 : 0;
}

static void explain_line(struct explainer *x, struct tp_parser *p, uint64_t lineno, const struct strbuf *text)
{
	if (!x->records && tp_parser_stats(p)->unrecognized) {
		/* a line that made nothing shows its text, to compare with the patterns */
		strbuf_addf(&x->out, "%s:%llu: ", x->file, (unsigned long long)lineno);
		if (x->tmpl)
			strbuf_addf(&x->out, "template %u (seen %llu) ", x->tmpl,
				    (unsigned long long)tp_miner_seen(x->miner, x->tmpl));
		strbuf_addstr(&x->out, "- ");
		add_shown(&x->out, text->buf ? text->buf : "", text->len);
		strbuf_addch(&x->out, '\n');
	}
	tp_parser_take_stats(p, NULL);
	fwrite(x->out.buf ? x->out.buf : "", 1, x->out.len, stdout);
	strbuf_reset(&x->out);
}

/* Runs fn's reading of every input; the tool's exit status. */
static int each_file(int nfiles, char **files, int (*fn)(const char *path, void *ctx, struct strbuf *err),
		     void *ctx, struct strbuf *err)
{
	int failed = 0;
	for (int i = 0; i < (nfiles ? nfiles : 1); i++) {
		strbuf_reset(err);
		if (fn(nfiles ? files[i] : "-", ctx, err) < 0) {
			tp_error("tprof-parse", "%s", err->len ? err->buf : files[i]);
			failed = 1;
		}
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		return TP_EXIT_OUTPUT;
	return failed ? TP_EXIT_INPUT : TP_EXIT_OK;
}

struct job {
	const struct tp_rules *rules;
	const struct tp_run_opts *o;
};

static int explain_file(const char *path, void *ctx, struct strbuf *err)
{
	const struct job *j = ctx;
	struct explainer x = { STRBUF_INIT, NULL, 0, 0, NULL, 0, { 0 }, 0 };
	if (!j->o->no_discovery)
		x.miner = tp_miner_new(j->o->discover_min);
	int rc = read_lines(path, j->rules, j->o, &x, explain_line, err);
	tp_miner_free(x.miner);
	strbuf_release(&x.out);
	return rc;
}

int tp_explain(int nfiles, char **files, const struct tp_rules *rules, const struct tp_run_opts *o,
	       struct strbuf *err)
{
	struct job j = { rules, o };
	return each_file(nfiles, files, explain_file, &j, err);
}

/* ---- --discover ------------------------------------------------------ */

static void quiet_line(struct explainer *x, struct tp_parser *p, uint64_t lineno, const struct strbuf *text)
{
	(void)lineno;
	(void)text;
	tp_parser_take_stats(p, NULL);
	strbuf_reset(&x->out);
}

/* A comment line "# TEXT" with control bytes shown as '?'. */
static void add_comment(struct strbuf *sb, const char *lead, const char *s, size_t n)
{
	strbuf_addstr(sb, lead);
	add_shown(sb, s, n);
	strbuf_addch(sb, '\n');
}

static int discover_file(const char *path, void *ctx, struct strbuf *err)
{
	const struct job *j = ctx;
	struct explainer x = { STRBUF_INIT, NULL, 0, 0, tp_miner_new(j->o->discover_min), 0, { 0 }, 1 };
	int rc = read_lines(path, j->rules, j->o, &x, quiet_line, err);
	struct strbuf sb = STRBUF_INIT;
	struct tp_template_info ti;
	size_t shown = 0, with = 0;
	for (size_t i = 0; tp_miner_template(x.miner, i, &ti); i++)
		with += ti.nvalues > 0;
	strbuf_addf(&sb, "\n# %s: %zu template%s with a timing value\n", x.file ? x.file : path, with,
		    with == 1 ? "" : "s");
	/* by count, most lines first */
	for (uint64_t cut = UINT64_MAX;;) {
		uint64_t best = 0;
		for (size_t i = 0; tp_miner_template(x.miner, i, &ti); i++)
			if (ti.nvalues && ti.count < cut && ti.count > best)
				best = ti.count;
		if (!best)
			break;
		for (size_t i = 0; tp_miner_template(x.miner, i, &ti); i++) {
			if (!ti.nvalues || ti.count != best)
				continue;
			strbuf_addf(&sb, "\n# template %u: %llu lines, %zu values%s\n", ti.id, (unsigned long long)ti.count,
				    ti.nvalues, ti.series ? ", a series" : " (not yet a series: too few lines, or no value changed)");
			add_comment(&sb, "#   ", ti.text, strlen(ti.text));
			strbuf_addf(&sb, "#   line %llu: ", (unsigned long long)ti.sample_line);
			add_comment(&sb, "", ti.sample, strlen(ti.sample));
			tp_miner_rules(x.miner, ti.id, &sb);
			shown++;
		}
		cut = best;
	}
	if (!shown)
		strbuf_addstr(&sb, "# (none)\n");
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
	tp_miner_free(x.miner);
	strbuf_release(&x.out);
	return rc;
}

int tp_discover_report(int nfiles, char **files, const struct tp_rules *rules, const struct tp_run_opts *o,
		       struct strbuf *err)
{
	struct job j = { rules, o };
	fputs("# tprof-parse --discover: timing templates, lines that no reader knows repeated\n"
	      "# with varying values. This is a rules file: edit the names, then read the lines\n"
	      "# with tprof-parse --rules FILE (see tprof-parse(1), RULES FILES).\n"
	      "@format discovered\n",
	      stdout);
	return each_file(nfiles, files, discover_file, &j, err);
}
