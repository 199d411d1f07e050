// SPDX-License-Identifier: GPL-2.0
/*
 * rdbench: the measuring half of `make bench` (tests/harness/bench/bench.sh sets up
 * the namespaces and calls the subcommands; each prints one JSON object).
 *
 *   cost      per-packet cost of rocedp's programs under BPF_PROG_TEST_RUN
 *   mem       memory of every map at the default sizes, per 1M flowlets
 *   src       live-frame traffic source (BPF_F_TEST_XDP_LIVE_FRAMES) that
 *             reads the sink counter before and after; frames over 1500
 *             bytes go out through AF_PACKET
 *   barefwd   attach the bare forwarder natively (the ceiling row)
 *   sink      attach the counting XDP_DROP sink to interfaces
 *   routewait run a command, time until a route is in the pinned LPM map
 *   count     entries of a pinned map
 *   ctrs      forwarding and ECN counters of a pinned rd_stats
 *   flap      link down/up by ioctl, time until the group map follows
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <bpf/libbpf.h>
#include "rocedp.h"
#include "stats.h"
#include "rocedp.skel.h"
#include "rdbench.h"

void die(const char *what, int err)
{
	fprintf(stderr, "rdbench: %s: %s\n", what,
		strerror(err < 0 ? -err : err));
	exit(1);
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int ncpus(void)
{
	int n = libbpf_num_possible_cpus();

	return n > 0 ? n : 1;
}

int get_mac(const char *ifname, __u8 mac[ETH_ALEN])
{
	struct ifreq ifr = {};
	int fd = socket(AF_INET, SOCK_DGRAM, 0), err = 0;

	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr))
		err = -errno;
	else
		memcpy(mac, ifr.ifr_hwaddr.sa_data, ETH_ALEN);
	close(fd);
	return err;
}

int parse_mac(const char *s, __u8 mac[ETH_ALEN])
{
	unsigned int b[6];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4],
		   &b[5]) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		mac[i] = b[i];
	return 0;
}

struct rocedp *rdbench_rocedp_open(void)
{
	struct rocedp *skel = rocedp__open();

	if (!skel)
		die("rocedp__open", errno);
	return skel;
}

/* Every rd_stats counter, summed over all CPUs, into c. */
void ctrs(int fd, __u64 *c)
{
	int err = rd_counters_read(fd, c);

	if (err)
		die("rd_stats lookup", err);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "cost", cmd_cost },
		{ "mem", cmd_mem },
		{ "src", cmd_src },
		{ "sink", cmd_sink },
		{ "sink-read", cmd_sink_read },
		{ "routewait", cmd_routewait },
		{ "count", cmd_count },
		{ "ctrs", cmd_ctrs },
		{ "flap", cmd_flap },
		{ "barefwd", cmd_barefwd },
		{ "fibfwd", cmd_fibfwd },
	};
	unsigned int i;

	if (argc < 2) {
		fprintf(stderr,
			"usage: rdbench cost|mem|src|sink|sink-read|routewait|count|ctrs|flap|barefwd|fibfwd ...\n");
		return 2;
	}
	if (!getenv("RDBENCH_DEBUG"))
		libbpf_set_print(NULL);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "rdbench: unknown command '%s'\n", argv[1]);
	return 2;
}
