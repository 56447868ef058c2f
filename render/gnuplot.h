/*
 * gnuplot.h - charts of a report drawn by gnuplot: each chart is a function
 * from a report (report.h) to a gnuplot script and its data files, written
 * into a directory; gnuplot then runs on the script there and its output
 * (PNG, SVG or PDF) is copied atomically to where it was asked for.
 *
 *   stages    horizontal bars of each stage's share ("breakdown")
 *   batches   batch time per batch, warmup end and outliers marked
 *             ("points", "warmup", "outliers")
 *   gpm       GPM pattern generation and total per window, average nodes
 *             on a second axis ("points")
 *   scaling   log-log points, the fitted line and the expected complexity
 *             ("scaling-points", "scaling")
 *   compare   grouped bars per item and run, IQR error bars where the run
 *             has samples ("compare", "points")
 *   timeline  a Gantt of the stages from their timestamps ("timeline")
 *   memory    CPU and GPU memory per batch ("points")
 *   trend     one series across the runs of the history, change points
 *             marked ("trend", from tprof-history or tprof-plot --history)
 *
 * Safety: text from logs never becomes gnuplot code. Names go into the
 * tab-separated data files only (control bytes, tabs and double quotes
 * removed) and reach the chart through xticlabels/yticlabels, labels and
 * columnheader; the few titles the script must hold are single-quoted
 * gnuplot strings (no substitution happens inside them) with ' doubled
 * and control bytes removed. Every text is drawn noenhanced. File names
 * are fixed: CHART.gp, CHART-d0.dat, CHART-d1.dat, ..., CHART.EXT.
 * gnuplot runs as `gnuplot -d CHART.gp` (no init files) in the script's
 * directory, stdin from /dev/null, killed after the timeout.
 */
#ifndef TPROF_GNUPLOT_H
#define TPROF_GNUPLOT_H

#include <stddef.h>

#include "base/base.h"

enum gp_chart { GP_STAGES, GP_BATCHES, GP_GPM, GP_SCALING, GP_COMPARE, GP_TIMELINE, GP_MEMORY, GP_TREND, GP_NCHARTS };

enum gp_term { GP_PNG, GP_SVG, GP_PDF };

enum gp_status {
	GP_OK = 0,
	GP_NODATA,    /* the report has nothing for this chart */
	GP_NOGNUPLOT, /* the gnuplot program could not be started */
	GP_FAILED,    /* gnuplot failed, timed out or wrote nothing */
	GP_ESCRIPT,   /* the script directory or its files could not be written */
	GP_EOUTPUT    /* the output file could not be written */
};

struct gp_opts {
	enum gp_term term;
	int width, height;  /* pixels (PDF: at 96 per inch) */
	const char *title;  /* NULL: the chart's own */
	const char *gnuplot; /* program (PATH lookup without a '/'); NULL: "gnuplot" */
	int timeout_s;      /* gnuplot is killed after this; 0: 60 */
};

/* The install hint printed when gnuplot cannot be started. */
#define GP_INSTALL_HINT "install it with 'apt-get install gnuplot-nox' or name it with --gnuplot PATH"

void gp_opts_default(struct gp_opts *o);

/* A height (pixels) that gives chart c room for all it draws, at least dflt. */
int gp_suggested_height(const struct report *rep, enum gp_chart c, int dflt);

const char *gp_chart_name(enum gp_chart c);
/* The chart of that name, or -1. */
int gp_chart_lookup(const char *name);
/* What the chart shows, one line. */
const char *gp_chart_what(enum gp_chart c);

/* ".png", ".svg", ".pdf" */
const char *gp_term_ext(enum gp_term t);
/* By the extension of path; -1 if it is none of them. */
int gp_term_for_path(const char *path);

/* Whether the report holds data for the chart. */
int gp_has_data(const struct report *rep, enum gp_chart c, const struct gp_opts *o);

/* Writes DIR/CHART.gp and its data files; the script draws DIR/CHART.EXT. */
enum gp_status gp_write_script(const struct report *rep, enum gp_chart c, const struct gp_opts *o,
			       const char *dir, struct strbuf *err);

/* Runs gnuplot on DIR/CHART.gp (its messages go to DIR/CHART.log). */
enum gp_status gp_run(const struct gp_opts *o, enum gp_chart c, const char *dir, struct strbuf *err);

/*
 * The whole job: script and data into script_dir (created if missing;
 * NULL: a temporary directory, removed afterwards), gnuplot, and the chart
 * copied atomically to output. The script is written even when gnuplot is
 * missing.
 */
enum gp_status gp_plot_file(const struct report *rep, enum gp_chart c, const struct gp_opts *o,
			    const char *output, const char *script_dir, struct strbuf *err);

/* The same into memory (for the HTML report), through a temporary directory. */
enum gp_status gp_plot_buf(const struct report *rep, enum gp_chart c, const struct gp_opts *o,
			   struct strbuf *out, struct strbuf *err);

#endif
