/*
 * config.c - reading workload sizes from the free text of a log (see
 * config.h): `name=value` pairs by name, two fixed phrases, and the
 * mentions of a CUDA device.
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

#define LINE_MAX_SCAN 4096 /* sizes are printed on short lines; longer lines are cut */

const char *const tp_config_keys[TP_CFG_NKEYS] = {
	"num_patterns", "pattern_size", "hidden_dim",  "num_heads",    "num_layers",
	"num_nodes",    "num_edges",    "ffn_dim",     "avg_degree",   "batch_graphs",
	"batch_nodes",  "batch_edges",  "dataset_avg_nodes", "dataset_avg_edges", "gpu",
	"gpu_name", "tokens_per_step",
};

/* The names a log may print for a key. */
static const struct {
	const char *name;
	enum tp_config_key key;
} names[] = {
	{ "num_patterns", TP_CFG_PATTERNS }, { "pattern_size", TP_CFG_PATTERN_SIZE },
	{ "walk_length", TP_CFG_PATTERN_SIZE }, { "hidden_dim", TP_CFG_HIDDEN },
	{ "hidden_size", TP_CFG_HIDDEN },    { "hidden", TP_CFG_HIDDEN },
	{ "num_heads", TP_CFG_HEADS },       { "heads", TP_CFG_HEADS },
	{ "nhead", TP_CFG_HEADS },           { "num_layers", TP_CFG_LAYERS },
	{ "layers", TP_CFG_LAYERS },         { "num_nodes", TP_CFG_NODES },
	{ "num_edges", TP_CFG_EDGES },       { "ffn_dim", TP_CFG_FFN },
	{ "avg_degree", TP_CFG_DEGREE },     { "tokens_per_step", TP_CFG_TOKENS_STEP },
	{ "tokens_per_iter", TP_CFG_TOKENS_STEP },
};

enum tp_config_key tp_config_key_of(const char *s, size_t n)
{
	for (int k = 0; k < TP_CFG_NKEYS; k++)
		if (strlen(tp_config_keys[k]) == n && !memcmp(s, tp_config_keys[k], n))
			return (enum tp_config_key)k;
	return TP_CFG_NKEYS;
}

static enum tp_config_key name_of(const char *s, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i].name) == n && !memcmp(s, names[i].name, n))
			return names[i].key;
	return TP_CFG_NKEYS;
}

struct scan {
	tp_config_hit_fn hit;
	void *ctx;
};

static void found(const struct scan *sc, enum tp_config_key k, double v)
{
	if (isfinite(v) && v >= 0)
		sc->hit(sc->ctx, k, v, NULL, 0);
}

/* Every identifier=number pair of the line. */
static void scan_pairs(const struct scan *sc, const char *s)
{
	for (const char *p = strchr(s, '='); p; p = strchr(p + 1, '=')) {
		const char *b = p;
		while (b > s && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
			b--;
		char *end;
		double v = strtod(p + 1, &end);
		if (b == p || end == p + 1 || isalpha((unsigned char)*end))
			continue;
		enum tp_config_key k = name_of(b, (size_t)(p - b));
		if (k != TP_CFG_NKEYS)
			found(sc, k, v);
	}
}

/* "avg 28.9 nodes, avg 62.4 edges" */
static void scan_dataset(const struct scan *sc, const char *s)
{
	const char *p = strstr(s, "avg ");
	double n, e;
	char *end;
	if (!p)
		return;
	n = strtod(p + 4, &end);
	if (end == p + 4 || strncmp(end, " nodes, avg ", 12))
		return;
	p = end + 12;
	e = strtod(p, &end);
	if (end != p && !strncmp(end, " edges", 6)) {
		found(sc, TP_CFG_DS_NODES, n);
		found(sc, TP_CFG_DS_EDGES, e);
	}
}

/* "batch: 32 graphs from the test split, 4821 nodes, 9874 edges" */
static void scan_batch(const struct scan *sc, const char *s)
{
	const char *p = strstr(s, "batch: ");
	char *end;
	if (!p)
		return;
	p += 7;
	double g = strtod(p, &end);
	if (end == p || strncmp(end, " graphs", 7))
		return;
	const char *c = strchr(end, ',');
	if (!c)
		return;
	double n = strtod(c + 1, &end);
	if (end == c + 1 || strncmp(end, " nodes, ", 8))
		return;
	double e = strtod(end + 8, &end);
	if (!strncmp(end, " edges", 6)) {
		found(sc, TP_CFG_BATCH_GRAPHS, g);
		found(sc, TP_CFG_BATCH_NODES, n);
		found(sc, TP_CFG_BATCH_EDGES, e);
	}
}

/* "gpu: NVIDIA A100-SXM4-40GB (...)", "Using device: cuda (NVIDIA ...)", launcher CUDA settings. */
static void scan_gpu(const struct scan *sc, const char *s)
{
	const char *p = strstr(s, "NVIDIA ");
	if (p || strstr(s, "device: cuda") || strstr(s, "CUDA_VISIBLE_DEVICES=") ||
	    strstr(s, "accelerator to cuda"))
		found(sc, TP_CFG_GPU, 1);
	if (p) {
		size_t n = strcspn(p, ",()\"'\r");
		while (n && p[n - 1] == ' ')
			n--;
		if (n > 95)
			n = 95;
		sc->hit(sc->ctx, TP_CFG_GPU_NAME, NAN, p, n);
	}
}

/* "tokens per iteration will be: 491,520" (nanoGPT's train.py), "Tokens /
 * optimizer step : 32,768", "tokens per step: 524288": the tokens each
 * step trains on, which a rate of tokens a second turns into the step. */
static void scan_tokens(const struct scan *sc, const char *s)
{
	static const char *const phrases[] = { "tokens per iteration", "tokens per step", "tokens / optimizer step",
					       "tokens per optimizer step", "tokens/step" };
	/* every line of a log's first ones comes here: one search for the
	 * word, the phrases only where it is */
	const char *p = NULL;
	for (const char *w = strstr(s, "okens"); w && !p; w = strstr(w + 5, "okens")) {
		if (w == s || (w[-1] != 't' && w[-1] != 'T'))
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(phrases) && !p; i++)
			if (!strncasecmp(w - 1, phrases[i], strlen(phrases[i])))
				p = w - 1 + strlen(phrases[i]);
	}
	if (!p)
		return;
	p += strspn(p, " ");
	if (!strncmp(p, "will be", 7))
		p += 7;
	p += strspn(p, " ");
	if (*p != ':' && *p != '=')
		return;
	p += 1 + strspn(p + 1, " ");
	double v = 0;
	int digits = 0;
	for (; isdigit((unsigned char)*p) || (*p == ',' && isdigit((unsigned char)p[1])); p++)
		if (*p != ',')
			v = v * 10 + (*p - '0'), digits++;
	if (digits && digits <= 15 && !isalnum((unsigned char)*p) && *p != '.')
		found(sc, TP_CFG_TOKENS_STEP, v);
}

void tp_config_scan(const char *s, size_t n, tp_config_hit_fn hit, void *ctx)
{
	char buf[LINE_MAX_SCAN + 1];
	struct scan sc = { hit, ctx };
	if (n > LINE_MAX_SCAN)
		n = LINE_MAX_SCAN;
	memcpy(buf, s, n);
	buf[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	if (strchr(buf, '='))
		scan_pairs(&sc, buf);
	scan_dataset(&sc, buf);
	scan_batch(&sc, buf);
	scan_gpu(&sc, buf);
	scan_tokens(&sc, buf);
}
