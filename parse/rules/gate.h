/*
 * gate.h - the literal gate of the rules groups (format packs).
 *
 * Every pack (and any rules file that declares @marker lines) names a few
 * literals that appear on each line it can read. Before a pack's regexes
 * run, one pass over the line finds which groups' markers occur; a line
 * without a marker never reaches a pack regex (and a line the chunk scan
 * already found to hold none, ln->no_marker, skips the gate too).
 *
 * The table is plain data (struct tp_rmarker: literal, length, group).
 * tp_gate anchors each literal on its rarest byte pair (tp_pair_freq).
 * Where the CPU has SSSE3 (AVX2: 32 at a time) a line is scanned
 * Teddy-style, 16 positions at a time: nibble tables of the anchor and
 * the two bytes after it, in buckets of literals, give the candidates;
 * elsewhere 16 bytes are compared with every distinct anchor byte at once
 * (GCC/Clang vector extensions), or byte by byte beyond MAX_ANCHORS of
 * them. A candidate must pass the bitmap of anchor pairs before the
 * literals anchored on it are compared.
 */
#ifndef TPROF_GATE_H
#define TPROF_GATE_H

#include <stddef.h>
#include <stdint.h>

#include "parse/parse.h"

struct tp_gate;

/* Builds a scanner over m[0..n) (borrowed: must outlive the set). Markers
 * of length 0 are ignored. */
struct tp_gate *tp_gate_new(const struct tp_rmarker *m, size_t n);
void tp_gate_free(struct tp_gate *ms);

/* A bitmap of byte pairs (65536 bits): the pairs of bytes that a set of
 * literals holds at some offsets, so that most candidates are dropped
 * without a compare (the gate, scan.c's Teddy). */
static inline void tp_pairs_set(uint64_t *t, unsigned a, unsigned b)
{
	unsigned k = a | b << 8;
	t[k / 64] |= (uint64_t)1 << (k % 64);
}

static inline int tp_pairs_has(const uint64_t *t, unsigned a, unsigned b)
{
	unsigned k = a | b << 8;
	return (int)(t[k / 64] >> (k % 64) & 1);
}

/* How often byte c, and the pair (a, b), occur in training-log text, per
 * 100,000 bytes (measured; estimated for uncommon pairs): where to anchor
 * a literal so that a matcher stops seldom (the gate, scan.c's Teddy and
 * portable matcher: one table for all). */
unsigned tp_byte_freq(unsigned char c);
double tp_pair_freq(unsigned char a, unsigned char b);

/*
 * Sets bit g of hits (an array of 64-bit words, caller-zeroed, sized for
 * the largest group + 1) for every group g with a marker in [s, s+n).
 * Returns the number of marker occurrences verified.
 */
size_t tp_gate_scan(const struct tp_gate *ms, const char *s, size_t n,
			  uint64_t *hits);

#endif
