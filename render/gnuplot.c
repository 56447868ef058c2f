/*
 * gnuplot.c - the plumbing of the charts (see gnuplot.h): the only ways
 * text reaches a script or a data file, the script preamble, writing the
 * files, running gnuplot with a timeout, and copying its output into place
 * atomically. The charts themselves are in gpcharts.c.
 *
 * While a chart is being drawn, SIGINT, SIGTERM and SIGHUP are held back:
 * one that arrives stops gnuplot (it runs in its own process group, so a
 * Ctrl-C at the terminal does not reach it), the temporary directory is
 * removed, and the signal is then let through to do what it would have
 * done. So an interrupted tool leaves no gnuplot behind and no litter in
 * $TMPDIR, without a signal handler or any global state.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpint.h"
#include "base/base.h"

static const struct {
	const char *name, *what;
	int (*build)(struct gp_job *j);
} charts[GP_NCHARTS] = {
	[GP_STAGES] = { "stages", "each stage's share of the total, as horizontal bars", gp_chart_stages },
	[GP_BATCHES] = { "batches", "batch time per batch, warmup end and outliers marked", gp_chart_batches },
	[GP_GPM] = { "gpm", "GPM pattern generation and total per window, average nodes", gp_chart_gpm },
	[GP_SCALING] = { "scaling", "time against size on log-log axes, fit and expected complexity",
			 gp_chart_scaling },
	[GP_COMPARE] = { "compare", "each item per run as grouped bars, IQR error bars", gp_chart_compare },
	[GP_TIMELINE] = { "timeline", "the stages on the clock, as a Gantt chart", gp_chart_timeline },
	[GP_MEMORY] = { "memory", "CPU and GPU memory per batch", gp_chart_memory },
	[GP_TREND] = { "trend", "one series across stored runs, change points marked", gp_chart_trend },
};

static const char *const term_ext[] = { ".png", ".svg", ".pdf" };

void gp_opts_default(struct gp_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->term = GP_PNG;
	o->width = 1000;
	o->height = 600;
	o->timeout_s = 60;
}

const char *gp_chart_name(enum gp_chart c)
{
	return charts[c].name;
}

const char *gp_chart_what(enum gp_chart c)
{
	return charts[c].what;
}

int gp_chart_lookup(const char *name)
{
	for (int i = 0; i < GP_NCHARTS; i++)
		if (!strcmp(charts[i].name, name))
			return i;
	return -1;
}

const char *gp_term_ext(enum gp_term t)
{
	return term_ext[t];
}

int gp_term_for_path(const char *path)
{
	const char *dot = strrchr(path, '.');
	if (!dot || strchr(dot, '/'))
		return -1;
	for (int i = 0; i < (int)ARRAY_SIZE(term_ext); i++)
		if (!strcasecmp(dot, term_ext[i]))
			return i;
	return -1;
}

/* ---- text ---- */

/* Length of the valid UTF-8 sequence at s (1-4), or 0 if it is not one. */
static size_t utf8_seq(const unsigned char *s)
{
	size_t n;
	unsigned min;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, min = 0x80;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, min = 0x800;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, min = 0x10000;
	else
		return 0;
	unsigned cp = s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

enum { CLEAN_DATA, CLEAN_QUOTE, CLEAN_LOG };

/*
 * Appends s without control bytes (C0, DEL, C1: each becomes a space),
 * invalid UTF-8 as U+FFFD, at most max characters (then an ellipsis). In
 * data mode '"' becomes '\'' (gnuplot reads a quote as a field delimiter);
 * in quote mode '\'' is doubled; log mode keeps newlines.
 */
static void clean_text(struct strbuf *sb, const char *s, size_t max, int mode)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t chars = 0;
	while (*p) {
		if (chars++ == max) {
			strbuf_addstr(sb, "\xe2\x80\xa6");
			return;
		}
		size_t n = utf8_seq(p);
		if (!n) {
			strbuf_addstr(sb, "\xef\xbf\xbd");
			p++;
		} else if (*p == '\n' && mode == CLEAN_LOG) {
			strbuf_addch(sb, '\n');
			p++;
		} else if (*p < 0x20 || *p == 0x7f || (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)) {
			strbuf_addch(sb, ' ');
			p += n;
		} else if (*p == '"' && mode == CLEAN_DATA) {
			strbuf_addch(sb, '\'');
			p++;
		} else if (*p == '\'' && mode == CLEAN_QUOTE) {
			strbuf_addstr(sb, "''");
			p++;
		} else {
			strbuf_add(sb, p, n);
			p += n;
		}
	}
}

