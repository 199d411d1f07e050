// SPDX-License-Identifier: GPL-2.0
/*
 * A leaf's probe sender. Userspace, not a BPF timer: the probes leave by
 * AF_PACKET like any frame the host sends, need no program of their own,
 * and a sender that dies takes its probes with it, which the other leaves
 * see as the failure it is (their entries time out).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <sys/socket.h>
#include <bpf/bpf.h>

#include "probesend.h"

int rd_probe_sender_open(struct rd_probe_sender *s)
{
	memset(s, 0, sizeof(*s));
	s->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	return s->fd < 0 ? -errno : 0;
}

void rd_probe_sender_close(struct rd_probe_sender *s)
{
	if (s->fd >= 0)
		close(s->fd);
	free(s->d);
	s->d = NULL;
	s->fd = -1;
}

static int add_group(struct rd_probe_sender *s, size_t *cap,
		     const struct rd_maps *m, __u32 gid, __u32 src4, __u32 dst4)
{
	static struct rocedp_group g;
	unsigned int i;

	if (bpf_map_lookup_elem(m->fd[RD_MAP_GROUPS], &gid, &g))
		return -errno;
	for (i = 0; i < g.n_active && i < ROCEDP_MAX_MEMBERS; i++) {
		const struct rocedp_member *mb;
		struct rd_probe_dest *d;

		if (g.active[i] >= ROCEDP_MAX_MEMBERS)
			continue;
		mb = &g.members[g.active[i]];
		if (rd_grow((void **)&s->d, s->n, cap, sizeof(*s->d), 8))
			return -ENOMEM;
		d = &s->d[s->n++];
		d->ifindex = mb->ifindex;
		memcpy(d->smac, mb->smac, 6);
		memcpy(d->dmac, mb->dmac, 6);
		d->src4 = src4;
		d->dst4 = dst4;
	}
	return 0;
}

int rd_probe_sender_dests(struct rd_probe_sender *s, const struct rd_maps *m,
			  const struct rocedp_probe_cfg *pc, __u32 src4)
{
	struct rocedp_leaf4_key k, next, *prev = NULL;
	struct rocedp_route4_key rk;
	struct rocedp_route r;
	size_t cap = 0;
	__u32 leaf, dst;
	int err = 0;

	free(s->d);
	s->d = NULL;
	s->n = s->n_leaves = 0;
	while (!err &&
	       !bpf_map_get_next_key(m->fd[RD_MAP_LEAF4], prev, &next)) {
		unsigned int before = s->n;

		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(m->fd[RD_MAP_LEAF4], &k, &leaf) ||
		    leaf == pc->leaf_id)
			continue;
		dst = ntohl(k.addr) + (k.prefixlen < 32);
		memset(&rk, 0, sizeof(rk));
		rk.prefixlen = 32;
		rk.addr = htonl(dst);
		if (bpf_map_lookup_elem(m->fd[RD_MAP_ROUTES4], &rk, &r) ||
		    (r.flags & ROCEDP_ROUTEF_LOCAL))
			continue; /* no route yet: next refresh */
		err = add_group(s, &cap, m, r.group_id, src4, dst);
		if (err == -ENOENT)
			err = 0;
		s->n_leaves += s->n > before;
	}
	return err;
}

void rd_probe_sender_round(struct rd_probe_sender *s,
			   const struct rocedp_probe_cfg *pc, __u64 now_ns)
{
	struct sockaddr_ll ll = { .sll_family = AF_PACKET,
				  .sll_protocol = htons(ETH_P_IP),
				  .sll_halen = 6 };
	uint8_t buf[128];
	unsigned int i;
	size_t len;
	__u32 seq;

	/* from the clock (us), so a restarted sender is not a replay */
	seq = (__u32)(now_ns / 1000);
	s->seq = (__s32)(seq - s->seq) > 0 ? seq : s->seq + 1;
	for (i = 0; i < s->n; i++) {
		len = rd_probe_frame(buf, sizeof(buf), pc, &s->d[i], s->seq,
				     now_ns);
		ll.sll_ifindex = s->d[i].ifindex;
		memcpy(ll.sll_addr, s->d[i].dmac, 6);
		if (!len || sendto(s->fd, buf, len, 0, (struct sockaddr *)&ll,
				   sizeof(ll)) != (ssize_t)len) {
			s->errors++;
			continue;
		}
		s->sent++;
		s->bytes += len;
	}
}
