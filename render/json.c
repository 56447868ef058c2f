/*
 * json.c - the report as one JSON document, the stable machine interface
 * of tprof-analyze (schema in tprof-analyze(1)):
 *
 *   {"tool":"tprof-analyze","version":"…","schema":3,
 *    "summary":{"headline":…,"top":[{column:cell,…},…]},
 *    "runs":[{column:cell,…},…],
 *    "sections":[{"id":…,"title":…,
 *                 "tables":[{"id":…,"title":…,
 *                            "columns":[{"name":…,"unit":…},…],
 *                            "rows":[[cell,…],…]}],
 *                 "findings":[{"severity":…,"kind":…,"run":…,"message":…,
 *                              "advice":…,"file":…,"line":…,"at_stake":…,
 *                              "merged":…}]}]}
 *
 * A cell is a number, a string or null; a number has no unit of its own:
 * the column says it.
 */
#include <math.h>
#include <string.h>

#include "analyze/analyze.h"
#include "render.h"

static void jstr(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	strbuf_add_json_str(sb, s, strlen(s));
	strbuf_addch(sb, '"');
}

static void jkey(struct strbuf *sb, const char *k, int comma)
{
	if (comma)
		strbuf_addch(sb, ',');
	jstr(sb, k);
	strbuf_addch(sb, ':');
}

static void cell_json(const struct rcell *cell, struct strbuf *sb);

static void table_json(const struct rtable *t, struct strbuf *sb)
{
	strbuf_addch(sb, '{');
	jkey(sb, "id", 0);
	jstr(sb, t->id);
	jkey(sb, "title", 1);
	jstr(sb, t->title);
	jkey(sb, "data_only", 1);
	strbuf_addstr(sb, t->data_only ? "true" : "false");
	jkey(sb, "columns", 1);
	strbuf_addch(sb, '[');
	for (size_t c = 0; c < t->ncols; c++) {
		strbuf_addstr(sb, c ? ",{" : "{");
		jkey(sb, "name", 0);
		jstr(sb, t->cols[c].name);
		jkey(sb, "unit", 1);
		jstr(sb, t->cols[c].unit);
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "],\"rows\":[");
	for (size_t r = 0; r < t->nrows; r++) {
		strbuf_addstr(sb, r ? ",\n[" : "\n[");
		for (size_t c = 0; c < t->ncols; c++) {
			if (c)
				strbuf_addch(sb, ',');
			cell_json(rt_cell(t, r, c), sb);
		}
		strbuf_addch(sb, ']');
	}
	strbuf_addstr(sb, "]}");
}

static void cell_json(const struct rcell *cell, struct strbuf *sb)
{
	if (cell->kind == RC_NUM)
		strbuf_add_num(sb, cell->v);
	else if (cell->kind == RC_TEXT)
		jstr(sb, cell->s);
	else
		strbuf_addstr(sb, "null");
}

/* The rows of the first table of a kind as objects keyed by column name. */
static void keyed_rows(const struct report *rep, int kind, struct strbuf *sb)
{
	const struct rtable *t = report_find(rep, kind, 0);
	strbuf_addch(sb, '[');
	for (size_t r = 0; t && r < t->nrows; r++) {
		strbuf_addstr(sb, r ? ",\n{" : "\n{");
		for (size_t c = 0; c < t->ncols; c++) {
			jkey(sb, t->cols[c].name, c > 0);
			cell_json(rt_cell(t, r, c), sb);
		}
		strbuf_addch(sb, '}');
	}
	strbuf_addch(sb, ']');
}

static void finding_json(const struct finding *f, struct strbuf *sb)
{
	strbuf_addch(sb, '{');
	jkey(sb, "severity", 0);
	jstr(sb, severity_name(f->sev));
	jkey(sb, "kind", 1);
	jstr(sb, f->kind);
	jkey(sb, "run", 1);
	if (f->run)
		jstr(sb, f->run);
	else
		strbuf_addstr(sb, "null");
	jkey(sb, "message", 1);
	jstr(sb, f->message);
	jkey(sb, "advice", 1);
	if (f->advice)
		jstr(sb, f->advice);
	else
		strbuf_addstr(sb, "null");
	jkey(sb, "file", 1);
	if (f->file)
		jstr(sb, f->file);
	else
		strbuf_addstr(sb, "null");
	jkey(sb, "line", 1);
	if (f->line)
		strbuf_add_num(sb, (double)f->line);
	else
		strbuf_addstr(sb, "null");
	jkey(sb, "at_stake", 1);
	if (isfinite(f->at_stake))
		strbuf_add_num(sb, f->at_stake);
	else
		strbuf_addstr(sb, "null");
	jkey(sb, "merged", 1);
	strbuf_addstr(sb, f->merged ? "true" : "false");
	strbuf_addch(sb, '}');
}

render_fn render_json;
int render_json(const struct report *rep, const struct render_ctx *ctx, struct outfile *of,
		struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "{\"tool\":");
	jstr(&sb, ctx->tool ? ctx->tool : "tprof");
	strbuf_addstr(&sb, ",\"version\":\"" TPROF_VERSION "\",\"schema\":3,\n\"summary\":{\"headline\":");
	if (rep->headline)
		jstr(&sb, rep->headline);
	else
		strbuf_addstr(&sb, "null");
	jkey(&sb, "top", 1);
	keyed_rows(rep, AT_SUMMARY_TOP, &sb);
	strbuf_addstr(&sb, "},\n\"runs\":");
	keyed_rows(rep, AT_SUMMARY_RUNS, &sb);
	strbuf_addstr(&sb, ",\"sections\":[");
	for (size_t i = 0; i < rep->nsections; i++) {
		const struct rsection *s = &rep->sections[i];
		strbuf_addstr(&sb, i ? ",\n{" : "\n{");
		jkey(&sb, "id", 0);
		jstr(&sb, s->id);
		jkey(&sb, "title", 1);
		jstr(&sb, s->title);
		jkey(&sb, "tables", 1);
		strbuf_addch(&sb, '[');
		for (size_t k = 0; k < s->ntables; k++) {
			if (k)
				strbuf_addch(&sb, ',');
			table_json(s->tables[k], &sb);
		}
		strbuf_addstr(&sb, "],\"findings\":[");
		int first = 1;
		for (size_t k = 0; k < rep->nfindings; k++) {
			if (strcmp(rep->findings[k].section, s->id))
				continue;
			strbuf_addstr(&sb, first ? "\n" : ",\n");
			first = 0;
			finding_json(&rep->findings[k], &sb);
		}
		strbuf_addstr(&sb, "]}");
		if (render_flush(of, &sb, err) < 0) {
			strbuf_release(&sb);
			return -1;
		}
	}
	strbuf_addstr(&sb, "\n]}\n");
	int rc = render_flush(of, &sb, err);
	strbuf_release(&sb);
	return rc;
}
