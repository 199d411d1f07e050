// SPDX-License-Identifier: GPL-2.0
/* rocegen: sockets, clocks and kernel route/neighbour lookups. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "rocegen.h"
#include "nlrecv.h"

uint64_t rg_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * Classic BPF: IPv4 (unfragmented) / IPv6 UDP to port 4791 whose BTH opcode
 * belongs to the role: a requester takes ACK/NAK and CNP, a responder takes
 * RC requests. Instructions 17..19 are the role's opcode test.
 */
#define RG_FILTER_LEN 22
static void rg_filter_build(struct sock_filter *f, enum rg_role role)
{
	const struct sock_filter common[17] = {
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x0800, 0, 9),
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 23),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 17, 0, 17),
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 20),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x1fff, 15, 0),
		BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, 14),
		BPF_STMT(BPF_LD | BPF_H | BPF_IND, 16),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ROCEDP_ROCEV2_PORT, 0, 12),
		BPF_STMT(BPF_LD | BPF_B | BPF_IND, 22),
		BPF_STMT(BPF_JMP | BPF_JA, 6),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x86dd, 0, 9),
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 20),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 17, 0, 7),
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 56),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ROCEDP_ROCEV2_PORT, 0, 5),
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 62),
	};
	const struct sock_filter requester[3] = {
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ROCEDP_OP_RC_ACK, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x12, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ROCEDP_OP_CNP, 0, 1),
	};
	const struct sock_filter responder[3] = {
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, ROCEDP_OP_RC_ACK, 3, 2),
		BPF_STMT(BPF_RET | BPF_K, 0),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};

	memcpy(f, common, sizeof(common));
	memcpy(f + 17, role == RG_ROLE_SEND ? requester : responder,
	       sizeof(requester));
	f[20] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0x40000);
	f[21] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0);
}

int rg_packet_socket(int ifindex, int rcvbuf, enum rg_role role)
{
	struct sock_filter filter[RG_FILTER_LEN];
	struct sock_fprog prog = { .len = RG_FILTER_LEN, .filter = filter };
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = ifindex,
	};
	int fd, one = 1, err;

	rg_filter_build(filter, role);
	/* Protocol 0 receives nothing until bind: no unfiltered frames. */
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)))
		goto fail;
	/* Our own transmissions would come back as PACKET_OUTGOING. */
	setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	if (rcvbuf > 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	rcvbuf = 4 << 20;
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &rcvbuf, sizeof(rcvbuf));
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)))
		goto fail;
	return fd;
fail:
	err = -errno;
	close(fd);
	return err;
}

/*
 * Bind UDP 4791 so that the host's stack does not answer RoCE frames with
 * ICMP port unreachable; a filter that rejects everything keeps the socket
 * from queueing anything. SO_REUSEPORT lets a sender and a responder on the
 * same host both hold one.
 */
int rg_udp_sink(bool v6)
{
	struct sock_filter drop = BPF_STMT(BPF_RET | BPF_K, 0);
	struct sock_fprog prog = { .len = 1, .filter = &drop };
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6,
				   .sin6_port = htons(ROCEDP_ROCEV2_PORT) };
	struct sockaddr_in a4 = { .sin_family = AF_INET,
				  .sin_port = htons(ROCEDP_ROCEV2_PORT) };
	int fd, one = 1, zero = 0;

	fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog));
	if (v6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (v6 ? bind(fd, (struct sockaddr *)&a6, sizeof(a6)) :
		 bind(fd, (struct sockaddr *)&a4, sizeof(a4))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

static int rg_ifreq(int ifindex, unsigned long req, struct ifreq *ifr)
{
	int fd, err = 0;

	memset(ifr, 0, sizeof(*ifr));
	if (!if_indextoname((unsigned int)ifindex, ifr->ifr_name))
		return -ENODEV;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, req, ifr))
		err = -errno;
	close(fd);
	return err;
}

int rg_if_mac(int ifindex, uint8_t mac[6])
{
	struct ifreq ifr;
	int err = rg_ifreq(ifindex, SIOCGIFHWADDR, &ifr);

	if (!err)
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	return err;
}

int rg_if_mtu(int ifindex)
{
	struct ifreq ifr;
	int err = rg_ifreq(ifindex, SIOCGIFMTU, &ifr);

	return err ? err : ifr.ifr_mtu;
}

uint64_t rg_socket_drops(int fd)
{
	struct tpacket_stats st;
	socklen_t len = sizeof(st);

	if (getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &st, &len))
		return 0;
	return st.tp_drops;
}

