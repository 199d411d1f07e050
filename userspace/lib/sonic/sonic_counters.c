// SPDX-License-Identifier: GPL-2.0
/*
 * COUNTERS_DB and STATE_DB as `rocedp sonic sync` writes them
 * (docs/sonic.md): the ports rocedp counts, learnt from CONFIG_DB, their
 * per-port and per-queue counters the way SONiC's flex counters write
 * them, and rocedp's hash capabilities.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>

#include "rocedp.h"
#include "config.h"
#include "pindir.h"
#include "sonic_counters.h"
#include "sonic_redis.h"
#include "stats.h"

#define N_QUEUES 8 /* SONiC's unicast queues per port */

/*
 * SAI object types in bits 48..55 of an OID, as syncd numbers them, and
 * "RD" in bits 32..47, which syncd's counters (small numbers there) never
 * hold: an OID with it is rocedp's, whatever port it names.
 */
#define OID_MARK (0x5244ull << 32)
#define OID_MARK_MASK (0xffffull << 32)
#define OID_PORT (0x01ull << 48 | OID_MARK)
#define OID_NHG (0x05ull << 48 | OID_MARK)
#define OID_QUEUE (0x15ull << 48 | OID_MARK)

/* What rocedp can hash on (docs/sonic.md): the 5-tuple, and the BTH
 * destination QP on top (hash.mode qp). */
static const char hash_fields[] =
	"SRC_IP,DST_IP,L4_SRC_PORT,L4_DST_PORT,IP_PROTOCOL,RDMA_BTH_DEST_QP";

void rd_scounters_init(struct rd_scounters *c, const char *ports_opt,
		       unsigned int qp_top)
{
	memset(c, 0, sizeof(*c));
	c->ports_opt = ports_opt;
	rd_maps_init(&c->m);
	rd_sqps_init(&c->qps, qp_top);
}

void rd_scounters_reopen(struct rd_scounters *c)
{
	if (c->maps_open)
		rd_maps_close(&c->m);
	c->maps_open = false;
}

void rd_scounters_close(struct rd_scounters *c)
{
	rd_scounters_reopen(c);
	rd_sqps_free(&c->qps);
}

/* A QP's ports by their SONiC names (rd_sqps_name_fn) */
static const char *sonic_port(void *ctx, unsigned int ifindex)
{
	const struct rd_scounters *c = ctx;
	unsigned int i;

	for (i = 0; i < c->n_ports; i++)
		if (c->ports[i].ifindex == ifindex)
			return c->ports[i].name;
	return NULL;
}

static int queue_of(const char *s)
{
	return *s >= '0' && *s < '0' + N_QUEUES ? *s - '0' : -1;
}

/* Add SONiC port name (len chars) to the ports once. */
static void add_port(struct rd_scounters *c, const char *name, size_t len)
{
	unsigned int i;

	if (len >= sizeof(c->ports[0].name) || c->n_ports >= RD_SCTR_MAX_PORTS)
		return;
	for (i = 0; i < c->n_ports; i++)
		if (!strncmp(c->ports[i].name, name, len) &&
		    !c->ports[i].name[len])
			return;
	snprintf(c->ports[c->n_ports++].name, sizeof(c->ports[0].name), "%.*s",
		 (int)len, name);
}

/* The Linux device of a SONiC port: its --ports entry, else its own name
 * (as on a SONiC box). Kept in buf. */
static const char *port_dev(const struct rd_scounters *c, const char *name,
			    char *buf, size_t len)
{
	const char *t = c->ports_opt;
	size_t n = strlen(name), m;

	while (t && *t) {
		m = strcspn(t, ",");
		if (m > n + 1 && !strncmp(t, name, n) && t[n] == '=') {
			snprintf(buf, len, "%.*s", (int)(m - n - 1), t + n + 1);
			return buf;
		}
		t += m + (t[m] == ',');
	}
	return name;
}

/*
 * The ports to count: PORT table keys and --ports names whose Linux device
 * exists here. ECN marks go to the port's lowest WRED-bound queue (the
 * lossless RoCE queue, 3 in SONiC's templates): rocedp marks per port.
 */
