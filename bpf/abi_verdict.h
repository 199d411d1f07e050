/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * What the classifier and the forwarder decide about a frame: class,
 * why malformed, why passed, verdict, AETH syndrome.
 * Part of the rocedp ABI (rocedp_abi.h).
 */
#ifndef ROCEDP_ABI_VERDICT_H
#define ROCEDP_ABI_VERDICT_H

#include "abi_base.h"

/* Traffic classes: the classifier's output, the QoS profile's index. */
enum rocedp_class {
	ROCEDP_CLASS_DATA = 0, /* RC/UC/UD requests and read responses */
	ROCEDP_CLASS_ACK, /* ACKNOWLEDGE / ATOMIC ACK with ACK syndrome */
	ROCEDP_CLASS_NAK, /* NAK and RNR NAK */
	ROCEDP_CLASS_CNP,
	ROCEDP_CLASS_CTS, /* matched a CTS rule */
	ROCEDP_CLASS_ROCE_OTHER, /* valid BTH, none of the above */
	ROCEDP_CLASS_IP, /* IP, not RoCEv2 */
	ROCEDP_CLASS_NON_IP,
	ROCEDP_CLASS_MALFORMED,
	/* Ultra Ethernet (UDP 4793), after the older classes so their
	 * numbers stay */
	ROCEDP_CLASS_UEC, /* requests and other PDS types */
	ROCEDP_CLASS_UEC_ACK, /* PDS ACK, ACK_CC, ACK_CCX */
	ROCEDP_CLASS_UEC_NACK, /* PDS NACK, NACK_CCX (trimmed ones too) */
	ROCEDP_CLASS_MAX,
};

/* Why a frame was malformed; ROCEDP_MAL_NONE for a well-formed one. */
enum rocedp_malformed {
	ROCEDP_MAL_NONE = 0,
	ROCEDP_MAL_TRUNC_ETH,
	ROCEDP_MAL_TRUNC_VLAN,
	ROCEDP_MAL_TOO_MANY_VLAN,
	ROCEDP_MAL_TRUNC_IP4,
	ROCEDP_MAL_BAD_IP_VERSION,
	ROCEDP_MAL_BAD_IHL,
	ROCEDP_MAL_BAD_IP_LEN, /* total/payload length vs frame */
	ROCEDP_MAL_TRUNC_IP6,
	ROCEDP_MAL_TRUNC_EXT,
	ROCEDP_MAL_TOO_MANY_EXT,
	ROCEDP_MAL_TRUNC_UDP,
	ROCEDP_MAL_BAD_UDP_LEN,
	ROCEDP_MAL_TRUNC_BTH,
	ROCEDP_MAL_TRUNC_AETH,
	ROCEDP_MAL_TRUNC_CNP,
	ROCEDP_MAL_BAD_BTH_VERSION, /* TVer != 0 */
	ROCEDP_MAL_NOT_LINEAR, /* a header lies past the linear part */
	ROCEDP_MAL_TRUNC_XRCETH, /* XRC request shorter than its XRCETH */
	ROCEDP_MAL_MAX,
};

/* Why a well-formed frame was handed to the kernel instead of forwarded. */
enum rocedp_pass_reason {
	ROCEDP_PASS_NONE = 0,
	ROCEDP_PASS_NO_FORWARD, /* forwarding feature off (remark-only) */
	ROCEDP_PASS_NON_IP, /* ARP and other ethertypes */
	ROCEDP_PASS_MALFORMED,
	ROCEDP_PASS_VLAN, /* tagged frames are routed by the kernel */
	ROCEDP_PASS_MCAST, /* multicast/broadcast destination */
	ROCEDP_PASS_TTL, /* TTL / hop limit <= 1 */
	ROCEDP_PASS_NO_ROUTE,
	ROCEDP_PASS_LOCAL, /* route says local/kernel */
	ROCEDP_PASS_IP_OPTIONS, /* IPv4 options */
	ROCEDP_PASS_FRAGMENT,
	ROCEDP_PASS_ND, /* ICMPv6 neighbour discovery, link-local */
	ROCEDP_PASS_NO_MEMBER, /* group empty / all members down */
	ROCEDP_PASS_NO_GROUP,
	ROCEDP_PASS_REDIRECT_FAILED,
	ROCEDP_PASS_MARTIAN_SRC, /* source Linux never routes (127/8, ::1, ...) */
	ROCEDP_PASS_MARTIAN_DST, /* destination Linux never routes */
	ROCEDP_PASS_OTHER_HOST, /* unicast MAC not the ingress port's */
	ROCEDP_PASS_GROUP_BUSY, /* group rewritten while read: not trusted */
	ROCEDP_PASS_ROUTE_PENDING, /* a more-specific route is not installed */
	ROCEDP_PASS_MAX,
};

/* The dataplane's decision, independent of the hook. */
enum rocedp_verdict {
	ROCEDP_VERDICT_PASS = 0,
	ROCEDP_VERDICT_DROP,
	ROCEDP_VERDICT_TX,
	ROCEDP_VERDICT_REDIRECT,
	ROCEDP_VERDICT_ABORTED,
	ROCEDP_VERDICT_MAX,
};

/* AETH syndrome decoded (bits 6:5 type, 4:0 value) */
enum rocedp_aeth_kind {
	ROCEDP_AETH_NONE = 0,
	ROCEDP_AETH_ACK,
	ROCEDP_AETH_RNR_NAK,
	ROCEDP_AETH_NAK,
	ROCEDP_AETH_RESERVED,
};

enum rocedp_nak_code {
	ROCEDP_NAK_PSN_SEQ = 0,
	ROCEDP_NAK_INVALID_REQ = 1,
	ROCEDP_NAK_REMOTE_ACCESS = 2,
	ROCEDP_NAK_REMOTE_OP = 3,
	ROCEDP_NAK_INVALID_RD_REQ = 4,
};

#endif /* ROCEDP_ABI_VERDICT_H */
