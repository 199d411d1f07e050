/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Path-quality probes in the dataplane fuzzer (docs/paths.md, docs/fuzz.md).
 * Both engines run with probes on: role leaf, or spine for inputs whose
 * probe flags byte has 0x40; the key is the fixtures' own, so their valid
 * probes (in the seeds) stay valid. A probe whose flags byte has 0x80 is
 * signed by the harness before the run, with 0x20 its timestamp first set
 * to the clock, so mutations reach the checks behind the authenticator.
 *
 * Invariants, from the harness's own parse: only a UDP frame to the probe
 * port is ever dropped, and a dropped frame leaves unchanged; a spine
 * changes only the probe's band, hops, authenticator and UDP checksum, and
 * what it sends on verifies, one hop more, its band no better; rd_pathq
 * changes only for a probe that is authentic, newer than the entry, not
 * stale, not the leaf's own and under the hop limit, and then holds its
 * sequence and a band no better than the probe's.
 */
#ifndef ROCEDP_FUZZ_PROBE_H
#define ROCEDP_FUZZ_PROBE_H

#include "probes.h"
#include "probew.h"
#include "probe_auth.h"

#define FZP_KEY "000102030405060708090a0b0c0d0e0f"
#define FZP_LEAF 1

struct fzp {
	bool is; /* IPv4 UDP to the probe port, the UDP header inside */
	bool whole; /* the 32-byte probe inside the frame too */
	int l4; /* UDP header offset */
	__u32 role;
	__u32 origin;
	/* the entries it could touch, by ingress port: 0 (tc), 1 (XDP) */
	struct rocedp_pathq before[2];
	bool had[2];
	struct rocedp_probe_cfg pc;
	uint64_t taken, dropped, stamped; /* for the summary */
};

static struct fzp fzp;

static int fzp_role(struct rd_engine *e, __u32 role)
{
	fzp.pc.role = role;
	return rd_probe_cfg_write(rd_engine_maps(e), &fzp.pc);
}

/*
 * Both engines: the settings, and the runs' ingress fabric: 0 on tc, 1 on
 * XDP (a test run without an ingress device gets the loopback's).
 */
static int fzp_setup(struct rd_engine *a, struct rd_engine *b)
{
	struct rocedp_probe_port pp = { .flags = ROCEDP_PROBE_PORT_FABRIC };
	rd_probe_cfg_defaults(&fzp.pc);
	if (rd_probe_cfg_set(&fzp.pc, "leaf-id", "1", NULL, 0) ||
	    rd_probe_cfg_set(&fzp.pc, "key", FZP_KEY, NULL, 0))
		return -1;
	fzp.role = ROCEDP_PROBE_ROLE_LEAF;
	return fzp_role(a, fzp.role) || fzp_role(b, fzp.role) ||
	       rd_probe_port_write(rd_engine_maps(a), 0, &pp) ||
	       rd_probe_port_write(rd_engine_maps(b), 0, &pp) ||
	       rd_probe_port_write(rd_engine_maps(a), 1, &pp) ||
	       rd_probe_port_write(rd_engine_maps(b), 1, &pp);
}

static __u64 fzp_word(const uint8_t *p)
{
	__u64 w;

	memcpy(&w, p, 8);
	return le64toh(w);
}

static bool fzp_auth_ok(const uint8_t *h)
{
	return fzp_word(h + 24) == rd_probe_auth(fzp.pc.key[0], fzp.pc.key[1],
						 fzp_word(h), fzp_word(h + 8),
						 fzp_word(h + 16));
}

/* IPv6 to the probe port, past the extension headers the parser walks. */
static bool fzp_udp6(const uint8_t *f, uint32_t len, int l3)
{
	uint32_t off = l3 + 40;
	unsigned int nh = f[l3 + 6], cur;
	int i;

	for (i = 0; i < ROCEDP_MAX_IPV6_EXT; i++) {
		if (nh != 0 && nh != 43 && nh != 44 && nh != 60)
			break;
		if (off + 2 > len)
			return false;
		cur = nh;
		nh = f[off];
		off += cur == 44 ? 8 : (f[off + 1] + 1u) * 8;
	}
	return nh == 17 && off + 8 <= len &&
	       be16(f + off + 2) == ROCEDP_PROBE_DEFAULT_PORT;
}

