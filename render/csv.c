/*
 * csv.c - the report as one CSV in long ("tidy") form, so that tables of
 * different shapes share one header and load into any dataframe:
 *
 *   section,table,row,column,unit,value
 *
 * plus the findings as rows with table "findings". Quoting is RFC 4180 via
 * libcsv (tp_csv_cell); a text cell that a spreadsheet would evaluate
 * (starting with = + - @ TAB CR) gets a leading single quote.
 */
#include <errno.h>
#include <string.h>

#include "parse/parse.h"
#include "render.h"

static void cell(struct strbuf *sb, const char *s, int last)
{
	tp_csv_cell(sb, s, strlen(s));
	strbuf_addstr(sb, last ? "\r\n" : ",");
}

static void num_row(struct strbuf *sb, const char *section, const char *table, size_t row,
		    const char *col, const char *unit)
{
	cell(sb, section, 0);
	cell(sb, table, 0);
	strbuf_addf(sb, "%zu,", row);
	cell(sb, col, 0);
	cell(sb, unit, 0);
}

render_fn render_csv;
int render_csv(const struct report *rep, const struct render_ctx *ctx, struct outfile *of,
	       struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT, tmp = STRBUF_INIT;
	(void)ctx;
	strbuf_addstr(&sb, "section,table,row,column,unit,value\r\n");
	for (size_t i = 0; i < rep->nsections; i++) {
		const struct rsection *s = &rep->sections[i];
		for (size_t k = 0; k < s->ntables; k++) {
			const struct rtable *t = s->tables[k];
			for (size_t r = 0; r < t->nrows; r++)
				for (size_t c = 0; c < t->ncols; c++) {
					const struct rcell *x = rt_cell(t, r, c);
					if (x->kind == RC_EMPTY)
						continue;
					num_row(&sb, s->id, t->id, r + 1, t->cols[c].name, t->cols[c].unit);
					if (x->kind == RC_NUM) {
						strbuf_add_num(&sb, x->v);
						strbuf_addstr(&sb, "\r\n");
					} else {
						cell(&sb, x->s, 1);
					}
				}
			if (render_flush(of, &sb, err) < 0)
				goto out;
		}
	}
	for (size_t k = 0; k < rep->nfindings; k++) {
		const struct finding *f = &rep->findings[k];
		strbuf_reset(&tmp);
		strbuf_addf(&tmp, "%s: ", severity_name(f->sev));
		if (f->run)
			strbuf_addf(&tmp, "%s: ", f->run);
		strbuf_addstr(&tmp, f->message);
		if (f->file && f->line)
			strbuf_addf(&tmp, " (%s:%llu)", f->file, (unsigned long long)f->line);
		if (f->advice)
			strbuf_addf(&tmp, " Advice: %s", f->advice);
		num_row(&sb, f->section, "findings", k + 1, f->kind, "");
		cell(&sb, tmp.buf, 1);
	}
	render_flush(of, &sb, err);
out:
	strbuf_release(&sb);
	strbuf_release(&tmp);
	return err->len ? -1 : 0;
}

/* ---- one file per table ---- */

static void wide_table(const struct rtable *t, struct strbuf *sb)
{
	struct strbuf head = STRBUF_INIT;
	for (size_t c = 0; c < t->ncols; c++) {
		strbuf_reset(&head);
		strbuf_addstr(&head, t->cols[c].name);
		if (t->cols[c].unit[0])
			strbuf_addf(&head, " [%s]", t->cols[c].unit);
		tp_csv_cell(sb, head.buf, head.len);
		strbuf_addstr(sb, c + 1 < t->ncols ? "," : "\r\n");
	}
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			const struct rcell *x = rt_cell(t, r, c);
			if (x->kind == RC_NUM)
				strbuf_add_num(sb, x->v);
			else if (x->kind == RC_TEXT)
				tp_csv_cell(sb, x->s, strlen(x->s));
			strbuf_addstr(sb, c + 1 < t->ncols ? "," : "\r\n");
		}
	strbuf_release(&head);
}

/* The file name of a table: its id (ours, never text from a log), with a
 * counter when several tables share an id. */
static void table_path(const struct report *rep, const struct rtable *t, const char *dir,
		       struct strbuf *path)
{
	size_t seen = 0, mine = 0;
	for (size_t i = 0; i < rep->nsections; i++)
		for (size_t k = 0; k < rep->sections[i].ntables; k++) {
			const struct rtable *o = rep->sections[i].tables[k];
			if (!strcmp(o->id, t->id)) {
				seen++;
				if (o == t)
					mine = seen;
			}
		}
	strbuf_reset(path);
	if (mine > 1)
		strbuf_addf(path, "%s/%s-%zu.csv", dir, t->id, mine);
	else
		strbuf_addf(path, "%s/%s.csv", dir, t->id);
}

int render_csv_dir(const struct report *rep, const char *dir, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	int rc = 0;
	for (size_t i = 0; i < rep->nsections && !rc; i++)
		for (size_t k = 0; k < rep->sections[i].ntables && !rc; k++) {
			const struct rtable *t = rep->sections[i].tables[k];
			struct outfile of;
			table_path(rep, t, dir, &path);
			strbuf_reset(&sb);
			wide_table(t, &sb);
			if (outfile_open(&of, path.buf, err) < 0) {
				rc = -1;
				break;
			}
			outfile_write(&of, sb.buf, sb.len);
			int werr = outfile_close(&of);
			if (werr) {
				strbuf_addf(err, "%s: %s", path.buf, strerror(werr));
				rc = -1;
			}
		}
	strbuf_release(&sb);
	strbuf_release(&path);
	return rc;
}
