/*
 * markdown.c - the report as GitHub-flavoured Markdown: a heading per
 * section, pipe tables with units in the header, findings as a list.
 * Pipes, backslashes and HTML-significant characters from logs are escaped
 * so that a stage name cannot break the table or inject markup.
 */
#include <string.h>

#include "analyze/analyze.h"
#include "render.h"

static void md_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '|' || c == '\\' || c == '*' || c == '_' || c == '`' || c == '[' || c == ']')
			strbuf_addch(sb, '\\'), strbuf_addch(sb, (char)c);
		else if (c == '<')
			strbuf_addstr(sb, "&lt;");
		else if (c == '>')
			strbuf_addstr(sb, "&gt;");
		else if (c == '&')
			strbuf_addstr(sb, "&amp;");
		else if (c < 0x20 || c == 0x7f)
			strbuf_addch(sb, ' ');
		else
			strbuf_addch(sb, (char)c);
	}
}

static void md_table(const struct rtable *t, struct strbuf *sb)
{
	struct strbuf tmp = STRBUF_INIT;
	strbuf_addstr(sb, "**");
	md_text(sb, t->title);
	strbuf_addstr(sb, "**\n\n|");
	for (size_t c = 0; c < t->ncols; c++) {
		strbuf_addch(sb, ' ');
		md_text(sb, t->cols[c].name);
		if (t->cols[c].unit[0]) {
			strbuf_addstr(sb, " (");
			md_text(sb, t->cols[c].unit);
			strbuf_addch(sb, ')');
		}
		strbuf_addstr(sb, " |");
	}
	strbuf_addstr(sb, "\n|");
	for (size_t c = 0; c < t->ncols; c++) {
		int num = 0;
		for (size_t r = 0; r < t->nrows && !num; r++)
			num = rt_cell(t, r, c)->kind == RC_NUM;
		strbuf_addstr(sb, num ? " ---: |" : " --- |");
	}
	strbuf_addch(sb, '\n');
	for (size_t r = 0; r < t->nrows; r++) {
		strbuf_addch(sb, '|');
		for (size_t c = 0; c < t->ncols; c++) {
			strbuf_reset(&tmp);
			render_cell_text(rt_cell(t, r, c), &tmp);
			strbuf_addch(sb, ' ');
			if (tmp.len)
				md_text(sb, tmp.buf);
			strbuf_addstr(sb, " |");
		}
		strbuf_addch(sb, '\n');
	}
	strbuf_addch(sb, '\n');
	strbuf_release(&tmp);
}

/* The summary as sentences: each run at a glance, then the findings with most at stake. */
static void md_summary(const struct rsection *s, struct strbuf *sb)
{
	struct strbuf l = STRBUF_INIT;
	for (size_t k = 0; k < s->ntables; k++) {
		const struct rtable *t = s->tables[k];
		for (size_t r = 0; t->kind == AT_SUMMARY_RUNS && r < t->nrows; r++) {
			strbuf_reset(&l);
			if (render_run_sentence(t, r, t->nrows > 1, &l)) {
				md_text(sb, l.buf);
				strbuf_addstr(sb, "\n\n");
			}
		}
		if (t->kind != AT_SUMMARY_TOP || !t->nrows)
			continue;
		strbuf_addstr(sb, "Top findings by time at stake (seconds a fix could save over the run):\n\n");
		for (size_t r = 0; r < t->nrows; r++) {
			strbuf_reset(&l);
			const char *advice = render_top_sentence(t, r, 0, &l);
			strbuf_addf(sb, "%zu. ", r + 1);
			md_text(sb, l.buf);
			if (advice) {
				strbuf_addstr(sb, " — *advice:* ");
				md_text(sb, advice);
			}
			strbuf_addch(sb, '\n');
		}
		strbuf_addch(sb, '\n');
	}
	strbuf_release(&l);
}

render_fn render_markdown;
int render_markdown(const struct report *rep, const struct render_ctx *ctx, struct outfile *of,
		    struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "# ");
	md_text(&sb, ctx->title ? ctx->title : "tprof report");
	strbuf_addstr(&sb, "\n\n");
	for (size_t i = 0; i < rep->nsections; i++) {
		const struct rsection *s = &rep->sections[i];
		size_t shown = 0;
		for (size_t k = 0; k < s->ntables; k++)
			shown += !s->tables[k]->data_only;
		for (size_t k = 0; k < rep->nfindings; k++)
			shown += !rep->findings[k].merged && !strcmp(rep->findings[k].section, s->id);
		if (!shown && !(i == 0 && rep->headline))
			continue; /* an empty section is no news */
		strbuf_addstr(&sb, "## ");
		md_text(&sb, s->title);
		strbuf_addstr(&sb, "\n\n");
		if (i == 0 && rep->headline) {
			/* the answer first: one bold line per comparison */
			for (const char *p = rep->headline; *p;) {
				size_t n = strcspn(p, "\n");
				struct strbuf line = STRBUF_INIT;
				strbuf_add(&line, p, n);
				strbuf_addstr(&sb, "**");
				md_text(&sb, line.buf);
				strbuf_addstr(&sb, "**\n\n");
				strbuf_release(&line);
				p += n + (p[n] == '\n');
			}
		}
		if (s->kind == AS_SUMMARY)
			md_summary(s, &sb);
		for (size_t k = 0; k < s->ntables && s->kind != AS_SUMMARY; k++)
			if (!s->tables[k]->data_only)
				md_table(s->tables[k], &sb);
		int any = 0;
		for (size_t k = 0; k < rep->nfindings; k++) {
			const struct finding *f = &rep->findings[k];
			if (f->merged || strcmp(f->section, s->id))
				continue;
			any = 1;
			strbuf_addf(&sb, "- **%s** ", severity_name(f->sev));
			if (f->run) {
				md_text(&sb, f->run);
				strbuf_addstr(&sb, ": ");
			}
			md_text(&sb, f->message);
			if (f->file && f->line) {
				strbuf_addstr(&sb, " (");
				md_text(&sb, f->file);
				strbuf_addf(&sb, ":%llu)", (unsigned long long)f->line);
			}
			if (f->advice) {
				strbuf_addstr(&sb, " — ");
				md_text(&sb, f->advice);
			}
			strbuf_addch(&sb, '\n');
		}
		if (any)
			strbuf_addch(&sb, '\n');
		if (render_flush(of, &sb, err) < 0)
			break;
	}
	render_flush(of, &sb, err);
	strbuf_release(&sb);
	return err->len ? -1 : 0;
}
