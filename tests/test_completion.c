/*
 * test_completion.c - the shell completions every tool prints with
 * --completion SHELL, made from the same option table as --help: each
 * tool's bash completion offers every long option its --help lists and
 * completes --format to the tool's formats; the dispatcher completes the
 * commands and hands over to the command's completion; the zsh scripts
 * parse (where zsh is installed) and name every option.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "base/base.h"
#include "testutil.h"

static const char *const tools[] = { "tprof-parse", "tprof-analyze", "tprof-plot", "tprof-replay", "tprof-history" };

/* The long options --help lists (its option lines, not its prose), one per line, sorted. */
static struct tu_result help_options(const char *tool)
{
	return tu_run("$B/%s --help | grep -oE '^  (-[a-z], |    )--[a-z][a-z0-9-]*' | grep -o -- '--.*' | sort -u",
		      tool);
}

/* What bash completes `TOOL WORDS...` (the last word being completed) to, sorted. */
static struct tu_result bash_complete(const char *tool, const char *fn, const char *words)
{
	return tu_run("PATH=\"$B:$PATH\" bash -c 'eval \"$(%s --completion bash)\"; COMP_WORDS=(%s); "
		      "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); %s; printf \"%%s\\n\" \"${COMPREPLY[@]}\"' | sort -u",
		      tool, words, fn);
}

Test(completion, bash_offers_every_long_option_of_help)
{
	for (size_t i = 0; i < ARRAY_SIZE(tools); i++) {
		struct strbuf fn = STRBUF_INIT, words = STRBUF_INIT;
		strbuf_addf(&fn, "_%s", tools[i]);
		for (char *p = fn.buf; *p; p++)
			if (*p == '-')
				*p = '_';
		strbuf_addf(&words, "%s --", tools[i]);
		struct tu_result help = help_options(tools[i]);
		struct tu_result comp = bash_complete(tools[i], fn.buf, words.buf);
		cr_assert_eq(comp.status, 0, "%s: %s", tools[i], comp.err.buf);
		size_t n = 0;
		for (char *line = strtok(help.out.buf, "\n"); line; line = strtok(NULL, "\n"), n++) {
			struct strbuf want = STRBUF_INIT;
			strbuf_addf(&want, "\n%s\n", line);
			struct strbuf have = STRBUF_INIT;
			strbuf_addf(&have, "\n%s", comp.out.buf);
			cr_expect(strstr(have.buf, want.buf), "%s: --help lists %s, the bash completion does not offer it",
				  tools[i], line);
			strbuf_release(&want);
			strbuf_release(&have);
		}
		cr_expect_geq(n, 10, "%s --help lists only %zu long options", tools[i], n);
		tu_result_free(&help);
		tu_result_free(&comp);
		strbuf_release(&fn);
		strbuf_release(&words);
	}
}

Test(completion, bash_completes_option_values)
{
	struct tu_result r = bash_complete("tprof-analyze", "_tprof_analyze", "tprof-analyze -f \"\"");
	cr_expect_str_eq(r.out.buf, "csv\nhtml\njson\nmarkdown\ntable\nxlsx\n", "the renderer table's names");
	tu_result_free(&r);
	r = bash_complete("tprof-parse", "_tprof_parse", "tprof-parse --format \"\"");
	cr_expect_str_eq(r.out.buf, "csv\nndjson\ntable\n", "the record writers' names");
	tu_result_free(&r);
	r = bash_complete("tprof-replay", "_tprof_replay", "tprof-replay --backend c");
	cr_expect_str_eq(r.out.buf, "cpu\ncuda\n");
	tu_result_free(&r);
	r = bash_complete("tprof-analyze", "_tprof_analyze", "tprof-analyze --color a");
	cr_expect_str_eq(r.out.buf, "always\nauto\n");
	tu_result_free(&r);
}

Test(completion, dispatcher_completes_commands_then_the_command)
{
	struct tu_result r = bash_complete("tprof", "_tprof", "tprof an");
	cr_expect_str_eq(r.out.buf, "analyze\n");
	tu_result_free(&r);
	r = bash_complete("tprof", "_tprof", "tprof analyze --bre");
	cr_expect_str_eq(r.out.buf, "--breakdown\n", "handed over to tprof-analyze's completion");
	tu_result_free(&r);
	r = bash_complete("tprof", "_tprof", "tprof replay --valid");
	cr_expect_str_eq(r.out.buf, "--validate\n");
	tu_result_free(&r);
}