void rg_rx_batch_init(struct mmsghdr *msgs, struct iovec *iov, void *bufs,
		      size_t len, struct sockaddr_ll *from, int n)
{
	int i;

	memset(msgs, 0, n * sizeof(*msgs));
	for (i = 0; i < n; i++) {
		iov[i].iov_base = (uint8_t *)bufs + i * len;
		iov[i].iov_len = len;
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
		if (from) {
			msgs[i].msg_hdr.msg_name = &from[i];
			msgs[i].msg_hdr.msg_namelen = sizeof(from[i]);
		}
	}
}

static bool rg_ifa_match(const struct ifaddrs *ifa, const struct rg_addr *a)
{
	if (!ifa->ifa_addr)
		return false;
	if (!a->v6 && ifa->ifa_addr->sa_family == AF_INET)
		return !memcmp(&((struct sockaddr_in *)ifa->ifa_addr)->sin_addr,
			       a->a, 4);
	if (a->v6 && ifa->ifa_addr->sa_family == AF_INET6)
		return !memcmp(
			&((struct sockaddr_in6 *)ifa->ifa_addr)->sin6_addr,
			a->a, 16);
	return false;
}

int rg_ifindex_of_addr(const struct rg_addr *a)
{
	struct ifaddrs *ifs, *ifa;
	int idx = -ENOENT;

	if (getifaddrs(&ifs))
		return -errno;
	for (ifa = ifs; ifa; ifa = ifa->ifa_next) {
		if (rg_ifa_match(ifa, a)) {
			idx = (int)if_nametoindex(ifa->ifa_name);
			break;
		}
	}
	freeifaddrs(ifs);
	return idx;
}

bool rg_is_local(const struct rg_addr *a)
{
	return rg_ifindex_of_addr(a) > 0;
}

/* One rtnetlink request; @cb sees every message of the answer. */
static int rg_nl_talk(void *req, size_t len,
		      int (*cb)(struct nlmsghdr *, void *), void *arg)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char buf[16384];
	int fd, err = -ENOENT;
	ssize_t n;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (sendto(fd, req, len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = -errno;
		goto out;
	}
	for (;;) {
		struct nlmsghdr *h;

		/* the kernel's answer only, with lengths that fit */
		n = rd_nl_recv(fd, buf, sizeof(buf), 0, NULL);
		if (n <= 0) {
			err = n ? n : -EIO;
			goto out;
		}
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE)
				goto out;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				if (e->error)
					err = e->error;
				goto out;
			}
			if (cb(h, arg) == 0)
				err = 0;
			if (!(h->nlmsg_flags & NLM_F_MULTI))
				goto out;
		}
	}
out:
	close(fd);
	return err;
}

struct rg_route_ans {
	bool v6;
	int oif;
	bool has_gw, has_src;
	uint8_t gw[16], src[16];
};

static int rg_route_cb(struct nlmsghdr *h, void *arg)
{
	struct rg_route_ans *ans = arg;
	struct rtmsg *rt = NLMSG_DATA(h);
	int alen = ans->v6 ? 16 : 4;
	struct rtattr *a;
	int len;

	if (h->nlmsg_type != RTM_NEWROUTE)
		return 1;
	len = (int)RTM_PAYLOAD(h);
	for (a = RTM_RTA(rt); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == RTA_OIF)
			ans->oif = *(int *)RTA_DATA(a);
		else if (a->rta_type == RTA_GATEWAY &&
			 RTA_PAYLOAD(a) == (size_t)alen) {
			memcpy(ans->gw, RTA_DATA(a), alen);
			ans->has_gw = true;
		} else if (a->rta_type == RTA_PREFSRC &&
			   RTA_PAYLOAD(a) == (size_t)alen) {
			memcpy(ans->src, RTA_DATA(a), alen);
			ans->has_src = true;
		}
	}
	return 0;
}

struct rg_neigh_ans {
	bool v6;
	int ifindex;
	const uint8_t *ip;
	uint8_t mac[6];
	bool found;
};

static int rg_neigh_cb(struct nlmsghdr *h, void *arg)
{
	struct rg_neigh_ans *ans = arg;
	struct ndmsg *nd = NLMSG_DATA(h);
	const uint8_t *dst = NULL, *ll = NULL;
	int alen = ans->v6 ? 16 : 4;
	struct rtattr *a;
	int len;

	if (h->nlmsg_type != RTM_NEWNEIGH || nd->ndm_ifindex != ans->ifindex)
		return 1;
	if (!(nd->ndm_state & (NUD_REACHABLE | NUD_STALE | NUD_DELAY |
			       NUD_PROBE | NUD_PERMANENT | NUD_NOARP)))
		return 1;
	len = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof(*nd)));
	for (a = (struct rtattr *)((char *)nd + NLMSG_ALIGN(sizeof(*nd)));
	     RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == NDA_DST && RTA_PAYLOAD(a) == (size_t)alen)
			dst = RTA_DATA(a);
		else if (a->rta_type == NDA_LLADDR && RTA_PAYLOAD(a) == 6)
			ll = RTA_DATA(a);
	}
	if (!dst || !ll || memcmp(dst, ans->ip, alen))
		return 1;
	memcpy(ans->mac, ll, 6);
	ans->found = true;
	return 0;
}

