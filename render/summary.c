/*
 * summary.c - the summary section (analyze's AT_SUMMARY_RUNS and
 * AT_SUMMARY_TOP tables) in sentences, for the renderers that print it as
 * text rather than as tables (terminal, HTML). Plain text: the caller
 * escapes and wraps it.
 */
#include <math.h>
#include <string.h>

#include "analyze/analyze.h"
#include "render.h"

static const char *text_at(const struct rtable *t, size_t r, int key)
{
	int c = rt_col(t, key);
	const struct rcell *x = c < 0 ? NULL : rt_cell(t, r, (size_t)c);
	return x && x->kind == RC_TEXT ? x->s : NULL;
}

static double num_at(const struct rtable *t, size_t r, int key)
{
	int c = rt_col(t, key);
	const struct rcell *x = c < 0 ? NULL : rt_cell(t, r, (size_t)c);
	return x && x->kind == RC_NUM ? x->v : NAN;
}

/* A number with 3 significant digits (whole seconds from 1000 on, an
 * exponent beyond 10^15) and its unit. */
static void add_sig(struct strbuf *sb, double v, const char *unit)
{
	strbuf_addf(sb, fabs(v) >= 1000 && fabs(v) < 1e15 ? "%.0f%s%s" : "%.3g%s%s", v, *unit ? " " : "", unit);
}

/* What the wall was read from, in a few words. */
static const char *wall_words(const char *from)
{
	static const struct {
		enum an_wall_from from;
		const char *words;
	} w[] = {
		{ AW_STAMPS, "the time stamps" }, { AW_CLOCK, "a clock" }, { AW_PHASES, "the phases" },
		{ AW_TABLE_TOTAL, "a printed TOTAL" }, { AW_BATCHES, "the printed steps" },
		{ AW_EPOCHS, "the epochs, added" }, { AW_GPM, "the GPM windows" },
		{ AW_RUN_TIME, "a printed run time" }, { AW_STEPS, "the steps that ran" },
		{ AW_BARS, "a progress bar's clock" },
	};
	for (size_t i = 0; from && i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(from, an_wall_from_name(w[i].from)))
			return w[i].words;
	return NULL;
}

int render_run_sentence(const struct rtable *t, size_t r, int several_runs, struct strbuf *out)
{
	double wall = num_at(t, r, AC_WALL), in = num_at(t, r, AC_SECONDS), un = num_at(t, r, AC_UNACCOUNTED);
	double med = num_at(t, r, AC_MEDIAN), spread = num_at(t, r, AC_STD), thr = num_at(t, r, AC_THROUGHPUT);
	double warm = num_at(t, r, AC_WARMUP_COST), n = num_at(t, r, AC_N);
	const char *step = text_at(t, r, AC_SERIES);
	if (isnan(wall) && !(step && !isnan(med)))
		return 0;
	if (several_runs)
		strbuf_addf(out, "%s: ", text_at(t, r, AC_RUN) ? text_at(t, r, AC_RUN) : "");
	const char *wf = text_at(t, r, AC_WALL_FROM);
	int bound = !isnan(wall) && wf &&
		    (!strcmp(wf, an_wall_from_name(AW_BATCHES)) || !strcmp(wf, an_wall_from_name(AW_GPM)) ||
		     !strcmp(wf, an_wall_from_name(AW_STEPS)));
	if (bound) {
		/* steps added leave out all between them: a bound, no wall */
		strbuf_addstr(out, "wall unknown (no time stamps or run total), at least ");
		add_sig(out, wall, "s");
		strbuf_addf(out, " in %s", wall_words(wf));
	} else if (!isnan(wall)) {
		strbuf_addstr(out, "wall ");
		add_sig(out, wall, "s");
		const char *from = wall_words(wf);
		if (from)
			strbuf_addf(out, " (%s)", from);
	}
	if (!isnan(in)) {
		strbuf_addstr(out, ", in stages ");
		add_sig(out, in, "s");
		if (!isnan(un) && un > 0 && !bound) {
			strbuf_addstr(out, ", unaccounted ");
			add_sig(out, un, "s");
		}
	}
	if (step && !isnan(med)) {
		strbuf_addf(out, "%s%s ", isnan(wall) ? "" : "; ", step);
		add_sig(out, med, "s");
		strbuf_addstr(out, " \xc2\xb1 ");
		add_sig(out, spread, "s");
		const char *kind = text_at(t, r, AC_STEP_KIND);
		if (kind && !strcmp(kind, "span"))
			strbuf_addf(out, " each (median \xc2\xb1 IQR/2 after warmup, %.0f printed; no step time)", n);
		else
			strbuf_addf(out, " (median \xc2\xb1 IQR/2 after warmup, %.0f steps)", n);
		if (!isnan(thr))
			strbuf_addf(out, ", %.3g steps/s", thr);
		if (!isnan(warm) && warm > 0) {
			strbuf_addstr(out, ", warmup cost ");
			add_sig(out, warm, "s");
		}
	}
	double warn = num_at(t, r, AC_WARNINGS);
	if (warn > 0) /* what was read is only part of the log: say so beside the figures */
		strbuf_addf(out, "; %.0f line%s with a known marker could not be read (warnings on stderr)", warn,
			    warn == 1 ? "" : "s");
	return 1;
}

const char *render_top_sentence(const struct rtable *t, size_t r, int several_runs, struct strbuf *out)
{
	double stake = num_at(t, r, AC_AT_STAKE);
	const char *run = text_at(t, r, AC_RUN), *msg = text_at(t, r, AC_MESSAGE), *where = text_at(t, r, AC_WHERE);
	if (!isnan(stake)) {
		add_sig(out, stake, "s");
		strbuf_addstr(out, " at stake: ");
	} else {
		strbuf_addf(out, "%s: ", text_at(t, r, AC_SEVERITY) ? text_at(t, r, AC_SEVERITY) : "");
	}
	if (run && several_runs)
		strbuf_addf(out, "%s: ", run);
	strbuf_addstr(out, msg ? msg : "");
	if (where)
		strbuf_addf(out, " (%s)", where);
	return text_at(t, r, AC_ADVICE);
}
