/*
 * parser.h - the streaming log parser: bytes in, typed records out.
 *
 * Feed it one physical line at a time (without the line end; a trailing
 * '\r' is tolerated) and it calls sink->emit for every record, in input
 * order, and sink->warn for every line that carries one of tprof's markers
 * but whose values cannot be read. Multi-line blocks (summary tables,
 * benchmark blocks) are emitted when they end, or at tp_parser_finish.
 *
 * Memory is bounded: a parser holds one block state per launcher rank and
 * never the input. A line longer than TP_MAX_LINE is parsed segment by
 * segment ('\r' parts), each on its first TP_MAX_LINE bytes, and counted
 * in stats.long_lines.
 */
#ifndef TPROF_PARSER_H
#define TPROF_PARSER_H

#include <stddef.h>
#include <stdint.h>

#include "parse/parse.h"

struct tp_parser;

/* file: display name used in records and messages (borrowed, must outlive
 * the parser). rules may be NULL. */
struct tp_parser *tp_parser_new(const char *file, const struct tp_sink *sink,
				const struct tp_rules *rules);
/* Parses one line; its number is the count of lines fed so far. */
void tp_parser_line(struct tp_parser *p, const char *line, size_t n);

/*
 * Parses part of a physical line, for readers that meet a line longer than
 * their buffer: TP_LINE_START on the first part, TP_LINE_END on the last.
 * Split only at a '\r' (parts are parsed as separate segments).
 */
#define TP_LINE_START 1
#define TP_LINE_END 2
#define TP_LINE_NOEOL 4 /* with TP_LINE_END: the input ended without a line end */
void tp_parser_feed(struct tp_parser *p, const char *s, size_t n, int flags);

/* Progress records (every redraw of a progress bar) on or off; on in a
 * new parser. */
void tp_parser_set_progress(struct tp_parser *p, int on);

/*
 * Template discovery (discover.h): fn receives every line that no reader
 * read, or that only rules read (with the values their records hold), and
 * that holds a number next to a time or rate unit. NULL: none (the
 * default).
 */
struct tp_disc_line;
void tp_parser_set_discover(struct tp_parser *p, void (*fn)(void *ctx, const struct tp_disc_line *ln),
			    void *ctx);

/* A record emitted beside the parser (a discovered template's): its time
 * stamp counts in the log's span as the parser's own records' do. Call
 * before tp_parser_finish. */
void tp_parser_note_record(struct tp_parser *p, const struct tp_record *r);

/* Replaces the sink (a parser handed from one output buffer to another). */
void tp_parser_set_sink(struct tp_parser *p, const struct tp_sink *sink);

/* Adds the parser's statistics into acc (if not NULL) and zeroes them. */
void tp_parser_take_stats(struct tp_parser *p, struct tp_stats *acc);
/* Ends open blocks and pending records (call at end of input). */
void tp_parser_finish(struct tp_parser *p);
const struct tp_stats *tp_parser_stats(const struct tp_parser *p);
void tp_parser_free(struct tp_parser *p);

/* Sets the number of the next line (for parsing a chunk of a file). */
void tp_parser_set_lineno(struct tp_parser *p, uint64_t next_line);
/* The number the next line will have. */
uint64_t tp_parser_next_line(const struct tp_parser *p);
/* p takes over from before, which read the lines before p's: the log's
 * first time stamp is before's if it read one, the last p's if p did. */
void tp_parser_carry_span(struct tp_parser *p, const struct tp_parser *before);

/* 1 if no block is open and no record is pending (a safe split point). */
int tp_parser_idle(const struct tp_parser *p);

/*
 * Parses a whole buffer (lines split on '\n'). With a scanner set, only the
 * lines that hold a marker (and every line while a block is open or a
 * record is pending) go through the recognizers; the others are counted.
 * The records, warnings and statistics are those of the plain path.
 */
void tp_parse_buffer(struct tp_parser *p, const char *buf, size_t n);

/* Sets (or, with NULL, clears) the candidate search used by
 * tp_parse_buffer; sc must outlive the parser. */
void tp_parser_set_scanner(struct tp_parser *p, const struct tp_scanner *sc);

#endif
