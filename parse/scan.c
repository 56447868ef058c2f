/*
 * scan.c - the candidate search over a whole chunk (see scan.h).
 *
 * A hit makes the line that holds it a candidate, and the search resumes
 * at the next line (one hit per line is enough). Segment-end markers (the
 * units of "Label: 12.3 ms" values) are tried at the '\n' and '\r' whose
 * previous byte could end one; literals where they occur:
 *
 *  - Vectorscan: the literals compiled into one block-mode database, whose
 *    hits (their last byte) are kept; then one pass, 64 bytes at a time,
 *    over the line ends, which tries the segment ends and turns every hit
 *    into its line's start by bit arithmetic on the block's '\n' mask;
 *  - Teddy (x86 with AVX2; the default there): one pass, 64 bytes
 *    at a time, in which nibble-table lookups of four consecutive bytes
 *    give the positions where a literal's rarest four bytes (its window)
 *    may start, in 8 buckets of literals grouped so that few positions of
 *    log text fit (with AVX-512 VBMI: exact 128-byte tables, one lookup
 *    per 64 bytes); the same pass gives the line ends. A candidate whose
 *    byte pairs are no literal's is dropped, the rest compared whole. A
 *    line listed for a built-in marker is followed to its end for the
 *    rules' markers, so that the rules' gate knows which lines hold none;
 *  - portable: one pass, 64 bytes at a time, that stops at '\n', '\r' and
 *    at the rarest byte of each literal (SSSE3 nibble tables where the CPU
 *    has them, a byte table otherwise), where the literals anchored on
 *    that byte are compared.
 *
 * All read the input in windows of about 128 KiB, so that Vectorscan's
 * second pass finds the bytes in the cache.
 */
#include "scan.h"
#include "gate.h"
#include "rules.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#ifdef TPROF_VECTORSCAN
#include <hs.h>
#endif

#define MAX_SET 64 /* bytes the portable matcher looks for */
#define SCAN_WINDOW (128u << 10) /* bytes searched per call, about */

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

/* Teddy: literals by their rarest TD_W bytes, in TD_BUCKETS buckets of
 * nibble tables (see td_build) */
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
	int rules_hint; /* every rules marker is a literal here: the hits tell the gate */
};

