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
#include <string.h>

#include "emit.h"
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
		strbuf_addf(&tmp, "%s: %s", severity_name(f->sev), f->message);
		if (f->file && f->line)
			strbuf_addf(&tmp, " (%s:%llu)", f->file, (unsigned long long)f->line);
		num_row(&sb, f->section, "findings", k + 1, f->kind, "");
		cell(&sb, tmp.buf, 1);
	}
	render_flush(of, &sb, err);
out:
	strbuf_release(&sb);
	strbuf_release(&tmp);
	return err->len ? -1 : 0;
}