void rd_scounters_learn(struct rd_scounters *c, struct json_object *db)
{
	struct json_object *tbl = NULL, *obj;
	const char *t, *q;
	char dev[IF_NAMESIZE];
	unsigned int i;
	size_t n;

	c->n_ports = 0;
	for (t = c->ports_opt; t && *t; t += n + (t[n] == ',')) {
		n = strcspn(t, ",");
		if (memchr(t, '=', n))
			add_port(c, t, (const char *)memchr(t, '=', n) - t);
	}
	if (json_object_object_get_ex(db, "PORT", &tbl)) {
		json_object_object_foreach(tbl, key, val)
		{
			(void)val;
			add_port(c, key, strlen(key));
		}
	}
	for (i = 0; i < c->n_ports; i++) {
		struct rd_sport *p = &c->ports[i];

		n = strlen(p->name);
		snprintf(p->dev, sizeof(p->dev), "%s",
			 port_dev(c, p->name, dev, sizeof(dev)));
		p->ifindex = if_nametoindex(p->dev);
		p->roce_queue = -1;
		if (!json_object_object_get_ex(db, "QUEUE", &tbl))
			continue;
		json_object_object_foreach(tbl, key, val)
		{
			if (strncmp(key, p->name, n) || key[n] != '|' ||
			    !json_object_object_get_ex(val, "wred_profile",
						       &obj))
				continue;
			q = key + n + 1;
			if (queue_of(q) >= 0 &&
			    (p->roce_queue < 0 || queue_of(q) < p->roce_queue))
				p->roce_queue = queue_of(q);
		}
	}
	for (i = 0; i < c->n_ports; i++)
		if (c->ports[i].roce_queue < 0)
			c->ports[i].roce_queue = 3;
	snprintf(c->ars_name, sizeof(c->ars_name), "rocedp");
	if (json_object_object_get_ex(db, "ARS_OBJECT", &tbl)) {
		json_object_object_foreach(tbl, key, val)
		{
			(void)val;
			snprintf(c->ars_name, sizeof(c->ars_name), "%s", key);
			break;
		}
	}
}

static void oid(char *buf, size_t len, unsigned long long v)
{
	snprintf(buf, len, "oid:0x%llx", v);
}

/* A queue's OID: its port's ifindex and the queue number inside. */
static unsigned long long queue_oid(unsigned int ifindex, unsigned int q)
{
	return OID_QUEUE | (unsigned long long)ifindex << 8 | q;
}

const char *rd_srole_name(enum rd_srole role)
{
	return role == RD_SROLE_DATAPLANE    ? "dataplane" :
	       role == RD_SROLE_BESIDE_SYNCD ? "beside-syncd" :
					       "unknown";
}

/* "oid:0x..." that rocedp made (OID_MARK) */
static bool oid_ours(const char *v)
{
	unsigned long long o;
	char *end;

	if (strncmp(v, "oid:0x", 6))
		return false;
	o = strtoull(v + 6, &end, 16);
	return !*end && (o & OID_MARK_MASK) == OID_MARK;
}

/*
 * syncd's flex counters fill COUNTERS_PORT_NAME_MAP with the ASIC's port
 * OIDs. One entry rocedp did not write means syncd runs; an empty map, or
 * rocedp's entries only, means nobody else counts ports here. A failed
 * read keeps the role (unknown at first: rocedp's own tables only).
 */
bool rd_scounters_detect(struct rd_scounters *c, struct rd_sredis *r)
{
	enum rd_srole was = c->role, role = RD_SROLE_DATAPLANE;
	struct json_object *map = NULL;

	if (rd_sredis_hgetall(r, RD_SDB_COUNTERS(r), "COUNTERS_PORT_NAME_MAP",
			      4096, &map))
		return false;
	json_object_object_foreach(map, name, val)
	{
		(void)name;
		if (!oid_ours(json_object_get_string(val)))
			role = RD_SROLE_BESIDE_SYNCD;
	}
	json_object_put(map);
	c->role = role;
	return role != was;
}

static void hset1(struct rd_sredis *r, int db, const char *key, const char *f,
		  const char *v)
{
	const char *fv[] = { f, v };

	rd_sredis_hset(r, db, key, fv, 1);
}

