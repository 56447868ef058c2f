/*
 * base.h - the shared base: what every layer of tprof may use. Checked
 * allocation, strbuf and exit codes (util.h), character and text helpers,
 * number/duration/size readers (num.h), the one timestamp normalizer,
 * atomic output files (outfile.h), the strict JSON reader (json.h),
 * streaming statistics (stats.h), the format-neutral report (report.h)
 * and the one string-keyed table (map.h).
 *
 * Layers: base <- parse <- analyze <- render <- cli, replay beside analyze.
 * Nothing here includes a header of another layer.
 */
#ifndef TPROF_BASE_BASE_H
#define TPROF_BASE_BASE_H

#include "util.h"
#include "text.h"
#include "timestamp.h"
#include "num.h"
#include "outfile.h"
#include "json.h"
#include "stats.h"
#include "report.h"
#include "map.h"

#endif