struct tp_scanner {
	int vs; /* 1: Vectorscan */
	int td; /* 1: Teddy (AVX2) */
	struct portable pt;
	struct teddy teddy;
#ifdef TPROF_VECTORSCAN
	hs_database_t *db;
	unsigned rules_first; /* ids from here on are the rules' markers (set 1 on) */
	int rules_hint;       /* Vectorscan sees every rules marker: its hits tell the gate */
#endif
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

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static int eq_bytes(const unsigned char *a, const unsigned char *b, size_t n, unsigned flags)
{
	if (!(flags & TP_MK_NOCASE))
		return memcmp(a, b, n) == 0;
	for (size_t i = 0; i < n; i++)
		if (fold(a[i]) != fold(b[i]))
			return 0;
	return 1;
}

/*
 * How common each byte is in training logs, about 1.5 x log2 of its
 * occurrences per million bytes (0: not seen), counted on 50 MB of
 * bench/gen's log (tqdm bars, warnings, launcher and logger lines, loss
 * dicts, timing lines). A literal is anchored on its rarest byte, so that
 * the portable matcher stops seldom.
 */
static const unsigned char byte_freq[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 19, 0, 0, 20, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 14, 0, 0, 0, 0,
	25, 8, 0, 0, 0, 20, 7, 18, 14, 12, 18, 9, 21, 19, 21, 22,
	23, 23, 23, 23, 23, 22, 21, 21, 21, 21, 23, 10, 20, 18, 11, 0,
	0, 14, 16, 16, 13, 14, 16, 15, 8, 17, 8, 7, 14, 16, 17, 16,
	16, 0, 12, 13, 15, 16, 10, 14, 9, 5, 0, 20, 0, 20, 0, 17,
	13, 21, 17, 19, 19, 21, 16, 19, 19, 21, 10, 15, 20, 18, 21, 20,
	19, 9, 20, 22, 22, 18, 16, 16, 14, 17, 11, 14, 21, 14, 0, 0,
	0, 9, 9, 7, 7, 7, 7, 0, 23, 15, 15, 15, 15, 15, 15, 15,
	7, 0, 0, 0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0,
	0, 7, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static int byte_cost(unsigned char c)
{
	return byte_freq[c];
}

static int is_word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

static int set_add(struct portable *pt, unsigned char c)
{
	if (pt->in_set[c])
		return 1;
	if (pt->nset == MAX_SET)
		return 0;
	pt->in_set[c] = 1;
	pt->set[pt->nset++] = c;
	return 1;
}

static int lit_cmp(const void *a, const void *b)
{
	const struct lit *x = a, *y = b;
	return (int)x->s[x->at] - (int)y->s[y->at];
}

/*
 * Nibble tables (shufti) for a byte set: byte x is in it when
 * lo[x & 15] & hi[x >> 4]; exact for up to 8 distinct high nibbles, a
 * superset past that (the matchers check every byte they stop at).
 */
static void nibble_tables(const unsigned char set[256], unsigned char lo[16], unsigned char hi[16])
{
	int bucket_of[16], nb = 0;
	memset(bucket_of, -1, sizeof(bucket_of));
	memset(lo, 0, 16);
	memset(hi, 0, 16);
	for (int c = 0; c < 256; c++) {
		if (!set[c])
			continue;
		int h = c >> 4;
		if (bucket_of[h] < 0)
			bucket_of[h] = nb++ % 8;
		lo[c & 15] |= (unsigned char)(1u << bucket_of[h]);
		hi[h] |= (unsigned char)(1u << bucket_of[h]);
	}
}

static int portable_build(struct portable *pt, const struct tp_marker_set *sets, size_t nsets,
			  struct strbuf *err)
{
	size_t total = 0;
	for (size_t i = 0; i < nsets; i++)
		total += sets[i].n;
	pt->lits = xcalloc(total ? total * 2 : 1, sizeof(*pt->lits));
	pt->ends = xcalloc(total ? total : 1, sizeof(*pt->ends));
	set_add(pt, '\n');
	set_add(pt, '\r');
	for (size_t i = 0; i < nsets; i++) {
		for (size_t j = 0; j < sets[i].n; j++) {
			const struct tp_marker *m = &sets[i].m[j];
			struct lit l = { (const unsigned char *)m->lit, strlen(m->lit), 0, m->flags, 0, 0 };
			if (l.n == 0 || memchr(l.s, '\n', l.n) || memchr(l.s, '\r', l.n)) {
				strbuf_addf(err, "marker '%s' (%s): empty or holds a line end", m->lit,
					    m->owner);
				return -1;
			}
			if (m->anchor == TP_AT_END) {
				unsigned char c = l.s[l.n - 1];
				l.word = 1;
				for (size_t k = 0; k < l.n; k++)
					l.word &= is_word_byte(l.s[k]);
				unsigned char *tab = l.word && (l.flags & TP_MK_NUMBER) ? pt->end_last
										       : pt->end_last_any;
				tab[c] = 1;
				if (l.flags & TP_MK_NOCASE)
					tab[fold(c)] = tab[c >= 'a' && c <= 'z' ? c - 32 : c] = 1;
				pt->ends[pt->nends++] = l;
				continue;
			}
			/* the rarest byte, preferring one already looked for */
			int best = -1;
			for (size_t k = 0; k < l.n; k++) {
				int cost = byte_cost(l.s[k]) - (pt->in_set[l.s[k]] ? 1 : 0);
				if (best < 0 || cost < best) {
					best = cost;
					l.at = k;
				}
			}
			unsigned char a = l.s[l.at];
			int ok = set_add(pt, a);
			pt->lits[pt->nlits++] = l;
			if ((l.flags & TP_MK_NOCASE) && a >= 'A' && a <= 'z' && fold(a) >= 'a' && fold(a) <= 'z') {
				/* a caseless letter anchors in both cases: a second entry */
				unsigned char other = a == fold(a) ? (unsigned char)(a - 32) : fold(a);
				ok &= set_add(pt, other);
				struct lit l2 = l;
				unsigned char *copy = (unsigned char *)xmemdup(l.s, l.n);
				copy[l.at] = other;
				l2.s = copy;
				l2.owned = 1;
				pt->lits[pt->nlits++] = l2;
			}
			if (!ok) {
				strbuf_addf(err, "too many distinct anchor bytes for the portable matcher");
				return -1;
			}
		}
	}
	for (int c = 0; c < 256; c++)
		pt->end_ok[c] = pt->end_last[c] | pt->end_last_any[c];
	pt->end_ok[')'] = 1;
	nibble_tables(pt->in_set, pt->lo, pt->hi);
	for (int c = 0; c < 256; c++)
		pt->tail_set[c] = pt->end_ok[c] || c == ' ' || c == '\t';
	nibble_tables(pt->tail_set, pt->tlo, pt->thi);
	qsort(pt->lits, pt->nlits, sizeof(*pt->lits), lit_cmp);
	for (size_t i = pt->nlits; i-- > 0;) {
		unsigned char a = pt->lits[i].s[pt->lits[i].at];
		pt->first[a] = (uint16_t)i;
		pt->count[a]++;
	}
	return 0;
}

static void portable_free(struct portable *pt)
{
	for (size_t i = 0; i < pt->nlits; i++)
		if (pt->lits[i].owned)
			free((void *)pt->lits[i].s);
	free(pt->lits);
	free(pt->ends);
}

static int is_number_end(unsigned char c)
{
	return (c >= '0' && c <= '9') || c == '.' || strchr("fFnNyY", c) != NULL;
}

static const unsigned char *trim_blanks(const unsigned char *s, const unsigned char *e)
{
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return e;
}

/*
 * Does an end marker end right at u (segment [s, u))? A unit after a
 * number is the whole run of letters before u: a number that ends in a
 * letter (nan, inf) is not one when more letters follow it, so "5 ms" is
 * the only reading of "...5 ms" and the run "ms" is compared whole.
 */
static int unit_at(const struct portable *pt, const unsigned char *s, const unsigned char *u)
{
	if (u <= s)
		return 0;
	int after_number = 0;
	const unsigned char *r = u;
	if (pt->end_last[u[-1]]) {
		while (r > s && is_word_byte(r[-1]))
			r--;
		const unsigned char *before = trim_blanks(s, r);
		after_number = before > s && is_number_end(before[-1]);
	}
	if (!after_number && !pt->end_last_any[u[-1]])
		return 0;
	for (size_t i = 0; i < pt->nends; i++) {
		const struct lit *l = &pt->ends[i];
		if ((l->flags & TP_MK_NUMBER) && l->word && (!after_number || l->n != (size_t)(u - r)))
			continue;
		if ((size_t)(u - s) < l->n || !eq_bytes(u - l->n, l->s, l->n, l->flags))
			continue;
		if (!(l->flags & TP_MK_NUMBER))
			return 1;
		const unsigned char *b = trim_blanks(s, u - l->n);
		if (b > s && is_number_end(b[-1]))
			return 1;
	}
	return 0;
}

/* Segment [s,e) ends with an end marker, then blanks, then maybe a remark
 * from a '(' to a last ')' and blanks. */
static int end_match(const struct portable *pt, const unsigned char *s, const unsigned char *e)
{
	const unsigned char *t = trim_blanks(s, e);
	if (unit_at(pt, s, t))
		return 1;
	if (t == s || t[-1] != ')')
		return 0;
	for (const unsigned char *o = memchr(s, '(', (size_t)(t - s)); o;
	     o = memchr(o + 1, '(', (size_t)(t - o - 1)))
		if (unit_at(pt, s, trim_blanks(s, o)))
			return 1;
	return 0;
}

/* A literal anchored on byte *q matches around q, within [ls, e). */
static int lit_match(const struct portable *pt, const unsigned char *ls, const unsigned char *e,
		     const unsigned char *q)
{
	size_t f = pt->first[*q], n = pt->count[*q];
	for (size_t i = f; i < f + n; i++) {
		const struct lit *l = &pt->lits[i];
		if ((size_t)(q - ls) < l->at || (size_t)(e - q) < l->n - l->at)
			continue;
		if (eq_bytes(q - l->at, l->s, l->n, l->flags))
			return 1;
	}
	return 0;
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

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define HAVE_X86_TARGETS 1
/* 64 bytes against the nibble tables: one bit per byte that may be in the set. */
__attribute__((target("ssse3"))) static inline uint64_t set_mask64_ssse3(const unsigned char *tlo,
								    const unsigned char *thi,
								    const unsigned char *p)
{
	const __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)tlo);
	const __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)thi);
	const __m128i low4 = _mm_set1_epi8(0x0f), zero = _mm_setzero_si128();
	uint64_t m = 0;
	for (int i = 0; i < 4; i++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
		__m128i a = _mm_shuffle_epi8(lo, _mm_and_si128(v, low4));
		__m128i b = _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16(v, 4), low4));
		uint64_t none = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(a, b), zero));
		m |= (~none & 0xffffu) << (16 * i);
	}
	return m;
}
#endif

/* Bit i set: p[i] may be in the set of the nibble tables lo, hi and of
 * the byte table in (n <= 64). */
static inline __attribute__((always_inline)) uint64_t
set_mask(const unsigned char *lo, const unsigned char *hi, const unsigned char *in,
	 const unsigned char *p, size_t n, int ssse3)
{
#ifdef HAVE_X86_TARGETS
	if (n == 64 && ssse3)
		return set_mask64_ssse3(lo, hi, p);
#else
	(void)lo, (void)hi, (void)ssse3;
#endif
	uint64_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (in[p[i]])
			m |= (uint64_t)1 << i;
	return m;
}

/*
 * The portable matcher: one pass over [s,e), 64 bytes at a time; at each
 * '\n' and '\r' the segment-end markers are tried, at each other byte of
 * the set the literals anchored on it. Lists the candidate lines (see
 * tp_scan_lines).
 */
static inline __attribute__((always_inline)) long
block_scan_body(const struct portable *pt, const unsigned char *s, const unsigned char *e,
		const char **starts, size_t cap, const char **done, int ssse3)
{
	const unsigned char *ls = s, *seg = s;
	size_t k = 0;
	*done = (const char *)e;
	for (const unsigned char *blk = s; blk < e;) {
		size_t len = (size_t)(e - blk) < 64 ? (size_t)(e - blk) : 64;
		uint64_t bits = set_mask(pt->lo, pt->hi, pt->in_set, blk, len, ssse3);
		const unsigned char *next = blk + len;
		while (bits) {
			const unsigned char *q = blk + __builtin_ctzll(bits);
			bits &= bits - 1;
			if (*q == '\n' || *q == '\r') {
				if (!pt->nends || !may_end(pt, seg, q) || !end_match(pt, seg, q)) {
					if (*q == '\n')
						ls = q + 1;
					seg = q + 1;
					continue;
				}
			} else if (!pt->count[*q] || !lit_match(pt, ls, e, q)) {
				continue;
			}
			/* a hit: the line is a candidate, go on at the next one */
			starts[k++] = (const char *)ls;
			const unsigned char *nl = *q == '\n' ? q : memchr(q, '\n', (size_t)(e - q));
			if (!nl || nl + 1 >= e)
				return (long)k;
			ls = seg = nl + 1;
			if (k == cap) {
				*done = (const char *)ls;
				return (long)k;
			}
			if (seg >= next) {
				next = seg; /* the line ran past this block */
				break;
			}
			/* drop the bits of this block before the new line */
			bits &= ~(uint64_t)0 << (unsigned)(seg - blk);
		}
		blk = next;
	}
	/* the input's last line, without a line end */
	if (seg < e && pt->nends && may_end(pt, seg, e) && end_match(pt, seg, e))
		starts[k++] = (const char *)ls;
	return (long)k;
}

