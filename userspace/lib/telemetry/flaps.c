// SPDX-License-Identifier: GPL-2.0
/* Link flaps per port: the writer of rd_port_flaps (flaps.h). */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <net/if.h>
#include <bpf/bpf.h>
#include "flaps.h"

#ifndef IFF_LOWER_UP /* <linux/if.h> has it, but clashes with <net/if.h> */
#define IFF_LOWER_UP (1u << 16)
#endif

void rd_flaps_init(struct rd_flaps *f, int map_fd)
{
	memset(f, 0, sizeof(*f));
	f->map_fd = map_fd;
}

uint64_t rd_flaps_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* read, change, write: we are the only writer, the dataplane only reads */
static int flaps_record(struct rd_flaps *f, uint32_t ifindex, bool up,
			uint64_t now_ns)
{
	struct rocedp_port_flaps v;

	if (f->map_fd < 0)
		return 0;
	if (bpf_map_lookup_elem(f->map_fd, &ifindex, &v))
		memset(&v, 0, sizeof(v));
	if (up)
		v.ups++;
	else
		v.downs++;
	v.last_ns[v.n % ROCEDP_FLAP_HISTORY] = now_ns;
	v.n++;
	if (bpf_map_update_elem(f->map_fd, &ifindex, &v, BPF_ANY))
		return -errno;
	return 1;
}

int rd_flaps_link(struct rd_flaps *f, uint32_t ifindex, unsigned int flags,
		  bool deleted, uint64_t now_ns)
{
	struct rocedp_port_flaps zero;
	uint8_t now, was;

	if (!ifindex || ifindex >= ROCEDP_PORT_SLOTS)
		return 0; /* no slot: the dataplane counts it untracked */
	was = f->state[ifindex];
	if (deleted) {
		/* the ifindex may come back as another port: start clean */
		f->state[ifindex] = RD_FLAP_UNKNOWN;
		memset(&zero, 0, sizeof(zero));
		if (f->map_fd >= 0 &&
		    bpf_map_update_elem(f->map_fd, &ifindex, &zero, BPF_ANY))
			return -errno;
		return 0;
	}
	now = (flags & IFF_UP) && (flags & IFF_LOWER_UP) ? RD_FLAP_UP :
							   RD_FLAP_DOWN;
	f->state[ifindex] = now;
	if (was == RD_FLAP_UNKNOWN || was == now)
		return 0;
	return flaps_record(f, ifindex, now == RD_FLAP_UP, now_ns);
}
