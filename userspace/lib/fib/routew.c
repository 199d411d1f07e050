// SPDX-License-Identifier: GPL-2.0
/* Route entries (routew.h): every write of rd_routes4/6 goes through here. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "routew.h"

int rd_routew_gen_map(int fd, __u32 **gen)
{
	void *p;

	*gen = NULL;
	if (fd < 0)
		return -EBADF;
	p = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		 MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	*gen = p;
	return 0;
}

void rd_routew_gen_unmap(__u32 *gen)
{
	if (gen)
		munmap(gen, sysconf(_SC_PAGESIZE));
}

/*
 * After the trie changed, so that a frame that read the old word may have
 * seen either route but files its decision under the old word, and one
 * that reads the new word sees the new route. Atomic: config and sync are
 * separate processes (their writes are serialised by the writers' lock,
 * but an add costs nothing more).
 */
static void gen_step(__u32 *gen, int mark)
{
	__u32 old = __atomic_load_n(gen, __ATOMIC_SEQ_CST), next;

	/* the count moves in the low 31 bits, wrapping there */
	do {
		next = ((old + 1) & ~ROCEDP_ROUTE_GEN_MARK) |
		       (mark < 0 ? old & ROCEDP_ROUTE_GEN_MARK :
			mark	 ? ROCEDP_ROUTE_GEN_MARK :
				   0);
	} while (!__atomic_compare_exchange_n(
		gen, &old, next, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
}

static void gen_bump(__u32 *gen)
{
	gen_step(gen, -1);
}

int rd_routew_mark(__u32 *gen, bool on)
{
	if (!gen)
		return -EBADF;
	gen_step(gen, on);
	return 0;
}

int rd_routew_mark_fd(int fd, bool on)
{
	__u32 *gen;
	int err = rd_routew_gen_map(fd, &gen);

	if (err)
		return err;
	err = rd_routew_mark(gen, on);
	rd_routew_gen_unmap(gen);
	return err;
}

bool rd_routew_marked(const __u32 *gen)
{
	return gen &&
	       (__atomic_load_n(gen, __ATOMIC_SEQ_CST) & ROCEDP_ROUTE_GEN_MARK);
}

int rd_routew_put(int fd, __u32 *gen, const void *key,
		  const struct rocedp_route *v, __u64 flags)
{
	if (!gen)
		return -EBADF;
	if (bpf_map_update_elem(fd, key, v, flags))
		return -errno;
	gen_bump(gen);
	return 0;
}

int rd_routew_del(int fd, __u32 *gen, const void *key)
{
	if (!gen)
		return -EBADF;
	if (bpf_map_delete_elem(fd, key))
		return errno == ENOENT ? 0 : -errno;
	gen_bump(gen);
	return 0;
}

void rd_prefix_mask(uint8_t *addr, uint8_t family, uint8_t plen)
{
	unsigned int bytes = family == AF_INET6 ? 16 : 4, i;

	for (i = 0; i < bytes; i++) {
		if (plen >= 8) {
			plen -= 8;
			continue;
		}
		addr[i] &= (uint8_t)(0xff << (8 - plen));
		plen = 0;
	}
}

int rd_prefix_cmp(uint8_t fa, uint8_t pa, const uint8_t *aa, uint8_t fb,
		  uint8_t pb, const uint8_t *ab)
{
	int c;

	if (fa != fb)
		return fa < fb ? -1 : 1;
	c = memcmp(aa, ab, 16);
	if (c)
		return c;
	return pa < pb ? -1 : pa > pb;
}

int rd_routes_each(int fd, uint8_t family, rd_route_each_fn fn, void *ctx)
{
	union {
		struct rocedp_route4_key k4;
		struct rocedp_route6_key k6;
	} key, next;
	struct rocedp_route val;
	uint8_t addr[16];
	void *prev = NULL;
	int ret;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &val))
			continue; /* deleted meanwhile */
		memset(addr, 0, sizeof(addr));
		if (family == AF_INET)
			memcpy(addr, &key.k4.addr, 4);
		else
			memcpy(addr, key.k6.addr, 16);
		/* a key written with host bits by another tool is the same
		 * prefix to the trie, and so to every reader */
		rd_prefix_mask(addr, family, key.k4.prefixlen);
		ret = fn(family, key.k4.prefixlen, addr, &val, ctx);
		if (ret)
			return ret;
	}
	return errno == ENOENT ? 0 : -errno;
}