/*
 * Make the kernel resolve the next hop: one 1-byte datagram with TTL 1 to
 * port 4791, which a responder's sink swallows without an ICMP answer.
 */
static void rg_poke(const struct rg_addr *dst)
{
	int fd, ttl = 1;
	char b = 0;

	fd = socket(dst->v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	if (dst->v6) {
		struct sockaddr_in6 s = { .sin6_family = AF_INET6,
					  .sin6_port =
						  htons(ROCEDP_ROCEV2_PORT) };

		memcpy(&s.sin6_addr, dst->a, 16);
		setsockopt(fd, IPPROTO_IPV6, IPV6_UNICAST_HOPS, &ttl,
			   sizeof(ttl));
		sendto(fd, &b, 1, MSG_DONTWAIT, (struct sockaddr *)&s,
		       sizeof(s));
	} else {
		struct sockaddr_in s = { .sin_family = AF_INET,
					 .sin_port =
						 htons(ROCEDP_ROCEV2_PORT) };

		memcpy(&s.sin_addr, dst->a, 4);
		setsockopt(fd, IPPROTO_IP, IP_TTL, &ttl, sizeof(ttl));
		sendto(fd, &b, 1, MSG_DONTWAIT, (struct sockaddr *)&s,
		       sizeof(s));
	}
	close(fd);
}

int rg_resolve(const struct rg_addr *dst, int *ifindex, struct rg_addr *src,
	       uint8_t dmac[6], int timeout_ms)
{
	struct {
		struct nlmsghdr h;
		struct rtmsg r;
		char attrs[64];
	} rq;
	struct {
		struct nlmsghdr h;
		struct ndmsg n;
	} nq;
	struct rg_route_ans ra = { .v6 = dst->v6 };
	struct rg_neigh_ans na = { .v6 = dst->v6 };
	int alen = dst->v6 ? 16 : 4, err, waited;
	struct rtattr *a;

	memset(&rq, 0, sizeof(rq));
	rq.h.nlmsg_len = NLMSG_LENGTH(sizeof(rq.r));
	rq.h.nlmsg_type = RTM_GETROUTE;
	rq.h.nlmsg_flags = NLM_F_REQUEST;
	rq.r.rtm_family = dst->v6 ? AF_INET6 : AF_INET;
	rq.r.rtm_dst_len = (unsigned char)(alen * 8);
	a = (struct rtattr *)((char *)&rq + NLMSG_ALIGN(rq.h.nlmsg_len));
	a->rta_type = RTA_DST;
	a->rta_len = (unsigned short)RTA_LENGTH(alen);
	memcpy(RTA_DATA(a), dst->a, alen);
	rq.h.nlmsg_len = NLMSG_ALIGN(rq.h.nlmsg_len) + RTA_ALIGN(a->rta_len);
	err = rg_nl_talk(&rq, rq.h.nlmsg_len, rg_route_cb, &ra);
	if (err)
		return err == -ENETUNREACH || err == -EHOSTUNREACH ?
			       -ENETUNREACH :
			       err;
	if (!ra.oif)
		return -ENETUNREACH;
	if (*ifindex && *ifindex != ra.oif)
		return -EXDEV; /* the route leaves by another interface */
	*ifindex = ra.oif;
	if (src && ra.has_src) {
		src->v6 = dst->v6;
		memcpy(src->a, ra.src, alen);
	}
	if (!dmac)
		return 0;
	na.ifindex = ra.oif;
	na.ip = ra.has_gw ? ra.gw : dst->a;
	for (waited = 0;; waited += 10) {
		memset(&nq, 0, sizeof(nq));
		nq.h.nlmsg_len = NLMSG_LENGTH(sizeof(nq.n));
		nq.h.nlmsg_type = RTM_GETNEIGH;
		nq.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		nq.n.ndm_family = dst->v6 ? AF_INET6 : AF_INET;
		nq.n.ndm_ifindex = ra.oif;
		rg_nl_talk(&nq, nq.h.nlmsg_len, rg_neigh_cb, &na);
		if (na.found) {
			memcpy(dmac, na.mac, 6);
			return 0;
		}
		if (waited >= timeout_ms)
			return -EHOSTUNREACH;
		if (waited % 200 == 0)
			rg_poke(dst);
		usleep(10000);
	}
}
