/*
 * text.h - the character and span helpers every layer shares. A span is
 * [s, e): the parsers work on pieces of a line without copying or NUL
 * terminating them. One definition each, so "a digit" or "a word
 * character" means the same thing in the line readers, the rules and the
 * number readers.
 */
#ifndef TPROF_BASE_TEXT_H
#define TPROF_BASE_TEXT_H

#include <stddef.h>

static inline int tp_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline char tp_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static inline int tp_is_alpha(char c)
{
	c = tp_lower(c);
	return c >= 'a' && c <= 'z';
}

/* [A-Za-z0-9_] */
static inline int tp_is_word(char c)
{
	return tp_is_digit(c) || tp_is_alpha(c) || c == '_';
}

/* A blank: space or tab (not a line end). */
static inline int tp_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* e less any trailing blanks and tabs. */
const char *trim_end(const char *s, const char *e);
/* The first c in [s, e), or NULL. */
const char *find_byte(const char *s, const char *e, char c);
/* The first lit in [s, e), or NULL. */
const char *find_str(const char *s, const char *e, const char *lit);
/* [s, e) ends with lit. */
int tp_ends_with(const char *s, const char *e, const char *lit);
/* A line of at least 3 c's and nothing else but blanks. */
int is_separator_line(const char *t, const char *e, char c);

#endif