#ifdef HAVE_X86_TARGETS
__attribute__((target("ssse3"))) static long
block_scan_ssse3(const struct portable *pt, const unsigned char *s, const unsigned char *e,
		 const char **starts, size_t cap, const char **done)
{
	return block_scan_body(pt, s, e, starts, cap, done, 1);
}
#endif

static long block_scan(const struct portable *pt, const unsigned char *s, const unsigned char *e,
		       const char **starts, size_t cap, const char **done)
{
#ifdef HAVE_X86_TARGETS
	if (__builtin_cpu_supports("ssse3"))
		return block_scan_ssse3(pt, s, e, starts, cap, done);
#endif
	return block_scan_body(pt, s, e, starts, cap, done, 0);
}

/* Just after the last byte of bits (not 0) in the block at blk. */
static inline const unsigned char *after_last(const unsigned char *blk, uint64_t bits)
{
	return blk + 64 - __builtin_clzll(bits);
}

#ifdef TPROF_VECTORSCAN
/* ---- Vectorscan ---- */

/* Bits of the '\n' (*nl) and '\r' (*cr) among n <= 64 bytes. */
static inline __attribute__((always_inline)) void eol_masks(const unsigned char *p, size_t n,
								uint64_t *nl, uint64_t *cr)
{
	uint64_t a = 0, b = 0;
#ifdef __SSE2__
	if (n == 64) {
		const __m128i vn = _mm_set1_epi8('\n'), vr = _mm_set1_epi8('\r');
		for (int i = 0; i < 4; i++) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
			a |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, vn)) << (16 * i);
			b |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, vr)) << (16 * i);
		}
		*nl = a;
		*cr = b;
		return;
	}
#endif
	for (size_t i = 0; i < n; i++) {
		a |= (uint64_t)(p[i] == '\n') << i;
		b |= (uint64_t)(p[i] == '\r') << i;
	}
	*nl = a;
	*cr = b;
}


/*
 * The second half of the Vectorscan matcher: 64 bytes at a time, the
 * literals' hits and the line ends whose previous byte may end a marker
 * are looked at (most line ends never are one by one), and each becomes
 * the start of its line by bit arithmetic on the block's '\n' mask.
 */
static inline __attribute__((always_inline)) long
tail_scan_body(const struct portable *pt, const unsigned char *s, const unsigned char *e,
	       const char *const *hits, size_t nh, const char **starts, size_t cap,
	       const char **done, int ssse3)
{
	const unsigned char *ls = s, *seg = s;
	size_t k = 0, h = 0;
	uint64_t carry = 0; /* the byte before the block may end a marker */
	*done = (const char *)e;
	for (const unsigned char *blk = s; blk < e;) {
		size_t len = (size_t)(e - blk) < 64 ? (size_t)(e - blk) : 64;
		uint64_t nl, cr, lit = 0;
		eol_masks(blk, len, &nl, &cr);
		uint64_t tb = pt->nends ? set_mask(pt->tlo, pt->thi, pt->tail_set, blk, len, ssse3) : 0;
		uint64_t eol = nl | cr;
		while (h < nh && (const unsigned char *)hits[h] < blk)
			h++; /* in a line already listed */
		for (; h < nh && (const unsigned char *)hits[h] < blk + len; h++)
			lit |= (uint64_t)1 << ((const unsigned char *)hits[h] - blk);
		uint64_t want = (eol & ((tb << 1) | carry)) | lit;
		const unsigned char *next = blk + len;
		carry = tb >> 63;
		while (want) {
			unsigned i = (unsigned)__builtin_ctzll(want);
			want &= want - 1;
			const unsigned char *q = blk + i;
			uint64_t below = ((uint64_t)1 << i) - 1;
			if ((eol & below) && after_last(blk, eol & below) > seg)
				seg = after_last(blk, eol & below);
			if ((nl & below) && after_last(blk, nl & below) > ls)
				ls = after_last(blk, nl & below);
			if (!(lit >> i & 1) && (!may_end(pt, seg, q) || !end_match(pt, seg, q)))
				continue;
			/* a literal's hit, or a segment ending in a marker */
			starts[k++] = (const char *)ls;
			uint64_t at_or_after = nl & ~below;
			const unsigned char *le = at_or_after ? blk + __builtin_ctzll(at_or_after)
							      : memchr(next, '\n', (size_t)(e - next));
			if (!le || le + 1 >= e)
				return (long)k;
			ls = seg = le + 1;
			if (k == cap) {
				*done = (const char *)ls;
				return (long)k;
			}
			if (seg >= next) {
				next = seg; /* the line ran past this block */
				carry = 0;
				break;
			}
			want &= ~(uint64_t)0 << (unsigned)(seg - blk);
		}
		if (next == blk + len) {
			if (eol && after_last(blk, eol) > seg)
				seg = after_last(blk, eol);
			if (nl && after_last(blk, nl) > ls)
				ls = after_last(blk, nl);
		}
		blk = next;
	}
	/* the input's last line, without a line end */
	if (seg < e && pt->nends && may_end(pt, seg, e) && end_match(pt, seg, e))
		starts[k++] = (const char *)ls;
	return (long)k;
}

#ifdef HAVE_X86_TARGETS
/* The body compiled for SSSE3, so that the nibble lookups inline. */
__attribute__((target("ssse3"))) static long
tail_scan_ssse3(const struct portable *pt, const unsigned char *s, const unsigned char *e,
		const char *const *hits, size_t nh, const char **starts, size_t cap,
		const char **done)
{
	return tail_scan_body(pt, s, e, hits, nh, starts, cap, done, 1);
}
#endif

/*
 * Lists the lines of [s,e) that hold one of the hits (ascending byte
 * positions, found by Vectorscan) or end a segment in an end marker.
 */
static long tail_scan(const struct portable *pt, const unsigned char *s, const unsigned char *e,
		      const char *const *hits, size_t nh, const char **starts, size_t cap,
		      const char **done)
{
#ifdef HAVE_X86_TARGETS
	if (__builtin_cpu_supports("ssse3"))
		return tail_scan_ssse3(pt, s, e, hits, nh, starts, cap, done);
#endif
	return tail_scan_body(pt, s, e, hits, nh, starts, cap, done, 0);
}

static void add_escaped(struct strbuf *sb, const char *s)
{
	for (; *s; s++)
		strbuf_addf(sb, "\\x%02x", (unsigned char)*s);
}

