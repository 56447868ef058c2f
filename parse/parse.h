/*
 * parse.h - the public header of the parse layer: logs, documents and
 * NDJSON in, typed records (record.h) out. Other layers include this header
 * only; parser_int.h and the format readers stay inside parse/.
 */
#ifndef TPROF_PARSE_PARSE_H
#define TPROF_PARSE_PARSE_H

#include "record.h"
#include "parse/lines/config.h"
#include "parse/lines/parser.h"
#include "parse/rules/rules.h"
#include "parse/rules/gate.h"
#include "parse/rules/packs.h"
#include "parse/lines/explain.h"
#include "parse/input/driver.h"
#include "parse/input/read.h"
#include "parse/input/input.h"
#include "parse/input/follow.h"
#include "emit.h"
#include "parse/input/docinput.h"
#include "parse/input/ndjson_in.h"
#include "parse/scan/markers.h"
#include "parse/scan/scan.h"

#endif
