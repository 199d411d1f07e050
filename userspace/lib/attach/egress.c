// SPDX-License-Identifier: GPL-2.0
/*
 * Frames rocedp redirects that the egress device then drops (docs/frr.md,
 * "The veth redirect trap"). A native XDP redirect into a veth is queued on
 * the peer's receive ring, which exists only while the peer runs NAPI: an
 * XDP program on the peer, or GRO on. Without it the kernel drops the
 * frames silently: no counter of either end moves, and rocedp has already
 * counted them as sent. So:
 *  - at attach, warn when a veth's peer has neither (the peer may sit in
 *    another namespace: found through its nsid among /run/netns and checked
 *    from a child that enters it);
 *  - in `rocedp status`, compare what rocedp sent out of a port with what
 *    the veth took for transmission (ethtool's tx_queue_N_xdp_xmit) and name
 *    the difference.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/net_namespace.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/sockios.h>
#include <bpf/libbpf.h>
#include "egress.h"
#include "util.h"
#include "escape.h"
#include "nlrecv.h"
#include "stats.h"

static bool is_veth(const char *name)
{
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };

	return !rd_ethtool(name, &di) && !strcmp(di.driver, "veth");
}

/* Sum of the veth's ethtool stats named PRE<N>SUF exactly, e.g.
 * tx_queue_N_xdp_xmit (frames its peer's rings took) */
static int veth_stat_sum(const char *name, const char *pre, const char *suf,
			 __u64 *sum)
{
	/* the header and its one data word (a flexible array member) */
	__u64 sbuf[(sizeof(struct ethtool_sset_info) + sizeof(__u32) + 7) /
		   8] = {};
	struct ethtool_sset_info *si = (struct ethtool_sset_info *)sbuf;
	struct ethtool_gstrings *gs = NULL;
	struct ethtool_stats *st = NULL;
	unsigned int i, n;
	int err;

	si->cmd = ETHTOOL_GSSET_INFO;
	si->sset_mask = 1ull << ETH_SS_STATS;
	err = rd_ethtool(name, si);
	if (err)
		return err;
	n = si->sset_mask ? si->data[0] : 0;
	if (!n || n > 4096)
		return -ENODATA;
	gs = calloc(1, sizeof(*gs) + n * ETH_GSTRING_LEN);
	st = calloc(1, sizeof(*st) + n * sizeof(__u64));
	if (!gs || !st) {
		err = -ENOMEM;
		goto out;
	}
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = n;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = n;
	err = rd_ethtool(name, gs);
	if (!err)
		err = rd_ethtool(name, st);
	if (err)
		goto out;
	*sum = 0;
	for (i = 0; i < n; i++) {
		char s[ETH_GSTRING_LEN + 1];
		size_t lp = strlen(pre), k = lp;

		memcpy(s, gs->data + i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		s[ETH_GSTRING_LEN] = 0;
		if (strncmp(s, pre, lp))
			continue;
		while (s[k] >= '0' && s[k] <= '9')
			k++;
		if (k > lp && !strcmp(s + k, suf))
			*sum += st->data[i];
	}
out:
	free(gs);
	free(st);
	return err;
}

struct peer {
	int ifindex;
	int nsid; /* -1: the same namespace */
};

static int link_cb(const struct nlmsghdr *nlh, void *data)
{
	struct peer *p = data;
	struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct ifinfomsg))
	{
		if (mnl_attr_get_type(a) == IFLA_LINK &&
		    mnl_attr_get_payload_len(a) >= 4)
			p->ifindex = (int)mnl_attr_get_u32(a);
		else if (mnl_attr_get_type(a) == IFLA_LINK_NETNSID &&
			 mnl_attr_get_payload_len(a) >= 4)
			p->nsid = (int)mnl_attr_get_u32(a);
	}
	return MNL_CB_OK;
}