static int vs_build(struct tp_scanner *sc, const struct tp_marker_set *sets, size_t nsets,
		    struct strbuf *err)
{
	size_t total = 1;
	for (size_t i = 0; i < nsets; i++)
		total += sets[i].n;
	char **exprs = xcalloc(total, sizeof(*exprs));
	unsigned *flags = xcalloc(total, sizeof(*flags));
	unsigned *ids = xcalloc(total, sizeof(*ids));
	size_t n = 0;
	sc->rules_hint = nsets > 1;
	for (size_t i = 0; i < nsets; i++) {
		if (i == 1)
			sc->rules_first = (unsigned)n;
		for (size_t j = 0; j < sets[i].n; j++) {
			const struct tp_marker *m = &sets[i].m[j];
			if (m->anchor == TP_AT_END) {
				sc->rules_hint &= i == 0; /* found by the line-end pass only */
				continue;
			}
			struct strbuf sb = STRBUF_INIT;
			add_escaped(&sb, m->lit);
			flags[n] = m->flags & TP_MK_NOCASE ? HS_FLAG_CASELESS : 0;
			exprs[n] = sb.buf;
			ids[n] = (unsigned)n;
			n++;
		}
	}
	hs_compile_error_t *ce = NULL;
	int rc = 0;
	if (hs_compile_multi((const char *const *)exprs, flags, ids, (unsigned)n, HS_MODE_BLOCK,
			     NULL, &sc->db, &ce) != HS_SUCCESS) {
		strbuf_addf(err, "vectorscan: marker %d: %s", ce ? ce->expression : -1,
			    ce ? ce->message : "compile failed");
		hs_free_compile_error(ce);
		rc = -1;
	}
	for (size_t i = 0; i < n; i++)
		free(exprs[i]);
	free(exprs);
	free(flags);
	free(ids);
	return rc;
}

struct vs_ctx {
	const char *s;
	const char **hits;
	size_t cap, n;
	int unordered;
	struct tp_scan_scratch *ss; /* rules hits go to ss->rhits (cap entries) */
	unsigned rules_first;
};

/* Keeps the position of each hit: the last byte of the match, which is in
 * the marker's line (no marker holds a line end). */
static int vs_hit(unsigned int id, unsigned long long from, unsigned long long to,
		  unsigned int flags, void *arg)
{
	struct vs_ctx *c = arg;
	(void)from, (void)flags;
	const char *h = c->s + to - 1;
	if (id >= c->rules_first && c->ss->rvalid) {
		if (c->ss->rn == c->cap)
			c->ss->rvalid = 0; /* too many to tell: the gate looks itself */
		else
			c->ss->rhits[c->ss->rn++] = h;
	}
	if (c->n && h <= c->hits[c->n - 1]) {
		/* matches come in order of their end; if not, fall back */
		c->unordered = h < c->hits[c->n - 1];
		return c->unordered;
	}
	c->hits[c->n++] = h;
	return c->n == c->cap;
}

static long vs_scan(const struct tp_scanner *sc, struct tp_scan_scratch *ss, const char *s,
		    const char *e, const char **starts, size_t cap, const char **done)
{
	if ((size_t)(e - s) > (1u << 30))
		return -1;
	if (ss->cap < cap) {
		free(ss->hits);
		free(ss->rhits);
		ss->hits = xmalloc(cap * sizeof(*ss->hits));
		ss->rhits = xmalloc(cap * sizeof(*ss->rhits));
		ss->cap = cap;
	}
	ss->rn = 0;
	ss->rvalid = sc->rules_hint;
	struct vs_ctx c = { s, ss->hits, cap, 0, 0, ss, sc->rules_hint ? sc->rules_first : UINT_MAX };
	hs_error_t rc = hs_scan(sc->db, s, (unsigned)(e - s), 0, ss->hs, vs_hit, &c);
	if ((rc != HS_SUCCESS && rc != HS_SCAN_TERMINATED) || c.unordered) {
		ss->rvalid = 0;
		return -1;
	}
	const char *lim = e;
	if (c.n == cap) {
		/* hits later on the last hit's line were not delivered */
		ss->rvalid = 0;
		/* stopped early: everything up to the last hit's line is known */
		const char *le = memchr(c.hits[c.n - 1], '\n', (size_t)(e - c.hits[c.n - 1]));
		lim = le ? le + 1 : e;
	}
	return tail_scan(&sc->pt, (const unsigned char *)s, (const unsigned char *)lim,
			 (const char *const *)c.hits, c.n, starts, cap, done);
}
#endif

/* ---- Teddy: the literals and the line ends in one pass ---- */

#ifdef HAVE_X86_TARGETS
#define TD_MAX_LITS 512 /* past this the grouping costs more than it saves */

/* A bucket's nibble sets: byte k of a window may be x when bit x & 15 of
 * lo[k] and bit x >> 4 of hi[k] are set. */
struct td_group {
	uint16_t lo[TD_W], hi[TD_W];
	/* the exact sets (AVX-512 VBMI): bytes < 128, and bit k of exhi for
	 * the bytes >= 128 at window byte k */
	uint64_t ex[TD_W][2];
	unsigned exhi;
	double cost; /* the chance that a position of log text fits */
	int alive;
};

static int is_letter(unsigned c)
{
	return (c | 32) >= 'a' && (c | 32) <= 'z';
}

static void td_add_byte(struct td_group *g, int k, unsigned c, unsigned flags)
{
	g->lo[k] |= (uint16_t)(1u << (c & 15));
	g->hi[k] |= (uint16_t)(1u << (c >> 4));
	if (c < 128)
		g->ex[k][c / 64] |= (uint64_t)1 << (c % 64);
	else
		g->exhi |= 1u << k;
	if ((flags & TP_MK_NOCASE) && ((c | 32) >= 'a' && (c | 32) <= 'z'))
		td_add_byte(g, k, c ^ 32, 0);
}

/* The chances of the bytes, as sums over sets of nibbles: byte (h, l)
 * for l in a set L is lo8[h][L & 255] + hi8[h][L >> 8]; over exact sets:
 * the bytes 8j + i for the bits i of m are ex8[j][m]. */
struct td_prob {
	double lo8[16][256], hi8[16][256];
	double ex8[16][256], high;
	int exact; /* the tables are exact (td_block_vbmi) */
};

static void td_prob_init(struct td_prob *tp, const double *p)
{
	for (int h = 0; h < 16; h++)
		for (int m = 0; m < 256; m++) {
			double a = 0, b = 0;
			for (int l = 0; l < 8; l++) {
				if (m >> l & 1) {
					a += p[h * 16 + l];
					b += p[h * 16 + 8 + l];
				}
			}
			tp->lo8[h][m] = a;
			tp->hi8[h][m] = b;
			double x = 0;
			for (int i = 0; i < 8; i++)
				x += m >> i & 1 ? p[h * 8 + i] : 0;
			tp->ex8[h][m] = x;
		}
	tp->high = 0;
	for (int c = 128; c < 256; c++)
		tp->high += p[c];
}

/* The chance that a position of log text fits the group (its bytes taken
 * as independent). */
static double td_cost(const struct td_group *g, const struct td_prob *tp)
{
	double c = 1;
	for (int k = 0; tp->exact && k < TD_W; k++) {
		double sum = g->exhi >> k & 1 ? tp->high : 0;
		for (int j = 0; j < 16; j++)
			sum += tp->ex8[j][g->ex[k][j / 8] >> (8 * (j % 8)) & 255];
		c *= sum;
	}
	for (int k = 0; !tp->exact && k < TD_W; k++) {
		double sum = 0;
		unsigned lo = g->lo[k];
		for (unsigned hs = g->hi[k]; hs; hs &= hs - 1) {
			int h = __builtin_ctz(hs);
			sum += tp->lo8[h][lo & 255] + tp->hi8[h][lo >> 8];
		}
		c *= sum;
	}
	return c;
}

static void td_merge(struct td_group *a, const struct td_group *b)
{
	for (int k = 0; k < TD_W; k++) {
		a->lo[k] |= b->lo[k];
		a->hi[k] |= b->hi[k];
		a->ex[k][0] |= b->ex[k][0];
		a->ex[k][1] |= b->ex[k][1];
	}
	a->exhi |= b->exhi;
}

