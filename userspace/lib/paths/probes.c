// SPDX-License-Identifier: GPL-2.0
/*
 * Path-quality probes, userspace side: settings and the probe frame
 * (docs/paths.md). The authenticator is the dataplane's own code
 * (bpf/probe_auth.h), so sender, tests and programs agree by construction.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes.h"
#include "probe_auth.h"
#include "frame.h"

void rd_probe_cfg_defaults(struct rocedp_probe_cfg *pc)
{
	memset(pc, 0, sizeof(*pc));
	pc->udp_port = ROCEDP_PROBE_DEFAULT_PORT;
	pc->dscp = ROCEDP_PROBE_DEFAULT_DSCP;
	pc->max_hops = ROCEDP_PROBE_DEFAULT_MAX_HOPS;
	pc->timeout_us = ROCEDP_PROBE_DEFAULT_TIMEOUT_US;
	pc->interval_us = ROCEDP_PROBE_DEFAULT_INTERVAL_US;
	pc->flags = ROCEDP_PROBEF_CHECK_AGE;
}

static const char *const role_names[] = {
	[ROCEDP_PROBE_ROLE_NONE] = "none",
	[ROCEDP_PROBE_ROLE_LEAF] = "leaf",
	[ROCEDP_PROBE_ROLE_SPINE] = "spine",
};

const char *rd_probe_role_name(__u32 role)
{
	return role <= ROCEDP_PROBE_ROLE_SPINE ? role_names[role] : "?";
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int rd_probe_key_parse(const char *hex, __u64 key[2])
{
	__u8 b[16];
	int i, hi, lo;

	if (strlen(hex) != 32)
		return -EINVAL;
	for (i = 0; i < 16; i++) {
		hi = hexval(hex[2 * i]);
		lo = hexval(hex[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -EINVAL;
		b[i] = hi << 4 | lo;
	}
	/* SipHash's key is 16 bytes read as two little-endian words */
	key[0] = key[1] = 0;
	for (i = 7; i >= 0; i--) {
		key[0] = key[0] << 8 | b[i];
		key[1] = key[1] << 8 | b[8 + i];
	}
	return 0;
}

static int num(const char *s, unsigned long lo, unsigned long hi,
	       unsigned long *v)
{
	char *end;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoul(s, &end, 0);
	if (errno || *end || *v < lo || *v > hi)
		return -EINVAL;
	return 0;
}

static int onoff(const char *s, __u32 *flags, __u32 bit)
{
	if (!strcmp(s, "on"))
		*flags |= bit;
	else if (!strcmp(s, "off"))
		*flags &= ~bit;
	else
		return -EINVAL;
	return 0;
}

int rd_probe_cfg_set(struct rocedp_probe_cfg *pc, const char *k, const char *s,
		     char *why, size_t why_len)
{
	struct rocedp_probe_cfg n = *pc;
	unsigned long v;
	int err = 0;

	if (!strcmp(k, "role")) {
		if (!strcmp(s, "none"))
			n.role = ROCEDP_PROBE_ROLE_NONE;
		else if (!strcmp(s, "leaf"))
			n.role = ROCEDP_PROBE_ROLE_LEAF;
		else if (!strcmp(s, "spine"))
			n.role = ROCEDP_PROBE_ROLE_SPINE;
		else
			err = -EINVAL;
	} else if (!strcmp(k, "leaf-id")) {
		err = num(s, 0, 0xffff, &v);
		n.leaf_id = v;
	} else if (!strcmp(k, "port")) {
		err = num(s, 1, 0xffff, &v);
		if (!err && v == ROCEDP_ROCEV2_PORT)
			err = -EINVAL; /* RoCE's own: the express path */
		n.udp_port = v;
	} else if (!strcmp(k, "key")) {
		err = rd_probe_key_parse(s, n.key);
	} else if (!strcmp(k, "timeout-us")) {
		/* a probe round must fit: at least 10 us */
		err = num(s, 10, 3000000, &v);
		n.timeout_us = v;
	} else if (!strcmp(k, "interval-us")) {
		err = num(s, 10, 1000000, &v);
		n.interval_us = v;
	} else if (!strcmp(k, "dscp")) {
		if (!strcmp(s, "leave")) {
			n.dscp = 0xff;
		} else {
			err = num(s, 0, 63, &v);
			n.dscp = v;
		}
	} else if (!strcmp(k, "max-hops")) {
		err = num(s, 1, 255, &v);
		n.max_hops = v;
	} else if (!strcmp(k, "check-age")) {
		err = onoff(s, &n.flags, ROCEDP_PROBEF_CHECK_AGE);
	} else if (!strcmp(k, "steer")) {
		err = onoff(s, &n.flags, ROCEDP_PROBEF_STEER);
	} else {
		snprintf(why, why_len, "'%s' is no probe setting", k);
		return -EINVAL;
	}
	if (err) {
		snprintf(why, why_len, "%s: '%s' is not a valid value", k, s);
		return err;
	}
	*pc = n;
	return 0;
}

int rd_probe_cfg_check(const struct rocedp_probe_cfg *pc, char *why,
		       size_t why_len)
{
	if (pc->interval_us >= pc->timeout_us) {
		snprintf(why, why_len,
			 "interval-us %u must be below timeout-us %u",
			 pc->interval_us, pc->timeout_us);
		return -EINVAL;
	}
	return 0;
}

static void hdr_words(const struct rocedp_probe_hdr *h, __u64 w[3])
{
	memcpy(w, h, 3 * sizeof(__u64));
	w[0] = le64toh(w[0]);
	w[1] = le64toh(w[1]);
	w[2] = le64toh(w[2]);
}

void rd_probe_hdr_make(struct rocedp_probe_hdr *h,
		       const struct rocedp_probe_cfg *pc, __u16 origin,
		       __u32 seq, __u64 ts_ns, __u8 band, __u8 hops)
{
	__u64 w[3], a;

	memset(h, 0, sizeof(*h));
	h->magic = htobe16(ROCEDP_PROBE_MAGIC);
	h->version = ROCEDP_PROBE_VERSION;
	h->hops = hops;
	h->band = band;
	h->origin = htobe16(origin);
	h->seq = htobe32(seq);
	h->ts_ns = htobe64(ts_ns);
	hdr_words(h, w);
	a = htole64(rd_probe_auth(pc->key[0], pc->key[1], w[0], w[1], w[2]));
	memcpy(&h->auth, &a, sizeof(a));
}

bool rd_probe_hdr_ok(const struct rocedp_probe_hdr *h,
		     const struct rocedp_probe_cfg *pc)
{
	__u64 w[3], a;

	hdr_words(h, w);
	memcpy(&a, &h->auth, sizeof(a));
	return le64toh(a) ==
	       rd_probe_auth(pc->key[0], pc->key[1], w[0], w[1], w[2]);
}

size_t rd_probe_frame(uint8_t *buf, size_t size,
		      const struct rocedp_probe_cfg *pc,
		      const struct rd_probe_dest *d, __u32 seq, __u64 ts_ns)
{
	struct rocedp_probe_hdr h;
	struct rd_frame f = { 0 };

	rd_probe_hdr_make(&h, pc, pc->leaf_id, seq, ts_ns, 0, 0);
	memcpy(f.dmac, d->dmac, 6);
	memcpy(f.smac, d->smac, 6);
	f.src4 = d->src4;
	f.dst4 = d->dst4;
	f.tos = pc->dscp < 64 ? pc->dscp << 2 : 0;
	f.sport = pc->udp_port;
	return rd_frame_build_udp4(buf, size, &f, pc->udp_port, &h, sizeof(h));
}
