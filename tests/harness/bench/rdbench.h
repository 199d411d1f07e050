/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdbench's shared helpers (rdbench.c) and its commands, one file each:
 * rdbench_cost.c (with rdbench_disp.c), rdbench_mem.c, rdbench_traffic.c (src, sink,
 * sink-read), rdbench_bare.c (barefwd) and rdbench_sync.c (routewait,
 * count, ctrs, flap).
 */
#ifndef RDBENCH_H
#define RDBENCH_H

#include <stdint.h>
#include <linux/if_ether.h>
#include <linux/types.h>

void die(const char *what, int err) __attribute__((noreturn));
uint64_t now_ns(void);
int ncpus(void);
int get_mac(const char *ifname, __u8 mac[ETH_ALEN]);
int parse_mac(const char *s, __u8 mac[ETH_ALEN]);
/*
 * rocedp's object, opened, not loaded (dies on failure). The one caller
 * of the skeleton's open: each file that calls it embeds the whole object.
 */
struct rocedp *rdbench_rocedp_open(void);
/* Every rd_stats counter, summed over all CPUs, into c (dies on error). */
void ctrs(int fd, __u64 *c);

/*
 * libxdp's dispatcher with one slot (rdbench_disp.c): fd, and the slot's
 * extension link, NULL where the kernel refused it (ext_err says why; the
 * dispatcher then calls the slot's stub). 0 or -errno from the load.
 */
struct bpf_object;
struct bpf_link;
struct rd_disp {
	struct bpf_object *obj, *ext_obj;
	struct bpf_link *link;
	int fd;
	int ext_err;
};
int rd_disp_load(struct rd_disp *d);
void rd_disp_close(struct rd_disp *d);

int cmd_cost(int argc, char **argv);
int cmd_mem(int argc, char **argv);
int cmd_src(int argc, char **argv);
int cmd_sink(int argc, char **argv);
int cmd_sink_read(int argc, char **argv);
int cmd_barefwd(int argc, char **argv);
int cmd_fibfwd(int argc, char **argv);
int cmd_routewait(int argc, char **argv);
int cmd_count(int argc, char **argv);
int cmd_ctrs(int argc, char **argv);
int cmd_flap(int argc, char **argv);

#endif