static double td_merged_cost(const struct td_group *a, const struct td_group *b,
			     const struct td_prob *tp)
{
	struct td_group m = *a;
	td_merge(&m, b);
	return td_cost(&m, tp);
}

/* The window of a literal: its TD_W bytes that are rarest together in
 * log text (the whole literal when shorter). */
static size_t td_window(const unsigned char *s, size_t n, unsigned flags)
{
	size_t best = 0;
	double best_f = 0;
	for (size_t w = 0; w + TD_W <= n; w++) {
		/* a chain of pairs, each meeting the next in a byte */
		double f = 0;
		for (unsigned v = 0; v < 1u << TD_W; v++) {
			unsigned char b[TD_W];
			for (int k = 0; k < TD_W; k++) {
				b[k] = s[w + (size_t)k];
				if ((v >> k & 1) && (!(flags & TP_MK_NOCASE) || !is_letter(b[k])))
					goto next_case;
				b[k] = (unsigned char)(v >> k & 1 ? b[k] ^ 32 : b[k]);
			}
			double c = tp_pair_freq(b[0], b[1]);
			for (int k = 1; k + 1 < TD_W; k++)
				c *= tp_pair_freq(b[k], b[k + 1]) /
				     (double)(tp_byte_freq(b[k]) ? tp_byte_freq(b[k]) : 1);
			f += c;
		next_case:;
		}
		if (w == 0 || f < best_f) {
			best_f = f;
			best = w;
		}
	}
	return best;
}

/*
 * Groups the literals into TD_BUCKETS buckets: each starts alone, and the
 * two groups whose union adds the least chance of a false candidate are
 * merged until TD_BUCKETS are left (the chances from byte_freq).
 */
static void td_group_lits(struct td_group *g, size_t n, int *grp, const struct td_prob *p)
{
	double *pair = xmalloc(n * n * sizeof(*pair));
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			pair[i * n + j] = td_merged_cost(&g[i], &g[j], p);
	for (size_t alive = n; alive > TD_BUCKETS; alive--) {
		size_t bi = 0, bj = 0;
		double best = 0;
		int found = 0;
		for (size_t i = 0; i < n; i++) {
			if (!g[i].alive)
				continue;
			for (size_t j = i + 1; j < n; j++) {
				if (!g[j].alive)
					continue;
				double d = pair[i * n + j] - g[i].cost - g[j].cost;
				if (!found || d < best) {
					best = d;
					bi = i, bj = j;
					found = 1;
				}
			}
		}
		td_merge(&g[bi], &g[bj]);
		g[bi].cost = pair[bi * n + bj];
		g[bj].alive = 0;
		for (size_t x = 0; x < n; x++)
			if (grp[x] == (int)bj)
				grp[x] = (int)bi;
		for (size_t x = 0; x < n; x++) {
			if (!g[x].alive || x == bi)
				continue;
			double c = td_merged_cost(&g[bi], &g[x], p);
			if (x < bi)
				pair[x * n + bi] = c;
			else
				pair[bi * n + x] = c;
		}
	}
	free(pair);
}

static void td_set_pair(uint64_t *t, unsigned a, unsigned b)
{
	unsigned k = a | b << 8;
	t[k / 64] |= (uint64_t)1 << (k % 64);
}

static int td_has_pair(const uint64_t *t, unsigned a, unsigned b)
{
	unsigned k = a | b << 8;
	return t[k / 64] >> (k % 64) & 1;
}

/* Pair (a, b), and its other cases for a caseless literal. */
static void td_set_pairs(uint64_t *t, unsigned a, unsigned b, unsigned flags)
{
	td_set_pair(t, a, b);
	if (!(flags & TP_MK_NOCASE))
		return;
	if (is_letter(a))
		td_set_pair(t, a ^ 32, b);
	if (is_letter(b))
		td_set_pair(t, a, b ^ 32);
	if (is_letter(a) && is_letter(b))
		td_set_pair(t, a ^ 32, b ^ 32);
}

/* A literal's window in the exact tables, as bucket bit. */
static void td_exact_add(struct teddy *td, const struct td_lit *l, unsigned char bit)
{
	for (int k = 0; k < TD_W; k++) {
		if (l->w + (size_t)k >= l->n) {
			for (int c = 0; c < 128; c++)
				td->exact[k][c] |= bit;
			td->hi_any[k] |= bit;
			continue;
		}
		unsigned c = l->s[l->w + (size_t)k];
		if (c >= 128) {
			td->hi_any[k] |= bit;
			continue;
		}
		td->exact[k][c] |= bit;
		if ((l->flags & TP_MK_NOCASE) && is_letter(c))
			td->exact[k][c ^ 32] |= bit;
	}
}

static int td_build(struct teddy *td, const struct tp_marker_set *sets, size_t nsets,
		    int allow_vbmi, struct strbuf *err)
{
	size_t n = 0;
	for (size_t i = 0; i < nsets; i++)
		for (size_t j = 0; j < sets[i].n; j++)
			n += sets[i].m[j].anchor != TP_AT_END;
	if (n == 0 || n > TD_MAX_LITS) {
		strbuf_addf(err, "teddy: %zu literal markers (1 to %d)", n, TD_MAX_LITS);
		return -1;
	}
	struct td_lit *lits = xcalloc(n, sizeof(*lits));
	struct td_group *g = xcalloc(n, sizeof(*g));
	td->rules_hint = nsets > 1;
	int *grp = xcalloc(n, sizeof(*grp));
	double p[256], sum = 0;
	for (int c = 0; c < 256; c++)
		sum += p[c] = byte_freq[c] ? exp2(byte_freq[c] / 1.5) : 0.1;
	for (int c = 0; c < 256; c++)
		p[c] /= sum;
	struct td_prob *prob = xmalloc(sizeof(*prob));
	td_prob_init(prob, p);
	td->vbmi = allow_vbmi && __builtin_cpu_supports("avx512bw") &&
		   __builtin_cpu_supports("avx512vbmi");
	prob->exact = td->vbmi;
	size_t k = 0;
	for (size_t i = 0; i < nsets; i++) {
		for (size_t j = 0; j < sets[i].n; j++) {
			const struct tp_marker *m = &sets[i].m[j];
			if (m->anchor == TP_AT_END) {
				td->rules_hint &= i == 0; /* found by the line-end test only */
				continue;
			}
			struct td_lit *l = &lits[k];
			l->rules = i > 0;
			l->s = (const unsigned char *)m->lit;
			l->n = strlen(m->lit);
			l->flags = m->flags;
			l->w = td_window(l->s, l->n, l->flags);
			l->quick = !(l->flags & TP_MK_NOCASE) && l->n - l->w >= 4;
			if (l->quick)
				memcpy(&l->win, l->s + l->w, 4);
			for (int b = 0; b < TD_W; b++) {
				if (l->w + (size_t)b < l->n) {
					td_add_byte(&g[k], b, l->s[l->w + (size_t)b], l->flags);
				} else {
					g[k].lo[b] = g[k].hi[b] = 0xffff;
					g[k].ex[b][0] = g[k].ex[b][1] = ~(uint64_t)0;
					g[k].exhi |= 1u << b;
				}
			}
			g[k].cost = td_cost(&g[k], prob);
			g[k].alive = 1;
			grp[k] = (int)k;
			k++;
		}
	}
	td_group_lits(g, n, grp, prob);
	free(prob);
	/* the buckets in order, and the literals by bucket */
	int bucket_of_group[TD_MAX_LITS];
	int nb = 0;
	for (size_t i = 0; i < n; i++) {
		if (!g[i].alive)
			continue;
		bucket_of_group[i] = nb;
		unsigned char bit = (unsigned char)(1u << nb);
		for (int b = 0; b < TD_W; b++)
			for (int x = 0; x < 16; x++) {
				if (g[i].lo[b] >> x & 1)
					td->lo[b][x] |= bit;
				if (g[i].hi[b] >> x & 1)
					td->hi[b][x] |= bit;
			}
		nb++;
	}
	td->lits = xcalloc(n, sizeof(*td->lits));
	td->nlits = n;
	size_t fill = 0;
	for (int b = 0; b < TD_BUCKETS; b++) {
		td->first[b] = fill;
		for (size_t i = 0; i < n; i++)
			if (bucket_of_group[grp[i]] == b)
				td->lits[fill++] = lits[i];
	}
	td->first[TD_BUCKETS] = fill;
	for (size_t i = 0; i < n; i++) {
		const struct td_lit *l = &td->lits[i];
		if (l->n - l->w < 3) {
			for (int b = 0; b < TD_BUCKETS; b++)
				if (i >= td->first[b] && i < td->first[b + 1])
					td->short_b |= (unsigned char)(1u << b);
			continue;
		}
		td_set_pairs(td->p01, l->s[l->w], l->s[l->w + 1], l->flags);
		td_set_pairs(td->p12, l->s[l->w + 1], l->s[l->w + 2], l->flags);
	}
	for (int b = 0; b < TD_BUCKETS; b++)
		for (size_t i = td->first[b]; i < td->first[b + 1]; i++)
			td_exact_add(td, &td->lits[i], (unsigned char)(1u << b));
	free(lits);
	free(g);
	free(grp);
	return 0;
}

