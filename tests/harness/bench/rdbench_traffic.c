// SPDX-License-Identifier: GPL-2.0
/* rdbench src, sink and sink-read: the throughput section's traffic. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "rocedp.h"
#include "stats.h"
#include "pktgen.skel.h"
#include "rdbench.h"

static uint64_t read_sink(const char *pin)
{
	int fd = bpf_obj_get(pin), err;
	__u32 zero = 0;
	__u64 s;

	if (fd < 0)
		die(pin, errno);
	err = rd_percpu_sum(fd, &zero, &s, 1);
	close(fd);
	if (err)
		die("sink lookup", err);
	return s;
}

int cmd_sink(int argc, char **argv)
{
	struct pktgen *skel;
	int i, fd, idx;

	if (argc < 3) {
		fprintf(stderr, "usage: rdbench sink PIN_PATH IF...\n");
		return 2;
	}
	skel = pktgen__open();
	if (!skel)
		die("pktgen__open", errno);
	bpf_program__set_autoload(skel->progs.bench_src, false);
	if (pktgen__load(skel))
		die("pktgen load", errno);
	fd = bpf_program__fd(skel->progs.bench_sink);
	for (i = 2; i < argc; i++) {
		idx = if_nametoindex(argv[i]);
		if (!idx)
			die(argv[i], errno);
		/* a plain attach outlives us; the netns takes it away */
		if (bpf_xdp_attach(idx, fd, XDP_FLAGS_DRV_MODE, NULL))
			die(argv[i], errno);
	}
	if (bpf_map__pin(skel->maps.sink_count, argv[1]))
		die(argv[1], errno);
	pktgen__destroy(skel);
	return 0;
}

int cmd_sink_read(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	printf("%" PRIu64 "\n", read_sink(argv[1]));
	return 0;
}

/*
 * Live test-run frames must fit one page (the kernel refuses bigger ones),
 * so jumbo frames go out through an AF_PACKET socket that bypasses the
 * qdisc: SRC_PKT_FRAMES distinct frames, whose headers the source program
 * itself wrote in ordinary test runs, sent round robin with sendmmsg.
 * Returns the frames handed to the device; *ns the time taken.
 */
#define SRC_LIVE_MAX 1500
#define SRC_PKT_MAX 9216
#define SRC_PKT_FRAMES 512
#define SRC_PKT_BATCH 32

static uint64_t src_packet(int prog_fd, unsigned int idx, unsigned int size,
			   double seconds, uint64_t *ns)
{
	static __u8 frames[SRC_PKT_FRAMES][SRC_PKT_MAX];
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_ifindex = idx };
	struct mmsghdr msg[SRC_PKT_BATCH];
	struct iovec iov[SRC_PKT_BATCH];
	uint64_t sent = 0, t0, t1;
	int i, n, s, one = 1;

	for (i = 0; i < SRC_PKT_FRAMES; i++) {
		struct xdp_md ctx = { .data_end = size };
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frames[i],
			    .data_size_in = size, .data_out = frames[i],
			    .data_size_out = size, .ctx_in = &ctx,
			    .ctx_size_in = sizeof(ctx));

		if (bpf_prog_test_run_opts(prog_fd, &o))
			die("writing the frames' headers", errno);
	}
	s = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&sll, sizeof(sll)) ||
	    setsockopt(s, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)))
		die("AF_PACKET socket", errno);
	t0 = now_ns();
	do {
		for (i = 0; i < SRC_PKT_BATCH; i++) {
			iov[i].iov_base = frames[(sent + i) % SRC_PKT_FRAMES];
			iov[i].iov_len = size;
			memset(&msg[i], 0, sizeof(msg[i]));
			msg[i].msg_hdr.msg_iov = &iov[i];
			msg[i].msg_hdr.msg_iovlen = 1;
		}
		n = sendmmsg(s, msg, SRC_PKT_BATCH, 0);
		if (n < 0 && errno != ENOBUFS && errno != EAGAIN)
			die("sendmmsg", errno);
		if (n > 0)
			sent += n;
		t1 = now_ns();
	} while ((t1 - t0) < seconds * 1e9);
	close(s);
	*ns = t1 - t0;
	return sent;
}

/* An address with a colon is IPv6 (bit in *v6): then both must be. */
static int parse_src_addr(const char *s, struct in_addr *a4,
			  struct in6_addr *a6, int *v6, int bit)
{
	if (!strchr(s, ':'))
		return inet_pton(AF_INET, s, a4) != 1;
	*v6 |= bit;
	return inet_pton(AF_INET6, s, a6) != 1;
}