void gp_dat_text(struct strbuf *sb, const char *s, size_t max)
{
	size_t before = sb->len;
	clean_text(sb, s ? s : "", max, CLEAN_DATA);
	int blank = 1;
	for (size_t i = before; i < sb->len && blank; i++)
		blank = sb->buf[i] == ' ';
	if (blank) { /* an empty field would shift the columns */
		sb->len = before;
		strbuf_addstr(sb, "-");
	}
	strbuf_addch(sb, '\t');
}

void gp_dat_num(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_addf(sb, "%.10g\t", v);
	else
		strbuf_addstr(sb, "NaN\t");
}

void gp_dat_row(struct strbuf *sb)
{
	if (sb->len && sb->buf[sb->len - 1] == '\t')
		sb->len--;
	strbuf_addch(sb, '\n');
}

void gp_quote(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '\'');
	clean_text(sb, s ? s : "", 200, CLEAN_QUOTE);
	strbuf_addch(sb, '\'');
}

void gp_cmd(struct gp_job *j, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&j->gp, fmt, ap);
	va_end(ap);
	strbuf_addch(&j->gp, '\n');
}

void gp_label_cmd(struct gp_job *j, const char *what, const char *text)
{
	strbuf_addf(&j->gp, "set %s ", what);
	gp_quote(&j->gp, text);
	strbuf_addstr(&j->gp, " noenhanced\n");
}

void gp_title(struct gp_job *j, const char *dflt)
{
	gp_label_cmd(j, "title", j->o->title ? j->o->title : dflt);
}

/* ---- files ---- */

static void path_in(struct strbuf *sb, const char *dir, const char *name)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s/%s", dir, name);
}

static int write_file(struct gp_job *j, const char *name, const struct strbuf *content)
{
	struct strbuf path = STRBUF_INIT, e = STRBUF_INIT;
	struct outfile of;
	int rc = 0;
	path_in(&path, j->dir, name);
	if (outfile_open(&of, path.buf, &e) < 0) {
		strbuf_addstr(j->err, e.buf);
		rc = -1;
	} else {
		outfile_write(&of, content->buf ? content->buf : "", content->len);
		int werr = outfile_close(&of);
		if (werr) {
			strbuf_addf(j->err, "%s: cannot write: %s", path.buf, strerror(werr));
			rc = -1;
		}
	}
	strbuf_release(&path);
	strbuf_release(&e);
	return rc;
}

void gp_data_file(struct gp_job *j, const struct strbuf *content, char *name, size_t size)
{
	snprintf(name, size, "%s-d%d.dat", j->chart, j->ndata++);
	if (j->dir && !j->failed && write_file(j, name, content) < 0)
		j->failed = 1;
}

static void preamble(struct gp_job *j, enum gp_chart c)
{
	const struct gp_opts *o = j->o;
	gp_cmd(j, "# %s.gp - tprof chart '%s': %s.", j->chart, j->chart, charts[c].what);
	gp_cmd(j, "# Its data is in %s-d*.dat (tab-separated): text from the logs is only there.", j->chart);
	gp_cmd(j, "# Draw it again with: gnuplot -d %s.gp", j->chart);
	if (o->term == GP_SVG)
		gp_cmd(j, "set terminal svg size %d,%d standalone noenhanced font 'Sans,12' background rgb 'white'",
		       o->width, o->height);
	else if (o->term == GP_PDF)
		gp_cmd(j, "set terminal pdfcairo size %.2fin,%.2fin noenhanced font 'Sans,9'", o->width / 96.0,
		       o->height / 96.0);
	else
		gp_cmd(j, "set terminal pngcairo size %d,%d noenhanced font 'Sans,10' background rgb 'white'",
		       o->width, o->height);
	gp_cmd(j, "set output '%s%s'", j->chart, term_ext[o->term]);
	gp_cmd(j, "set encoding utf8\nset termoption noenhanced");
	gp_cmd(j, "set datafile separator tab\nset datafile missing 'NaN'\nset datafile commentschars '#'");
	gp_cmd(j, "set key noenhanced\nset grid back lc rgb '#dddddd'\nset border lc rgb '#404040'");
	static const char *const colors[] = { "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd",
					      "#8c564b", "#e377c2", "#17becf", "#7f7f7f" };
	for (size_t i = 0; i < ARRAY_SIZE(colors); i++)
		gp_cmd(j, "set linetype %zu lc rgb '%s' lw 1.5 pt 7 ps 0.6", i + 1, colors[i]);
	gp_cmd(j, "set linetype cycle %zu", ARRAY_SIZE(colors));
}