/* A cheap first test of a literal at q (its window fits in the input). */
static inline int td_window_eq(const struct td_lit *l, const unsigned char *q)
{
	if (l->quick) {
		uint32_t x;
		memcpy(&x, q, 4);
		return x == l->win;
	}
	return (l->flags & TP_MK_NOCASE) || *q == l->s[l->w];
}

/*
 * Which literals of the buckets in mask have their window at q, in [s,e):
 * 0 none, 1 a built-in one, 2 a rules one. With rules set, a built-in
 * literal does not end the search: a rules one at q must not be missed.
 */
static inline int td_verify(const struct teddy *td, const unsigned char *s, const unsigned char *e,
			    const unsigned char *q, unsigned mask, int rules)
{
	int found = 0;
	while (mask) {
		unsigned b = (unsigned)__builtin_ctz(mask);
		mask &= mask - 1;
		for (size_t i = td->first[b]; i < td->first[b + 1]; i++) {
			const struct td_lit *l = &td->lits[i];
			if ((found && !l->rules) || (size_t)(q - s) < l->w ||
			    (size_t)(e - q) < l->n - l->w)
				continue;
			if (!td_window_eq(l, q) || !eq_bytes(q - l->w, l->s, l->n, l->flags))
				continue;
			if (l->rules || !rules)
				return l->rules ? 2 : 1;
			found = 1;
		}
	}
	return found;
}

/* Only the rules' literals at q. */
static inline int td_verify_rules(const struct teddy *td, const unsigned char *s,
				  const unsigned char *e, const unsigned char *q, unsigned mask)
{
	while (mask) {
		unsigned b = (unsigned)__builtin_ctz(mask);
		mask &= mask - 1;
		for (size_t i = td->first[b]; i < td->first[b + 1]; i++) {
			const struct td_lit *l = &td->lits[i];
			if (!l->rules || (size_t)(q - s) < l->w || (size_t)(e - q) < l->n - l->w)
				continue;
			if (td_window_eq(l, q) && eq_bytes(q - l->w, l->s, l->n, l->flags))
				return 1;
		}
	}
	return 0;
}

/* Bucket bits that survive the exact-pair test at q. */
static inline unsigned td_buckets(const struct teddy *td, const unsigned char *e,
				  const unsigned char *q, unsigned bk)
{
	if ((bk & ~td->short_b) && (q + 2 >= e || !td_has_pair(td->p01, q[0], q[1]) ||
				    !td_has_pair(td->p12, q[1], q[2])))
		bk &= td->short_b;
	return bk;
}

/* What one 64-byte block holds: window candidates (their buckets in mb),
 * line ends, and the bytes a segment may end with before a marker. */
struct td_masks {
	uint64_t cand, nl, cr, tb;
};

__attribute__((target("avx2"))) static inline __m256i td_nib32(__m256i x, __m256i lo, __m256i hi)
{
	const __m256i low = _mm256_set1_epi8(0x0f);
	return _mm256_and_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(x, low)),
				_mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(x, 4), low)));
}

__attribute__((target("avx2"))) static inline __m256i td_tab32(const unsigned char *t)
{
	return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)t));
}

/* Reads p[0..67). */
__attribute__((target("avx2"))) static inline void td_block_avx2(const struct teddy *td,
								  const struct portable *pt,
								  const unsigned char *p,
								  unsigned char *mb, struct td_masks *o)
{
	const __m256i zero = _mm256_setzero_si256();
	const __m256i vn = _mm256_set1_epi8('\n'), vr = _mm256_set1_epi8('\r');
	uint64_t cand = 0, nl = 0, cr = 0, tb = 0;
	for (int h = 0; h < 2; h++) {
		const unsigned char *q = p + 32 * h;
		__m256i x0 = _mm256_loadu_si256((const __m256i *)(const void *)q);
		__m256i x1 = _mm256_loadu_si256((const __m256i *)(const void *)(q + 1));
		__m256i x2 = _mm256_loadu_si256((const __m256i *)(const void *)(q + 2));
		__m256i x3 = _mm256_loadu_si256((const __m256i *)(const void *)(q + 3));
		__m256i m = _mm256_and_si256(
			_mm256_and_si256(td_nib32(x0, td_tab32(td->lo[0]), td_tab32(td->hi[0])),
					 td_nib32(x1, td_tab32(td->lo[1]), td_tab32(td->hi[1]))),
			_mm256_and_si256(td_nib32(x2, td_tab32(td->lo[2]), td_tab32(td->hi[2])),
					 td_nib32(x3, td_tab32(td->lo[3]), td_tab32(td->hi[3]))));
		_mm256_storeu_si256((__m256i *)(void *)(mb + 32 * h), m);
		unsigned sh = 32u * (unsigned)h;
		cand |= (uint64_t)(uint32_t)~_mm256_movemask_epi8(_mm256_cmpeq_epi8(m, zero)) << sh;
		nl |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x0, vn)) << sh;
		cr |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x0, vr)) << sh;
		__m256i t = td_nib32(x0, td_tab32(pt->tlo), td_tab32(pt->thi));
		tb |= (uint64_t)(uint32_t)~_mm256_movemask_epi8(_mm256_cmpeq_epi8(t, zero)) << sh;
	}
	o->cand = cand, o->nl = nl, o->cr = cr, o->tb = tb;
}