/* SONiC's port and queue name maps: the dataplane role only */
static void names_dataplane(struct rd_scounters *c, struct rd_sredis *r)
{
	char key[80], o[40], po[40], idx[8];
	unsigned int i, q;

	for (i = 0; i < c->n_ports; i++) {
		const struct rd_sport *p = &c->ports[i];

		if (!p->ifindex)
			continue;
		oid(po, sizeof(po), OID_PORT | p->ifindex);
		hset1(r, RD_SDB_COUNTERS(r), "COUNTERS_PORT_NAME_MAP", p->name,
		      po);
		for (q = 0; q < N_QUEUES; q++) {
			snprintf(key, sizeof(key), "%s:%u", p->name, q);
			snprintf(idx, sizeof(idx), "%u", q);
			oid(o, sizeof(o), queue_oid(p->ifindex, q));
			hset1(r, RD_SDB_COUNTERS(r), "COUNTERS_QUEUE_NAME_MAP",
			      key, o);
			hset1(r, RD_SDB_COUNTERS(r), "COUNTERS_QUEUE_PORT_MAP",
			      o, po);
			hset1(r, RD_SDB_COUNTERS(r), "COUNTERS_QUEUE_INDEX_MAP",
			      o, idx);
			hset1(r, RD_SDB_COUNTERS(r), "COUNTERS_QUEUE_TYPE_MAP",
			      o, "SAI_QUEUE_TYPE_UNICAST");
		}
	}
	oid(o, sizeof(o), OID_NHG | 1);
	hset1(r, RD_SDB_COUNTERS(r), "COUNTERS_ARS_NAME_MAP", c->ars_name, o);
}

void rd_scounters_names(struct rd_scounters *c, struct rd_sredis *r)
{
	const char *cap[] = { "HASH|NATIVE_HASH_FIELD_LIST", hash_fields,
			      "ECMP_HASH_CAPABLE", "true", "LAG_HASH_CAPABLE",
			      "false",
			      /* one hash function, none of SAI's names */
			      "ECMP_HASH_ALGORITHM_CAPABLE", "false",
			      "LAG_HASH_ALGORITHM_CAPABLE", "false" };

	rd_scounters_detect(c, r);
	hset1(r, RD_SDB_STATE(r), "ROCEDP|status", "role",
	      rd_srole_name(c->role));
	/* rocedp's own, in every role */
	rd_sredis_hset(r, RD_SDB_STATE(r), "ROCEDP_CAPABILITY|switch", cap,
		       ARRAY_LEN(cap) / 2);
	if (c->role == RD_SROLE_DATAPLANE) {
		names_dataplane(c, r);
		/* orchagent's beside syncd; the switch's own is rocedp here */
		rd_sredis_hset(r, RD_SDB_STATE(r), "SWITCH_CAPABILITY|switch",
			       cap, ARRAY_LEN(cap) / 2);
	}
	rd_sredis_flush(r);
}

static bool maps_ready(struct rd_scounters *c)
{
	if (!c->maps_open && !rd_maps_open_pinned(&c->m, rd_pin_dir()))
		c->maps_open = true;
	return c->maps_open;
}

static void u64s(char *buf, __u64 v)
{
	snprintf(buf, 24, "%llu", (unsigned long long)v);
}

/* Port i's counters; false when it has no device or cannot be read. */
static bool port_stats(struct rd_scounters *c, unsigned int i,
		       struct rocedp_port_stats *ps)
{
	__u32 k = c->ports[i].ifindex;

	return k && !rd_percpu_sum(c->m.fd[RD_MAP_PORT_STATS], &k, (__u64 *)ps,
				   sizeof(*ps) / 8);
}

/* "COUNTERS:oid:0x..." (or another prefix) */
static void ctr_key(char *key, size_t len, const char *prefix,
		    unsigned long long v)
{
	snprintf(key, len, "%s:oid:0x%llx", prefix, v);
}

/*
 * The kernel's own counters of a device in this process's namespace
 * (/proc/self/net/dev: receive errs, drop, frame; transmit errs, drop).
 * The frame column folds length, overrun, CRC and alignment errors: Linux
 * has no oversize counter of its own, and it is the nearest.
 */
struct kdev {
	unsigned long long rx_errs, rx_drop, rx_frame, tx_errs, tx_drop;
};

static int kernel_dev(const char *dev, struct kdev *k)
{
	unsigned long long v[16];
	char line[512], *colon, *name;
	FILE *f = fopen("/proc/self/net/dev", "r");
	int found = -ENODEV;

	if (!f)
		return -errno;
	while (found && fgets(line, sizeof(line), f)) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = 0;
		for (name = line; *name == ' '; name++)
			;
		if (strcmp(name, dev))
			continue;
		if (sscanf(colon + 1,
			   "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu "
			   "%llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7], &v[8], &v[9], &v[10], &v[11], &v[12], &v[13],
			   &v[14], &v[15]) != 16)
			break;
		k->rx_errs = v[2];
		k->rx_drop = v[3];
		k->rx_frame = v[5];
		k->tx_errs = v[10];
		k->tx_drop = v[11];
		found = 0;
	}
	fclose(f);
	return found;
}

