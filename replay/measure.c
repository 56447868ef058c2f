/*
 * measure.c - the clock and the sample arrays behind every timed replay
 * (measure.h), below both backends: cpu.c and backend.c use it, neither
 * calls the other back.
 */
#include "measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double tpr_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void samples_init(struct tpr_samples *s, int cap)
{
	s->n = 0;
	s->cap = cap;
	s->ms = xcalloc((size_t)cap, sizeof(*s->ms));
}

void tpr_measure_init(struct tpr_measure *m, int cap)
{
	memset(m, 0, sizeof(*m));
	cap = cap < 1 ? 1 : cap;
	samples_init(&m->kernel, cap);
	samples_init(&m->call, cap);
	samples_init(&m->h2d_pinned, cap);
	samples_init(&m->h2d_pageable, cap);
	samples_init(&m->d2h_pinned, cap);
	samples_init(&m->d2h_pageable, cap);
}

void tpr_measure_free(struct tpr_measure *m)
{
	free(m->kernel.ms);
	free(m->call.ms);
	free(m->h2d_pinned.ms);
	free(m->h2d_pageable.ms);
	free(m->d2h_pinned.ms);
	free(m->d2h_pageable.ms);
	memset(m, 0, sizeof(*m));
}

void tpr_stat_of(const struct tpr_samples *s, struct tpr_stat *st)
{
	struct tp_series *ser = xmalloc(sizeof(*ser));
	tp_series_init(ser);
	for (int i = 0; i < s->n; i++)
		tp_series_add(ser, s->ms[i], 0);
	st->n = (int)ser->n;
	st->median = ser->n ? tp_series_quantile(ser, 0.5) : NAN;
	st->min = ser->n ? ser->min : NAN;
	st->max = ser->n ? ser->max : NAN;
	tp_series_free(ser);
	free(ser);
}