static void job_init(struct gp_job *j, const struct report *rep, enum gp_chart c, const struct gp_opts *o,
		     const char *dir, struct strbuf *err)
{
	memset(j, 0, sizeof(*j));
	j->rep = rep;
	j->o = o;
	j->dir = dir;
	j->chart = charts[c].name;
	j->err = err;
}

int gp_has_data(const struct report *rep, enum gp_chart c, const struct gp_opts *o)
{
	struct gp_job j;
	struct strbuf err = STRBUF_INIT;
	job_init(&j, rep, c, o, NULL, &err);
	int rc = charts[c].build(&j);
	strbuf_release(&j.gp);
	strbuf_release(&err);
	return rc == 0;
}

enum gp_status gp_write_script(const struct report *rep, enum gp_chart c, const struct gp_opts *o,
			       const char *dir, struct strbuf *err)
{
	struct gp_job j;
	job_init(&j, rep, c, o, dir, err);
	preamble(&j, c);
	int rc = charts[c].build(&j);
	if (rc == 0 && !j.failed) {
		gp_cmd(&j, "unset output");
		char name[64];
		snprintf(name, sizeof(name), "%s.gp", j.chart);
		if (write_file(&j, name, &j.gp) < 0)
			j.failed = 1;
	}
	strbuf_release(&j.gp);
	if (rc)
		return GP_NODATA;
	return j.failed ? GP_ESCRIPT : GP_OK;
}

/* ---- running gnuplot ---- */

static int read_all(const char *path, struct strbuf *sb)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char buf[65536];
	ssize_t n;
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return -1;
		}
		strbuf_add(sb, buf, (size_t)n);
	}
	close(fd);
	return 0;
}

/* The last lines gnuplot printed, for the error message. */
static void log_tail(const char *dir, const char *chart, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, log = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s.log", dir, chart);
	if (read_all(path.buf, &log) == 0 && log.len) {
		size_t start = log.len > 600 ? log.len - 600 : 0;
		strbuf_addstr(err, ":\n");
		clean_text(err, log.buf + start, 600, CLEAN_LOG);
	}
	strbuf_release(&path);
	strbuf_release(&log);
}

/* The signals that stop a tool and that drawing holds back. */
static void stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

static void hold_stop_signals(sigset_t *old)
{
	sigset_t set;
	stop_signals(&set);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

/* Lets a held signal through: if one came, it acts now. */
static void release_stop_signals(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* Child side: never returns. */
static void exec_gnuplot(const char *prog, const char *dir, const char *script, int devnull, int logfd, int errpipe)
{
	char *argv[] = { (char *)prog, (char *)"-d", (char *)script, NULL };
	sigset_t set;
	stop_signals(&set);
	sigprocmask(SIG_UNBLOCK, &set, NULL); /* the mask survives exec */
	setpgid(0, 0);
	if (dup2(devnull, 0) < 0 || dup2(logfd, 1) < 0 || dup2(logfd, 2) < 0 || chdir(dir) < 0) {
		int e = errno;
		(void)!write(errpipe, &e, sizeof(e));
		_exit(126);
	}
	execvp(prog, argv);
	int e = errno;
	(void)!write(errpipe, &e, sizeof(e));
	_exit(127);
}

static void kill_and_reap(pid_t pid, int *status)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

/*
 * Waits for pid up to timeout_s; kills its process group after that (1)
 * or when a held stop signal arrives (2: *sig is the signal, pending
 * again, to act when released). 0 when it ended, -1 on error.
 */
static int wait_timeout(pid_t pid, int timeout_s, int *status, int *sig)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	sigset_t stop;
	stop_signals(&stop);
	for (long waited_ms = 0;; waited_ms += 10) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
		if (waited_ms >= (long)timeout_s * 1000) {
			kill_and_reap(pid, status);
			return 1;
		}
		/* sleeps one tick, or less if a held signal comes */
		int got = sigtimedwait(&stop, NULL, &tick);
		if (got > 0) {
			kill_and_reap(pid, status);
			*sig = got;
			raise(got);
			return 2;
		}
	}
}

