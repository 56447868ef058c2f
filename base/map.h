/*
 * map.h - a string-keyed table of entries of one struct type, the one map
 * of tprof: entries are zeroed when made, kept in first-seen order (index
 * i from 0 to n), and never removed; a pointer to an entry is valid until
 * the next tp_map_get that makes one. Keys are copied.
 */
#ifndef TPROF_BASE_MAP_H
#define TPROF_BASE_MAP_H

#include <stddef.h>

/* A string-keyed table of entries of one struct type (open addressing). */
struct tp_map {
	char **keys;
	size_t *slots;  /* hash slot -> entry index + 1 (0: empty) */
	size_t nslots, n, alloc;
	void *items;    /* n entries of item_size bytes, in first-seen order */
	size_t item_size;
};
void tp_map_init(struct tp_map *m, size_t item_size);
/* The entry for key, created zeroed (and *created set) if absent. */
void *tp_map_get(struct tp_map *m, const char *key, size_t n, int *created);
void *tp_map_at(const struct tp_map *m, size_t i);
/* The entry for key, or NULL: a lookup that creates nothing. */
const void *tp_map_find(const struct tp_map *m, const char *key, size_t n);
const char *tp_map_key(const struct tp_map *m, size_t i);
void tp_map_free(struct tp_map *m, void (*free_item)(void *));

#endif
