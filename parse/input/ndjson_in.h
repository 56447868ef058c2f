/*
 * ndjson_in.h - reads back the NDJSON records that tprof-parse writes: one
 * JSON object per line, mapped to a struct tp_record through the schemas of
 * record.h, so the reader knows every type's fields without a list here.
 */
#ifndef TPROF_NDJSON_IN_H
#define TPROF_NDJSON_IN_H

#include "base/base.h"
#include "parse/record.h"

/*
 * Fills r from one parsed object. Keys: "type" (required, a type name),
 * "file" (string; "" if absent), "line" (non-negative integer; 0 if absent),
 * "ts" (string or null), "rank" (integer or null; -1 if absent), then the
 * type's schema fields. A null field is absent; unknown keys are ignored;
 * of duplicate keys the last wins. Strings in r point into obj's document
 * (borrowed: valid while the doc is neither freed nor reused).
 *
 * Returns 0, or -1 with one message appended to err (no file:line prefix),
 * naming the field, e.g. "field \"seconds\": expected a number, got string".
 */
int tp_record_from_json(const struct json_value *obj, struct tp_record *r,
			struct strbuf *err);

#endif
