// SPDX-License-Identifier: GPL-2.0
/* libmnl helpers for rocedp sync: dumps, monitoring, neighbour probes. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/nexthop.h>

#include "nl.h"

#define RD_NL_BUFLEN (1u << 16) /* a dump skb is at most ~32 KiB */

int rd_nl_open(struct rd_nl *nl, const unsigned int *groups, int n_groups,
	       int rcvbuf, const char *who)
{
	int fd, i;

	memset(nl, 0, sizeof(*nl));
	nl->buflen = RD_NL_BUFLEN;
	nl->guard.who = who;
	nl->buf = malloc(nl->buflen);
	if (!nl->buf)
		return -ENOMEM;
	nl->sk = mnl_socket_open(NETLINK_ROUTE);
	if (!nl->sk)
		goto err;
	if (mnl_socket_bind(nl->sk, 0, MNL_SOCKET_AUTOPID) < 0)
		goto err;
	nl->portid = mnl_socket_get_portid(nl->sk);
	nl->seq = (uint32_t)time(NULL);
	fd = mnl_socket_get_fd(nl->sk);
	if (rcvbuf > 0 && setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
				     sizeof(rcvbuf)) < 0)
		/* unprivileged: the plain limit still helps a little */
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	for (i = 0; i < n_groups; i++) {
		if (mnl_socket_setsockopt(nl->sk, NETLINK_ADD_MEMBERSHIP,
					  (void *)&groups[i],
					  sizeof(groups[i])) < 0)
			goto err;
	}
	if (n_groups > 0 &&
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0)
		goto err;
	return 0;
err:
	i = -errno;
	rd_nl_close(nl);
	return i ? i : -EIO;
}

void rd_nl_close(struct rd_nl *nl)
{
	if (nl->sk)
		mnl_socket_close(nl->sk);
	free(nl->buf);
	nl->sk = NULL;
	nl->buf = NULL;
}

int rd_nl_fd(const struct rd_nl *nl)
{
	return nl->sk ? mnl_socket_get_fd(nl->sk) : -1;
}

/*
 * One reply datagram of a dump, walked here and not by mnl_cb_run: libmnl
 * stops at the first message flagged NLM_F_DUMP_INTR (errno EINTR) and
 * leaves the rest of the dump queued, where the next request on the socket
 * met it (EPROTO on its sequence number, then EBUSY from the kernel). So
 * every dump is read to its end, and messages of an older request are
 * skipped. Returns 1 at the end of the dump, 0 when more follows, or the
 * kernel's -errno.
 */
static int dump_chunk(const void *buf, size_t len, uint32_t seq, mnl_cb_t cb,
		      void *data, bool *interrupted)
{
	const struct nlmsghdr *nlh = buf;
	const struct nlmsgerr *e;
	int left = len, err;

	for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		if (nlh->nlmsg_seq != seq)
			continue;
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
			*interrupted = true;
		switch (nlh->nlmsg_type) {
		case NLMSG_DONE:
			/* a dump that failed half-way says so in its DONE */
			if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int)) {
				memcpy(&err, mnl_nlmsg_get_payload(nlh),
				       sizeof(err));
				if (err < 0)
					return err;
			}
			return 1;
		case NLMSG_ERROR:
			if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e))
				return -EBADMSG;
			e = mnl_nlmsg_get_payload(nlh);
			return e->error < 0 ? e->error : 1;
		case NLMSG_NOOP:
		case NLMSG_OVERRUN:
			continue;
		}
		cb(nlh, data); /* a callback's error only drops its message */
	}
	return 0;
}

static size_t dump_hdr_len(uint16_t type)
{
	switch (type) {
	case RTM_GETLINK:
		return sizeof(struct ifinfomsg);
	case RTM_GETNEIGH:
		return sizeof(struct ndmsg);
	case RTM_GETNEXTHOP:
	case RTM_GETNEXTHOPBUCKET:
		return sizeof(struct nhmsg);
	default:
		return sizeof(struct rtmsg);
	}
}

