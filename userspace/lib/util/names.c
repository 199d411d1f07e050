// SPDX-License-Identifier: GPL-2.0
/* Names of the ABI's enums, for output and for parsing arguments. */
#include <errno.h>
#include <string.h>
#include "rocedp.h"
#include "names.h"

static const char *const class_names[ROCEDP_CLASS_MAX] = {
	[ROCEDP_CLASS_DATA] = "data",
	[ROCEDP_CLASS_ACK] = "ack",
	[ROCEDP_CLASS_NAK] = "nak",
	[ROCEDP_CLASS_CNP] = "cnp",
	[ROCEDP_CLASS_CTS] = "cts",
	[ROCEDP_CLASS_ROCE_OTHER] = "roce_other",
	[ROCEDP_CLASS_IP] = "ip",
	[ROCEDP_CLASS_NON_IP] = "non_ip",
	[ROCEDP_CLASS_MALFORMED] = "malformed",
	[ROCEDP_CLASS_UEC] = "uec",
	[ROCEDP_CLASS_UEC_ACK] = "uec_ack",
	[ROCEDP_CLASS_UEC_NACK] = "uec_nack",
};

static const char *const mal_names[ROCEDP_MAL_MAX] = {
	[ROCEDP_MAL_NONE] = "none",
	[ROCEDP_MAL_TRUNC_ETH] = "trunc_eth",
	[ROCEDP_MAL_TRUNC_VLAN] = "trunc_vlan",
	[ROCEDP_MAL_TOO_MANY_VLAN] = "too_many_vlan",
	[ROCEDP_MAL_TRUNC_IP4] = "trunc_ip4",
	[ROCEDP_MAL_BAD_IP_VERSION] = "bad_ip_version",
	[ROCEDP_MAL_BAD_IHL] = "bad_ihl",
	[ROCEDP_MAL_BAD_IP_LEN] = "bad_ip_len",
	[ROCEDP_MAL_TRUNC_IP6] = "trunc_ip6",
	[ROCEDP_MAL_TRUNC_EXT] = "trunc_ext",
	[ROCEDP_MAL_TOO_MANY_EXT] = "too_many_ext",
	[ROCEDP_MAL_TRUNC_UDP] = "trunc_udp",
	[ROCEDP_MAL_BAD_UDP_LEN] = "bad_udp_len",
	[ROCEDP_MAL_TRUNC_BTH] = "trunc_bth",
	[ROCEDP_MAL_TRUNC_AETH] = "trunc_aeth",
	[ROCEDP_MAL_TRUNC_CNP] = "trunc_cnp",
	[ROCEDP_MAL_BAD_BTH_VERSION] = "bad_bth_version",
	[ROCEDP_MAL_NOT_LINEAR] = "not_linear",
	[ROCEDP_MAL_TRUNC_XRCETH] = "trunc_xrceth",
};

static const char *const pass_names[ROCEDP_PASS_MAX] = {
	[ROCEDP_PASS_NONE] = "none",
	[ROCEDP_PASS_NO_FORWARD] = "no_forward",
	[ROCEDP_PASS_NON_IP] = "non_ip",
	[ROCEDP_PASS_MALFORMED] = "malformed",
	[ROCEDP_PASS_VLAN] = "vlan",
	[ROCEDP_PASS_MCAST] = "mcast",
	[ROCEDP_PASS_TTL] = "ttl",
	[ROCEDP_PASS_NO_ROUTE] = "no_route",
	[ROCEDP_PASS_LOCAL] = "local",
	[ROCEDP_PASS_IP_OPTIONS] = "ip_options",
	[ROCEDP_PASS_FRAGMENT] = "fragment",
	[ROCEDP_PASS_ND] = "nd",
	[ROCEDP_PASS_NO_MEMBER] = "no_member",
	[ROCEDP_PASS_NO_GROUP] = "no_group",
	[ROCEDP_PASS_REDIRECT_FAILED] = "redirect_failed",
	[ROCEDP_PASS_MARTIAN_SRC] = "martian_src",
	[ROCEDP_PASS_MARTIAN_DST] = "martian_dst",
	[ROCEDP_PASS_OTHER_HOST] = "other_host",
	[ROCEDP_PASS_GROUP_BUSY] = "group_busy",
	[ROCEDP_PASS_ROUTE_PENDING] = "route_pending",
};