/* rocedp's own table, every role: the dataplane's view of the port */
static void port_own(struct rd_sredis *r, const struct rd_sport *p,
		     const struct rocedp_port_stats *ps)
{
	char key[96], v[9][24];
	const char *fv[] = { "rx_pkts",	       v[0], "rx_bytes",	 v[1],
			     "rx_mcast",       v[2], "rx_bcast",	 v[3],
			     "tx_pkts",	       v[4], "tx_bytes",	 v[5],
			     "ecn_marked",     v[6], "ecn_marked_bytes", v[7],
			     "ecn_would_mark", v[8] };

	u64s(v[0], ps->rx_pkts);
	u64s(v[1], ps->rx_bytes);
	u64s(v[2], ps->rx_mcast);
	u64s(v[3], ps->rx_bcast);
	u64s(v[4], ps->tx_pkts);
	u64s(v[5], ps->tx_bytes);
	u64s(v[6], ps->ecn_marked);
	u64s(v[7], ps->ecn_marked_bytes);
	u64s(v[8], ps->ecn_would_mark);
	snprintf(key, sizeof(key), "COUNTERS_ROCEDP:%s", p->name);
	rd_sredis_hset(r, RD_SDB_COUNTERS(r), key, fv, ARRAY_LEN(fv) / 2);
}

/*
 * SAI's trim counters of a port (abi_trim.h): rocedp's own table in
 * every role, and the port's COUNTERS:oid as the dataplane, where
 * SONiC's trimming reads them. A port rocedp cannot read keeps none.
 */
static void port_trim(struct rd_scounters *c, struct rd_sredis *r,
		      const struct rd_sport *p)
{
	struct rocedp_trim_stats t;
	char key[96], v[4][24];
	__u32 k = p->ifindex;
	/* the names of `rocedp -j stats`, then SAI's for the same three */
	const char *own[] = { "trim_packets",	      v[0],
			      "tx_trim_packets",      v[1],
			      "dropped_trim_packets", v[2],
			      "tail_drop_packets",    v[3] };
	const char *sai[] = { "SAI_PORT_STAT_TRIM_PACKETS",	    v[0],
			      "SAI_PORT_STAT_TX_TRIM_PACKETS",	    v[1],
			      "SAI_PORT_STAT_DROPPED_TRIM_PACKETS", v[2] };

	if (!k || rd_percpu_sum(c->m.fd[RD_MAP_TRIM_STATS], &k, (__u64 *)&t,
				sizeof(t) / 8))
		return;
	u64s(v[0], t.trim_pkts);
	u64s(v[1], t.tx_trim_pkts);
	u64s(v[2], t.dropped_trim_pkts);
	u64s(v[3], t.tail_drop_pkts);
	snprintf(key, sizeof(key), "COUNTERS_ROCEDP:%s", p->name);
	rd_sredis_hset(r, RD_SDB_COUNTERS(r), key, own, ARRAY_LEN(own) / 2);
	if (c->role != RD_SROLE_DATAPLANE)
		return;
	ctr_key(key, sizeof(key), "COUNTERS", OID_PORT | p->ifindex);
	rd_sredis_hset(r, RD_SDB_COUNTERS(r), key, sai, ARRAY_LEN(sai) / 2);
}

static void rate(char *buf, unsigned long long now, unsigned long long was,
		 unsigned long long ms)
{
	snprintf(buf, 24, "%.2f",
		 now >= was && ms ? (double)(now - was) * 1000.0 / ms : 0.0);
}

/*
 * The dataplane role: every field portstat reads (docs/sonic.md).
 * Received frames are all seen by rocedp's XDP program, group-addressed
 * ones split off; transmitted are what rocedp forwarded (never
 * group-addressed: those go to the kernel). Errors and discards are the
 * kernel's. RATES over the last port interval.
 */