int cmd_src(int argc, char **argv)
{
	const char *ifname = NULL, *sink = NULL, *hold_if = NULL;
	unsigned int size = 64, idx, chunk = 50000;
	double seconds = 2.0;
	uint64_t sent = 0, t0, t1, c0, c1;
	struct in_addr sa = {}, da = {};
	struct in6_addr sa6 = {}, da6 = {};
	int v6 = 0;
	__u8 dmac[6] = {}, smac[6] = {};
	struct pktgen *skel;
	static __u8 frame[9000];
	int c, fd;

	while ((c = getopt(argc, argv, "i:d:s:S:D:l:t:k:H:")) != -1) {
		switch (c) {
		case 'i':
			ifname = optarg;
			break;
		case 'H':
			hold_if = optarg;
			break;
		case 'd':
			if (parse_mac(optarg, dmac))
				die("-d", EINVAL);
			break;
		case 's':
			if (parse_src_addr(optarg, &sa, &sa6, &v6, 1))
				die("-s", EINVAL);
			break;
		case 'D':
			if (parse_src_addr(optarg, &da, &da6, &v6, 2))
				die("-D", EINVAL);
			break;
		case 'l':
			size = atoi(optarg);
			break;
		case 't':
			seconds = atof(optarg);
			break;
		case 'k':
			sink = optarg;
			break;
		default:
			return 2;
		}
	}
	if (!ifname || !sink || size < 64 || size > SRC_PKT_MAX ||
	    (v6 && (v6 != 3 || size < 74))) {
		fprintf(stderr,
			"usage: rdbench src -i IF -d DSTMAC -s SADDR -D DADDR -l SIZE -t SECONDS -k SINK_PIN [-H HOLD_IF]\n"
			"  (SADDR and DADDR both IPv6: RoCEv2 over IPv6, SIZE >= 74)\n");
		return 2;
	}
	idx = if_nametoindex(ifname);
	if (!idx || get_mac(ifname, smac))
		die(ifname, errno);
	skel = pktgen__open();
	if (!skel)
		die("pktgen__open", errno);
	bpf_program__set_autoload(skel->progs.bench_sink, false);
	memcpy((void *)skel->rodata->src_dmac, dmac, 6);
	memcpy((void *)skel->rodata->src_smac, smac, 6);
	skel->rodata->src_saddr = sa.s_addr;
	skel->rodata->src_daddr = da.s_addr;
	skel->rodata->src_v6 = v6 != 0;
	memcpy((void *)skel->rodata->src_saddr6, &sa6, 16);
	memcpy((void *)skel->rodata->src_daddr6, &da6, 16);
	if (pktgen__load(skel))
		die("pktgen load", errno);
	fd = bpf_program__fd(skel->progs.bench_src);
	if (size > SRC_LIVE_MAX) {
		c0 = read_sink(sink);
		sent = src_packet(fd, idx, size, seconds, &t0);
		usleep(100000);
		c1 = read_sink(sink);
		t1 = t0;
		t0 = 0;
		goto out;
	}
	/*
	 * Each live-frame test run would otherwise add the source to the XDP
	 * dispatcher and take it out again, a synchronize_rcu() apiece: that
	 * capped the source near 2 Mpps. Held attached to an idle veth, it
	 * stays registered (12 Mpps into a dropping veth here).
	 */
	if (hold_if) {
		int hold = if_nametoindex(hold_if);

		if (!hold)
			die(hold_if, errno);
		if (bpf_xdp_attach(hold, fd, XDP_FLAGS_DRV_MODE, NULL))
			die("holding the source in the XDP dispatcher", errno);
	}

	c0 = read_sink(sink);
	t0 = now_ns();
	do {
		struct xdp_md ctx = { .data_end = size,
				      .ingress_ifindex = idx };
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame,
			    .data_size_in = size, .ctx_in = &ctx,
			    .ctx_size_in = sizeof(ctx), .repeat = chunk,
			    .flags = BPF_F_TEST_XDP_LIVE_FRAMES);

		if (bpf_prog_test_run_opts(fd, &opts))
			die("BPF_PROG_TEST_RUN live frames", errno);
		sent += chunk;
		t1 = now_ns();
	} while ((t1 - t0) < seconds * 1e9);
	/* let the last batch drain through the forwarder */
	usleep(100000);
	c1 = read_sink(sink);
out:
	/* t0_ns/t1_ns (CLOCK_MONOTONIC): two sources at once are summed
	 * over the union of their windows (bench.sh, two-CPU rows) */
	printf("{\"size\":%u,\"sent\":%" PRIu64 ",\"received\":%" PRIu64
	       ",\"seconds\":%.4f,\"sent_mpps\":%.4f,\"mpps\":%.4f,"
	       "\"t0_ns\":%" PRIu64 ",\"t1_ns\":%" PRIu64 "}\n",
	       size, sent, c1 - c0, (t1 - t0) / 1e9, sent / ((t1 - t0) / 1e3),
	       (c1 - c0) / ((t1 - t0) / 1e3), t0, t1);
	if (hold_if)
		bpf_xdp_detach(if_nametoindex(hold_if), XDP_FLAGS_DRV_MODE,
			       NULL);
	pktgen__destroy(skel);
	return 0;
}
