/*
 * scan.h - the candidate search: one multi-literal matcher over a whole
 * input chunk finds the lines that hold a marker (markers.h); only those
 * lines go through the recognizers.
 *
 * Three matchers give the same lines: Teddy (x86 with AVX2: each
 * literal's rarest four bytes looked up in nibble tables of 8 buckets, 64
 * bytes at a time, in the same pass as the line ends; the default where it
 * runs), Vectorscan (Hyperscan's portable fork, SIMD on x86 and ARM; a
 * block-mode database compiled once per run) where the library was found at
 * build time, and a portable one (SSE2 where the compiler has it, plain C
 * otherwise) that looks for the rarest byte of each literal. A scanner is
 * immutable and may be shared by threads; each thread scans with its own
 * scratch.
 */
#ifndef TPROF_SCAN_H
#define TPROF_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "markers.h"
#include "parse/parse.h"

enum tp_scan_backend {
	TP_SCAN_AUTO,       /* Teddy on x86 with AVX2, else Vectorscan if built in, else portable */
	TP_SCAN_PORTABLE,
	TP_SCAN_VECTORSCAN, /* fails where the library was not built in */
	TP_SCAN_TEDDY,      /* fails on a CPU without AVX2; exact tables with AVX-512 VBMI */
	TP_SCAN_TEDDY_AVX2, /* Teddy without AVX-512 (tests and benchmarks) */
};

struct tp_scan_scratch;

/* Compiles the markers of nsets tables. Returns NULL with a message in err
 * on failure (a marker Vectorscan rejects, the library missing). */
struct tp_scanner *tp_scanner_new(const struct tp_marker_set *sets, size_t nsets,
				  enum tp_scan_backend backend, struct strbuf *err);
/* "teddy", "teddy (AVX-512 VBMI)", "vectorscan" or "portable". */
const char *tp_scanner_backend(const struct tp_scanner *sc);

struct tp_scan_scratch *tp_scan_scratch_new(const struct tp_scanner *sc);
void tp_scan_scratch_free(struct tp_scan_scratch *ss);

/*
 * Finds the lines of [s,e) that hold a marker. s is a line start; e is a
 * line start or the end of the input. Writes the start of each such line
 * into starts[] in input order, each line once, at most cap of them, and
 * sets *done to where the search stopped: e, the start of the line after
 * the last one written when cap was reached, or a line start about 128 KiB
 * on (the search goes by windows that stay in the cache). Lines before *done that
 * are not listed hold no marker. Returns the number written, or -1 if the
 * matcher failed (the caller then reads [s,e) line by line).
 */
long tp_scan_lines(const struct tp_scanner *sc, struct tp_scan_scratch *ss, const char *s,
		   const char *e, const char **starts, size_t cap, const char **done);

/*
 * Where the last tp_scan_lines call hit the rules' markers (the second
 * marker set of tp_scanner_for_run: format packs and rules files), in
 * order, each a byte of a match's line (Teddy: where the match is, or the
 * line's start when it did not look); *n of them. NULL when the matcher
 * cannot tell (the portable one, a marker anchored at the line end, more
 * hits than it keeps): the rules' gate then looks at the line itself. A
 * candidate line holding none of them is one the rules' gate would close.
 */
const char *const *tp_scan_rule_hits(const struct tp_scan_scratch *ss, size_t *n);

/* The number of '\n' in [s,e) (SIMD where the compiler has it). */
uint64_t tp_count_newlines(const char *s, const char *e);

#endif
