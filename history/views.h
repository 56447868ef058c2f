/*
 * views.h - the run history as reports (report.h), so that every renderer
 * (table, JSON, CSV, Markdown, HTML, XLSX) and tprof-plot can show it:
 *
 *   list         the runs stored ("runs")
 *   show         one run: what was stored, meta, series, stages, findings
 *   trend        one series across runs, change points marked ("trend")
 *   regressions  every series with a change point, ranked by
 *                |change| x (1 - p), with the run where it starts
 *   compare      two stored runs, as tprof-analyze --compare
 *   recent       one run's series against the last N runs with a label
 *
 * Each returns an HDB_* status (err set on failure).
 */
#ifndef TPROF_VIEWS_H
#define TPROF_VIEWS_H

#include "store.h"

/* One series across runs, oldest first (a trend as loaded). */
struct hs_trend_pts {
	struct hs_run *runs;
	struct an_summary *s;
	size_t n, alloc;
};
int hs_trend_load(struct hdb *db, const char *series, struct hs_trend_pts *t, struct strbuf *err);
void hs_trend_free(struct hs_trend_pts *t);
/* Change points of t's values (the compared value of each run); at most max. */
size_t hs_trend_changes(const struct hs_trend_pts *t, const struct cp_opts *o, struct cp_point *out, size_t max);

int hs_view_list(struct hdb *db, const char *label, struct report *rep, struct strbuf *err);
int hs_view_show(struct hdb *db, const struct hs_run *r, struct report *rep, struct strbuf *err);
/* *npoints: runs that carry the series (0: unknown series, nothing added). */
int hs_view_trend(struct hdb *db, const char *series, const struct cp_opts *o, struct report *rep, size_t *npoints,
		  struct strbuf *err);
/* *nfound: change points listed. */
int hs_view_regressions(struct hdb *db, const struct cp_opts *o, struct report *rep, size_t *nfound,
			struct strbuf *err);
/* Returns the HDB status; *gate as an_compare's. */
int hs_view_compare(struct hdb *db, const struct hs_run *a, const struct hs_run *b, const struct an_opts *o,
		    struct report *rep, int *gate, struct strbuf *err);
/*
 * The "history" section: each series of the given summaries against the
 * same series in the last `last` runs labelled `label` (the run with hash
 * `skip_hash`, if stored, is left out: it is this run).
 */
int hs_view_recent(struct hdb *db, const char *label, size_t last, const char *skip_hash,
		   const struct an_summary *v, size_t n, const char *run_label, struct report *rep,
		   struct strbuf *err);

#endif