static int nsid_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct rtgenmsg))
	{
		if (mnl_attr_get_type(a) == NETNSA_NSID &&
		    mnl_attr_get_payload_len(a) >= 4)
			*(int *)data = (int)mnl_attr_get_u32(a);
	}
	return MNL_CB_OK;
}

/* One request, its answer through cb. */
static int nl_ask(struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	char buf[8192];
	struct mnl_socket *nl;
	int n, err = 0;

	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		err = -errno;
		goto out;
	}
	/* the kernel's answer only, with lengths that fit (nlrecv.h) */
	n = rd_nl_recv(mnl_socket_get_fd(nl), buf, sizeof(buf), 0, NULL);
	if (n <= 0)
		err = n ? n : -EIO;
	else if (mnl_cb_run(buf, n, nlh->nlmsg_seq, mnl_socket_get_portid(nl),
			    cb, data) < 0)
		err = -errno ? -errno : -EIO;
out:
	mnl_socket_close(nl);
	return err;
}

static int peer_of(unsigned int ifindex, struct peer *p)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifm;

	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = 1;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_index = (int)ifindex;
	p->ifindex = 0;
	p->nsid = -1;
	return nl_ask(nlh, link_cb, p);
}

int rd_veth_peer(const char *name, unsigned int ifindex, int *peer_ifindex,
		 int *nsid)
{
	struct peer p;
	int err;

	if (!is_veth(name))
		return -EOPNOTSUPP;
	err = peer_of(ifindex, &p);
	if (err)
		return err;
	if (!p.ifindex)
		return -ENOENT;
	*peer_ifindex = p.ifindex;
	*nsid = p.nsid;
	return 0;
}

/* The nsid the current namespace gives the namespace of fd, or -1 */
static int nsid_of(int fd)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct rtgenmsg *g;
	int nsid = -1;

	nlh->nlmsg_type = RTM_GETNSID;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = 2;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->rtgen_family = AF_UNSPEC;
	mnl_attr_put_u32(nlh, NETNSA_FD, (__u32)fd);
	if (nl_ask(nlh, nsid_cb, &nsid))
		return -1;
	return nsid;
}

/* A /run/netns file whose namespace has this nsid: an open fd, or -1 */
static int netns_by_nsid(int nsid, char *name, size_t len)
{
	struct dirent *de;
	char path[300];
	DIR *d;
	int fd = -1;

	d = opendir("/run/netns");
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/run/netns/%s", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (nsid_of(fd) == nsid) {
			snprintf(name, len, "%s", de->d_name);
			break;
		}
		close(fd);
		fd = -1;
	}
	closedir(d);
	return fd;
}

enum { PEER_OK = 0, PEER_NO_NAPI = 1, PEER_UNKNOWN = 2 };