int rd_nl_dump(struct rd_nl *nl, uint16_t type, uint8_t family, mnl_cb_t cb,
	       void *data)
{
	bool interrupted = false;
	struct nlmsghdr *nlh;
	uint32_t seq;
	size_t hlen;
	void *hdr;
	ssize_t n;
	int ret = 0;

	nlh = mnl_nlmsg_put_header(nl->buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq = ++nl->seq;
	hlen = dump_hdr_len(type);
	hdr = mnl_nlmsg_put_extra_header(nlh, hlen);
	/* every rtnetlink family header starts with the address family */
	*(unsigned char *)hdr = family;

	if (mnl_socket_sendto(nl->sk, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		n = rd_nl_recv(rd_nl_fd(nl), nl->buf, nl->buflen, 0,
			       &nl->guard);
		if (n <= 0)
			return n ? n : -EIO;
		ret = dump_chunk(nl->buf, n, seq, cb, data, &interrupted);
		if (ret < 0)
			return ret;
	} while (ret != 1);
	return interrupted ? -EAGAIN : 0;
}

int rd_nl_drain(struct rd_nl *nl, mnl_cb_t cb, void *data, int max_dgrams)
{
	int count = 0;
	ssize_t n;

	while (count < max_dgrams) {
		n = rd_nl_recv(rd_nl_fd(nl), nl->buf, nl->buflen, MSG_DONTWAIT,
			       &nl->guard);
		if (n == -EAGAIN || n == -EWOULDBLOCK || n == 0)
			break;
		if (n < 0)
			return n; /* ENOBUFS: events were lost */
		count++;
		/* a callback error only stops this datagram */
		mnl_cb_run(nl->buf, n, 0, 0, cb, data);
	}
	return count;
}

int rd_nl_neigh_probe(struct rd_nl *nl, int ifindex, uint8_t family,
		      const void *addr)
{
	struct nlmsghdr *nlh;
	struct ndmsg *ndm;
	uint32_t seq;
	ssize_t n;
	int ret;

	nlh = mnl_nlmsg_put_header(nl->buf);
	nlh->nlmsg_type = RTM_NEWNEIGH;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_ACK;
	nlh->nlmsg_seq = seq = ++nl->seq;
	ndm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ndm));
	ndm->ndm_family = family;
	ndm->ndm_ifindex = ifindex;
	ndm->ndm_state = NUD_NONE;
	ndm->ndm_flags = NTF_USE; /* "resolve as if a packet wanted it" */
	mnl_attr_put(nlh, NDA_DST, family == AF_INET6 ? 16 : 4, addr);
	if (mnl_socket_sendto(nl->sk, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	n = rd_nl_recv(rd_nl_fd(nl), nl->buf, nl->buflen, 0, &nl->guard);
	if (n <= 0)
		return n ? n : -EIO;
	ret = mnl_cb_run(nl->buf, n, seq, nl->portid, NULL, NULL);
	return ret < 0 ? -errno : 0;
}

struct parse_ctx {
	struct rd_nl *nl;
	const struct nlattr **tb;
	int max;
};

static int parse_cb(const struct nlattr *attr, void *data)
{
	struct parse_ctx *ctx = data;
	int type = mnl_attr_get_type(attr);

	if (type > ctx->max) {
		ctx->nl->unknown_attrs++;
		return MNL_CB_OK;
	}
	ctx->tb[type] = attr;
	return MNL_CB_OK;
}

void rd_nl_parse(struct rd_nl *nl, const struct nlmsghdr *nlh, size_t hdrlen,
		 const struct nlattr **tb, int max)
{
	struct parse_ctx ctx = { nl, tb, max };

	memset(tb, 0, sizeof(*tb) * (max + 1));
	if (nlh->nlmsg_len < NLMSG_HDRLEN + MNL_ALIGN(hdrlen))
		return;
	mnl_attr_parse(nlh, hdrlen, parse_cb, &ctx);
}

void rd_nl_parse_nested(struct rd_nl *nl, const struct nlattr *nest,
			const struct nlattr **tb, int max)
{
	struct parse_ctx ctx = { nl, tb, max };

	memset(tb, 0, sizeof(*tb) * (max + 1));
	mnl_attr_parse_nested(nest, parse_cb, &ctx);
}

const void *rd_nl_attr_data(struct rd_nl *nl, const struct nlattr *attr,
			    size_t len)
{
	if (!attr)
		return NULL;
	if (mnl_attr_get_payload_len(attr) < len) {
		nl->bad_attrs++;
		return NULL;
	}
	return mnl_attr_get_payload(attr);
}

uint32_t rd_nl_attr_u32(struct rd_nl *nl, const struct nlattr *attr,
			uint32_t def)
{
	const uint32_t *v = rd_nl_attr_data(nl, attr, sizeof(*v));

	return v ? *v : def;
}

/* NHA_GROUP_TYPE resilient: its NHA_RES_GROUP_BUCKETS, else 0. */
uint16_t rd_nl_res_buckets(struct rd_nl *nl, const struct nlattr *type,
			   const struct nlattr *res)
{
	const struct nlattr *tb[NHA_RES_GROUP_MAX + 1];
	const uint16_t *t = rd_nl_attr_data(nl, type, sizeof(*t)), *nb;

	if (!t || *t != NEXTHOP_GRP_TYPE_RES || !res)
		return 0;
	rd_nl_parse_nested(nl, res, tb, NHA_RES_GROUP_MAX);
	nb = rd_nl_attr_data(nl, tb[NHA_RES_GROUP_BUCKETS], sizeof(*nb));
	return nb ? *nb : 0;
}

int rd_nl_res_bucket(struct rd_nl *nl, const struct nlmsghdr *nlh,
		     uint32_t *group, uint16_t *index, uint32_t *nh)
{
	const struct nlattr *tb[NHA_MAX + 1], *bt[NHA_RES_BUCKET_MAX + 1];
	const uint16_t *idx;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(struct nhmsg))
		return -EBADMSG;
	rd_nl_parse(nl, nlh, sizeof(struct nhmsg), tb, NHA_MAX);
	if (!tb[NHA_RES_BUCKET])
		return -EBADMSG;
	rd_nl_parse_nested(nl, tb[NHA_RES_BUCKET], bt, NHA_RES_BUCKET_MAX);
	idx = rd_nl_attr_data(nl, bt[NHA_RES_BUCKET_INDEX], sizeof(*idx));
	*group = rd_nl_attr_u32(nl, tb[NHA_ID], 0);
	*nh = rd_nl_attr_u32(nl, bt[NHA_RES_BUCKET_NH_ID], 0);
	if (!idx || !*group || !*nh)
		return -EBADMSG;
	*index = *idx;
	return 0;
}

/* RTA_MULTIPATH: struct rtnexthop records, each with attributes. */
int rd_nl_multipath(struct rd_nl *nl, const struct nlattr *mp,
		    uint8_t rt_family, struct rd_hop *out, int max)
{
	const uint8_t *p = mnl_attr_get_payload(mp);
	size_t left = mnl_attr_get_payload_len(mp);
	int n = 0;

	while (left >= sizeof(struct rtnexthop)) {
		const struct rtnexthop *nh = (const void *)p;
		size_t len = nh->rtnh_len, alen;
		const struct nlattr *attr;
		struct rd_hop *h;

		if (len < sizeof(*nh) || len > left) {
			nl->bad_attrs++;
			break;
		}
		if (n == max)
			return max + 1;
		h = &out[n++];
		memset(h, 0, sizeof(*h));
		h->ifindex = nh->rtnh_ifindex;
		h->weight = nh->rtnh_hops + 1;
		alen = len - RTNH_ALIGN(sizeof(*nh));
		attr = (const void *)(p + RTNH_ALIGN(sizeof(*nh)));
		while (alen >= sizeof(*attr) &&
		       attr->nla_len >= sizeof(*attr) &&
		       attr->nla_len <= alen) {
			size_t plen = attr->nla_len - MNL_ATTR_HDRLEN;
			const uint8_t *pl =
				(const uint8_t *)attr + MNL_ATTR_HDRLEN;

			if ((attr->nla_type & NLA_TYPE_MASK) == RTA_GATEWAY) {
				size_t need = rt_family == AF_INET6 ? 16 : 4;

				if (plen >= need) {
					memcpy(h->gw, pl, need);
					h->family = rt_family;
				} else {
					nl->bad_attrs++;
				}
			} else if ((attr->nla_type & NLA_TYPE_MASK) ==
					   RTA_VIA &&
				   plen >= 2) {
				uint16_t fam;

				memcpy(&fam, pl, 2);
				if ((fam == AF_INET && plen >= 6) ||
				    (fam == AF_INET6 && plen >= 18)) {
					memcpy(h->gw, pl + 2,
					       fam == AF_INET ? 4 : 16);
					h->family = fam;
				}
			} else if ((attr->nla_type & NLA_TYPE_MASK) > RTA_MAX) {
				nl->unknown_attrs++;
			}
			if ((size_t)MNL_ALIGN(attr->nla_len) >= alen)
				break;
			alen -= MNL_ALIGN(attr->nla_len);
			attr = (const void *)((const uint8_t *)attr +
					      MNL_ALIGN(attr->nla_len));
		}
		if (RTNH_ALIGN(len) >= left)
			break;
		left -= RTNH_ALIGN(len);
		p += RTNH_ALIGN(len);
	}
	return n;
}
