/*
 * map.c - the string-keyed table (map.h): open addressing over FNV-1a,
 * entries kept in first-seen order so that reports list names as the log
 * printed them.
 */
#include "map.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"


static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

void tp_map_init(struct tp_map *m, size_t item_size)
{
	memset(m, 0, sizeof(*m));
	m->item_size = item_size;
}

static void rehash(struct tp_map *m)
{
	size_t ns = m->nslots ? m->nslots * 2 : 16;
	free(m->slots);
	m->slots = xcalloc(ns, sizeof(*m->slots));
	m->nslots = ns;
	for (size_t i = 0; i < m->n; i++) {
		size_t h = (size_t)hash(m->keys[i], strlen(m->keys[i])) & (ns - 1);
		while (m->slots[h])
			h = (h + 1) & (ns - 1);
		m->slots[h] = i + 1;
	}
}

const void *tp_map_find(const struct tp_map *m, const char *key, size_t n)
{
	if (!m->nslots)
		return NULL;
	size_t h = (size_t)hash(key, n) & (m->nslots - 1);
	while (m->slots[h]) {
		size_t i = m->slots[h] - 1;
		if (strlen(m->keys[i]) == n && !memcmp(m->keys[i], key, n))
			return (char *)m->items + i * m->item_size;
		h = (h + 1) & (m->nslots - 1);
	}
	return NULL;
}

void *tp_map_get(struct tp_map *m, const char *key, size_t n, int *created)
{
	if (created)
		*created = 0;
	const void *found = tp_map_find(m, key, n);
	if (found)
		return (void *)found;
	if ((m->n + 1) * 2 > m->nslots)
		rehash(m);
	if (m->n == m->alloc) {
		m->alloc = m->alloc ? m->alloc * 2 : 8;
		m->keys = xrealloc(m->keys, m->alloc * sizeof(*m->keys));
		m->items = xrealloc(m->items, m->alloc * m->item_size);
	}
	size_t i = m->n++;
	m->keys[i] = xmemdup(key, n);
	void *item = (char *)m->items + i * m->item_size;
	memset(item, 0, m->item_size);
	size_t h = (size_t)hash(key, n) & (m->nslots - 1);
	while (m->slots[h])
		h = (h + 1) & (m->nslots - 1);
	m->slots[h] = i + 1;
	if (created)
		*created = 1;
	return item;
}

void *tp_map_at(const struct tp_map *m, size_t i)
{
	return (char *)m->items + i * m->item_size;
}

const char *tp_map_key(const struct tp_map *m, size_t i)
{
	return m->keys[i];
}

void tp_map_free(struct tp_map *m, void (*free_item)(void *))
{
	for (size_t i = 0; i < m->n; i++) {
		if (free_item)
			free_item(tp_map_at(m, i));
		free(m->keys[i]);
	}
	free(m->keys);
	free(m->slots);
	free(m->items);
	memset(m, 0, sizeof(*m));
}
