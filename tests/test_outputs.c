/*
 * test_outputs.c - output integrity across the tools: every tool and every
 * output format reports a full disk (/dev/full) with exit 3 and the
 * system's message, ends quietly with exit 0 when the reader of its pipe
 * is gone, and a run killed or interrupted at any moment leaves the
 * previous output file as it was and nothing beside it (no temporary
 * file, no gnuplot still running, nothing in $TMPDIR). An output that is
 * a FIFO, a pipe or a link is written through, never replaced.
 *
 * The tools are taken from $TPROF_BIN (default bin); run from the
 * repository root (make check does).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

/* One command line per tool and output format, each with some output. */
static const char *const writers[] = {
	"$B/tprof-parse -q $R/samples/ddp-4rank.log",
	"$B/tprof-parse -q -f csv $R/samples/ddp-4rank.log",
	"$B/tprof-parse -q -f table $R/samples/ddp-4rank.log",
	"$B/tprof-parse -q --count $R/samples/ddp-4rank.log",
	"$B/tprof parse -q $R/samples/ddp-4rank.log",
	"$B/tprof-analyze -q $R/samples/ddp-4rank.log",
	"$B/tprof-analyze -q -f json $R/samples/ddp-4rank.log",
	"$B/tprof-analyze -q -f csv $R/samples/ddp-4rank.log",
	"$B/tprof-analyze -q -f markdown $R/samples/ddp-4rank.log",
	"$B/tprof-analyze -q -f html $R/samples/ddp-4rank.log",
	"$B/tprof-analyze -q -f xlsx $R/samples/ddp-4rank.log",
	"$B/tprof analyze -q -f json $R/samples/ddp-4rank.log",
	"$B/tprof-replay -b cpu -j 1 --kernel walk --graphs 20 --warmup 0 --trials 1",
	"$B/tprof-replay -b cpu -j 1 --kernel walk --graphs 20 --warmup 0 --trials 1 -f csv",
};
#define NWRITERS (sizeof(writers) / sizeof(writers[0]))

Test(outputs, a_full_disk_is_exit_3_with_the_reason, .timeout = 120)
{
	for (size_t i = 0; i < NWRITERS; i++) {
		struct tu_result r = tu_run("%s > /dev/full", writers[i]);
		cr_expect_eq(r.status, 3, "%s: exit %d: %s", writers[i], r.status, r.err.buf);
		cr_expect(strstr(r.err.buf, ": cannot write standard output: No space left on device\n"),
			  "%s: %s", writers[i], r.err.buf);
		tu_result_free(&r);
	}
}

/*
 * The reader (true) is gone before the tool starts, so its first write
 * meets a closed pipe: no SIGPIPE death (141), no message, exit 0.
 */
Test(outputs, a_closed_pipe_ends_quietly, .timeout = 120)
{
	for (size_t i = 0; i < NWRITERS; i++) {
		struct tu_result r = tu_run("st=$(mktemp); { sleep 0.2; %s; echo $? > $st; } | true; "
					    "cat $st; rm -f $st",
					    writers[i]);
		cr_expect_str_eq(r.out.buf, "0\n", "%s: exit %s", writers[i], r.out.buf);
		cr_expect_str_eq(r.err.buf, "", "%s", writers[i]);
		tu_result_free(&r);
	}
}

/* ---- killed and interrupted runs -------------------------------------- */

static char *scratch(void)
{
	char *d = tu_tmpdir("outputs");
	cr_assert_not_null(d, "mkdtemp: %s", strerror(errno));
	return d;
}

#define rmtree tu_rmtree

static void put(const char *dir, const char *name, const char *text, mode_t mode)
{
	struct strbuf p = STRBUF_INIT;
	strbuf_addf(&p, "%s/%s", dir, name);
	int fd = open(p.buf, O_WRONLY | O_CREAT | O_TRUNC, mode);
	cr_assert_geq(fd, 0, "%s: %s", p.buf, strerror(errno));
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	cr_assert_eq(close(fd), 0);
	strbuf_release(&p);
}

