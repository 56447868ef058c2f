/*
 * test_follow.c - `tprof-parse --follow` against a writer that appends,
 * rotates (rename and recreate) and truncates (copytruncate) its log:
 * every record arrives exactly once, in order, and SIGTERM ends the run
 * cleanly with the last, unterminated line parsed too.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

static void pause_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static void append(const char *path, const char *text)
{
	FILE *fp = fopen(path, "a");
	cr_assert_not_null(fp);
	fputs(text, fp);
	cr_assert_eq(fclose(fp), 0);
}

static pid_t start_follow(const char *log, const char *out, const char *err)
{
	pid_t pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fo, 1);
		dup2(fe, 2);
		const char *bin = getenv("TPROF_BIN") ? getenv("TPROF_BIN") : "bin";
		char path[512];
		snprintf(path, sizeof(path), "%s/tprof-parse", bin);
		execl(path, "tprof-parse", "--follow", log, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static int stop(pid_t pid)
{
	int st;
	kill(pid, SIGTERM);
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static char *slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	FILE *fp = fopen(path, "r");
	char buf[4096];
	size_t n;
	cr_assert_not_null(fp);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(fp);
	return sb.buf ? sb.buf : xstrdup("");
}

/* The names of the timing records, in output order, space-separated. */
static void names(const char *ndjson, struct strbuf *sb)
{
	const char *p = ndjson;
	while ((p = strstr(p, "\"name\":\""))) {
		p += 8;
		const char *q = strchr(p, '"');
		strbuf_add(sb, p, (size_t)(q - p));
		strbuf_addch(sb, ' ');
		p = q;
	}
}

/* A path of this process's own (suites of several checkouts may run at once). */
static const char *tmp_path(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "/tmp/tprof-%ld-%s", (long)getpid(), name);
	return buf;
}

Test(follow, append_rotate_truncate_exactly_once, .timeout = 30)
{
	char lb[96], ob[96], eb[96], old[96];
	const char *log = tmp_path(lb, sizeof(lb), "follow.log"), *out = tmp_path(ob, sizeof(ob), "follow.out"),
		   *err = tmp_path(eb, sizeof(eb), "follow.err");
	tmp_path(old, sizeof(old), "follow.log.1");
	unlink(log);
	unlink(old);
	append(log, "[TIMING] a1: 1s\n");
	pid_t pid = start_follow(log, out, err);
	pause_ms(300);
	append(log, "[TIMING] a2: 2s\n[TIMING] a3: 3s\n");
	pause_ms(300);
	/* a line written in two pieces is read once, whole */
	append(log, "[TIMING] a4: ");
	pause_ms(300);
	append(log, "4s\n");
	pause_ms(300);
	/* logrotate: rename and recreate; a last line lands in the old file */
	cr_assert_eq(rename(log, old), 0);
	append(old, "[TIMING] a5: 5s\n");
	pause_ms(300);
	append(log, "[TIMING] b1: 1s\n");
	pause_ms(400);
	append(log, "[TIMING] b2: 2s\n");
	pause_ms(400);
	/* copytruncate */
	cr_assert_eq(truncate(log, 0), 0);
	pause_ms(400);
	append(log, "[TIMING] c1: 1s\n[TIMING] c2: 2s");
	pause_ms(400);
	cr_assert_eq(stop(pid), 0);
	char *o = slurp(out), *e = slurp(err);
	struct strbuf got = STRBUF_INIT;
	names(o, &got);
	cr_assert_str_eq(got.buf, "a1 a2 a3 a4 a5 b1 b2 c1 c2 ", "%s\nstderr: %s", o, e);
	/* line numbers start again in a new or truncated file */
	cr_assert(strstr(o, "\"line\":1,\"name\":\"b1\""), "%s", o);
	cr_assert(strstr(o, "\"line\":1,\"name\":\"c1\""), "%s", o);
	cr_assert(strstr(e, "rotated") || strstr(e, "recreated"), "%s", e);
	cr_assert(strstr(e, "truncated"), "%s", e);
	free(o);
	free(e);
	strbuf_release(&got);
	unlink(log);
	unlink(old);
	unlink(out);
	unlink(err);
}

Test(follow, open_tables_end_with_the_run, .timeout = 20)
{
	char lb[96], ob[96], eb[96];
	const char *log = tmp_path(lb, sizeof(lb), "follow2.log"), *out = tmp_path(ob, sizeof(ob), "follow2.out"),
		   *err = tmp_path(eb, sizeof(eb), "follow2.err");
	unlink(log);
	append(log, "KAN Inference Benchmark:\n----\n  Mean latency:   2.5 ms\n");
	pid_t pid = start_follow(log, out, err);
	pause_ms(400);
	cr_assert_eq(stop(pid), 0);
	char *o = slurp(out);
	cr_assert(strstr(o, "\"type\":\"latency\""), "an open block is delivered at the end: %s", o);
	cr_assert(strstr(o, "\"mean_ms\":2.5"));
	free(o);
	unlink(log);
}

Test(follow, missing_file_and_usage, .timeout = 20)
{
	int st = system("bin/tprof-parse --follow /nonexistent/x.log 2>/dev/null");
	cr_assert_eq(WEXITSTATUS(st), 2);
	st = system("bin/tprof-parse --follow a b 2>/dev/null");
	cr_assert_eq(WEXITSTATUS(st), 2);
}

Test(follow, analyze_refreshes_the_report_and_ends_with_all_records, .timeout = 30)
{
	char lb[96], rb[96];
	const char *log = tmp_path(lb, sizeof(lb), "follow3.log"), *rep = tmp_path(rb, sizeof(rb), "follow3.json");
	unlink(log);
	unlink(rep);
	append(log, "");
	pid_t pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		int fe = open("/dev/null", O_WRONLY);
		dup2(fe, 2);
		const char *bin = getenv("TPROF_BIN") ? getenv("TPROF_BIN") : "bin";
		char path[512];
		snprintf(path, sizeof(path), "%s/tprof-analyze", bin);
		execl(path, "tprof-analyze", "--follow", "--interval", "1", "-f", "json", "-o", rep, log,
		      (char *)NULL);
		_exit(127);
	}
	pause_ms(300);
	for (int i = 0; i < 5; i++) {
		char line[128];
		snprintf(line, sizeof(line), "  Batch %d: 0.2%ds, GPU 1MB, CPU 2MB, loss=0.5\n", i, i);
		append(log, line);
	}
	pause_ms(1800);
	char *first = slurp(rep);
	cr_assert(strstr(first, "\"batch time\",\"s\",5,"), "a refreshed report while following: %s", first);
	append(log, "  Batch 5: 0.25s, GPU 1MB, CPU 2MB, loss=0.5\n  Batch 6: 0.26s, GPU 1MB, CPU 2MB, loss=0.5\n");
	pause_ms(300);
	cr_assert_eq(stop(pid), 0);
	char *last = slurp(rep);
	cr_assert(strstr(last, "\"batch time\",\"s\",7,"), "the final report has every record: %s", last);
	free(first);
	free(last);
	unlink(log);
	unlink(rep);
}