static const char *const verdict_names[ROCEDP_VERDICT_MAX] = {
	[ROCEDP_VERDICT_PASS] = "pass",
	[ROCEDP_VERDICT_DROP] = "drop",
	[ROCEDP_VERDICT_TX] = "tx",
	[ROCEDP_VERDICT_REDIRECT] = "redirect",
	[ROCEDP_VERDICT_ABORTED] = "aborted",
};

static const char *const aeth_names[] = {
	[ROCEDP_AETH_NONE] = "none",	     [ROCEDP_AETH_ACK] = "ack",
	[ROCEDP_AETH_RNR_NAK] = "rnr_nak",   [ROCEDP_AETH_NAK] = "nak",
	[ROCEDP_AETH_RESERVED] = "reserved",
};

static const char *const mode_names[ROCEDP_HASH_MODE_MAX] = {
	[ROCEDP_HASH_5TUPLE] = "5tuple",   [ROCEDP_HASH_QP] = "qp",
	[ROCEDP_HASH_QP_ONLY] = "qp-only", [ROCEDP_HASH_FLOWLET] = "flowlet",
	[ROCEDP_HASH_SPRAY] = "spray",
};

static const char *lookup(const char *const *tab, unsigned int n,
			  unsigned int i)
{
	return i < n && tab[i] ? tab[i] : "unknown";
}

static int rlookup(const char *const *tab, unsigned int n, const char *s)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (tab[i] && !strcmp(tab[i], s))
			return i;
	return -EINVAL;
}

const char *rd_class_name(unsigned int c)
{
	return lookup(class_names, ARRAY_LEN(class_names), c);
}

const char *rd_malformed_name(unsigned int r)
{
	return lookup(mal_names, ARRAY_LEN(mal_names), r);
}

const char *rd_pass_name(unsigned int r)
{
	return lookup(pass_names, ARRAY_LEN(pass_names), r);
}

const char *rd_verdict_name(unsigned int v)
{
	return lookup(verdict_names, ARRAY_LEN(verdict_names), v);
}

/* telemetry: NAK syndromes as rocedp qps counts them */
static const char *const qp_nak_names[ROCEDP_QP_NAK_MAX] = {
	[ROCEDP_QP_NAK_PSN_SEQ] = "psn_seq",
	[ROCEDP_QP_NAK_RNR] = "rnr",
	[ROCEDP_QP_NAK_REMOTE_ACCESS] = "remote_access",
	[ROCEDP_QP_NAK_REMOTE_OP] = "remote_op",
	[ROCEDP_QP_NAK_OTHER] = "other",
};

const char *rd_qp_nak_name(unsigned int k)
{
	return lookup(qp_nak_names, ARRAY_LEN(qp_nak_names), k);
}

const char *rd_aeth_name(unsigned int k)
{
	return lookup(aeth_names, ARRAY_LEN(aeth_names), k);
}

const char *rd_hash_mode_name(unsigned int m)
{
	return lookup(mode_names, ARRAY_LEN(mode_names), m);
}

int rd_class_from_name(const char *s)
{
	return rlookup(class_names, ARRAY_LEN(class_names), s);
}

int rd_hash_mode_from_name(const char *s)
{
	/* the common spelling without the dash is accepted too */
	if (!strcmp(s, "qponly"))
		return ROCEDP_HASH_QP_ONLY;
	return rlookup(mode_names, ARRAY_LEN(mode_names), s);
}