static char *get(const char *dir, const char *name)
{
	struct strbuf p = STRBUF_INIT, sb = STRBUF_INIT;
	strbuf_addf(&p, "%s/%s", dir, name);
	tu_slurp(p.buf, &sb);
	strbuf_release(&p);
	return sb.buf;
}

/* The names in dir, sorted, one per line. */
static char *listing(const char *dir)
{
	struct tu_result r = tu_run("ls -A '%s'", dir);
	cr_assert_eq(r.status, 0);
	strbuf_release(&r.err);
	return r.out.buf;
}

static void pause_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&t, &t) < 0 && errno == EINTR)
		;
}

/*
 * Starts a tool with default signal dispositions, output to /dev/null and
 * the "NAME=VALUE" settings of env (NULL-terminated, or NULL) added to
 * the environment. argv[0] is the tool's name in $TPROF_BIN.
 */
static pid_t start(char *const env[], char *const argv[])
{
	const char *bin = getenv("TPROF_BIN");
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s", bin && *bin ? bin : "bin", argv[0]);
	pid_t pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		int null = open("/dev/null", O_RDWR);
		if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
			_exit(120);
		for (size_t i = 0; env && env[i]; i++)
			putenv(env[i]);
		execv(path.buf, argv);
		_exit(127);
	}
	strbuf_release(&path);
	return pid;
}

/* Waits up to 20 s for pid; its wait status. */
static int finish(pid_t pid)
{
	int st;
	for (int i = 0; i < 2000; i++) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return st;
		cr_assert_neq(r, -1, "waitpid: %s", strerror(errno));
		pause_ms(10);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	cr_assert_fail("the tool did not end within 20 s");
	return st;
}

/* Waits up to 10 s for dir/name to exist and hold a line. */
static char *await(const char *dir, const char *name)
{
	for (int i = 0; i < 1000; i++) {
		char *s = get(dir, name);
		if (strchr(s, '\n'))
			return s;
		free(s);
		pause_ms(10);
	}
	cr_assert_fail("%s/%s did not appear within 10 s", dir, name);
	return NULL;
}

static const char timing_lines[] = "[2024-05-01 10:00:00] [TIMING] model load: 12.5s\n"
				   "[2024-05-01 10:00:01] [STAGE] training\n"
				   "[2024-05-01 10:00:09] [TIMING] epoch 1: 8.25s\n";

/*
 * tprof-parse -o reads a FIFO that stays open, has parsed and written its
 * first records, and is then stopped by sig: the old file stays, alone.
 */
static void kill_parse_midway(int sig)
{
	char *d = scratch();
	put(d, "out.ndjson", "old\n", 0644);
	struct strbuf fifo = STRBUF_INIT, out = STRBUF_INIT;
	strbuf_addf(&fifo, "%s/in.log", d);
	strbuf_addf(&out, "%s/out.ndjson", d);
	cr_assert_eq(mkfifo(fifo.buf, 0600), 0);
	char *argv[] = { "tprof-parse", "-o", out.buf, fifo.buf, NULL };
	pid_t pid = start(NULL, argv);
	int w = open(fifo.buf, O_WRONLY); /* waits for the tool to open it */
	cr_assert_geq(w, 0);
	cr_assert_eq(write(w, timing_lines, sizeof(timing_lines) - 1), (ssize_t)sizeof(timing_lines) - 1);
	pause_ms(300);
	cr_assert_eq(kill(pid, sig), 0);
	int st = finish(pid);
	close(w);
	cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == sig, "status %#x", st);
	char *ls = listing(d), *old = get(d, "out.ndjson");
	cr_expect_str_eq(ls, "in.log\nout.ndjson\n", "signal %d left: %s", sig, ls);
	cr_expect_str_eq(old, "old\n");
	free(ls);
	free(old);
	strbuf_release(&fifo);
	strbuf_release(&out);
	rmtree(d);
}

