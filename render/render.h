/*
 * render.h - one interface for every output format of a report: a
 * renderer has a name, a file extension and one function that writes the
 * whole report to an output file. A new format is one new file in render/
 * (render_fn render_NAME; declared at its top, then defined) and its
 * declaration and row in render.c's table: two files.
 *
 * Contract: renderers only read the report; text that came from a log is
 * escaped for the target format (terminal control bytes, CSV formulas,
 * HTML, JSON). They return 0, or -1 with a message in err.
 */
#ifndef TPROF_RENDER_H
#define TPROF_RENDER_H

#include "base/base.h"

struct render_ctx {
	int color;            /* ANSI colours (terminal renderer) */
	int width;            /* terminal width, 0: unknown */
	const char *title;
	const char *tool;     /* "tprof-analyze" */
	const char *gnuplot;  /* charts of the HTML report: program, NULL: "gnuplot" from PATH */
};

/* Writes the whole report to of; 0, or -1 with a message in err. */
typedef int render_fn(const struct report *rep, const struct render_ctx *ctx, struct outfile *of,
		      struct strbuf *err);

struct renderer {
	const char *name;     /* "table", "json", "csv", "markdown" */
	const char *ext;      /* ".txt", ".json", ".csv", ".md" */
	render_fn *render;
};

const struct renderer *render_find(const char *name);
/* By the extension of path; NULL if none matches. */
const struct renderer *render_for_path(const char *path);
/* "table, json, csv, markdown" */
void render_names(struct strbuf *sb);

/* The width of the terminal on fd: $COLUMNS, else the tty's; 0 when neither says. */
int render_term_width(int fd);

/* The summary in sentences (summary.c), plain text. A run of table
 * AT_SUMMARY_RUNS: 0 when it has nothing to say. A row of AT_SUMMARY_TOP:
 * returns its advice (or NULL). */
int render_run_sentence(const struct rtable *t, size_t r, int several_runs, struct strbuf *out);
const char *render_top_sentence(const struct rtable *t, size_t r, int several_runs, struct strbuf *out);

/* Shared helpers. */
void render_cell_text(const struct rcell *c, struct strbuf *sb); /* number or text, no escaping */
/* Writes sb out and empties it; -1 on failure, with the system's message
 * in err (nothing for a closed pipe: the tool ends quietly). */
int render_flush(struct outfile *of, struct strbuf *sb, struct strbuf *err);

/* One CSV per table in dir (id.csv; units in the header), each written
 * atomically. Returns 0 or -1 with err set. */
int render_csv_dir(const struct report *rep, const char *dir, struct strbuf *err);
/* The XLSX renderer, called by name in its tests. */
render_fn render_xlsx;
/* render_xlsx with at most max_rows data rows per sheet (0: Excel's limit), for tests of the split. */
int render_xlsx_split(const struct report *rep, const struct render_ctx *ctx, struct outfile *of,
		      struct strbuf *err, size_t max_rows);

/* The charts drawn by gnuplot: the rest of the layer's public interface. */
#include "gnuplot.h"

#endif
