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
 *  - Teddy (teddy.c; x86 with AVX2, the default there): one pass, 64 bytes
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
#include "scan_int.h"
#include "parse/rules/rules.h"

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

#define SCAN_WINDOW (128u << 10) /* bytes searched per call, about */

/*
 * A byte's cost as an anchor: about 1.5 x log2 of how often it occurs per
 * million bytes of log text (tp_byte_freq, the one measured table), so
 * that a step of 1 is a factor of about 1.6: a literal is anchored on its
 * rarest byte, so that the portable matcher stops seldom, and a byte
 * already looked for wins over one a step rarer.
 */
static int byte_cost(unsigned char c)
{
	return (int)lround(1.5 * log2(10.0 * tp_byte_freq(c)));
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
int tp_scan_end_match(const struct portable *pt, const unsigned char *s, const unsigned char *e)
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

#ifdef HAVE_X86_TARGETS
#include <immintrin.h>
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
				if (!seg_ends_in_marker(pt, seg, q)) {
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
	if (seg < e && seg_ends_in_marker(pt, seg, e))
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
			pass_line_ends(blk, eol & below, nl & below, &seg, &ls);
			if (!(lit >> i & 1) && !seg_ends_in_marker(pt, seg, q))
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
		if (next == blk + len)
			pass_line_ends(blk, eol, nl, &seg, &ls);
		blk = next;
	}
	/* the input's last line, without a line end */
	if (seg < e && seg_ends_in_marker(pt, seg, e))
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
	for (size_t i = 0; i < nsets; i++) {
		if (i == 1)
			sc->rules_first = (unsigned)n;
		for (size_t j = 0; j < sets[i].n; j++) {
			const struct tp_marker *m = &sets[i].m[j];
			if (m->anchor == TP_AT_END)
				continue; /* found by the line-end pass */
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

/* ---- public ---- */

/* Are there rules' markers (sets 1 on), all of them literals (none found
 * by the line-end pass alone)? */
static int rules_all_literals(const struct tp_marker_set *sets, size_t nsets)
{
	for (size_t i = 1; i < nsets; i++)
		for (size_t j = 0; j < sets[i].n; j++)
			if (sets[i].m[j].anchor == TP_AT_END)
				return 0;
	return nsets > 1;
}

struct tp_scanner *tp_scanner_new(const struct tp_marker_set *sets, size_t nsets,
				  enum tp_scan_backend backend, struct strbuf *err)
{
	struct tp_scanner *sc = xcalloc(1, sizeof(*sc));
	if (portable_build(&sc->pt, sets, nsets, err) < 0) {
		tp_scanner_free(sc);
		return NULL;
	}
	sc->rules_hint = rules_all_literals(sets, nsets);
	if (backend == TP_SCAN_TEDDY || backend == TP_SCAN_TEDDY_AVX2 || backend == TP_SCAN_AUTO) {
		/* the fastest where it runs (bench/RESULTS.md); elsewhere, or
		 * past its number of literals, Vectorscan, then the portable one */
		struct strbuf why = STRBUF_INIT;
#ifdef HAVE_X86_TARGETS
		if (__builtin_cpu_supports("avx2") &&
		    tp_teddy_build(&sc->teddy, sets, nsets, backend != TP_SCAN_TEDDY_AVX2, &why) == 0) {
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
	return tp_scanner_for(rules, 1);
}

struct tp_scanner *tp_scanner_for(const struct tp_rules *rules, int progress)
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
	struct tp_marker_set sets[2] = { progress ? tp_builtin_markers : tp_builtin_markers_no_progress };
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
	if (sc->vs || sc->td) {
		/* room for a hit per listed line, and for Vectorscan's hits */
		if (ss->cap < cap) {
			free(ss->hits);
			free(ss->rhits);
			ss->hits = xmalloc(cap * sizeof(*ss->hits));
			ss->rhits = xmalloc(cap * sizeof(*ss->rhits));
			ss->cap = cap;
		}
		ss->rn = 0;
		ss->rvalid = sc->rules_hint;
	}
#ifdef HAVE_X86_TARGETS
	if (sc->td)
		return tp_teddy_scan(sc, ss, s, e, starts, cap, done);
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