/* The same by the exact tables: 64 bytes per lookup, no nibble products.
 * Reads p[0..67). */
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static inline void
td_block_vbmi(const struct teddy *td, const struct portable *pt, const unsigned char *p,
	      unsigned char *mb, struct td_masks *o)
{
	__m512i m = _mm512_set1_epi8(-1), x0 = _mm512_setzero_si512();
	for (int k = 0; k < TD_W; k++) {
		__m512i x = _mm512_loadu_si512((const void *)(p + k));
		if (k == 0)
			x0 = x;
		__m512i r = _mm512_permutex2var_epi8(_mm512_loadu_si512((const void *)td->exact[k]), x,
						     _mm512_loadu_si512((const void *)(td->exact[k] + 64)));
		r = _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), r,
					   _mm512_set1_epi8((char)td->hi_any[k]));
		m = _mm512_and_si512(m, r);
	}
	_mm512_storeu_si512((void *)mb, m);
	o->cand = _mm512_test_epi8_mask(m, m);
	o->nl = _mm512_cmpeq_epi8_mask(x0, _mm512_set1_epi8('\n'));
	o->cr = _mm512_cmpeq_epi8_mask(x0, _mm512_set1_epi8('\r'));
	const __m512i low = _mm512_set1_epi8(0x0f);
	__m512i tlo = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)pt->tlo));
	__m512i thi = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)pt->thi));
	__m512i t = _mm512_and_si512(_mm512_shuffle_epi8(tlo, _mm512_and_si512(x0, low)),
				     _mm512_shuffle_epi8(thi, _mm512_and_si512(_mm512_srli_epi16(x0, 4), low)));
	o->tb = _mm512_test_epi8_mask(t, t);
}

/*
 * One pass, 64 bytes at a time: the literals' windows (checked whole
 * where the nibble tables let one through) and the line ends whose
 * previous byte may end a marker; each hit becomes the start of its line
 * by bit arithmetic on the block's '\n' mask, as in tail_scan_body.
 */
static inline __attribute__((always_inline)) long
td_scan_body(const struct tp_scanner *sc, struct tp_scan_scratch *ss, const unsigned char *s,
	     const unsigned char *e, const char **starts, size_t cap, const char **done, int vbmi)
{
	const struct portable *pt = &sc->pt;
	const struct teddy *td = &sc->teddy;
	const unsigned char *ls = s, *seg = s;
	/* the line end of a listed line whose rules markers are still looked
	 * for (it was listed for a built-in one), while ss->rvalid */
	const unsigned char *pend = NULL;
	const int track = ss->rvalid;
	unsigned char mb[64], pad[96];
	size_t k = 0;
	uint64_t carry = 0;
	*done = (const char *)e;
	for (const unsigned char *blk = s; blk < e;) {
		size_t len = (size_t)(e - blk) < 64 ? (size_t)(e - blk) : 64;
		const unsigned char *p = blk;
		if ((size_t)(e - blk) < 67) {
			memset(pad, 0, sizeof(pad));
			memcpy(pad, blk, (size_t)(e - blk));
			p = pad;
		}
		struct td_masks m;
		if (vbmi)
			td_block_vbmi(td, pt, p, mb, &m);
		else
			td_block_avx2(td, pt, p, mb, &m);
		if (len < 64) {
			uint64_t in = ((uint64_t)1 << len) - 1;
			m.cand &= in, m.nl &= in, m.cr &= in, m.tb &= in;
		}
		if (!pt->nends)
			m.tb = 0;
		uint64_t eol = m.nl | m.cr;
		uint64_t want = (eol & ((m.tb << 1) | carry)) | m.cand;
		const unsigned char *next = blk + len;
		carry = m.tb >> 63;
		if (pend) {
			/* up to its line end, only the literals count */
			uint64_t in = pend < next ? ((uint64_t)1 << (pend - blk + 1)) - 1 : ~(uint64_t)0;
			want = (want & m.cand & in) | (want & ~in);
		}
		while (want) {
			unsigned i = (unsigned)__builtin_ctzll(want);
			want &= want - 1;
			const unsigned char *q = blk + i;
			if (pend && q < pend) {
				unsigned bk = td_buckets(td, e, q, mb[i]);
				if (!bk || !td_verify_rules(td, s, e, q, bk))
					continue;
				ss->rhits[ss->rn++] = (const char *)q;
				pend = NULL;
				if (seg >= next) {
					next = seg; /* the rest of the line is known */
					carry = 0;
					break;
				}
				want &= ~(uint64_t)0 << (unsigned)(seg - blk);
				continue;
			}
			uint64_t below = ((uint64_t)1 << i) - 1;
			if ((eol & below) && after_last(blk, eol & below) > seg)
				seg = after_last(blk, eol & below);
			if ((m.nl & below) && after_last(blk, m.nl & below) > ls)
				ls = after_last(blk, m.nl & below);
			int kind = 0;
			if (m.cand >> i & 1) {
				unsigned bk = td_buckets(td, e, q, mb[i]);
				if (!bk || !(kind = td_verify(td, s, e, q, bk, track)))
					continue;
			} else if (!may_end(pt, seg, q) || !end_match(pt, seg, q)) {
				continue;
			}
			/* a literal, or a segment ending in a marker */
			const unsigned char *line = ls;
			starts[k++] = (const char *)ls;
			if (track && kind == 2)
				ss->rhits[ss->rn++] = (const char *)q;
			/* listed for a built-in marker: are the rules' on it too? */
			int look = track && kind != 2;
			uint64_t at_or_after = m.nl & ~below;
			const unsigned char *le = at_or_after ? blk + __builtin_ctzll(at_or_after)
							      : memchr(next, '\n', (size_t)(e - next));
			if (!le || le + 1 >= e || k == cap) {
				if (look)
					ss->rhits[ss->rn++] = (const char *)line; /* not looked: the gate looks */
				if (!le || le + 1 >= e)
					return (long)k;
				*done = (const char *)(le + 1);
				return (long)k;
			}
			ls = seg = le + 1;
			if (look) {
				pend = le;
				uint64_t in = le < next ? ((uint64_t)1 << (le - blk + 1)) - 1 : ~(uint64_t)0;
				want = (want & m.cand & in) | (want & ~in);
				continue;
			}
			if (seg >= next) {
				next = seg; /* the line ran past this block */
				carry = 0;
				break;
			}
			want &= ~(uint64_t)0 << (unsigned)(seg - blk);
		}
		if (pend && pend < blk + len)
			pend = NULL; /* its line ended here: no rules marker on it */
		if (next == blk + len) {
			if (eol && after_last(blk, eol) > seg)
				seg = after_last(blk, eol);
			if (m.nl && after_last(blk, m.nl) > ls)
				ls = after_last(blk, m.nl);
		}
		blk = next;
	}
	/* the input's last line, without a line end */
	if (seg < e && pt->nends && may_end(pt, seg, e) && end_match(pt, seg, e)) {
		if (track)
			ss->rhits[ss->rn++] = (const char *)ls;
		starts[k++] = (const char *)ls;
	}
	return (long)k;
}

__attribute__((target("avx2"))) static long td_scan_avx2(const struct tp_scanner *sc,
							 struct tp_scan_scratch *ss,
							 const unsigned char *s,
							 const unsigned char *e, const char **starts,
							 size_t cap, const char **done)
{
	return td_scan_body(sc, ss, s, e, starts, cap, done, 0);
}

__attribute__((target("avx2,avx512f,avx512bw,avx512vbmi"))) static long
td_scan_vbmi(const struct tp_scanner *sc, struct tp_scan_scratch *ss, const unsigned char *s,
	     const unsigned char *e, const char **starts, size_t cap, const char **done)
{
	return td_scan_body(sc, ss, s, e, starts, cap, done, 1);
}

static long td_scan(const struct tp_scanner *sc, struct tp_scan_scratch *ss, const char *s,
		    const char *e, const char **starts, size_t cap, const char **done)
{
	const unsigned char *us = (const unsigned char *)s, *ue = (const unsigned char *)e;
	if (sc->teddy.rules_hint && ss->cap < cap) {
		free(ss->rhits);
		ss->rhits = xmalloc(cap * sizeof(*ss->rhits));
		ss->cap = cap;
	}
	ss->rn = 0;
	ss->rvalid = sc->teddy.rules_hint;
	if (sc->teddy.vbmi)
		return td_scan_vbmi(sc, ss, us, ue, starts, cap, done);
	return td_scan_avx2(sc, ss, us, ue, starts, cap, done);
}
#endif /* HAVE_X86_TARGETS */

