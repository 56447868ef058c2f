/*
 * text.c - span helpers shared by every layer (see text.h).
 */
#include "text.h"

#include <string.h>

const char *trim_end(const char *s, const char *e)
{
	while (e > s && tp_is_blank(e[-1]))
		e--;
	return e;
}

const char *find_byte(const char *s, const char *e, char c)
{
	return s < e ? memchr(s, c, (size_t)(e - s)) : NULL;
}

/* memchr on the first byte then memcmp: for the short needles used here
 * this beats glibc's two-way memmem several times over. */
const char *find_str(const char *s, const char *e, const char *lit)
{
	size_t n = strlen(lit);
	if (n == 0)
		return s;
	while (s < e && (size_t)(e - s) >= n) {
		const char *q = memchr(s, lit[0], (size_t)(e - s) - n + 1);
		if (!q)
			return NULL;
		if (!memcmp(q + 1, lit + 1, n - 1))
			return q;
		s = q + 1;
	}
	return NULL;
}

int tp_ends_with(const char *s, const char *e, const char *lit)
{
	size_t n = strlen(lit);
	return (size_t)(e - s) >= n && !memcmp(e - n, lit, n);
}

int is_separator_line(const char *t, const char *e, char c)
{
	e = trim_end(t, e);
	if (e - t < 3)
		return 0;
	for (const char *q = t; q < e; q++)
		if (*q != c)
			return 0;
	return 1;
}
