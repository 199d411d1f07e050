// SPDX-License-Identifier: GPL-2.0
/* rdbench routewait, count, ctrs and flap: the route sync section's probes. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "rocedp.h"
#include "rdbench.h"

static int lookup4(int fd, const char *addr, struct rocedp_route *v)
{
	struct rocedp_route4_key k = { .prefixlen = 32 };

	inet_pton(AF_INET, addr, &k.addr);
	return bpf_map_lookup_elem(fd, &k, v) ? -errno : 0;
}

static bool routed(int fd, const char *addr)
{
	struct rocedp_route v;

	return !lookup4(fd, addr, &v) && !(v.flags & ROCEDP_ROUTEF_LOCAL) &&
	       v.group_id;
}

int cmd_routewait(int argc, char **argv)
{
	const char *pin, *addr;
	uint64_t t0, t_map = 0, t_cmd = 0, deadline;
	int fd, st = 0;
	bool want_gone;
	pid_t pid;

	/* routewait PIN_DIR ADDR present|gone TIMEOUT_S -- CMD... */
	if (argc < 7 || strcmp(argv[5], "--"))
		return 2;
	pin = argv[1];
	addr = argv[2];
	want_gone = !strcmp(argv[3], "gone");
	{
		char path[512];

		snprintf(path, sizeof(path), "%s/rd_routes4", pin);
		fd = bpf_obj_get(path);
		if (fd < 0)
			die(path, errno);
	}
	t0 = now_ns();
	deadline = t0 + atof(argv[4]) * 1e9;
	pid = fork();
	if (pid < 0)
		die("fork", errno);
	if (!pid) {
		execvp(argv[6], argv + 6);
		_exit(127);
	}
	while ((!t_map || !t_cmd) && now_ns() < deadline) {
		if (!t_map && routed(fd, addr) != want_gone)
			t_map = now_ns();
		if (!t_cmd && waitpid(pid, &st, WNOHANG) == pid)
			t_cmd = now_ns();
		if (!t_map || !t_cmd)
			usleep(50);
	}
	if (!t_cmd)
		waitpid(pid, &st, 0);
	printf("{\"map_s\":%.4f,\"cmd_s\":%.4f,\"cmd_status\":%d}\n",
	       t_map ? (t_map - t0) / 1e9 : -1.0,
	       t_cmd ? (t_cmd - t0) / 1e9 : -1.0, WEXITSTATUS(st));
	return t_map ? 0 : 1;
}

int cmd_count(int argc, char **argv)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	char key[256], next[256];
	uint64_t n = 0;
	int fd, err;

	if (argc != 2)
		return 2;
	fd = bpf_obj_get(argv[1]);
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		die(argv[1], errno);
	err = bpf_map_get_next_key(fd, NULL, next);
	while (!err) {
		n++;
		memcpy(key, next, info.key_size);
		err = bpf_map_get_next_key(fd, key, next);
	}
	printf("%" PRIu64 "\n", n);
	return 0;
}

/*
 * Counters of a pinned rd_stats that a throughput run checks: frames
 * forwarded, ECN decisions (threshold source) and marks.
 */
int cmd_ctrs(int argc, char **argv)
{
	__u64 c[ROCEDP_CTR_MAX];
	char path[512];
	int fd;

	if (argc != 2)
		return 2;
	snprintf(path, sizeof(path), "%s/rd_stats", argv[1]);
	fd = bpf_obj_get(path);
	if (fd < 0)
		die(path, errno);
	ctrs(fd, c);
	/* __u64 is unsigned long long on every architecture */
	printf("{\"forwarded\":%llu,\"ecn_src_map\":%llu,"
	       "\"ecn_src_kfunc\":%llu,\"ecn_marked\":%llu,"
	       "\"ecn_would_mark\":%llu,\"flowlet_new\":%llu,"
	       "\"flowlet_claim_lost\":%llu}\n",
	       c[ROCEDP_CTR_FWD_PKTS], c[ROCEDP_CTR_ECN_SRC_MAP],
	       c[ROCEDP_CTR_ECN_SRC_KFUNC], c[ROCEDP_CTR_ECN_MARKED],
	       c[ROCEDP_CTR_ECN_WOULD_MARK], c[ROCEDP_CTR_FLOWLET_NEW],
	       c[ROCEDP_CTR_FLOWLET_CLAIM_LOST]);
	close(fd);
	return 0;
}

