// SPDX-License-Identifier: GPL-2.0
/*
 * The FIB model's tables: a chained hash table (doubling, never shrinking)
 * keyed by FNV-1a, and the prefix entries in it with their dirty list.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "rocedp.h"
#include "group_tab.h"
#include "routew.h"

uint64_t rd_fnv1a(uint64_t h, const void *p, size_t len)
{
	const uint8_t *s = p;

	while (len--) {
		h ^= *s++;
		h *= 0x100000001b3ull;
	}
	return h;
}

int rd_ht_init(struct rd_ht *t, size_t buckets)
{
	t->b = calloc(buckets, sizeof(*t->b));
	if (!t->b)
		return -ENOMEM;
	t->mask = buckets - 1;
	t->n = 0;
	return 0;
}

static void ht_grow(struct rd_ht *t)
{
	size_t nb = (t->mask + 1) * 2, i;
	struct rd_ht_node **b = calloc(nb, sizeof(*b));

	if (!b)
		return; /* stay slower but correct */
	for (i = 0; i <= t->mask; i++) {
		struct rd_ht_node *e = t->b[i], *next;

		for (; e; e = next) {
			next = e->next;
			e->next = b[e->hash & (nb - 1)];
			b[e->hash & (nb - 1)] = e;
		}
	}
	free(t->b);
	t->b = b;
	t->mask = nb - 1;
}

void rd_ht_add(struct rd_ht *t, struct rd_ht_node *e, uint64_t hash)
{
	if (t->n > t->mask)
		ht_grow(t);
	e->hash = hash;
	e->next = t->b[hash & t->mask];
	t->b[hash & t->mask] = e;
	t->n++;
}

void rd_ht_del(struct rd_ht *t, struct rd_ht_node *e)
{
	struct rd_ht_node **pp = &t->b[e->hash & t->mask];

	for (; *pp; pp = &(*pp)->next) {
		if (*pp == e) {
			*pp = e->next;
			t->n--;
			return;
		}
	}
}

void rd_fib_log_error(struct rd_fib *f, const char *what, int err)
{
	f->errors_logged++;
	if (!f->first_err)
		f->first_err = err;
	if (f->errors_logged <= 20 || !(f->errors_logged % 1000))
		rd_err(f->obj, "%s: %s (error #%llu)", what, strerror(-err),
		       (unsigned long long)f->errors_logged);
}

struct rd_fprefix *rd_fib_prefix_find(struct rd_fib *f, uint8_t family,
				      uint8_t plen, const void *addr,
				      bool create)
{
	uint8_t key[18] = { family, plen };
	struct rd_ht_node *e;
	struct rd_fprefix *p;
	uint64_t h;

	memcpy(key + 2, addr, family == AF_INET6 ? 16 : 4);
	rd_prefix_mask(key + 2, family, plen);
	h = rd_fnv1a(RD_FNV_INIT, key, sizeof(key));
	for (e = f->prefixes.b[h & f->prefixes.mask]; e; e = e->next) {
		p = (struct rd_fprefix *)e;
		if (e->hash == h && p->family == family && p->plen == plen &&
		    !memcmp(p->addr, key + 2, 16))
			return p;
	}
	if (!create)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->family = family;
	p->plen = plen;
	memcpy(p->addr, key + 2, 16);
	rd_ht_add(&f->prefixes, &p->node, h);
	return p;
}

void rd_fib_prefix_dirty(struct rd_fib *f, struct rd_fprefix *p)
{
	if (p->dirty)
		return;
	if (rd_grow((void **)&f->dirty, f->n_dirty, &f->cap_dirty,
		    sizeof(*f->dirty), 256))
		return; /* a full commit still finds it */
	f->dirty[f->n_dirty++] = p;
	p->dirty = true;
}
