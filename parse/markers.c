/*
 * markers.c - the literal gate of format packs (see markers.h).
 *
 * Each literal is anchored on its rarest byte (by a fixed ranking of how
 * common bytes are in training logs: letters and blanks most, non-ASCII
 * and rare punctuation least). A 16-byte block of the line is compared
 * against every distinct anchor byte at once; only a block with a hit is
 * looked at byte by byte, and only an anchor hit costs a memcmp. With the
 * packs' markers most log lines pass in a few vector compares per block.
 */
#include "markers.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_ANCHORS 16

typedef unsigned char v16u __attribute__((vector_size(16)));

struct anchored {
	const struct tp_marker *m;
	size_t off; /* offset of the anchor byte in the literal */
};

struct tp_marker_set {
	unsigned char anchors[MAX_ANCHORS];
	size_t nanchors;
	v16u splat[MAX_ANCHORS];
	/* markers by anchor byte: first[c] .. first[c+1] in by_anchor */
	size_t first[257];
	struct anchored *by_anchor;
	size_t n;
};

/* How common byte c is in log text: lower is rarer. */
static int byte_cost(unsigned char c)
{
	if (c >= 0x80)
		return 1;
	if (strchr("|*>{}%#@~^$!?+;<&`\\", c))
		return 2;
	if (strchr("()[]'\"=", c))
		return 4;
	if (c >= 'A' && c <= 'Z')
		return 5;
	if (strchr(":,-", c))
		return 6;
	if (c >= '0' && c <= '9')
		return 8;
	if (strchr("_/.", c))
		return 8;
	if (strchr("etaoinsrh ", c))
		return 12;
	return 10;
}

/* The offset of the rarest byte of m, preferring bytes already anchors. */
static size_t pick_anchor(const struct tp_marker *m, const unsigned char *used, size_t nused)
{
	size_t best = 0;
	int best_cost = 1 << 20;
	for (size_t i = 0; i < m->len; i++) {
		unsigned char c = (unsigned char)m->lit[i];
		int cost = byte_cost(c) * 4;
		if (memchr(used, c, nused))
			cost -= 3; /* sharing an anchor keeps the compare count down */
		if (cost < best_cost) {
			best_cost = cost;
			best = i;
		}
	}
	return best;
}

struct tp_marker_set *tp_marker_set_new(const struct tp_marker *m, size_t n)
{
	struct tp_marker_set *ms = xcalloc(1, sizeof(*ms));
	size_t *off = xcalloc(n ? n : 1, sizeof(*off));
	size_t count[256] = { 0 };
	unsigned char used[256];
	size_t nused = 0;
	for (size_t i = 0; i < n; i++) {
		if (!m[i].len)
			continue;
		off[i] = pick_anchor(&m[i], used, nused);
		unsigned char c = (unsigned char)m[i].lit[off[i]];
		if (!memchr(used, c, nused))
			used[nused++] = c;
		count[c]++;
		ms->n++;
	}
	ms->first[0] = 0;
	for (int c = 0; c < 256; c++)
		ms->first[c + 1] = ms->first[c] + count[c];
	ms->by_anchor = xcalloc(ms->n ? ms->n : 1, sizeof(*ms->by_anchor));
	size_t fill[256];
	memcpy(fill, ms->first, sizeof(fill));
	for (size_t i = 0; i < n; i++) {
		if (!m[i].len)
			continue;
		unsigned char c = (unsigned char)m[i].lit[off[i]];
		ms->by_anchor[fill[c]++] = (struct anchored){ &m[i], off[i] };
	}
	/* more distinct anchors than vector compares: the scan falls back to
	 * a byte loop (still correct, slower) */
	ms->nanchors = nused <= MAX_ANCHORS ? nused : 0;
	for (size_t i = 0; i < ms->nanchors; i++) {
		ms->anchors[i] = used[i];
		for (int k = 0; k < 16; k++)
			ms->splat[i][k] = used[i];
	}
	free(off);
	return ms;
}

void tp_marker_set_free(struct tp_marker_set *ms)
{
	if (!ms)
		return;
	free(ms->by_anchor);
	free(ms);
}

/* Verifies the markers anchored on s[i]. */
static size_t verify_at(const struct tp_marker_set *ms, const char *s, size_t n, size_t i,
			uint64_t *hits)
{
	unsigned char c = (unsigned char)s[i];
	size_t found = 0;
	for (size_t k = ms->first[c]; k < ms->first[c + 1]; k++) {
		const struct anchored *a = &ms->by_anchor[k];
		if (a->off > i || i - a->off + a->m->len > n)
			continue;
		if (memcmp(s + i - a->off, a->m->lit, a->m->len) == 0) {
			hits[a->m->group / 64] |= (uint64_t)1 << (a->m->group % 64);
			found++;
		}
	}
	return found;
}

static size_t scan_bytes(const struct tp_marker_set *ms, const char *s, size_t from, size_t to,
			 size_t n, uint64_t *hits)
{
	size_t found = 0;
	for (size_t i = from; i < to; i++) {
		unsigned char c = (unsigned char)s[i];
		if (ms->first[c] != ms->first[c + 1])
			found += verify_at(ms, s, n, i, hits);
	}
	return found;
}

size_t tp_marker_set_scan(const struct tp_marker_set *ms, const char *s, size_t n,
			  uint64_t *hits)
{
	if (!ms || !ms->n || !n)
		return 0;
	if (!ms->nanchors)
		return scan_bytes(ms, s, 0, n, n, hits);
	size_t found = 0, i = 0;
	for (; i + 16 <= n; i += 16) {
		v16u x, acc = { 0 };
		memcpy(&x, s + i, 16);
		for (size_t a = 0; a < ms->nanchors; a++)
			acc |= (v16u)(x == ms->splat[a]);
		uint64_t w[2];
		memcpy(w, &acc, 16);
		if (w[0] | w[1])
			found += scan_bytes(ms, s, i, i + 16, n, hits);
	}
	return found + scan_bytes(ms, s, i, n, n, hits);
}