static int set_link(int sock, const char *ifname, bool up)
{
	struct ifreq ifr = {};

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(sock, SIOCGIFFLAGS, &ifr))
		return -errno;
	if (up)
		ifr.ifr_flags |= IFF_UP;
	else
		ifr.ifr_flags &= ~IFF_UP;
	return ioctl(sock, SIOCSIFFLAGS, &ifr) ? -errno : 0;
}

/* Is the member on ifindex in the active list of addr's group? -1: no group */
static int member_active(int rfd, int gfd, const char *addr, __u32 ifindex)
{
	static struct rocedp_group g;
	struct rocedp_route r;
	unsigned int i;

	if (lookup4(rfd, addr, &r) || (r.flags & ROCEDP_ROUTEF_LOCAL))
		return -1;
	if (bpf_map_lookup_elem(gfd, &r.group_id, &g))
		return -1;
	for (i = 0; i < g.n_active && i < ROCEDP_MAX_MEMBERS; i++)
		if (g.members[g.active[i] % ROCEDP_MAX_MEMBERS].ifindex ==
		    ifindex)
			return 1;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int cmd_flap(int argc, char **argv)
{
	uint64_t down[256], up[256], t0, t;
	char path[512];
	int rfd, gfd, sock, n, i, a, timeouts = 0;
	__u32 ifindex;

	/* flap PIN_DIR IF ADDR N */
	if (argc != 5)
		return 2;
	n = atoi(argv[4]);
	if (n < 1 || n > 256)
		return 2;
	snprintf(path, sizeof(path), "%s/rd_routes4", argv[1]);
	rfd = bpf_obj_get(path);
	snprintf(path, sizeof(path), "%s/rd_groups", argv[1]);
	gfd = bpf_obj_get(path);
	if (rfd < 0 || gfd < 0)
		die(path, errno);
	ifindex = if_nametoindex(argv[2]);
	sock = socket(AF_INET, SOCK_DGRAM, 0);
	if (!ifindex || sock < 0)
		die(argv[2], errno);
	/* the daemon may still be resolving the gateway */
	t0 = now_ns();
	while (member_active(rfd, gfd, argv[3], ifindex) != 1) {
		if (now_ns() - t0 > 5000000000ull)
			die("member not active before the first flap", EINVAL);
		usleep(1000);
	}
	for (i = 0; i < n; i++) {
		t0 = now_ns();
		if (set_link(sock, argv[2], false))
			die("link down", errno);
		do {
			a = member_active(rfd, gfd, argv[3], ifindex);
			t = now_ns();
		} while (a == 1 && t - t0 < 2000000000ull);
		if (a == 1)
			timeouts++;
		down[i] = t - t0;
		/* let the coalesced resync after the down settle */
		usleep(150000);
		t0 = now_ns();
		if (set_link(sock, argv[2], true))
			die("link up", errno);
		do {
			a = member_active(rfd, gfd, argv[3], ifindex);
			t = now_ns();
			if (a != 1)
				usleep(20);
		} while (a != 1 && t - t0 < 5000000000ull);
		if (a != 1)
			timeouts++;
		up[i] = t - t0;
		usleep(150000);
	}
	printf("{\"flaps\":%d,\"timeouts\":%d,\"down_us\":[", n, timeouts);
	for (i = 0; i < n; i++)
		printf("%s%.1f", i ? "," : "", down[i] / 1e3);
	printf("],\"up_us\":[");
	for (i = 0; i < n; i++)
		printf("%s%.1f", i ? "," : "", up[i] / 1e3);
	qsort(down, n, sizeof(down[0]), cmp_u64);
	qsort(up, n, sizeof(up[0]), cmp_u64);
	printf("],\"down_median_us\":%.1f,\"down_max_us\":%.1f,"
	       "\"up_median_us\":%.1f,\"up_max_us\":%.1f}\n",
	       (n % 2 ? down[n / 2] : (down[n / 2 - 1] + down[n / 2]) / 2) /
		       1e3,
	       down[n - 1] / 1e3,
	       (n % 2 ? up[n / 2] : (up[n / 2 - 1] + up[n / 2]) / 2) / 1e3,
	       up[n - 1] / 1e3);
	return timeouts ? 1 : 0;
}