/* ---- public ---- */

struct tp_scanner *tp_scanner_new(const struct tp_marker_set *sets, size_t nsets,
				  enum tp_scan_backend backend, struct strbuf *err)
{
	struct tp_scanner *sc = xcalloc(1, sizeof(*sc));
	if (portable_build(&sc->pt, sets, nsets, err) < 0) {
		tp_scanner_free(sc);
		return NULL;
	}
	if (backend == TP_SCAN_TEDDY || backend == TP_SCAN_TEDDY_AVX2 || backend == TP_SCAN_AUTO) {
		/* the fastest where it runs (bench/RESULTS.md); elsewhere, or
		 * past its number of literals, Vectorscan, then the portable one */
		struct strbuf why = STRBUF_INIT;
#ifdef HAVE_X86_TARGETS
		if (__builtin_cpu_supports("avx2") &&
		    td_build(&sc->teddy, sets, nsets, backend != TP_SCAN_TEDDY_AVX2, &why) == 0) {
			sc->td = 1;
			strbuf_release(&why);
			return sc;
		}
#endif
		if (backend != TP_SCAN_AUTO) {
			strbuf_addstr(err, why.len ? why.buf : "teddy: needs an x86 CPU with AVX2");
			strbuf_release(&why);
			tp_scanner_free(sc);
			return NULL;
		}
		strbuf_release(&why);
	}
#ifdef TPROF_VECTORSCAN
	if (backend != TP_SCAN_PORTABLE) {
		if (vs_build(sc, sets, nsets, err) < 0) {
			tp_scanner_free(sc);
			return NULL;
		}
		sc->vs = 1;
	}
#else
	if (backend == TP_SCAN_VECTORSCAN) {
		strbuf_addstr(err, "vectorscan: not built in (make VECTORSCAN=1 with libvectorscan-dev)");
		tp_scanner_free(sc);
		return NULL;
	}
#endif
	return sc;
}

void tp_scanner_free(struct tp_scanner *sc)
{
	if (!sc)
		return;
#ifdef TPROF_VECTORSCAN
	if (sc->db)
		hs_free_database(sc->db);
#endif
	portable_free(&sc->pt);
	free(sc->teddy.lits);
	free(sc);
}

const char *tp_scanner_backend(const struct tp_scanner *sc)
{
	return sc->vs ? "vectorscan" : !sc->td ? "portable" : sc->teddy.vbmi ? "teddy (AVX-512 VBMI)" : "teddy";
}

struct tp_scanner *tp_scanner_for_run(const struct tp_rules *rules)
{
	const char *plain = getenv("TPROF_PLAIN");
	if (!tp_rules_scan_safe(rules) || (plain && *plain && strcmp(plain, "0") != 0))
		return NULL;
	const char *want = getenv("TPROF_SCAN");
	enum tp_scan_backend b = TP_SCAN_AUTO;
	if (want && !strcmp(want, "portable"))
		b = TP_SCAN_PORTABLE;
	else if (want && !strcmp(want, "vectorscan"))
		b = TP_SCAN_VECTORSCAN;
	else if (want && !strcmp(want, "teddy"))
		b = TP_SCAN_TEDDY;
	else if (want && !strcmp(want, "teddy-avx2"))
		b = TP_SCAN_TEDDY_AVX2;
	struct strbuf err = STRBUF_INIT;
	struct tp_marker_set sets[2] = { tp_builtin_markers };
	if (rules)
		sets[1] = *tp_rules_scan_markers(rules);
	struct tp_scanner *sc = tp_scanner_new(sets, rules ? 2 : 1, b, &err);
	strbuf_release(&err);
	return sc;
}

struct tp_scan_scratch *tp_scan_scratch_new(const struct tp_scanner *sc)
{
	struct tp_scan_scratch *ss = xcalloc(1, sizeof(*ss));
#ifdef TPROF_VECTORSCAN
	if (sc->vs && hs_alloc_scratch(sc->db, &ss->hs) != HS_SUCCESS) {
		free(ss);
		return NULL;
	}
#else
	(void)sc;
#endif
	return ss;
}

void tp_scan_scratch_free(struct tp_scan_scratch *ss)
{
	if (!ss)
		return;
#ifdef TPROF_VECTORSCAN
	if (ss->hs)
		hs_free_scratch(ss->hs);
#endif
	free(ss->hits);
	free(ss->rhits);
	free(ss);
}

const char *const *tp_scan_rule_hits(const struct tp_scan_scratch *ss, size_t *n)
{
	*n = ss->rn;
	return ss->rvalid ? (const char *const *)ss->rhits : NULL;
}

long tp_scan_lines(const struct tp_scanner *sc, struct tp_scan_scratch *ss, const char *s,
		   const char *e, const char **starts, size_t cap, const char **done)
{
	/* a window that stays in the cache between the literal pass and the
	 * line-end pass: up to the first line end past SCAN_WINDOW bytes */
	if ((size_t)(e - s) > SCAN_WINDOW) {
		const char *w = memchr(s + SCAN_WINDOW, '\n', (size_t)(e - s - SCAN_WINDOW));
		if (w)
			e = w + 1;
	}
	*done = e;
	ss->rvalid = 0;
	if (s >= e || cap == 0)
		return 0;
#ifdef HAVE_X86_TARGETS
	if (sc->td)
		return td_scan(sc, ss, s, e, starts, cap, done);
#endif
#ifdef TPROF_VECTORSCAN
	if (sc->vs)
		return vs_scan(sc, ss, s, e, starts, cap, done);
#else
	(void)ss;
#endif
	return block_scan(&sc->pt, (const unsigned char *)s, (const unsigned char *)e, starts, cap,
			  done);
}

#ifdef HAVE_X86_TARGETS
#define HAVE_AVX2_COUNT 1
/* 32 bytes at a time where the CPU has AVX2 (checked at run time). */
__attribute__((target("avx2"))) static uint64_t count_avx2(const char *s, const char *e,
							    const char **stop)
{
	uint64_t n = 0;
	const __m256i nl = _mm256_set1_epi8('\n'), zero = _mm256_setzero_si256();
	while (e - s >= 32) {
		__m256i acc = zero;
		int blocks = 0;
		while (e - s >= 32 && blocks < 255) {
			__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)s);
			acc = _mm256_sub_epi8(acc, _mm256_cmpeq_epi8(v, nl));
			s += 32;
			blocks++;
		}
		__m256i sums = _mm256_sad_epu8(acc, zero);
		n += (uint64_t)_mm256_extract_epi64(sums, 0) + (uint64_t)_mm256_extract_epi64(sums, 1) +
		     (uint64_t)_mm256_extract_epi64(sums, 2) + (uint64_t)_mm256_extract_epi64(sums, 3);
	}
	*stop = s;
	return n;
}
#endif

uint64_t tp_count_newlines(const char *s, const char *e)
{
	uint64_t n = 0;
#ifdef HAVE_AVX2_COUNT
	if (e - s >= 64 && __builtin_cpu_supports("avx2"))
		n = count_avx2(s, e, &s);
#endif
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n');
	const __m128i zero = _mm_setzero_si128();
	while (e - s >= 16) {
		/* up to 255 blocks summed per byte lane, then widened */
		__m128i acc = zero;
		int blocks = 0;
		while (e - s >= 16 && blocks < 255) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, nl));
			s += 16;
			blocks++;
		}
		__m128i sums = _mm_sad_epu8(acc, zero);
		n += (uint64_t)_mm_cvtsi128_si64(sums) + (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums));
	}
#endif
	for (; s < e; s++)
		n += *s == '\n';
	return n;
}
