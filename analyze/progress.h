/*
 * progress.h - the analysis of progress bars' redraws (progress.c): per
 * bar, steps, step time, stalls and the ETA's error. Not a public header.
 */
#ifndef TPROF_AN_PROGRESS_H
#define TPROF_AN_PROGRESS_H

#include "model.h"

struct an_opts;
struct report;

/* One redraw of a run (*pg made on the first). */
void an_progress_feed(struct an_progress **pg, const struct tp_record *r);
void an_progress_free(struct an_progress *pg);
/* The step series of the bar whose windows cover the most time (the
 * training loop's, beside shorter evaluation bars), named in *what; NULL if
 * no bar has enough windows. */
const struct tp_series *an_progress_steps(const struct an_progress *pg, const char **what);
/* The steps that bar's windows hold (0: no such bar). */
double an_progress_step_count(const struct an_progress *pg);

/* The longest time the clock of a bar drawn once covered (an epoch bar's
 * holds all its loop ran), or NAN. */
double an_progress_clock(const struct an_progress *pg);
/* Table progress and the findings stall and eta-off (with --throughput). */
void an_progress_report(const struct an_model *m, const struct an_opts *o, struct report *rep);

#endif
