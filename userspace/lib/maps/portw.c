// SPDX-License-Identifier: GPL-2.0
/*
 * Egress port entries (portw.h): every write of rd_port_cfg and
 * rd_tx_ports goes through here, under the writers' lock the caller holds.
 */
#include <errno.h>
#include <stdio.h>
#include <bpf/bpf.h>

#include "portw.h"

int rd_portw_cfg(int fd, __u32 ifindex, const struct rocedp_port_cfg *pc)
{
	if (ifindex >= ROCEDP_PORT_SLOTS)
		return -E2BIG;
	return bpf_map_update_elem(fd, &ifindex, pc, BPF_ANY) ? -errno : 0;
}

int rd_portw_tx(int fd, __u32 ifindex, const struct bpf_devmap_val *v)
{
	if (v)
		return bpf_map_update_elem(fd, &ifindex, v, BPF_ANY) ? -errno :
								       0;
	return bpf_map_delete_elem(fd, &ifindex) && errno != ENOENT ? -errno :
								      0;
}

int rd_portw_ensure(int tx_ports, int port_cfg, __u32 ifindex, uint64_t *writes,
		    char *what, size_t len)
{
	struct bpf_devmap_val want = { .ifindex = ifindex }, have;
	struct rocedp_port_cfg pc;
	int err;

	if (tx_ports >= 0 && (bpf_map_lookup_elem(tx_ports, &ifindex, &have) ||
			      have.ifindex != ifindex || have.bpf_prog.id)) {
		/* no program: XDP decides ECN in the ingress program */
		want.bpf_prog.fd = -1;
		err = rd_portw_tx(tx_ports, ifindex, &want);
		if (err) {
			snprintf(what, len, "rd_tx_ports ifindex %u", ifindex);
			return err;
		}
		(*writes)++;
	}
	/*
	 * Under the lock the check and the write are one step for every other
	 * writer. A port beyond the slots gets no entry: the dataplane counts
	 * its frames as untracked.
	 */
	if (port_cfg >= 0 &&
	    rd_port_cfg_get(port_cfg, ifindex, &pc) == -ENOENT) {
		rd_port_defaults(&pc);
		err = rd_portw_cfg(port_cfg, ifindex, &pc);
		if (err) {
			snprintf(what, len, "rd_port_cfg ifindex %u", ifindex);
			return err;
		}
		(*writes)++;
	}
	return 0;
}
