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
#include <string.h>
#include <bpf/bpf.h>

#include "rocedp.h"
#include "config.h"
#include "pindir.h"
#include "sonic_counters.h"
#include "sonic_redis.h"
#include "stats.h"

#define N_QUEUES 8 /* SONiC's unicast queues per port */

/* SAI object types in the top byte of an OID, as syncd numbers them */
#define OID_PORT (0x01ull << 48)
#define OID_NHG (0x05ull << 48)
#define OID_QUEUE (0x15ull << 48)

/* What rocedp can hash on (docs/sonic.md): the 5-tuple, and the BTH
 * destination QP on top (hash.mode qp). */
static const char hash_fields[] =
	"SRC_IP,DST_IP,L4_SRC_PORT,L4_DST_PORT,IP_PROTOCOL,RDMA_BTH_DEST_QP";

void rd_scounters_init(struct rd_scounters *c, const char *ports_opt)
{
	memset(c, 0, sizeof(*c));
	c->ports_opt = ports_opt;
	rd_maps_init(&c->m);
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
		p->ifindex =
			if_nametoindex(port_dev(c, p->name, dev, sizeof(dev)));
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

void rd_scounters_names(struct rd_scounters *c, struct rd_sredis *r)
{
	char key[80], o[40];
	const char *fv[2] = { key, o };
	const char *cap[] = { "HASH|NATIVE_HASH_FIELD_LIST", hash_fields,
			      "ECMP_HASH_CAPABLE", "true", "LAG_HASH_CAPABLE",
			      "false",
			      /* one hash function, none of SAI's names */
			      "ECMP_HASH_ALGORITHM_CAPABLE", "false",
			      "LAG_HASH_ALGORITHM_CAPABLE", "false" };
	unsigned int i, q;

	for (i = 0; i < c->n_ports; i++) {
		const struct rd_sport *p = &c->ports[i];

		if (!p->ifindex)
			continue;
		snprintf(key, sizeof(key), "%s", p->name);
		oid(o, sizeof(o), OID_PORT | p->ifindex);
		rd_sredis_hset(r, RD_SONIC_COUNTERS_DB,
			       "COUNTERS_PORT_NAME_MAP", fv, 1);
		for (q = 0; q < N_QUEUES; q++) {
			snprintf(key, sizeof(key), "%s:%u", p->name, q);
			oid(o, sizeof(o), queue_oid(p->ifindex, q));
			rd_sredis_hset(r, RD_SONIC_COUNTERS_DB,
				       "COUNTERS_QUEUE_NAME_MAP", fv, 1);
		}
	}
	snprintf(key, sizeof(key), "%s", c->ars_name);
	oid(o, sizeof(o), OID_NHG | 1);
	rd_sredis_hset(r, RD_SONIC_COUNTERS_DB, "COUNTERS_ARS_NAME_MAP", fv, 1);
	rd_sredis_hset(r, RD_SONIC_STATE_DB, "SWITCH_CAPABILITY|switch", cap,
		       ARRAY_LEN(cap) / 2);
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

/* "COUNTERS:oid:0x..." */
static void ctr_key(char *key, size_t len, unsigned long long v)
{
	snprintf(key, len, "COUNTERS:oid:0x%llx", v);
}

int rd_scounters_ports(struct rd_scounters *c, struct rd_sredis *r)
{
	char key[64], v[4][24];
	const char *fv[] = { "SAI_PORT_STAT_IF_IN_UCAST_PKTS",	v[0],
			     "SAI_PORT_STAT_IF_IN_OCTETS",	v[1],
			     "SAI_PORT_STAT_IF_OUT_UCAST_PKTS", v[2],
			     "SAI_PORT_STAT_IF_OUT_OCTETS",	v[3] };
	struct rocedp_port_stats ps;
	__u64 ctr[ROCEDP_CTR_MAX];
	unsigned int i;

	if (!maps_ready(c))
		return 0;
	for (i = 0; i < c->n_ports; i++) {
		if (!port_stats(c, i, &ps))
			continue;
		u64s(v[0], ps.rx_pkts);
		u64s(v[1], ps.rx_bytes);
		u64s(v[2], ps.tx_pkts);
		u64s(v[3], ps.tx_bytes);
		ctr_key(key, sizeof(key), OID_PORT | c->ports[i].ifindex);
		rd_sredis_hset(r, RD_SONIC_COUNTERS_DB, key, fv, 4);
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
		ctr_key(key, sizeof(key), OID_NHG | 1);
		rd_sredis_hset(r, RD_SONIC_COUNTERS_DB, key, av, 3);
	}
	return rd_sredis_flush(r) == -EIO ? -EIO : 0;
}

void rd_scounters_queues(struct rd_scounters *c, struct rd_sredis *r)
{
	char key[64], v[2][24];
	const char *fv[] = { "SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS", v[0],
			     "SAI_QUEUE_STAT_WRED_ECN_MARKED_BYTES", v[1] };
	bool roce;
	struct rocedp_port_stats ps;
	unsigned int i, q;

	if (!maps_ready(c))
		return;
	for (i = 0; i < c->n_ports; i++) {
		if (!port_stats(c, i, &ps))
			continue;
		for (q = 0; q < N_QUEUES; q++) {
			ctr_key(key, sizeof(key),
				queue_oid(c->ports[i].ifindex, q));
			/* rocedp marks on one queue: the port's RoCE queue */
			roce = (int)q == c->ports[i].roce_queue;
			u64s(v[0], roce ? ps.ecn_marked : 0);
			u64s(v[1], roce ? ps.ecn_marked_bytes : 0);
			rd_sredis_hset(r, RD_SONIC_COUNTERS_DB, key, fv, 2);
		}
	}
	rd_sredis_flush(r);
	/* reopened next time: a detach and attach pins new maps */
	rd_scounters_reopen(c);
}
