/*
 * test_chartids.c - charts find their data by the analysis' typed ids
 * (analyses.h), never by names: the report of the samples, with every
 * section and table id, title, column name and text cell renamed, gives
 * the same charts (same files, same numbers in every data file); and the
 * renderers that select tables hold none of the analysis' table ids or
 * series names as a string literal.
 *
 * Run from the repository root (make check does).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "render/gnuplot.h"
#include "testutil.h"
#include "base/util.h"

static void analyze_files(const char *const *files, int n, struct an_model *m, struct report *rep,
			  const struct an_opts *o)
{
	struct an_load_stats ls = { .tool = "test", .quiet = 1 };
	an_model_init(m, NAN);
	an_load_inputs(m, (char **)files, n, 1, NULL, &ls);
	cr_assert_eq(ls.failed, 0);
	report_init(rep);
	an_analyze(m, o, rep);
}

static void rename_str(char **s)
{
	char *n = xmalloc(strlen(*s) + 16);
	sprintf(n, "renamed %s!", *s);
	free(*s);
	*s = n;
}

/* Every name a person or a machine format reads, changed. */
static void rename_all(struct report *rep)
{
	for (size_t i = 0; i < rep->nsections; i++) {
		struct rsection *s = &rep->sections[i];
		rename_str(&s->id);
		rename_str(&s->title);
		for (size_t k = 0; k < s->ntables; k++) {
			struct rtable *t = s->tables[k];
			rename_str(&t->id);
			rename_str(&t->title);
			for (size_t c = 0; c < t->ncols; c++)
				rename_str(&t->cols[c].name);
			for (size_t c = 0; c < t->nrows * t->ncols; c++)
				if (t->cells[c].kind == RC_TEXT)
					rename_str(&t->cells[c].s);
		}
	}
}

/* The numbers of a data file, in order (text fields skipped). */
static void numbers(const char *path, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	cr_assert_eq(tu_slurp(path, &sb), 0, "%s", path);
	for (char *tok = strtok(sb.buf, "\t\n"); tok; tok = strtok(NULL, "\t\n")) {
		char *end;
		double v = strtod(tok, &end);
		if (*end == '\0' && end != tok)
			strbuf_addf(out, "%.10g ", v);
	}
	strbuf_release(&sb);
}

static int script_lines(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 0;
	if (tu_slurp(path, &sb) == 0)
		for (size_t i = 0; i < sb.len; i++)
			n += sb.buf[i] == '\n';
	strbuf_release(&sb);
	return n;
}

/* Writes every chart's script into a and b (renamed report) and compares them. */
static int same_charts(const char *const *files, int n, const struct an_opts *o)
{
	struct an_model m;
	struct report rep;
	struct gp_opts go;
	struct strbuf err = STRBUF_INIT;
	char *a = tu_tmpdir("chartids-a"), *b = tu_tmpdir("chartids-b");
	int charts = 0;
	gp_opts_default(&go);
	analyze_files(files, n, &m, &rep, o);
	int had[GP_NCHARTS];
	for (int c = 0; c < GP_NCHARTS; c++)
		if ((had[c] = gp_has_data(&rep, (enum gp_chart)c, &go)))
			cr_assert_eq(gp_write_script(&rep, (enum gp_chart)c, &go, a, &err), GP_OK, "%s", err.buf);
	rename_all(&rep);
	for (int c = 0; c < GP_NCHARTS; c++) {
		cr_assert_eq(gp_has_data(&rep, (enum gp_chart)c, &go), had[c], "%s of %s after renaming",
			     gp_chart_name((enum gp_chart)c), files[0]);
		if (!had[c])
			continue;
		charts++;
		cr_assert_eq(gp_write_script(&rep, (enum gp_chart)c, &go, b, &err), GP_OK, "%s", err.buf);
		char pa[512], pb[512];
		snprintf(pa, sizeof(pa), "%s/%s.gp", a, gp_chart_name((enum gp_chart)c));
		snprintf(pb, sizeof(pb), "%s/%s.gp", b, gp_chart_name((enum gp_chart)c));
		cr_assert_eq(script_lines(pa), script_lines(pb), "%s", pa);
		for (int d = 0;; d++) {
			snprintf(pa, sizeof(pa), "%s/%s-d%d.dat", a, gp_chart_name((enum gp_chart)c), d);
			snprintf(pb, sizeof(pb), "%s/%s-d%d.dat", b, gp_chart_name((enum gp_chart)c), d);
			FILE *fa = fopen(pa, "rb"), *fb = fopen(pb, "rb");
			cr_assert_eq(fa != NULL, fb != NULL, "%s: the same data files", pa);
			if (!fa)
				break;
			fclose(fa), fclose(fb);
			struct strbuf na = STRBUF_INIT, nb = STRBUF_INIT;
			numbers(pa, &na);
			numbers(pb, &nb);
			cr_assert_str_eq(na.buf ? na.buf : "", nb.buf ? nb.buf : "", "%s", pa);
			strbuf_release(&na);
			strbuf_release(&nb);
		}
	}
	report_free(&rep);
	an_model_free(&m);
	strbuf_release(&err);
	tu_rmtree(a);
	tu_rmtree(b);
	return charts;
}