static void port_sai(struct rd_sredis *r, struct rd_sport *p,
		     const struct rocedp_port_stats *ps, unsigned long long ms)
{
	struct kdev k = { 0 };
	char key[64], v[15][24], rt[4][24];
	unsigned long long nu = ps->rx_mcast + ps->rx_bcast;
	const char *fv[] = {
		"SAI_PORT_STAT_IF_IN_UCAST_PKTS",
		v[0],
		"SAI_PORT_STAT_IF_IN_NON_UCAST_PKTS",
		v[1],
		"SAI_PORT_STAT_IF_IN_MULTICAST_PKTS",
		v[2],
		"SAI_PORT_STAT_IF_IN_BROADCAST_PKTS",
		v[3],
		"SAI_PORT_STAT_IF_IN_OCTETS",
		v[4],
		"SAI_PORT_STAT_IF_IN_ERRORS",
		v[5],
		"SAI_PORT_STAT_IF_IN_DISCARDS",
		v[6],
		"SAI_PORT_STAT_ETHER_RX_OVERSIZE_PKTS",
		v[7],
		"SAI_PORT_STAT_IF_OUT_UCAST_PKTS",
		v[8],
		"SAI_PORT_STAT_IF_OUT_NON_UCAST_PKTS",
		"0",
		"SAI_PORT_STAT_IF_OUT_MULTICAST_PKTS",
		"0",
		"SAI_PORT_STAT_IF_OUT_BROADCAST_PKTS",
		"0",
		"SAI_PORT_STAT_IF_OUT_OCTETS",
		v[9],
		"SAI_PORT_STAT_IF_OUT_ERRORS",
		v[10],
		"SAI_PORT_STAT_IF_OUT_DISCARDS",
		v[11],
		/* rocedp passes a frame over the egress MTU to the kernel */
		"SAI_PORT_STAT_ETHER_TX_OVERSIZE_PKTS",
		"0",
	};
	const char *rv[] = { "RX_BPS", rt[0], "RX_PPS", rt[1],
			     "TX_BPS", rt[2], "TX_PPS", rt[3] };
	unsigned long long cur[4] = { ps->rx_pkts, ps->rx_bytes, ps->tx_pkts,
				      ps->tx_bytes };
	unsigned int n = ARRAY_LEN(fv) / 2;

	/* a device gone since learn: its kernel counters read 0 */
	(void)kernel_dev(p->dev, &k);
	u64s(v[0], ps->rx_pkts >= nu ? ps->rx_pkts - nu : 0);
	u64s(v[1], nu);
	u64s(v[2], ps->rx_mcast);
	u64s(v[3], ps->rx_bcast);
	u64s(v[4], ps->rx_bytes);
	u64s(v[5], k.rx_errs);
	u64s(v[6], k.rx_drop);
	u64s(v[7], k.rx_frame);
	u64s(v[8], ps->tx_pkts);
	u64s(v[9], ps->tx_bytes);
	u64s(v[10], k.tx_errs);
	u64s(v[11], k.tx_drop);
	ctr_key(key, sizeof(key), "COUNTERS", OID_PORT | p->ifindex);
	rd_sredis_hset(r, RD_SDB_COUNTERS(r), key, fv, n);
	if (p->prev_ms && ms > p->prev_ms) {
		rate(rt[0], cur[1], p->prev[1], ms - p->prev_ms);
		rate(rt[1], cur[0], p->prev[0], ms - p->prev_ms);
		rate(rt[2], cur[3], p->prev[3], ms - p->prev_ms);
		rate(rt[3], cur[2], p->prev[2], ms - p->prev_ms);
		ctr_key(key, sizeof(key), "RATES", OID_PORT | p->ifindex);
		rd_sredis_hset(r, RD_SDB_COUNTERS(r), key, rv, 4);
	}
	p->prev_ms = ms;
	memcpy(p->prev, cur, sizeof(cur));
}