static enum gp_status spawn_failed(const char *prog, int e, struct strbuf *err)
{
	strbuf_addf(err, "cannot run '%s': %s", prog, strerror(e));
	if (e == ENOENT || e == EACCES || e == ENOTDIR) {
		strbuf_addstr(err, "; " GP_INSTALL_HINT);
		return GP_NOGNUPLOT;
	}
	return GP_FAILED;
}

/* After the child was started: did it run to a good end? */
static enum gp_status reap(const struct gp_opts *o, const char *prog, pid_t pid, const char *dir,
			   const char *chart, struct strbuf *err)
{
	int status = 0, sig = 0, timeout = o->timeout_s > 0 ? o->timeout_s : 60;
	int w = wait_timeout(pid, timeout, &status, &sig);
	if (w < 0) {
		strbuf_addf(err, "waiting for %s: %s", prog, strerror(errno));
		return GP_FAILED;
	}
	if (w == 2) {
		strbuf_addf(err, "interrupted by signal %d; %s was stopped", sig, prog);
		return GP_FAILED;
	}
	if (w > 0) {
		strbuf_addf(err, "%s did not finish %s.gp within %d s and was killed", prog, chart, timeout);
		return GP_FAILED;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return GP_OK;
	if (WIFEXITED(status))
		strbuf_addf(err, "%s failed on %s/%s.gp (exit %d)", prog, dir, chart, WEXITSTATUS(status));
	else
		strbuf_addf(err, "%s was killed by signal %d on %s/%s.gp", prog, WTERMSIG(status), dir, chart);
	log_tail(dir, chart, err);
	return GP_FAILED;
}

enum gp_status gp_run(const struct gp_opts *o, enum gp_chart c, const char *dir, struct strbuf *err)
{
	const char *prog = o->gnuplot ? o->gnuplot : "gnuplot";
	const char *chart = charts[c].name;
	char script[64];
	struct strbuf logp = STRBUF_INIT;
	int pfd[2], e = 0;
	snprintf(script, sizeof(script), "%s.gp", chart);
	strbuf_addf(&logp, "%s/%s.log", dir, chart);
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int logfd = open(logp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	strbuf_release(&logp);
	if (devnull < 0 || logfd < 0 || pipe2(pfd, O_CLOEXEC) < 0) {
		e = errno;
		if (devnull >= 0)
			close(devnull);
		if (logfd >= 0)
			close(logfd);
		strbuf_addf(err, "cannot prepare to run %s in %s: %s", prog, dir, strerror(e));
		return GP_ESCRIPT;
	}
	pid_t pid = fork();
	if (pid == 0)
		exec_gnuplot(prog, dir, script, devnull, logfd, pfd[1]);
	close(devnull);
	close(logfd);
	close(pfd[1]);
	if (pid < 0) {
		e = errno;
		close(pfd[0]);
		strbuf_addf(err, "cannot start %s: %s", prog, strerror(e));
		return GP_FAILED;
	}
	ssize_t n;
	while ((n = read(pfd[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(pfd[0]);
	if (n == (ssize_t)sizeof(e)) { /* exec failed: the child exits at once */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		return spawn_failed(prog, e, err);
	}
	return reap(o, prog, pid, dir, chart, err);
}

/* ---- directories ---- */

static int ensure_dir(const char *dir, struct strbuf *err)
{
	struct stat st;
	if (mkdir(dir, 0777) == 0)
		return 0;
	if (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	strbuf_addf(err, "%s: cannot create the script directory: %s", dir, strerror(errno == EEXIST ? ENOTDIR : errno));
	return -1;
}

static char *make_tmpdir(struct strbuf *err)
{
	const char *tmp = getenv("TMPDIR");
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s/tprof-plot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(sb.buf)) {
		strbuf_addf(err, "cannot create a temporary directory (%s): %s", sb.buf, strerror(errno));
		strbuf_release(&sb);
		return NULL;
	}
	return sb.buf;
}

/* Removes a temporary directory made by make_tmpdir and the files in it. */
static void remove_tmpdir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct strbuf p = STRBUF_INIT;
	if (d) {
		while ((de = readdir(d))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			path_in(&p, dir, de->d_name);
			unlink(p.buf);
		}
		closedir(d);
	}
	rmdir(dir);
	strbuf_release(&p);
}

/* Reads the chart gnuplot drew in dir. */
static enum gp_status read_chart(const struct gp_opts *o, enum gp_chart c, const char *dir, struct strbuf *out,
				 struct strbuf *err)
{
	struct strbuf p = STRBUF_INIT;
	strbuf_addf(&p, "%s/%s%s", dir, charts[c].name, term_ext[o->term]);
	enum gp_status st = GP_OK;
	if (read_all(p.buf, out) < 0 || !out->len) {
		strbuf_addf(err, "gnuplot wrote no chart (%s)", p.buf);
		log_tail(dir, charts[c].name, err);
		st = GP_FAILED;
	}
	strbuf_release(&p);
	return st;
}

/* Script, gnuplot, chart read back: the common part of gp_plot_file and gp_plot_buf. */
static enum gp_status draw(const struct report *rep, enum gp_chart c, const struct gp_opts *o, const char *dir,
			   struct strbuf *out, struct strbuf *err)
{
	enum gp_status st = gp_write_script(rep, c, o, dir, err);
	if (st == GP_NODATA)
		strbuf_addf(err, "no data for the %s chart in the input", charts[c].name);
	if (st == GP_OK)
		st = gp_run(o, c, dir, err);
	if (st == GP_OK)
		st = read_chart(o, c, dir, out, err);
	return st;
}

static enum gp_status write_output(const char *output, const struct strbuf *chart, struct strbuf *err)
{
	struct outfile of;
	if (outfile_open(&of, output, err) < 0)
		return GP_EOUTPUT;
	outfile_write(&of, chart->buf, chart->len);
	int werr = outfile_close(&of);
	if (werr) {
		strbuf_addf(err, "%s: cannot write: %s", output, strerror(werr));
		return GP_EOUTPUT;
	}
	return GP_OK;
}

enum gp_status gp_plot_file(const struct report *rep, enum gp_chart c, const struct gp_opts *o,
			    const char *output, const char *script_dir, struct strbuf *err)
{
	struct strbuf chart = STRBUF_INIT;
	char *dir = NULL;
	enum gp_status st;
	sigset_t old;
	hold_stop_signals(&old);
	if (script_dir)
		st = ensure_dir(script_dir, err) < 0 ? GP_ESCRIPT : GP_OK;
	else
		st = (dir = make_tmpdir(err)) ? GP_OK : GP_ESCRIPT;
	if (st == GP_OK)
		st = draw(rep, c, o, script_dir ? script_dir : dir, &chart, err);
	if ((st == GP_NOGNUPLOT || st == GP_FAILED) && !script_dir)
		strbuf_addstr(err, "\n(--script DIR keeps the script and its data)");
	if (dir) {
		remove_tmpdir(dir);
		free(dir);
	}
	/* the chart is in memory: writing it (maybe to a FIFO that waits for
	 * a reader) must not hold signals back */
	release_stop_signals(&old);
	if (st == GP_OK)
		st = write_output(output, &chart, err);
	strbuf_release(&chart);
	return st;
}

enum gp_status gp_plot_buf(const struct report *rep, enum gp_chart c, const struct gp_opts *o,
			   struct strbuf *out, struct strbuf *err)
{
	sigset_t old;
	hold_stop_signals(&old);
	char *dir = make_tmpdir(err);
	enum gp_status st = GP_ESCRIPT;
	if (dir) {
		st = draw(rep, c, o, dir, out, err);
		remove_tmpdir(dir);
		free(dir);
	}
	release_stop_signals(&old);
	return st;
}
