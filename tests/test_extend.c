/*
 * test_extend.c - the extension points README's "Contributing" section
 * promises, exercised the way a contributor would use them: an analysis
 * added as one row of a table (its option, --help line, completion and
 * its run all follow), and a renderer found by its row.
 */
#include <criterion/criterion.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "antest.h"
#include "cli/common/common.h"

#define DUMMY_BIT (1u << 20)
#define KEY0 1000

/* The dummy analysis: one table with the number of runs it was given, and a finding. */
static int dummy_run(const struct an_model *m, const struct an_opts *o, struct report *rep)
{
	(void)o;
	struct rtable *t = report_table(rep, "throughput", "dummy", "Dummy: runs read", "runs");
	rt_num(t, (double)m->nruns, 0);
	report_finding(rep, SEV_INFO, "throughput", "dummy", NULL, NULL, 0, NULL, "the dummy ran on %zu run(s)",
		       m->nruns);
	return 0;
}

/* an_analyses with the dummy's row after the last option (where a new row goes). */
static struct an_analysis *with_dummy(void)
{
	size_t n = 0;
	while (an_analyses[n].run)
		n++;
	struct an_analysis *t = calloc(n + 2, sizeof(*t));
	cr_assert_not_null(t);
	size_t last = 0, k = 0; /* after the last row with a name: the last option */
	for (size_t i = 0; i < n; i++)
		if (an_analyses[i].name)
			last = i;
	for (size_t i = 0; i < n; i++) {
		t[k++] = an_analyses[i];
		if (i == last)
			t[k++] = (struct an_analysis){ "dummy", DUMMY_BIT, dummy_run,
						       "count the runs (a test's analysis)",
						       "The number of runs read (see\n.BR dummy ).\n" };
	}
	return t;
}

/* What the options set: the analyses' bits, and --alpha through its row. */
struct opts {
	unsigned which;
	double alpha;
};

static const struct cli_option rest[] = {
	CLI_HEADING("Settings:"),
	{ "alpha", 2000, "A", "significance level of tests (0.05)", NULL, CLI_TO_NUM(struct opts, alpha, 0, 1) },
	{ 0 },
};

Test(extend, an_analysis_is_one_row_of_the_table)
{
	struct an_analysis *t = with_dummy();
	struct cli_option *opts = cli_analysis_options(t, KEY0, offsetof(struct opts, which), rest);
	struct cli_tool tool = { .name = "tprof-analyze", .usage = "[OPTIONS] [FILE...]", .opts = opts };

	/* its option and help line, in the table's order, under the heading */
	char *help = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&help, &len);
	cr_assert_not_null(fp);
	cli_usage(&tool, fp);
	fclose(fp);
	const char *d = strstr(help, "--dummy");
	cr_assert_not_null(d, "%s", help);
	cr_expect_not_null(strstr(d, "count the runs (a test's analysis)"));
	cr_expect_lt(strstr(help, "Analyses:"), strstr(help, "--breakdown"));
	cr_expect_lt(strstr(help, "--ranks"), d);
	cr_expect_lt(d, strstr(help, "Settings:"));
	free(help);

	/* its man page entry, after the last option's */
	struct strbuf man = STRBUF_INIT;
	cli_analysis_man(t, &man);
	const char *e = strstr(man.buf, ".TP\n.B \\-\\-dummy\nThe number of runs read (see\n.BR dummy ).\n");
	cr_assert_not_null(e, "%s", man.buf);
	cr_expect_lt(strstr(man.buf, ".B \\-\\-ranks\n"), e);
	strbuf_release(&man);

	/* its completion */
	struct strbuf sb = STRBUF_INIT;
	cr_assert_eq(cli_completion(&tool, "bash", &sb), 0);
	cr_expect_not_null(strstr(sb.buf, "--dummy"));
	strbuf_release(&sb);

	/* the option sets its bit, and nothing else; a setting's row checks and stores its value */
	struct opts x = { 0, 0.05 };
	char a0[] = "tprof-analyze", a1[] = "--dummy", a2[] = "--alpha=0.01", a3[] = "run.log";
	char *argv[] = { a0, a1, a2, a3, NULL };
	int first = 0;
	cr_assert_eq(cli_parse(&tool, 4, argv, NULL, &x, &first), CLI_CONTINUE);
	cr_expect_eq(x.which, DUMMY_BIT);
	cr_expect_eq(x.alpha, 0.01);
	cr_expect_eq(first, 3);
	char b2[] = "--alpha=2";
	char *bad[] = { a0, b2, NULL };
	cr_expect_eq(cli_parse(&tool, 2, bad, NULL, &x, &first), TP_EXIT_INPUT, "--alpha above its row's bound");
	cr_expect_eq(x.alpha, 0.01);

	/* asked alone, it runs (and the always-rows: the summary leads the report) */
	struct an_model m;
	an_model_init(&m, NAN);
	load(&m, "a.log", "[TIMING] forward: 0.5s\n[TIMING] backward: 1.0s\n");
	struct an_opts o;
	an_opts_default(&o);
	o.which = x.which;
	struct report rep;
	report_init(&rep);
	an_analyze_with(t, &m, &o, &rep);
	const struct rtable *dt = table(&rep, "dummy", NULL);
	cr_assert_not_null(dt);
	cr_expect_eq(rt_cell(dt, 0, 0)->v, 1.0);
	cr_expect_null(table(&rep, "breakdown", NULL), "only the dummy was asked for");
	int found = 0;
	for (size_t i = 0; i < rep.nfindings; i++)
		found += !strcmp(rep.findings[i].kind, "dummy");
	cr_expect_eq(found, 1);
	report_free(&rep);

	/* by default (every analysis), it runs too, after the built-in ones it follows */
	an_opts_default(&o);
	report_init(&rep);
	an_analyze_with(t, &m, &o, &rep);
	cr_expect_not_null(table(&rep, "dummy", NULL));
	cr_expect_not_null(table(&rep, "breakdown", NULL));
	report_free(&rep);

	/* and the built-in table alone has no dummy */
	for (size_t i = 0; an_analyses[i].run; i++)
		cr_expect(!an_analyses[i].name || strcmp(an_analyses[i].name, "dummy"));
	an_model_free(&m);
	free(opts);
	free(t);
}

Test(extend, every_renderer_row_is_found_by_name_and_extension)
{
	const char *names[] = { "table", "json", "csv", "markdown", "html", "xlsx" };
	const char *paths[] = { "r.txt", "r.json", "r.csv", "r.md", "r.html", "r.xlsx" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct renderer *r = render_find(names[i]);
		cr_assert_not_null(r, "%s", names[i]);
		cr_expect_eq(render_for_path(paths[i]), r, "%s", paths[i]);
	}
	struct strbuf sb = STRBUF_INIT;
	render_names(&sb);
	cr_expect_str_eq(sb.buf, "table, json, csv, markdown, html, xlsx");
	strbuf_release(&sb);
}
