/*
 * ingest.h - adding one log to the run history: its content hash and
 * size, then the load-and-analyze path of tprof-analyze (load.c, the
 * analyses), kept as series summaries, the stage breakdown and the
 * findings, stored in one transaction. Memory: one run's model at a time.
 */
#ifndef TPROF_INGEST_H
#define TPROF_INGEST_H

#include "store.h"

/* The kept values per series with --records: the exact head of the series. */
#define HS_MAX_SAMPLES 512

#endif
