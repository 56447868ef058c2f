/*
 * analyze.h - the public header of the analysis layer: records into the
 * model, the model into report sections. What other layers may use:
 *
 *   model.h        the model (runs, their series, stages, tables) and
 *                  an_feed / an_model_run, which fill it from records
 *   load.h         reading inputs into the model (the one loader)
 *   analyses.h     the analyses' table (an_analyses), an_analyze, options
 *                  (an_opts), the report's table kinds and column keys
 *                  that renderers find data by (AT_*, AC_*, AK_*)
 *   series_summary.h  a series' summary, stored by the run history
 *   changepoint.h  the change-point search across stored runs
 *
 * The analyses' own parts and the queries of the model they share are in
 * analyses_int.h, which only analyze/ includes (scripts/check-layers.sh
 * fails on any other layer that does).
 */
#ifndef TPROF_ANALYZE_ANALYZE_H
#define TPROF_ANALYZE_ANALYZE_H

#include "model.h"
#include "load.h"
#include "analyses.h"
#include "series_summary.h"
#include "changepoint.h"

#endif
