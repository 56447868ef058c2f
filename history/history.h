/*
 * history.h - the public header of the run history layer: the database
 * interface and its two back ends (db.h), the stored runs (store.h),
 * adding a log (ingest.h), the reports built from the history (views.h)
 * and the content hash (sha256.h). It uses base, parse and analyze; the
 * mains in cli/ use it.
 */
#ifndef TPROF_HISTORY_HISTORY_H
#define TPROF_HISTORY_HISTORY_H

#include "db.h"
#include "store.h"
#include "ingest.h"
#include "views.h"
#include "sha256.h"

#endif
