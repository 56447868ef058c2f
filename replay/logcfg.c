/*
 * logcfg.c - the workload sizes of a log, from its config records (see
 * logcfg.h; the parser finds them, parse/lines/config.c).
 */
#include <math.h>
#include <string.h>

#include "logcfg.h"

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

static void set(struct tpr_logcfg *cfg, enum tp_config_key k, double v, const char *s, size_t n,
		uint64_t line)
{
	if (k == TP_CFG_GPU_NAME) {
		if (s && !cfg->gpu[0]) {
			if (n >= sizeof(cfg->gpu))
				n = sizeof(cfg->gpu) - 1;
			memcpy(cfg->gpu, s, n);
			cfg->gpu[n] = '\0';
		}
	} else if (k < (enum tp_config_key)CFG_NKEYS && !cfg->line[k] && isfinite(v) && v >= 0) {
		cfg->v[k] = v;
		cfg->line[k] = line ? line : 1;
	}
}

void tpr_logcfg_record(struct tpr_logcfg *cfg, const struct tp_record *r)
{
	if (r->type != TP_CONFIG || !r->name)
		return;
	enum tp_config_key k = tp_config_key_of(r->name, r->name_len);
	if (k == TP_CFG_NKEYS)
		return;
	set(cfg, k, tp_has(r, S_META_VALUE) ? r->num[S_META_VALUE] : NAN, r->text, r->text_len, r->line);
}

struct line_ctx {
	struct tpr_logcfg *cfg;
	uint64_t line;
};

static void line_hit(void *ctx, enum tp_config_key k, double v, const char *s, size_t n)
{
	struct line_ctx *c = ctx;
	set(c->cfg, k, v, s, n, c->line);
}

void tpr_logcfg_line(struct tpr_logcfg *cfg, const char *s, size_t n, uint64_t line)
{
	struct line_ctx c = { cfg, line };
	tp_config_scan(s, n, line_hit, &c);
}

static int take_record(void *ctx, const struct tp_record *r)
{
	tpr_logcfg_record(ctx, r);
	return 0;
}

int tpr_logcfg_scan(const char *path, struct tpr_logcfg *cfg, struct strbuf *err)
{
	struct tp_run_opts o = { .threads = 1, .fmt = -1, .type_mask = 1u << TP_CONFIG };
	struct tp_stats st = { 0 };
	tpr_logcfg_init(cfg);
	o.sink.emit = take_record;
	o.sink.ctx = cfg;
	return tp_read_input(path, &o, NULL, &st, err) < 0 ? -1 : 0;
}