static unsigned long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int rd_scounters_ports(struct rd_scounters *c, struct rd_sredis *r)
{
	char key[96], v[2][24];
	struct rocedp_port_stats ps;
	unsigned long long ms = mono_ms();
	__u64 ctr[ROCEDP_CTR_MAX];
	unsigned int i;

	if (!maps_ready(c))
		return 0;
	for (i = 0; i < c->n_ports; i++) {
		if (!port_stats(c, i, &ps))
			continue;
		port_own(r, &c->ports[i], &ps);
		if (c->role == RD_SROLE_DATAPLANE)
			port_sai(r, &c->ports[i], &ps, ms);
		port_trim(c, r, &c->ports[i]);
	}
	/* ARS: rocedp counts flowlet moves for the whole switch */
	if (!rd_counters_read(c->m.fd[RD_MAP_STATS], ctr)) {
		const char *av[] = {
			"SAI_NEXT_HOP_GROUP_ATTR_ARS_NEXT_HOP_REASSIGNMENTS",
			v[0],
			"SAI_NEXT_HOP_GROUP_ATTR_ARS_PORT_REASSIGNMENTS",
			v[1],
			"SAI_NEXT_HOP_GROUP_ATTR_ARS_PACKET_DROPS",
			"0",
		};

		u64s(v[0], ctr[ROCEDP_CTR_FLOWLET_MOVE]);
		u64s(v[1], ctr[ROCEDP_CTR_FLOWLET_MEMBER_GONE]);
		snprintf(key, sizeof(key), "COUNTERS_ROCEDP_ARS:%s",
			 c->ars_name);
		rd_sredis_hset(r, RD_SDB_COUNTERS(r), key, av, 3);
		if (c->role == RD_SROLE_DATAPLANE) {
			ctr_key(key, sizeof(key), "COUNTERS", OID_NHG | 1);
			rd_sredis_hset(r, RD_SDB_COUNTERS(r), key, av, 3);
		}
	}
	/* per QP, every role: SONiC has no QP counters of its own */
	if (rd_sqps_write(&c->qps, &c->m, r, sonic_port, c) == -EIO)
		return -EIO;
	return rd_sredis_flush(r) == -EIO ? -EIO : 0;
}

/* RoCE frames out of a port: the classes before ROCEDP_CLASS_IP */
static __u64 tx_roce_pkts(const struct rocedp_port_stats *ps)
{
	__u64 n = 0;
	unsigned int k;

	for (k = 0; k < ROCEDP_CLASS_IP; k++)
		n += ps->tx_class[k];
	return n;
}

/*
 * The dataplane role's queues. rocedp sends each port's frames through one
 * path (XDP redirect has no traffic classes), so it files them where SONiC
 * would queue them by kind: RoCE under the port's RoCE queue (where it
 * also marks), everything else under queue 0, the others empty. It never
 * drops in a queue (it has none), so the drop counters are 0.
 */
static void queues_sai(struct rd_sredis *r, const struct rd_sport *p,
		       const struct rocedp_port_stats *ps)
{
	char key[64], v[4][24];
	const char *fv[] = { "SAI_QUEUE_STAT_PACKETS",
			     v[0],
			     "SAI_QUEUE_STAT_BYTES",
			     v[1],
			     "SAI_QUEUE_STAT_DROPPED_PACKETS",
			     "0",
			     "SAI_QUEUE_STAT_DROPPED_BYTES",
			     "0",
			     "SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS",
			     v[2],
			     "SAI_QUEUE_STAT_WRED_ECN_MARKED_BYTES",
			     v[3] };
	__u64 rp = tx_roce_pkts(ps), rb = ps->tx_roce_bytes;
	unsigned int q;
	bool roce;

	for (q = 0; q < N_QUEUES; q++) {
		roce = (int)q == p->roce_queue;
		u64s(v[0], roce			       ? rp :
			   q == 0 && ps->tx_pkts >= rp ? ps->tx_pkts - rp :
							 0);
		u64s(v[1], roce				? rb :
			   q == 0 && ps->tx_bytes >= rb ? ps->tx_bytes - rb :
							  0);
		/* rocedp marks on one queue: the port's RoCE queue */
		u64s(v[2], roce ? ps->ecn_marked : 0);
		u64s(v[3], roce ? ps->ecn_marked_bytes : 0);
		ctr_key(key, sizeof(key), "COUNTERS", queue_oid(p->ifindex, q));
		rd_sredis_hset(r, RD_SDB_COUNTERS(r), key, fv,
			       ARRAY_LEN(fv) / 2);
	}
}

void rd_scounters_queues(struct rd_scounters *c, struct rd_sredis *r)
{
	struct rocedp_port_stats ps;
	enum rd_srole was = c->role;
	unsigned int i;

	/* syncd may start after rocedp: look again at this pace */
	if (rd_scounters_detect(c, r)) {
		hset1(r, RD_SDB_STATE(r), "ROCEDP|status", "role",
		      rd_srole_name(c->role));
		if (was == RD_SROLE_UNKNOWN && c->role == RD_SROLE_DATAPLANE)
			rd_scounters_names(c, r);
	}
	if (!maps_ready(c))
		return;
	for (i = 0; c->role == RD_SROLE_DATAPLANE && i < c->n_ports; i++)
		if (port_stats(c, i, &ps))
			queues_sai(r, &c->ports[i], &ps);
	rd_sredis_flush(r);
	/* reopened next time: a detach and attach pins new maps */
	rd_scounters_reopen(c);
}
