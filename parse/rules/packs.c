/*
 * packs.c - builds the rule set the tools use (see packs.h): --rules files,
 * the user's rules directory, and the compiled-in format packs.
 */
#include "packs.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

const struct tp_pack *tp_pack_find(const char *name, size_t n)
{
	for (size_t i = 0; i < tp_npacks; i++)
		if (strlen(tp_packs[i].name) == n && !memcmp(tp_packs[i].name, name, n))
			return &tp_packs[i];
	return NULL;
}

int tp_rules_dir(struct strbuf *sb)
{
	const char *x = getenv("XDG_CONFIG_HOME"), *h = getenv("HOME");
	if (x && *x)
		strbuf_addf(sb, "%s/tprof/rules.d", x);
	else if (h && *h)
		strbuf_addf(sb, "%s/.config/tprof/rules.d", h);
	else
		return 0;
	return 1;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds dir's *.rules files in name order; a missing directory is no error. */
static int add_dir(struct tp_rules *rs, const char *dir, struct strbuf *err)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	char **names = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t k = strlen(e->d_name);
		if (k > 6 && e->d_name[0] != '.' && !strcmp(e->d_name + k - 6, ".rules")) {
			ALLOC_GROW(names, n + 1, alloc);
			names[n++] = xstrdup(e->d_name);
		}
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	int rc = 0;
	struct strbuf path = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, names[i]);
		if (!rc && tp_rules_add_file(rs, path.buf, err) < 0)
			rc = -1;
		free(names[i]);
	}
	free(names);
	strbuf_release(&path);
	return rc;
}

static int add_pack(struct tp_rules *rs, const struct tp_pack *pk, struct strbuf *err)
{
	return tp_rules_add(rs, pk->text, strlen(pk->text), pk->source, 1, err);
}

/* The packs named in list (comma-separated), in the order given. */
static int add_packs(struct tp_rules *rs, const char *list, struct strbuf *err)
{
	if (!list) {
		for (size_t i = 0; i < tp_npacks; i++)
			if (add_pack(rs, &tp_packs[i], err) < 0)
				return -1;
		return 0;
	}
	for (const char *p = list; *p;) {
		const char *c = strchr(p, ',');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		const struct tp_pack *pk = n ? tp_pack_find(p, n) : NULL;
		if (n && !pk) {
			strbuf_addf(err, "unknown format '%.*s' (see --list-formats)", (int)n, p);
			return -1;
		}
		if (pk && add_pack(rs, pk, err) < 0)
			return -1;
		p += n + (c ? 1 : 0);
	}
	return 0;
}

int tp_rules_setup(const struct tp_rules_opts *o, struct tp_rules **out, struct strbuf *err)
{
	struct tp_rules *rs = tp_rules_new();
	int rc = 0;
	*out = NULL;
	tp_rules_defer(rs, 1);
	for (size_t i = 0; i < o->nfiles && !rc; i++)
		rc = tp_rules_add_file(rs, o->files[i], err);
	if (!rc && o->rules_dir) {
		struct strbuf dir = STRBUF_INIT;
		if (tp_rules_dir(&dir))
			rc = add_dir(rs, dir.buf, err);
		strbuf_release(&dir);
	}
	if (!rc)
		rc = add_packs(rs, o->formats, err);
	if (rc < 0 || !tp_rules_count(rs)) {
		tp_rules_free(rs);
		return rc;
	}
	tp_rules_defer(rs, 0);
	*out = rs;
	return 0;
}
