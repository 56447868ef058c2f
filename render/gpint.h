/*
 * gpint.h - internals shared by gnuplot.c (script and data files, running
 * gnuplot) and gpcharts.c (the charts): the job a chart writes into, the
 * only ways text may reach a script or a data file, and lookups over the
 * report's tables.
 */
#ifndef TPROF_GPINT_H
#define TPROF_GPINT_H

#include "analyze/analyze.h"
#include "gnuplot.h"

struct gp_job {
	const struct report *rep;
	const struct gp_opts *o;
	const char *dir;   /* where the files go; NULL: a dry run (gp_has_data) */
	const char *chart; /* fixed chart name: names the script, data and output */
	struct strbuf gp;  /* the script */
	int ndata;         /* data files written */
	struct strbuf *err;
	int failed;        /* a file could not be written (message in err) */
};

/* ---- text into data files and scripts ---- */

/* A name for a data file: no control bytes, tabs or '"', valid UTF-8, at most max characters. */
void gp_dat_text(struct strbuf *sb, const char *s, size_t max);
/* A number for a data file ("NaN" when not finite). */
void gp_dat_num(struct strbuf *sb, double v);
/* Ends a data row. */
void gp_dat_row(struct strbuf *sb);
/* Writes content as the next data file; its name ("stages-d0.dat") goes to name. */
void gp_data_file(struct gp_job *j, const struct strbuf *content, char *name, size_t size);

/* A single-quoted gnuplot string: ' doubled, control bytes dropped, valid UTF-8. */
void gp_quote(struct strbuf *sb, const char *s);
/* A script line. fmt must hold no text from a log: use gp_quote for that. */
void gp_cmd(struct gp_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* `set title '<--title or dflt>' noenhanced` (dflt may come from a log: it is quoted). */
void gp_title(struct gp_job *j, const char *dflt);
/* A plot element: `set xlabel 'text' noenhanced` and the like. */
void gp_label_cmd(struct gp_job *j, const char *what, const char *text);

/* ---- the report's tables, by the analysis' typed ids (analyses.h) ---- */

/* The nth table of that kind (0-based), or NULL. */
const struct rtable *gp_table(const struct report *rep, enum an_table_kind kind, size_t nth);
/* The column with that key, or -1. */
int gp_col(const struct rtable *t, enum an_col_key key);
/* The cell as a number (NAN if empty, text or no such column). */
double gp_num(const struct rtable *t, size_t row, int col);
/* The cell as text ("" if not text or no such column). */
const char *gp_text(const struct rtable *t, size_t row, int col);

/* One series of the "points" table: (index, value) pairs of one run. */
struct gp_series {
	const char *run, *name, *unit; /* for people: key titles and axis labels */
	struct rkey key;               /* what it is: kind, rank and run */
	size_t n, alloc;
	double *x, *y;
};
/* A set of series kinds (enum an_series_kind) for gp_points. */
#define GP_KIND(k) (1u << (k))
#define GP_ALL_KINDS (~0u)
/* Whether two row keys are about the same series of the same run. */
int gp_same_series(struct rkey a, struct rkey b);
/* Every series of one of the kinds, in first-seen order. */
size_t gp_points(const struct report *rep, unsigned kinds, struct gp_series **out);
void gp_series_free(struct gp_series *s, size_t n);
/* How many distinct runs the series belong to. */
size_t gp_series_runs(const struct gp_series *s, size_t n);
/* The key title of a series: its name, with its run first when there are several runs. */
void gp_series_title(struct strbuf *sb, const struct gp_series *s, size_t nruns);

/* ---- the charts (gpcharts.c): 0, or GP_NODATA ---- */
int gp_chart_stages(struct gp_job *j);
int gp_chart_batches(struct gp_job *j);
int gp_chart_gpm(struct gp_job *j);
int gp_chart_scaling(struct gp_job *j);
int gp_chart_compare(struct gp_job *j);
int gp_chart_timeline(struct gp_job *j);
int gp_chart_memory(struct gp_job *j);
int gp_chart_trend(struct gp_job *j);

#endif
