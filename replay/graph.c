/*
 * graph.c - reproducible graph generators and the CSR builder.
 *
 * Every generator emits undirected pairs (u < v, global node ids) into one
 * key array; sorting the keys (u << 32 | v) and dropping repeats gives a
 * simple graph, and filling the CSR from the sorted keys leaves every
 * neighbour list sorted without a second sort (see fill_csr).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "rng.h"

#define MAX_NODES (INT32_MAX - 1)

struct keys {
	uint64_t *v;
	size_t n, alloc;
};

static void add_pair(struct keys *k, int32_t a, int32_t b)
{
	if (a == b)
		return;
	uint64_t lo = (uint64_t)(a < b ? a : b), hi = (uint64_t)(a < b ? b : a);
	ALLOC_GROW(k->v, k->n + 1, k->alloc);
	k->v[k->n++] = lo << 32 | hi;
}

/* LSD radix sort, 16 bits a pass: linear time for the millions of edges of a large graph. */
static void radix_sort(uint64_t *v, size_t n)
{
	uint64_t *tmp = xmalloc((n ? n : 1) * sizeof(*tmp));
	size_t *count = xmalloc(65536 * sizeof(*count));
	for (int shift = 0; shift < 64; shift += 16) {
		memset(count, 0, 65536 * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[(v[i] >> shift) & 0xffff]++;
		size_t sum = 0;
		for (size_t b = 0; b < 65536; b++) {
			size_t c = count[b];
			count[b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[(v[i] >> shift) & 0xffff]++] = v[i];
		memcpy(v, tmp, n * sizeof(*v));
	}
	free(count);
	free(tmp);
}

static size_t unique(uint64_t *v, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n; i++)
		if (!w || v[i] != v[w - 1])
			v[w++] = v[i];
	return w;
}

/*
 * Keys are sorted by (u, v) with u < v. Row x receives first its smaller
 * neighbours (from keys (w, x), w < x, met in increasing w) and then its
 * larger ones (keys (x, v), increasing v): each row comes out sorted.
 */
static void fill_csr(struct tpr_graph *g, const uint64_t *k, size_t nk)
{
	int32_t *pos = xcalloc((size_t)g->n + 1, sizeof(*pos));
	for (size_t i = 0; i < nk; i++) {
		pos[k[i] >> 32]++;
		pos[(uint32_t)k[i]]++;
	}
	g->rowptr = xmalloc(((size_t)g->n + 1) * sizeof(*g->rowptr));
	g->rowptr[0] = 0;
	for (int32_t i = 0; i < g->n; i++)
		g->rowptr[i + 1] = g->rowptr[i] + pos[i];
	memcpy(pos, g->rowptr, (size_t)g->n * sizeof(*pos));
	g->m = g->rowptr[g->n];
	g->col = xmalloc(((size_t)g->m + 1) * sizeof(*g->col));
	for (size_t i = 0; i < nk; i++) {
		int32_t u = (int32_t)(k[i] >> 32), v = (int32_t)(uint32_t)k[i];
		g->col[pos[u]++] = v;
		g->col[pos[v]++] = u;
	}
	free(pos);
}

static int build(struct tpr_graph *g, struct keys *k, struct strbuf *err)
{
	radix_sort(k->v, k->n);
	k->n = unique(k->v, k->n);
	if (k->n > (size_t)INT32_MAX / 2) {
		strbuf_addf(err, "%zu edges: more than the 32-bit edge ids allow", k->n);
		return -1;
	}
	fill_csr(g, k->v, k->n);
	return 0;
}

/* Molecule-like: a random tree of maximum degree 4, then ring closures up to the degree. */
static void gen_molecule(struct keys *k, struct tpr_rng *r, int32_t base, int32_t n, double degree)
{
	int32_t *parent = xmalloc((size_t)n * sizeof(*parent));
	uint8_t *deg = xcalloc((size_t)n, 1);
	parent[0] = -1;
	for (int32_t v = 1; v < n; v++) {
		int32_t u = v - 1;
		for (int t = 0; t < 8; t++) {
			int32_t c = (int32_t)tpr_rng_below(r, (uint32_t)v);
			if (deg[c] < 4) {
				u = c;
				break;
			}
		}
		parent[v] = u;
		deg[u]++, deg[v]++;
		add_pair(k, base + u, base + v);
	}
	long extra = lround(degree * n / 2.0 - (n - 1));
	for (long tries = 0; extra > 0 && tries < 20 * extra + 20; tries++) {
		int32_t v = (int32_t)tpr_rng_below(r, (uint32_t)n), w = v;
		int ring = 5 + (int)tpr_rng_below(r, 2), up = 0;
		while (up < ring - 1 && w > 0)
			w = parent[w], up++;
		if (up < ring - 1 || deg[v] >= 4 || deg[w] >= 4)
			continue;
		deg[v]++, deg[w]++;
		add_pair(k, base + v, base + w);
		extra--;
	}
	free(parent);
	free(deg);
}

static void gen_er(struct keys *k, struct tpr_rng *r, int32_t base, int32_t n, double degree)
{
	long m = lround(degree * n / 2.0);
	if (n < 2)
		return;
	for (long i = 0; i < m; i++) {
		int32_t u = (int32_t)tpr_rng_below(r, (uint32_t)n), v;
		do
			v = (int32_t)tpr_rng_below(r, (uint32_t)n);
		while (v == u);
		add_pair(k, base + u, base + v);
	}
}

static int32_t pick_weighted(const double *cum, int32_t n, double x)
{
	int32_t lo = 0, hi = n - 1;
	while (lo < hi) {
		int32_t mid = lo + (hi - lo) / 2;
		if (cum[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Chung-Lu: endpoints drawn with probability proportional to w_i = (i+1)^(-1/(gamma-1)). */
static void gen_powerlaw(struct keys *k, struct tpr_rng *r, int32_t base, int32_t n, double degree,
			 double gamma)
{
	long m = lround(degree * n / 2.0);
	if (n < 2)
		return;
	double *cum = xmalloc((size_t)n * sizeof(*cum)), sum = 0;
	for (int32_t i = 0; i < n; i++) {
		sum += pow((double)i + 1, -1.0 / (gamma - 1));
		cum[i] = sum;
	}
	for (long i = 0; i < m; i++) {
		int32_t u = pick_weighted(cum, n, tpr_rng_unit(r) * sum), v = u;
		for (int t = 0; t < 16 && v == u; t++)
			v = pick_weighted(cum, n, tpr_rng_unit(r) * sum);
		add_pair(k, base + u, base + v);
	}
	free(cum);
}

/* Graph sizes: uniform in the spread, then nudged one node at a time to keep the mean. */
static void draw_sizes(const struct tpr_graph_spec *s, int32_t *size)
{
	struct tpr_rng r;
	tpr_rng_init(&r, s->seed, TPR_DOM_SIZES, 0);
	int64_t lo = llround(s->nodes * (1 - s->spread)), hi = llround(s->nodes * (1 + s->spread));
	int64_t total = 0, want = llround(s->nodes * s->graphs);
	lo = lo < 1 ? 1 : lo;
	hi = hi < lo ? lo : hi;
	for (int32_t i = 0; i < s->graphs; i++) {
		size[i] = (int32_t)(lo + tpr_rng_below(&r, (uint32_t)(hi - lo + 1)));
		total += size[i];
	}
	for (int32_t i = 0; total != want; i = (i + 1) % s->graphs) {
		if (total < want && size[i] < hi)
			size[i]++, total++;
		else if (total > want && size[i] > lo)
			size[i]--, total--;
		else if (lo == hi)
			break;
	}
}

static int check_spec(const struct tpr_graph_spec *s, struct strbuf *err)
{
	if (s->graphs < 1 || !(s->nodes >= 1) || s->nodes * s->graphs > MAX_NODES * 0.9) {
		strbuf_addf(err, "%d graphs of %g nodes: out of range (1 to 1.9e9 nodes in all)",
			    (int)s->graphs, s->nodes);
		return -1;
	}
	if (!(s->degree >= 0) || s->degree > 1000 || !(s->spread >= 0 && s->spread < 1)) {
		strbuf_addf(err, "degree %g or size spread %g out of range", s->degree, s->spread);
		return -1;
	}
	if (s->family == TPR_FAM_POWERLAW && !(s->gamma > 2)) {
		strbuf_addf(err, "power-law exponent %g must be above 2", s->gamma);
		return -1;
	}
	return 0;
}

int tpr_graph_generate(struct tpr_graph *g, const struct tpr_graph_spec *s, struct strbuf *err)
{
	memset(g, 0, sizeof(*g));
	if (check_spec(s, err) < 0)
		return -1;
	int32_t *size = xmalloc((size_t)s->graphs * sizeof(*size));
	draw_sizes(s, size);
	g->ngraphs = s->graphs;
	g->goff = xmalloc(((size_t)s->graphs + 1) * sizeof(*g->goff));
	g->goff[0] = 0;
	struct keys k = { NULL, 0, 0 };
	for (int32_t i = 0; i < s->graphs; i++) {
		struct tpr_rng r;
		int32_t base = g->goff[i];
		tpr_rng_init(&r, s->seed, TPR_DOM_GRAPH, (uint32_t)i);
		g->goff[i + 1] = base + size[i];
		if (s->family == TPR_FAM_MOLECULE)
			gen_molecule(&k, &r, base, size[i], s->degree);
		else if (s->family == TPR_FAM_ER)
			gen_er(&k, &r, base, size[i], s->degree);
		else
			gen_powerlaw(&k, &r, base, size[i], s->degree, s->gamma);
	}
	g->n = g->goff[s->graphs];
	free(size);
	int rc = build(g, &k, err);
	free(k.v);
	if (rc < 0)
		tpr_graph_free(g);
	return rc;
}

int tpr_graph_sizes(const struct tpr_graph_spec *s, int32_t *goff, struct strbuf *err)
{
	if (check_spec(s, err) < 0)
		return -1;
	int32_t *size = xmalloc((size_t)s->graphs * sizeof(*size));
	draw_sizes(s, size);
	goff[0] = 0;
	for (int32_t i = 0; i < s->graphs; i++)
		goff[i + 1] = goff[i] + size[i];
	free(size);
	return 0;
}

int tpr_graph_from_edges(struct tpr_graph *g, int32_t n, const int32_t *edges, size_t ne,
			 struct strbuf *err)
{
	memset(g, 0, sizeof(*g));
	if (n < 1 || n > MAX_NODES) {
		strbuf_addf(err, "%d nodes: out of range", (int)n);
		return -1;
	}
	struct keys k = { NULL, 0, 0 };
	for (size_t i = 0; i < ne; i++) {
		if (edges[2 * i] < 0 || edges[2 * i] >= n || edges[2 * i + 1] < 0 || edges[2 * i + 1] >= n) {
			strbuf_addf(err, "edge %zu (%d, %d) names a node outside 0..%d", i,
				    (int)edges[2 * i], (int)edges[2 * i + 1], (int)n - 1);
			free(k.v);
			return -1;
		}
		add_pair(&k, edges[2 * i], edges[2 * i + 1]);
	}
	g->n = n;
	g->ngraphs = 1;
	g->goff = xmalloc(2 * sizeof(*g->goff));
	g->goff[0] = 0;
	g->goff[1] = n;
	int rc = build(g, &k, err);
	free(k.v);
	if (rc < 0)
		tpr_graph_free(g);
	return rc;
}

void tpr_graph_free(struct tpr_graph *g)
{
	free(g->rowptr);
	free(g->col);
	free(g->goff);
	memset(g, 0, sizeof(*g));
}

static const char *const family_names[] = { "molecule", "er", "powerlaw" };

const char *tpr_family_name(enum tpr_family f)
{
	return family_names[f];
}

int tpr_family_parse(const char *s, enum tpr_family *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(family_names); i++)
		if (!strcmp(s, family_names[i])) {
			*f = (enum tpr_family)i;
			return 0;
		}
	return -1;
}
