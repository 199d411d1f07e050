// SPDX-License-Identifier: GPL-2.0
/* Route entries (routew.h): every write of rd_routes4/6 goes through here. */
#include <errno.h>
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
static void gen_bump(__u32 *gen)
{
	__atomic_fetch_add(gen, 1, __ATOMIC_SEQ_CST);
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