/* In the peer's namespace (a child, so ours is untouched): XDP or GRO? */
static int peer_state(int nsfd, int ifindex)
{
	struct ethtool_value gro = { .cmd = ETHTOOL_GGRO };
	char name[IF_NAMESIZE];
	__u32 id = 0;
	pid_t pid;
	int st;

	pid = fork();
	if (pid < 0)
		return PEER_UNKNOWN;
	if (!pid) {
		if (nsfd >= 0 && setns(nsfd, CLONE_NEWNET))
			_exit(PEER_UNKNOWN);
		if (!if_indextoname((unsigned int)ifindex, name))
			_exit(PEER_UNKNOWN);
		if (!bpf_xdp_query_id(ifindex, 0, &id) && id)
			_exit(PEER_OK);
		if (rd_ethtool(name, &gro))
			_exit(PEER_UNKNOWN);
		_exit(gro.data ? PEER_OK : PEER_NO_NAPI);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return PEER_UNKNOWN;
	return WEXITSTATUS(st);
}

/* The peer's rx_queue_N_drops (frames its rings took and then lost, from
 * any sender), read from a child in the peer's namespace */
static int peer_rx_drops(unsigned int ifindex, __u64 *drops)
{
	char ns[256];
	struct peer p;
	int fd = -1, pfd[2], st;
	pid_t pid;

	if (peer_of(ifindex, &p) || !p.ifindex)
		return -ENOENT;
	if (p.nsid >= 0 && (fd = netns_by_nsid(p.nsid, ns, sizeof(ns))) < 0)
		return -ENOENT;
	if (pipe2(pfd, O_CLOEXEC)) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	pid = fork();
	if (!pid) {
		char name[IF_NAMESIZE];
		__u64 v;

		if ((fd >= 0 && setns(fd, CLONE_NEWNET)) ||
		    !if_indextoname((unsigned int)p.ifindex, name) ||
		    veth_stat_sum(name, "rx_queue_", "_drops", &v) ||
		    write(pfd[1], &v, sizeof(v)) != sizeof(v))
			_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	if (fd >= 0)
		close(fd);
	if (pid < 0) {
		close(pfd[0]);
		return -EAGAIN;
	}
	st = read(pfd[0], drops, sizeof(*drops)) == sizeof(*drops) ? 0 : -EIO;
	close(pfd[0]);
	waitpid(pid, NULL, 0);
	return st;
}

void rd_egress_hint(const char *name, unsigned int ifindex, bool native)
{
	char ns[256] = "";
	struct peer p;
	int fd = -1, r;

	/* generic XDP and tc hand the veth an skb: no ring needed */
	if (!native || !is_veth(name) || peer_of(ifindex, &p) || !p.ifindex)
		return;
	if (p.nsid >= 0) {
		fd = netns_by_nsid(p.nsid, ns, sizeof(ns));
		if (fd < 0)
			return; /* not found: status still counts the drops */
	}
	r = peer_state(fd, p.ifindex);
	if (fd >= 0)
		close(fd);
	if (r != PEER_NO_NAPI)
		return;
	fprintf(stderr,
		"rocedp: attach: %s: warning: its veth peer (ifindex %d%s%s) has no XDP program and GRO off: frames rocedp redirects into %s are dropped silently; turn GRO on there (ethtool -K PEER gro on) or give it an XDP program (docs/frr.md)\n",
		name, p.ifindex, ns[0] ? " in netns " : "", ns, name);
}

int rd_egress_check(const struct rd_maps *m, const char *name,
		    unsigned int ifindex, __u64 *sent, __u64 *took,
		    __u64 *peer_drops)
{
	struct rocedp_port_stats ps;
	__u32 key = ifindex;
	int err;

	if (!is_veth(name))
		return -EOPNOTSUPP;
	err = rd_percpu_sum(m->fd[RD_MAP_PORT_STATS], &key, (__u64 *)&ps,
			    sizeof(ps) / 8);
	if (err)
		return err;
	err = veth_stat_sum(name, "tx_queue_", "_xdp_xmit", took);
	if (err)
		return err;
	*sent = ps.tx_pkts;
	if (peer_rx_drops(ifindex, peer_drops))
		*peer_drops = 0;
	return 0;
}

void rd_egress_status(const struct rd_maps *m, const char *name,
		      unsigned int ifindex)
{
	__u64 sent, took, pd;
	char esc[RD_ESC_IFNAME];

	if (rd_egress_check(m, name, ifindex, &sent, &took, &pd))
		return;
	name = rd_esc_term(name, esc, sizeof(esc));
	if (took < sent)
		printf("  %-16s EGRESS DROPS: rocedp sent %llu frames, the veth took %llu: %llu dropped (its peer runs no XDP program and no GRO; docs/frr.md)\n",
		       name, (unsigned long long)sent, (unsigned long long)took,
		       (unsigned long long)(sent - took));
	if (pd)
		printf("  %-16s EGRESS DROPS: its veth peer dropped %llu frames on receive (rx_queue_N_drops, of any sender; docs/frr.md)\n",
		       name, (unsigned long long)pd);
}
