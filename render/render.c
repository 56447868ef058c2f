/*
 * render.c - the table of renderers and the helpers they share.
 */
#include "render.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* The renderers, each defined in its own file; a new one is a line here
 * and its row below. */
render_fn render_table, render_json, render_csv, render_markdown, render_html;

static const struct renderer renderers[] = {
	{ "table", ".txt", render_table },
	{ "json", ".json", render_json },
	{ "csv", ".csv", render_csv },
	{ "markdown", ".md", render_markdown },
	{ "html", ".html", render_html },
	{ "xlsx", ".xlsx", render_xlsx },
};

const struct renderer *render_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(renderers); i++)
		if (!strcmp(renderers[i].name, name))
			return &renderers[i];
	if (!strcmp(name, "md"))
		return render_find("markdown");
	return NULL;
}

const struct renderer *render_for_path(const char *path)
{
	const char *dot = strrchr(path, '.');
	if (!dot)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(renderers); i++)
		if (!strcasecmp(renderers[i].ext, dot))
			return &renderers[i];
	if (!strcasecmp(dot, ".markdown"))
		return render_find("markdown");
	if (!strcasecmp(dot, ".htm"))
		return render_find("html");
	return NULL;
}

void render_names(struct strbuf *sb)
{
	for (size_t i = 0; i < ARRAY_SIZE(renderers); i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", renderers[i].name);
}

void render_cell_text(const struct rcell *c, struct strbuf *sb)
{
	if (c->kind == RC_TEXT) {
		strbuf_addstr(sb, c->s);
	} else if (c->kind == RC_NUM) {
		if (c->prec < 0)
			strbuf_addf(sb, "%.4g", c->v);
		else
			strbuf_addf(sb, "%.*f", c->prec, c->v);
	}
}

int render_flush(struct outfile *of, struct strbuf *sb, struct strbuf *err)
{
	if (sb->len && outfile_write(of, sb->buf, sb->len) < 0) {
		if (of->err != EPIPE)
			strbuf_addstr(err, strerror(of->err));
		strbuf_reset(sb);
		return -1;
	}
	strbuf_reset(sb);
	return 0;
}

int render_term_width(int fd)
{
	const char *c = getenv("COLUMNS");
	if (c && *c) {
		char *end;
		long v = strtol(c, &end, 10);
		if (!*end && v >= 20 && v <= 10000)
			return (int)v;
	}
	struct winsize ws;
	if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 0;
}
