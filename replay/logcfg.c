/*
 * logcfg.c - reading workload sizes from the free text of a log (see
 * logcfg.h): `name=value` pairs by name, two fixed phrases, and the
 * mentions of a CUDA device.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse/parse.h"
#include "logcfg.h"

#define LINE_MAX_SCAN 4096 /* sizes are printed on short lines; longer lines are cut */

static const struct {
	const char *name;
	enum tpr_cfg_key key;
} names[] = {
	{ "num_patterns", CFG_PATTERNS }, { "pattern_size", CFG_PATTERN_SIZE },
	{ "walk_length", CFG_PATTERN_SIZE }, { "hidden_dim", CFG_HIDDEN },
	{ "hidden_size", CFG_HIDDEN },    { "hidden", CFG_HIDDEN },
	{ "num_heads", CFG_HEADS },       { "heads", CFG_HEADS },
	{ "nhead", CFG_HEADS },           { "num_layers", CFG_LAYERS },
	{ "layers", CFG_LAYERS },         { "num_nodes", CFG_NODES },
	{ "num_edges", CFG_EDGES },       { "ffn_dim", CFG_FFN },
	{ "avg_degree", CFG_DEGREE },
};

void tpr_logcfg_init(struct tpr_logcfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	for (int i = 0; i < CFG_NKEYS; i++)
		cfg->v[i] = NAN;
}

int tpr_logcfg_has(const struct tpr_logcfg *cfg, enum tpr_cfg_key k)
{
	return cfg->line[k] != 0;
}

static void set(struct tpr_logcfg *cfg, enum tpr_cfg_key k, double v, uint64_t line)
{
	if (!cfg->line[k] && isfinite(v) && v >= 0) {
		cfg->v[k] = v;
		cfg->line[k] = line;
	}
}

static enum tpr_cfg_key key_of(const char *s, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i].name) == n && !memcmp(s, names[i].name, n))
			return names[i].key;
	return CFG_NKEYS;
}

/* Every identifier=number pair of the line. */
static void scan_pairs(struct tpr_logcfg *cfg, const char *s, uint64_t line)
{
	for (const char *p = strchr(s, '='); p; p = strchr(p + 1, '=')) {
		const char *b = p;
		while (b > s && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
			b--;
		char *end;
		double v = strtod(p + 1, &end);
		if (b == p || end == p + 1 || isalpha((unsigned char)*end))
			continue;
		enum tpr_cfg_key k = key_of(b, (size_t)(p - b));
		if (k != CFG_NKEYS)
			set(cfg, k, v, line);
	}
}

/* "avg 28.9 nodes, avg 62.4 edges" */
static void scan_dataset(struct tpr_logcfg *cfg, const char *s, uint64_t line)
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
		set(cfg, CFG_DS_NODES, n, line);
		set(cfg, CFG_DS_EDGES, e, line);
	}
}

/* "batch: 32 graphs from the test split, 4821 nodes, 9874 edges" */
static void scan_batch(struct tpr_logcfg *cfg, const char *s, uint64_t line)
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
		set(cfg, CFG_BATCH_GRAPHS, g, line);
		set(cfg, CFG_BATCH_NODES, n, line);
		set(cfg, CFG_BATCH_EDGES, e, line);
	}
}

/* "gpu: NVIDIA A100-SXM4-40GB (...)", "Using device: cuda (NVIDIA ...)", launcher CUDA settings. */
static void scan_gpu(struct tpr_logcfg *cfg, const char *s, uint64_t line)
{
	const char *p = strstr(s, "NVIDIA ");
	if (p && !cfg->gpu[0]) {
		size_t n = strcspn(p, ",()\"'\r");
		while (n && p[n - 1] == ' ')
			n--;
		if (n >= sizeof(cfg->gpu))
			n = sizeof(cfg->gpu) - 1;
		memcpy(cfg->gpu, p, n);
		cfg->gpu[n] = '\0';
	}
	if (p || strstr(s, "device: cuda") || strstr(s, "CUDA_VISIBLE_DEVICES=") ||
	    strstr(s, "accelerator to cuda"))
		set(cfg, CFG_GPU, 1, line);
}

void tpr_logcfg_line(struct tpr_logcfg *cfg, const char *s, size_t n, uint64_t line)
{
	char buf[LINE_MAX_SCAN + 1];
	if (n > LINE_MAX_SCAN)
		n = LINE_MAX_SCAN;
	memcpy(buf, s, n);
	buf[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	if (strchr(buf, '='))
		scan_pairs(cfg, buf, line);
	scan_dataset(cfg, buf, line);
	scan_batch(cfg, buf, line);
	scan_gpu(cfg, buf, line);
}

int tpr_logcfg_scan(const char *path, struct tpr_logcfg *cfg, struct strbuf *err)
{
	struct tp_input in;
	struct strbuf line = STRBUF_INIT;
	const char *s;
	size_t n;
	int flags, rc;
	uint64_t lineno = 0;
	tpr_logcfg_init(cfg);
	if (tp_input_open(&in, path, err) < 0)
		return -1;
	while ((rc = tp_input_next(&in, &s, &n, &flags, err)) > 0) {
		if (flags & TP_LINE_START)
			strbuf_reset(&line), lineno++;
		if (line.len < LINE_MAX_SCAN)
			strbuf_add(&line, s, n);
		if (flags & TP_LINE_END)
			tpr_logcfg_line(cfg, line.buf ? line.buf : "", line.len, lineno);
	}
	tp_input_close(&in);
	strbuf_release(&line);
	return rc < 0 ? -1 : 0;
}
