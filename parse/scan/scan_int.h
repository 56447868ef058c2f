/*
 * scan_int.h - the inside of the candidate search, shared by its matchers:
 * scan.c (the scanner, the portable matcher, Vectorscan, the public
 * functions) and teddy.c (the Teddy matcher). Not for other files.
 */
#ifndef TPROF_SCAN_INT_H
#define TPROF_SCAN_INT_H

#include <stdint.h>
#include <string.h>

#include "scan.h"

#ifdef TPROF_VECTORSCAN
#include <hs.h>
#endif

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_X86_TARGETS 1
#endif

#define MAX_SET 64 /* bytes the portable matcher looks for */

struct lit {
	const unsigned char *s;
	size_t n;
	size_t at;     /* offset of the anchor byte */
	unsigned flags;
	int owned;     /* s is a copy (the other case of a caseless anchor) */
	int word;      /* all letters (or UTF-8 bytes): a unit */
};

struct portable {
	/* literals anchored anywhere, grouped by anchor byte */
	struct lit *lits;
	size_t nlits;
	uint16_t first[256], count[256];
	/* segment-end markers */
	struct lit *ends;
	size_t nends;
	unsigned char end_last[256]; /* last byte of a unit after a number (both cases) */
	unsigned char end_last_any[256]; /* ... of another end marker */
	unsigned char end_ok[256];   /* either, or ')': a segment may end in a marker */
	unsigned char in_set[256];
	unsigned char set[MAX_SET];
	int nset;
	/* the set as nibble tables (shufti): byte x is in it when
	 * lo[x & 15] & hi[x >> 4] (up to 8 high nibbles exactly) */
	unsigned char lo[16], hi[16];
	/* the same for the bytes a segment may end with before a marker's
	 * end is tried: end_ok and blanks */
	unsigned char tlo[16], thi[16], tail_set[256];
};

/* Teddy (teddy.c): literals by their rarest TD_W bytes, in TD_BUCKETS
 * buckets of nibble tables */
#define TD_BUCKETS 8
#define TD_W 4 /* window bytes */

struct td_lit {
	const unsigned char *s;
	size_t n;
	size_t w;       /* offset of the window */
	unsigned flags;
	int rules;      /* a marker of the rules (format packs), not built in */
	int quick;      /* win holds the window's TD_W bytes: compared first */
	uint32_t win;
};

struct teddy {
	struct td_lit *lits; /* by bucket: bucket b is [first[b], first[b + 1]) */
	size_t nlits;
	size_t first[TD_BUCKETS + 1];
	/* within a bucket by their window's first byte, case folded: those
	 * whose window starts with byte c are [at[b][c], at[b][c + 1]), so a
	 * candidate is compared with a few literals, not a bucket's all */
	uint16_t at[TD_BUCKETS][257];
	/* bit b of lo[k][x & 15] & hi[k][x >> 4]: byte x may be byte k of
	 * the window of a literal of bucket b */
	unsigned char lo[TD_W][16], hi[TD_W][16];
	/* exact pairs of window bytes 0-1 and 1-2 of the literals of three
	 * bytes or more: most candidates that the nibble tables let through
	 * are cartesian products of bytes from different literals */
	uint64_t p01[65536 / 64], p12[65536 / 64];
	unsigned char short_b; /* buckets of literals shorter than three bytes */
	/* exact tables where the CPU has AVX-512 VBMI: bucket bits of byte c
	 * (< 128) as byte k of a window; any byte >= 128 gets hi_any[k] */
	unsigned char exact[TD_W][128], hi_any[TD_W];
	int vbmi;
};

struct tp_scanner {
	int vs; /* 1: Vectorscan */
	int td; /* 1: Teddy (AVX2) */
	struct portable pt;
	struct teddy teddy;
#ifdef TPROF_VECTORSCAN
	hs_database_t *db;
	unsigned rules_first; /* ids from here on are the rules' markers (set 1 on) */
#endif
	/* the matcher (Vectorscan, Teddy) sees every rules marker, all being
	 * literals: its hits tell the rules' gate which lines hold none */
	int rules_hint;
};

struct tp_scan_scratch {
#ifdef TPROF_VECTORSCAN
	hs_scratch_t *hs;
#endif
	const char **hits; /* Vectorscan's hits, for the line-end pass */
	size_t cap;
	const char **rhits; /* where the rules' markers were hit, in order */
	size_t rn;
	int rvalid;         /* rhits holds every such hit of the last window */
};

/* ASCII lower case. */
static inline unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* n bytes equal, ASCII letters in either case with TP_MK_NOCASE. */
static inline int eq_bytes(const unsigned char *a, const unsigned char *b, size_t n, unsigned flags)
{
	if (!(flags & TP_MK_NOCASE))
		return memcmp(a, b, n) == 0;
	for (size_t i = 0; i < n; i++)
		if (fold(a[i]) != fold(b[i]))
			return 0;
	return 1;
}

/* Can the segment [seg,q) end in an end marker? Most line ends fail on
 * their last byte. */
static inline int may_end(const struct portable *pt, const unsigned char *seg,
			  const unsigned char *q)
{
	while (q > seg && (q[-1] == ' ' || q[-1] == '\t'))
		q--;
	return q > seg && pt->end_ok[q[-1]];
}

/* Just after the last byte of bits (not 0) in the block at blk. */
static inline const unsigned char *after_last(const unsigned char *blk, uint64_t bits)
{
	return blk + 64 - __builtin_clzll(bits);
}

/* Does the segment [s,e) end in an end marker (then blanks, then maybe a
 * remark in parentheses)? */
int tp_scan_end_match(const struct portable *pt, const unsigned char *s, const unsigned char *e);

/* The same, first ruling out most segments by their last byte. */
static inline int seg_ends_in_marker(const struct portable *pt, const unsigned char *seg,
				     const unsigned char *q)
{
	return pt->nends && may_end(pt, seg, q) && tp_scan_end_match(pt, seg, q);
}

/* Moves seg past the last line end of eol, and ls past the last '\n' of
 * nl, bits of the block at blk (a line-end pass keeps its segment and
 * line starts so). */
static inline void pass_line_ends(const unsigned char *blk, uint64_t eol, uint64_t nl,
				  const unsigned char **seg, const unsigned char **ls)
{
	if (eol && after_last(blk, eol) > *seg)
		*seg = after_last(blk, eol);
	if (nl && after_last(blk, nl) > *ls)
		*ls = after_last(blk, nl);
}

#ifdef HAVE_X86_TARGETS
/* Builds Teddy's tables for the literal markers of the sets (AVX2; exact
 * tables with AVX-512 VBMI where allowed and the CPU has it). 0, or -1
 * with a message in err (no literal, or more than it takes). */
int tp_teddy_build(struct teddy *td, const struct tp_marker_set *sets, size_t nsets,
		   int allow_vbmi, struct strbuf *err);
/* tp_scan_lines for a Teddy scanner (sc->td). */
long tp_teddy_scan(const struct tp_scanner *sc, struct tp_scan_scratch *ss, const char *s,
		   const char *e, const char **starts, size_t cap, const char **done);
#endif

#endif
