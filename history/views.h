/*
 * views.h - what the views (history.h: the run history as reports, so that
 * every renderer and tprof-plot can show it) share inside history/: one
 * series across runs, loaded, and its change points.
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

#endif