Test(chartids, renaming_every_name_changes_no_chart)
{
	static const char *const one[][1] = {
		{ "samples/ddp-4rank.log" },	       { "samples/graph-llava-pretrain.log" },
		{ "samples/graph-transformer-profile.log" }, { "samples/kan-experiments.log" },
		{ "samples/pde-physical.log" },      { "samples/ssm-training.log" },
	};
	struct an_opts o;
	an_opts_default(&o);
	int charts = 0;
	for (size_t i = 0; i < ARRAY_SIZE(one); i++)
		charts += same_charts(one[i], 1, &o);
	cr_assert_geq(charts, 10, "the samples draw charts (%d)", charts);
}

Test(chartids, renaming_keeps_the_comparison_and_the_fit_across_runs)
{
	static const char *const two[] = { "samples/graph-llava-pretrain.log", "samples/ddp-4rank.log",
					   "samples/ssm-training.log" };
	struct an_param p[3];
	struct an_opts o;
	an_opts_default(&o);
	for (int i = 0; i < 3; i++) {
		snprintf(p[i].name, sizeof(p[i].name), "N");
		p[i].value = 100 << i;
		p[i].set = 1;
	}
	o.run_params = p;
	o.nrun_params = 3;
	cr_assert_geq(same_charts(two, 3, &o), 4);
}

/* The literal "s" (with its quotes) in a source file. */
static int has_literal(const char *src, const char *s)
{
	char q[256];
	snprintf(q, sizeof(q), "\"%s\"", s);
	return strstr(src, q) != NULL;
}

Test(chartids, renderers_hold_no_table_id_or_series_name)
{
	static const char *const files[] = { "samples/ddp-4rank.log", "samples/graph-llava-pretrain.log",
					     "samples/graph-transformer-profile.log" };
	static const char *const renderers[] = { "render/gpcharts.c", "render/xlsx.c", "render/html.c" };
	struct an_model m;
	struct report rep;
	struct an_opts o;
	an_opts_default(&o);
	analyze_files(files, 3, &m, &rep, &o);
	for (size_t f = 0; f < ARRAY_SIZE(renderers); f++) {
		struct strbuf src = STRBUF_INIT;
		cr_assert_eq(tu_slurp(renderers[f], &src), 0, "%s", renderers[f]);
		size_t checked = 0;
		for (size_t i = 0; i < rep.nsections; i++) {
			const struct rsection *s = &rep.sections[i];
			cr_assert_not(has_literal(src.buf, s->id), "%s names section %s", renderers[f], s->id);
			for (size_t k = 0; k < s->ntables; k++) {
				const struct rtable *t = s->tables[k];
				cr_assert_not(has_literal(src.buf, t->id), "%s names table %s", renderers[f], t->id);
				int cs = rt_col(t, AC_SERIES);
				for (size_t r = 0; cs >= 0 && r < t->nrows; r++) {
					const struct rcell *c = rt_cell(t, r, (size_t)cs);
					char name[200];
					if (c->kind != RC_TEXT)
						continue;
					/* "batch time [rank 3]": the name without its rank */
					snprintf(name, sizeof(name), "%.*s", (int)strcspn(c->s, "["), c->s);
					size_t len = strlen(name);
					while (len && name[len - 1] == ' ')
						name[--len] = '\0';
					cr_assert_not(has_literal(src.buf, name), "%s names series %s", renderers[f], name);
					checked++;
				}
			}
		}
		cr_assert_gt(checked, 10);
		strbuf_release(&src);
	}
	report_free(&rep);
	an_model_free(&m);
}