/* Parse, maybe sign, pick the role, remember the entry it could touch. */
static void fzp_prepare(uint8_t *f, uint32_t len, const struct layout *l,
			uint64_t now, struct rd_engine *a, struct rd_engine *b)
{
	uint8_t *h;
	__u64 w, ts;
	__u32 role;

	struct rocedp_pathq_key k = { 0 };
	int i;

	fzp.is = fzp.whole = fzp.had[0] = fzp.had[1] = false;
	if (l->family == 6) {
		/* dropped as malformed, never taken: only is matters */
		fzp.is = fzp_udp6(f, len, l->l3_off);
		return;
	}
	if (l->family != 4 || !l->ihl_bytes || f[l->l3_off + 9] != 17)
		return;
	fzp.l4 = l->l3_off + l->ihl_bytes;
	if ((uint32_t)fzp.l4 + 8 > len ||
	    be16(f + fzp.l4 + 2) != ROCEDP_PROBE_DEFAULT_PORT)
		return;
	fzp.is = true;
	fzp.whole = (uint32_t)fzp.l4 + 8 + 32 <= len;
	if (!fzp.whole)
		return;
	h = f + fzp.l4 + 8;
	if (h[5] & 0x20) {
		ts = htobe64(now - 1000);
		memcpy(h + 16, &ts, 8);
	}
	if (h[5] & 0x80) {
		w = htole64(rd_probe_auth(fzp.pc.key[0], fzp.pc.key[1],
					  fzp_word(h), fzp_word(h + 8),
					  fzp_word(h + 16)));
		memcpy(h + 24, &w, 8);
	}
	role = h[5] & 0x40 ? ROCEDP_PROBE_ROLE_SPINE : ROCEDP_PROBE_ROLE_LEAF;
	if (role != fzp.role && (fzp_role(a, role) || fzp_role(b, role))) {
		fprintf(stderr, "fuzz: probe role not set\n");
		abort();
	}
	fzp.role = role;
	fzp.origin = k.leaf = be16(h + 6);
	for (i = 0; i < 2; i++) {
		k.ifindex = i;
		fzp.had[i] = !bpf_map_lookup_elem(
			rd_engine_maps(a)->fd[RD_MAP_PATHQ], &k,
			&fzp.before[i]);
	}
}

/* Bits an ingress hook may change in a probe a spine stamps. */
static void fzp_mask(uint8_t *m, uint32_t len)
{
	int p = fzp.l4 + 8;

	if (!fzp.whole || fzp.role != ROCEDP_PROBE_ROLE_SPINE)
		return;
	m[fzp.l4 + 6] = m[fzp.l4 + 7] = 0xff; /* UDP checksum */
	m[p + 3] = m[p + 4] = 0xff; /* hops, band */
	memset(m + p + 24, 0xff, 8); /* authenticator */
	(void)len;
}

/* After an ingress run on port (0 tc, 1 XDP); a complaint or NULL. */
static const char *fzp_check(const struct rd_run *r, const uint8_t *in,
			     uint32_t len, uint64_t now, struct rd_engine *e,
			     __u32 port)
{
	const uint8_t *h = in + fzp.l4 + 8, *o = r->out + fzp.l4 + 8;
	struct rocedp_pathq_key k = { .leaf = fzp.origin, .ifindex = port };
	struct rocedp_pathq q;
	bool has, changed;
	__u64 ts;
	__s32 d;

	if (r->verdict == ROCEDP_VERDICT_DROP) {
		fzp.dropped++;
		if (!fzp.is)
			return "dropped a frame that is no probe";
		if (r->out_len != len || memcmp(r->out, in, len))
			return "a dropped probe was changed";
	}
	if (fzp.is && fzp.whole && fzp.role == ROCEDP_PROBE_ROLE_SPINE &&
	    r->verdict != ROCEDP_VERDICT_DROP && memcmp(o, h, 32)) {
		fzp.stamped++;
		if (!fzp_auth_ok(h))
			return "a spine stamped a probe that is not authentic";
		if (!fzp_auth_ok(o))
			return "a stamped probe does not verify";
		if (o[3] != h[3] + 1 || o[4] < h[4])
			return "stamped: not one hop more, or a better band";
	}
	if (!fzp.whole)
		return NULL;
	has = !bpf_map_lookup_elem(rd_engine_maps(e)->fd[RD_MAP_PATHQ], &k, &q);
	changed = has != fzp.had[port] ||
		  (has && memcmp(&q, &fzp.before[port], sizeof(q)));
	if (!changed)
		return NULL;
	fzp.taken++;
	memcpy(&ts, h + 16, 8);
	ts = be64toh(ts);
	d = (__s32)(be32(h + 8) - fzp.before[port].seq);
	if (fzp.role != ROCEDP_PROBE_ROLE_LEAF || !fzp_auth_ok(h) ||
	    be16(h) != ROCEDP_PROBE_MAGIC || h[2] != ROCEDP_PROBE_VERSION ||
	    fzp.origin == FZP_LEAF || h[3] >= fzp.pc.max_hops ||
	    (fzp.had[port] && d <= 0) ||
	    ts + fzp.pc.timeout_us * 1000ull < now ||
	    ts > now + fzp.pc.timeout_us * 1000ull)
		return "rd_pathq changed for a probe it must refuse";
	if (!has || q.seq != be32(h + 8) || q.band > 7 ||
	    q.band < (h[4] > 7 ? 7 : h[4]) || q.last_ns != now)
		return "rd_pathq entry does not hold the probe it took";
	return NULL;
}

#endif
