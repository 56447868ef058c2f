/*
 * markers.h - the literal markers of every recognizer, in one table.
 *
 * The candidate search (scan.h) runs one multi-literal matcher over a whole
 * input chunk and sends only the lines that hold a marker through prefix
 * stripping and the recognizers. For that to be exact, every recognizer
 * declares here what a line it can read must contain: a superset is fine
 * (the recognizer still decides), a miss is a lost record. A format pack
 * adds its own table (an array of struct tp_marker) as data; nothing in the
 * matchers knows which recognizer a marker belongs to.
 *
 * Anchors say where the marker sits:
 *   TP_AT_ANY    anywhere in the line;
 *   TP_AT_START  at the start of a segment after the stripped prefixes
 *                (launcher rank, timestamp, logger level); the matchers
 *                look for it anywhere, which is a superset;
 *   TP_AT_END    at the end of a segment (before '\r', '\n' or the end of
 *                input), after which only blanks and, from a '(' on, a
 *                remark may follow: "Peak memory: 512 MB (one-time)".
 *                With TP_MK_NUMBER the literal must come right after the
 *                last character of a number (a digit, '.', or the end of
 *                nan/inf/infinity) and optional blanks: a value's unit.
 */
#ifndef TPROF_MARKERS_H
#define TPROF_MARKERS_H

#include <stddef.h>

enum tp_anchor { TP_AT_ANY, TP_AT_START, TP_AT_END };

#define TP_MK_NOCASE 1u /* ASCII letters match in either case */
#define TP_MK_NUMBER 2u /* TP_AT_END: a number comes right before */

struct tp_marker {
	const char *lit;   /* the literal bytes (NUL-terminated, at least 1 byte) */
	unsigned char anchor; /* enum tp_anchor */
	unsigned char flags;  /* TP_MK_* */
	const char *owner; /* the recognizer that reads the line (for documentation) */
};

/* One table: the built-in recognizers', or one format pack's. */
struct tp_marker_set {
	const char *name;
	const struct tp_marker *m;
	size_t n;
};

/* The markers of the built-in recognizers (lines.c, blocks.c, parser.c,
 * progress.c), and the same without progress.c's (a run without progress
 * records). */
extern const struct tp_marker_set tp_builtin_markers;
extern const struct tp_marker_set tp_builtin_markers_no_progress;

#endif
