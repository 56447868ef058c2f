/*
 * emit.h - writers that turn records into text: NDJSON (one JSON object a
 * line), CSV (RFC 4180 through libcsv, one fixed column set) and a plain
 * aligned table. They append to a strbuf so that parser threads can format
 * in parallel and the caller writes buffers in order.
 *
 * Contract: tp_emit_header once, tp_emit_record per record, nothing at the
 * end. Text cells of CSV that a spreadsheet would read as a formula
 * (starting with = + - @ TAB CR) are prefixed with a single quote.
 */
#ifndef TPROF_EMIT_H
#define TPROF_EMIT_H

#include "record.h"

enum tp_out_format { TP_OUT_NDJSON, TP_OUT_CSV, TP_OUT_TABLE };

/* "ndjson, csv, table", in the order of enum tp_out_format. */
void tp_out_format_names(struct strbuf *sb);
/* "ndjson"/"json", "csv", "table" -> format; -1 if unknown. */
int tp_out_format_from_name(const char *s);

void tp_emit_header(enum tp_out_format f, struct strbuf *sb);
void tp_emit_record(enum tp_out_format f, const struct tp_record *r, struct strbuf *sb);

/* One NDJSON object (no newline). */
void tp_record_to_json(const struct tp_record *r, struct strbuf *sb);

/* The CSV columns, in order (type,file,line,ts,rank, then every field). */
size_t tp_csv_columns(const char *const **names);

/* Appends s as one CSV cell (quoted when needed, formula-neutralized). */
void tp_csv_cell(struct strbuf *sb, const char *s, size_t n);

#endif