Test(outputs, a_killed_parse_leaves_the_old_file_and_nothing_else, .timeout = 60)
{
	kill_parse_midway(SIGKILL);
	kill_parse_midway(SIGTERM);
	kill_parse_midway(SIGINT);
}

Test(outputs, a_finished_parse_replaces_the_file_with_its_mode, .timeout = 30)
{
	char *d = scratch();
	put(d, "in.log", timing_lines, 0644);
	put(d, "out.ndjson", "old\n", 0644);
	mode_t um = umask(022);
	struct tu_result r = tu_run("cd '%s' && $B/tprof-parse -o out.ndjson in.log && stat -c %%a out.ndjson && ls -A",
				    d);
	umask(um);
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert_str_eq(r.out.buf, "644\nin.log\nout.ndjson\n");
	char *out = get(d, "out.ndjson");
	cr_assert(strstr(out, "\"name\":\"model load\""), "%s", out);
	cr_assert(strstr(out, "\"seconds\":8.25"), "%s", out);
	cr_assert_eq(strstr(out, "old"), NULL);
	free(out);
	tu_result_free(&r);
	rmtree(d);
}

/*
 * A chart is being drawn by a gnuplot that hangs (a script that records
 * its pid and sleeps) when sig arrives: the tool dies of sig, gnuplot is
 * gone, $TMPDIR is empty, the previous output is untouched.
 */
static void interrupt_drawing(const char *tool, int sig)
{
	char *d = scratch();
	struct strbuf td = STRBUF_INIT, gpdir = STRBUF_INIT, gp = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf tmpenv = STRBUF_INIT, pathenv = STRBUF_INIT;
	strbuf_addf(&td, "%s/tmp", d);
	strbuf_addf(&gpdir, "%s/bin", d);
	cr_assert_eq(mkdir(td.buf, 0700), 0);
	cr_assert_eq(mkdir(gpdir.buf, 0700), 0);
	strbuf_addf(&gp, "#!/bin/sh\necho $$ > '%s/gnuplot.pid'\nexec sleep 60\n", d);
	put(gpdir.buf, "gnuplot", gp.buf, 0755);
	strbuf_reset(&gp);
	strbuf_addf(&gp, "%s/gnuplot", gpdir.buf);
	strbuf_addf(&tmpenv, "TMPDIR=%s", td.buf);
	strbuf_addf(&pathenv, "PATH=%s:%s", gpdir.buf, getenv("PATH"));
	char *env[] = { tmpenv.buf, pathenv.buf, NULL };
	pid_t pid;
	if (!strcmp(tool, "tprof-plot")) {
		strbuf_addf(&out, "%s/stages.png", d);
		put(d, "stages.png", "old chart\n", 0644);
		char *argv[] = { "tprof-plot", "-q", "--stages", "--gnuplot", gp.buf, "-o", out.buf,
				 "samples/graph-llava-pretrain.log", NULL };
		pid = start(env, argv);
	} else { /* the HTML report's charts, gnuplot from PATH */
		strbuf_addf(&out, "%s/report.html", d);
		put(d, "report.html", "old report\n", 0644);
		char *argv[] = { "tprof-analyze", "-q", "-o", out.buf, "samples/graph-llava-pretrain.log", NULL };
		pid = start(env, argv);
	}
	char *gpid_s = await(d, "gnuplot.pid");
	pid_t gpid = (pid_t)atoi(gpid_s);
	cr_assert_gt(gpid, 0);
	cr_assert_eq(kill(gpid, 0), 0, "gnuplot runs");
	cr_assert_eq(kill(pid, sig), 0);
	int st = finish(pid);
	cr_expect(WIFSIGNALED(st) && WTERMSIG(st) == sig, "%s, signal %d: status %#x", tool, sig, st);
	cr_expect(kill(gpid, 0) == -1 && errno == ESRCH, "%s, signal %d: gnuplot %d is still there", tool, sig,
		  (int)gpid);
	if (kill(gpid, 0) == 0)
		kill(gpid, SIGKILL);
	char *left = listing(td.buf);
	cr_expect_str_eq(left, "", "%s, signal %d: $TMPDIR holds %s", tool, sig, left);
	char *old = get(d, strrchr(out.buf, '/') + 1);
	cr_expect(!strncmp(old, "old ", 4), "%s, signal %d: the output was replaced", tool, sig);
	free(left);
	free(old);
	free(gpid_s);
	strbuf_release(&td);
	strbuf_release(&tmpenv);
	strbuf_release(&pathenv);
	strbuf_release(&out);
	strbuf_release(&gp);
	strbuf_release(&gpdir);
	rmtree(d);
}