Test(completion, zsh_scripts_parse_and_name_every_option)
{
	struct tu_result z = tu_run("command -v zsh");
	if (z.status != 0) {
		tu_result_free(&z);
		cr_skip_test("zsh is not installed (apt-get install zsh): the zsh check is skipped");
	}
	tu_result_free(&z);
	for (size_t i = 0; i < ARRAY_SIZE(tools); i++) {
		struct tu_result r = tu_run("$B/%s --completion zsh > /tmp/tprof-zsh-$$ && zsh -n /tmp/tprof-zsh-$$ && "
					    "cat /tmp/tprof-zsh-$$; s=$?; rm -f /tmp/tprof-zsh-$$; exit $s", tools[i]);
		cr_expect_eq(r.status, 0, "%s: zsh -n: %s", tools[i], r.err.buf);
		cr_expect(!strncmp(r.out.buf ? r.out.buf : "", "#compdef ", 9), "%s", tools[i]);
		struct tu_result help = help_options(tools[i]);
		for (char *line = strtok(help.out.buf, "\n"); line; line = strtok(NULL, "\n")) {
			struct strbuf want = STRBUF_INIT;
			strbuf_addf(&want, "%s[", line);
			struct strbuf want2 = STRBUF_INIT, want3 = STRBUF_INIT;
			strbuf_addf(&want2, "%s}'[", line);
			strbuf_addf(&want3, "%s=-[", line); /* an optional argument */
			cr_expect(strstr(r.out.buf, want.buf) || strstr(r.out.buf, want2.buf) || strstr(r.out.buf, want3.buf),
				  "%s: zsh has no %s", tools[i], line);
			strbuf_release(&want3);
			strbuf_release(&want);
			strbuf_release(&want2);
		}
		tu_result_free(&help);
		tu_result_free(&r);
	}
	struct tu_result d = tu_run("$B/tprof --completion zsh | zsh -n && $B/tprof --completion fish");
	cr_expect_eq(d.status, 2, "tprof: zsh parses, fish is refused: %s", d.err.buf);
	tu_result_free(&d);
}

Test(completion, unknown_shell_exits_2)
{
	for (size_t i = 0; i < ARRAY_SIZE(tools); i++) {
		struct tu_result r = tu_run("$B/%s --completion fish", tools[i]);
		cr_expect_eq(r.status, 2, "%s", tools[i]);
		cr_expect(strstr(r.err.buf, "bash or zsh"), "%s: %s", tools[i], r.err.buf);
		tu_result_free(&r);
	}
}

/* The one input reader: tprof-parse reads its own NDJSON back record for
 * record, from a pipe and from a file, whatever the log. */
Test(reader, parse_reads_its_own_ndjson_back)
{
	static const char *const logs[] = { "samples/kan-experiments.log", "samples/ddp-4rank.log",
					    "samples/graph-llava-pretrain.log", "samples/ssm-training.log",
					    "samples/graph-transformer-profile.log", "samples/pde-physical.log" };
	for (size_t i = 0; i < ARRAY_SIZE(logs); i++) {
		struct tu_result a = tu_run("$B/tprof-parse %s", logs[i]);
		struct tu_result b = tu_run("$B/tprof-parse %s | $B/tprof-parse -", logs[i]);
		struct tu_result c = tu_run("d=$(mktemp -d) && $B/tprof-parse -o $d/x.ndjson %s && "
					    "$B/tprof-parse -j 2 $d/x.ndjson; s=$?; rm -rf $d; exit $s", logs[i]);
		cr_assert_eq(a.status, 0, "%s", a.err.buf);
		cr_expect_gt(a.out.len, 1000, "%s", logs[i]);
		cr_expect_eq(b.status, 0, "%s", b.err.buf);
		cr_expect_str_eq(b.out.buf, a.out.buf, "%s through a pipe", logs[i]);
		cr_expect_str_eq(c.out.buf, a.out.buf, "%s from a file", logs[i]);
		tu_result_free(&a);
		tu_result_free(&b);
		tu_result_free(&c);
	}
}

/* The shared validators say what they want, whole numbers and unbounded ones included. */
Test(cli_common, validators_say_what_they_want)
{
	struct tu_result r = tu_run("$B/tprof-analyze --loss-threshold x samples/ddp-4rank.log");
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err.buf, "--loss-threshold wants a number, not 'x'"), "%s", r.err.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-replay --graphs 2.5");
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err.buf, "--graphs wants a whole number from 1 to 1e+08, not '2.5'"), "%s", r.err.buf);
	tu_result_free(&r);
	r = tu_run("$B/tprof-analyze --threads 0 samples/ddp-4rank.log");
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err.buf, "--threads wants a whole number from 1 to 256, not '0'"), "%s", r.err.buf);
	tu_result_free(&r);
}
