/*
 * analyze.h - the public header of the analysis layer: records into the
 * model (model.h, load.h), the model into report sections (analyses.h).
 */
#ifndef TPROF_ANALYZE_ANALYZE_H
#define TPROF_ANALYZE_ANALYZE_H

#include "model.h"
#include "load.h"
#include "analyses.h"
#include "summary.h"
#include "changepoint.h"

#endif