Test(outputs, an_interrupted_chart_stops_gnuplot_and_cleans_up, .timeout = 90)
{
	interrupt_drawing("tprof-plot", SIGINT);
	interrupt_drawing("tprof-plot", SIGTERM);
	interrupt_drawing("tprof-plot", SIGHUP);
	interrupt_drawing("tprof-analyze", SIGINT);
	interrupt_drawing("tprof-analyze", SIGTERM);
}

/* ---- outputs that are not plain files --------------------------------- */

/*
 * A FIFO, a shell's >(...) and a link keep what they are: the FIFO's
 * reader and the process substitution get the records, the link still
 * points at its file, which holds them; a directory is an error.
 */
Test(outputs, fifos_pipes_and_links_are_written_through, .timeout = 60)
{
	char *d = scratch();
	put(d, "in.log", timing_lines, 0644);
	put(d, "real.ndjson", "old\n", 0644);
	struct tu_result r = tu_run("cd '%s' && mkfifo fifo && ln -s real.ndjson link.ndjson && "
				    "{ timeout 10 cat fifo > got & } && "
				    "$B/tprof-parse -o fifo in.log && wait && "
				    "$B/tprof-parse -o link.ndjson in.log && "
				    "bash -c \"$B/tprof-parse -f csv -o >(wc -l > lines) in.log\" && sleep 0.2 && "
				    "stat -c '%%n %%F' fifo link.ndjson real.ndjson && cat lines && wc -l < got",
				    d);
	cr_assert_eq(r.status, 0, "%s", r.err.buf);
	cr_assert_str_eq(r.out.buf, "fifo fifo\nlink.ndjson symbolic link\nreal.ndjson regular file\n"
				    "4\n"  /* a header and three records */
				    "3\n", /* three records */
			 "%s", r.out.buf);
	char *real = get(d, "real.ndjson");
	cr_assert(strstr(real, "\"name\":\"model load\",\"seconds\":12.5"), "%s", real);
	free(real);
	tu_result_free(&r);
	r = tu_run("$B/tprof-parse -o '%s' '%s/in.log'", d, d);
	cr_assert_eq(r.status, 3);
	cr_assert(strstr(r.err.buf, ": cannot create: Is a directory"), "%s", r.err.buf);
	tu_result_free(&r);
	rmtree(d);
}

/*
 * A name that cannot be made fails before any input is read (here a FIFO
 * without a writer, which would block the tool), not after all the work.
 */
Test(outputs, a_bad_output_name_fails_at_once, .timeout = 60)
{
	char *d = scratch();
	struct strbuf longname = STRBUF_INIT;
	for (int i = 0; i < 250; i++)
		strbuf_addch(&longname, 'a');
	struct tu_result r = tu_run("cd '%s' && mkfifo idle && timeout 10 $B/tprof-parse -o '' idle; echo $?; "
				    "timeout 10 $B/tprof-parse -o %s idle; echo $?; ls -A",
				    d, longname.buf);
	cr_assert_str_eq(r.out.buf, "3\n3\nidle\n", "%s", r.err.buf);
	cr_assert(strstr(r.err.buf, "tprof-parse: '': cannot create: No such file or directory\n"), "%s", r.err.buf);
	cr_assert(strstr(r.err.buf, "aaaa: cannot create: File name too long\n"), "%s", r.err.buf);
	tu_result_free(&r);
	strbuf_release(&longname);
	rmtree(d);
}
