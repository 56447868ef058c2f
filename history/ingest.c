/*
 * ingest.c - one log into the run history (see ingest.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ingest.h"
#include "sha256.h"

#define MAX_SERIES 2048

/* What the store gets, gathered from the model and the report. */
struct gathered {
	struct an_summary *series;
	size_t nseries;
	struct hs_stage *stages;
	struct hs_finding *findings;
	struct hs_samples *samples;
	size_t nsamples;
	double *values; /* the samples' storage */
};

static void gather(const struct an_run *run, const struct report *rep, int records, struct gathered *g,
		   struct hs_run_in *in)
{
	g->series = xcalloc(MAX_SERIES, sizeof(*g->series));
	g->nseries = an_run_summaries(run, g->series, MAX_SERIES);
	in->series = g->series;
	in->nseries = g->nseries;
	g->stages = xcalloc(run->stages.n + 1, sizeof(*g->stages));
	for (size_t i = 0; i < run->stages.n; i++) {
		const struct an_stage *s = tp_map_at(&run->stages, i);
		g->stages[i] = (struct hs_stage){ tp_map_key(&run->stages, i), s->seconds, s->count };
	}
	in->stages = g->stages;
	in->nstages = run->stages.n;
	g->findings = xcalloc(rep->nfindings + 1, sizeof(*g->findings));
	for (size_t i = 0; i < rep->nfindings; i++) {
		const struct finding *f = &rep->findings[i];
		g->findings[i] = (struct hs_finding){ severity_name(f->sev), f->kind, f->message };
	}
	in->findings = g->findings;
	in->nfindings = rep->nfindings;
	if (!records)
		return;
	struct an_item *items = xcalloc(MAX_SERIES, sizeof(*items));
	size_t n = an_run_items(run, items, MAX_SERIES), used = 0;
	g->samples = xcalloc(n + 1, sizeof(*g->samples));
	g->values = xcalloc(n * HS_MAX_SAMPLES + 1, sizeof(*g->values));
	for (size_t i = 0; i < n; i++) {
		const struct tp_series *s = items[i].s;
		if (!s || !s->nhead)
			continue;
		size_t k = s->nhead < HS_MAX_SAMPLES ? s->nhead : HS_MAX_SAMPLES;
		for (size_t j = 0; j < k; j++)
			g->values[used + j] = s->head[j].v;
		/* the name outlives items: it is the summary's copy */
		g->samples[g->nsamples++] = (struct hs_samples){ g->series[i].name, g->values + used, k };
		used += k;
	}
	free(items);
	in->samples = g->samples;
	in->nsamples = g->nsamples;
}

static void gathered_free(struct gathered *g)
{
	free(g->series);
	free(g->stages);
	free(g->findings);
	free(g->samples);
	free(g->values);
}

static uint64_t total_records(const struct an_run *run)
{
	uint64_t n = 0;
	for (size_t i = 0; i < TP_NTYPES; i++)
		n += run->nrec[i];
	return n;
}

int hs_ingest(struct hdb *db, const char *path, const struct hs_add_opts *o, int64_t *id, int *existed,
	      struct strbuf *err)
{
	char hash[65];
	struct hs_run_in in = { 0 };
	*id = 0;
	*existed = 0;
	if (!strcmp(path, "-")) {
		strbuf_addstr(err, "standard input cannot be added: the history needs a file to hash");
		return HS_INPUT;
	}
	if (sha256_file(path, hash, &in.size) < 0) {
		strbuf_addf(err, "%s: %s", path, strerror(errno));
		return HS_INPUT;
	}
	struct an_model m;
	struct an_load_stats ls = { .tool = o->tool, .quiet = o->quiet };
	char *paths[1] = { (char *)path };
	an_model_init(&m, NAN);
	/* a log whose time stamps alone were read (m.spans) has nothing to store */
	if (an_load_inputs(&m, paths, 1, o->threads, o->rules, &ls) < 0 || !m.nruns || !m.records) {
		if (!ls.failed)
			strbuf_addf(err, "%s: no timing records (%lu warnings): not stored", path, ls.warnings);
		else
			strbuf_addf(err, "%s: could not be read: not stored", path);
		an_model_free(&m);
		return HS_INPUT;
	}
	struct an_run *run = m.runs[0];
	if (o->label) {
		free(run->label);
		run->label = xstrdup(o->label);
	}
	struct an_opts ao;
	struct report rep;
	struct gathered g = { 0 };
	an_opts_default(&ao);
	report_init(&rep);
	an_analyze(&m, &ao, &rep);
	gather(run, &rep, o->records, &g, &in);
	char *abs = realpath(path, NULL); /* a path other machines of a team can read */
	in.hash = hash;
	in.path = abs ? abs : path;
	in.label = o->label;
	in.added = o->added;
	in.records = total_records(run);
	in.warnings = ls.warnings;
	in.meta = o->meta;
	in.nmeta = o->nmeta;
	int st = hs_add(db, &in, id, existed, err);
	free(abs);
	gathered_free(&g);
	report_free(&rep);
	an_model_free(&m);
	return st;
}
