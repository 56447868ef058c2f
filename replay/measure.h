/*
 * measure.h - timing shared by the backends: a monotonic clock, the sample
 * arrays of a timed replay (types.h, struct tpr_measure) and their summary.
 */
#ifndef TPROF_REPLAY_MEASURE_H
#define TPROF_REPLAY_MEASURE_H

#include "types.h"
#include "base/base.h"

void tpr_measure_init(struct tpr_measure *m, int cap);
void tpr_measure_free(struct tpr_measure *m);

struct tpr_stat {
	double median, min, max; /* ms; NAN when n == 0 */
	int n;
};
/* Through base/stats.h's tp_series (exact quantiles for these sizes). */
void tpr_stat_of(const struct tpr_samples *s, struct tpr_stat *st);

/* Monotonic clock in milliseconds. */
double tpr_now_ms(void);

#endif
