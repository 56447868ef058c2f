/*
 * parse.h - the public header of the parse layer: logs, documents and
 * NDJSON in, typed records (record.h) out. Other layers include this header
 * only; parser_int.h and the format readers stay inside parse/.
 */
#ifndef TPROF_PARSE_PARSE_H
#define TPROF_PARSE_PARSE_H

#include "record.h"
#include "config.h"
#include "parser.h"
#include "rules.h"
#include "driver.h"
#include "read.h"
#include "input.h"
#include "follow.h"
#include "emit.h"
#include "docinput.h"
#include "ndjson_in.h"
#include "markers.h"
#include "scan.h"

#endif
