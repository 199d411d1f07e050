// SPDX-License-Identifier: GPL-2.0
/*
 * One row per port from three maps indexed by ifindex (rd_port_stats,
 * rd_port_hwm, rd_port_flaps) and one RTM_GETLINK dump for the kernel's
 * carrier-change count, which exists whether or not the link watcher runs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <bpf/bpf.h>
#include "names.h"
#include "escape.h"
#include "nl.h"
#include "porttab.h"
#include "stats.h"

static __u64 mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static struct rd_port_row *row_get(struct rd_porttab *t, __u32 ifindex)
{
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (t->rows[i].ifindex == ifindex)
			return &t->rows[i];
	if (t->n == RD_PORTTAB_MAX)
		return NULL;
	memset(&t->rows[t->n], 0, sizeof(t->rows[0]));
	t->rows[t->n].ifindex = ifindex;
	return &t->rows[t->n++];
}

struct carrier_ctx {
	struct rd_nl *nl;
	struct rd_porttab *t;
};

static int link_cb(const struct nlmsghdr *nlh, void *data)
{
	struct carrier_ctx *c = data;
	const struct nlattr *tb[IFLA_MAX + 1];
	const struct ifinfomsg *ifi;
	const uint32_t *changes;
	unsigned int i;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifi))
		return MNL_CB_OK;
	ifi = mnl_nlmsg_get_payload(nlh);
	for (i = 0; i < c->t->n; i++) {
		if (c->t->rows[i].ifindex != (__u32)ifi->ifi_index)
			continue;
		rd_nl_parse(c->nl, nlh, sizeof(*ifi), tb, IFLA_MAX);
		changes = rd_nl_attr_data(c->nl, tb[IFLA_CARRIER_CHANGES],
					  sizeof(*changes));
		if (changes) {
			c->t->rows[i].carrier_changes = *changes;
			c->t->rows[i].has_carrier = true;
		}
		break;
	}
	return MNL_CB_OK;
}

/* the kernel's count; a dump that fails leaves has_carrier false */
static void read_carrier(struct rd_porttab *t)
{
	struct rd_nl nl;
	struct carrier_ctx c = { &nl, t };

	if (!t->n || rd_nl_open(&nl, NULL, 0, 0, NULL))
		return;
	rd_nl_dump(&nl, RTM_GETLINK, AF_UNSPEC, link_cb, &c);
	rd_nl_close(&nl);
}

static bool stats_zero(const struct rocedp_port_stats *p)
{
	static const struct rocedp_port_stats zero;

	return !memcmp(p, &zero, sizeof(zero));
}

/* The three per-port arrays, each read whole (rd_array_read). */
struct port_arrays {
	struct rocedp_port_stats st[ROCEDP_PORT_SLOTS];
	__u64 hwm[ROCEDP_PORT_SLOTS];
	struct rocedp_port_flaps fl[ROCEDP_PORT_SLOTS];
};

int rd_porttab_read(const struct rd_maps *m, struct rd_porttab *t,
		    bool reset_hwm)
{
	struct port_arrays *a = malloc(sizeof(*a));
	struct rocedp_port_flaps *fl;
	struct rd_port_row *r;
	__u64 zero = 0;
	__u32 k;
	int err;

	t->n = 0;
	t->hwm_window_s = 0;
	t->hwm_reset = reset_hwm;
	if (!a)
		return -ENOMEM;
	err = rd_array_read(m->fd[RD_MAP_PORT_STATS], ROCEDP_PORT_SLOTS, true,
			    (__u64 *)a->st, sizeof(a->st[0]) / 8);
	if (!err)
		err = rd_array_read(m->fd[RD_MAP_PORT_HWM], ROCEDP_PORT_SLOTS,
				    false, a->hwm, 1);
	if (!err)
		err = rd_array_read(m->fd[RD_MAP_PORT_FLAPS], ROCEDP_PORT_SLOTS,
				    false, (__u64 *)a->fl,
				    sizeof(a->fl[0]) / 8);
	for (k = 1; !err && k < ROCEDP_PORT_SLOTS; k++) {
		fl = &a->fl[k];
		if (stats_zero(&a->st[k]) && !a->hwm[k] && !fl->n &&
		    !fl->downs && !fl->ups)
			continue;
		r = row_get(t, k);
		if (!r)
			break;
		r->st = a->st[k];
		r->hwm = a->hwm[k];
		r->flaps = *fl;
		/* a mark raised between the read and the write is lost, never
		 * invented (rocedp_abi.h) */
		if (reset_hwm && a->hwm[k])
			bpf_map_update_elem(m->fd[RD_MAP_PORT_HWM], &k, &zero,
					    BPF_ANY);
	}
	free(a);
	if (err)
		return err;
	t->mono_ns = mono_now();
	for (k = 0; k < t->n; k++) {
		r = &t->rows[k];
		rd_ifname(r->ifindex, r->name);
	}
	read_carrier(t);
	return 0;
}

static double per_s(__u64 cur, __u64 prev, double dt)
{
	return cur > prev ? (double)(cur - prev) / dt : 0;
}

void rd_porttab_rates(const struct rd_porttab *prev, struct rd_porttab *cur)
{
	double dt;
	unsigned int i, j;

	if (!prev || !prev->mono_ns || cur->mono_ns <= prev->mono_ns)
		return;
	dt = (double)(cur->mono_ns - prev->mono_ns) / 1e9;
	for (i = 0; i < cur->n; i++) {
		struct rd_port_row *c = &cur->rows[i];
		static const struct rd_port_row none;
		const struct rd_port_row *p = &none;

		for (j = 0; j < prev->n; j++)
			if (prev->rows[j].ifindex == c->ifindex)
				p = &prev->rows[j];
		c->rate_valid = true;
		c->rx_pps = per_s(c->st.rx_pkts, p->st.rx_pkts, dt);
		c->tx_pps = per_s(c->st.tx_pkts, p->st.tx_pkts, dt);
		c->rx_bps = per_s(c->st.rx_bytes, p->st.rx_bytes, dt) * 8;
		c->tx_bps = per_s(c->st.tx_bytes, p->st.tx_bytes, dt) * 8;
	}
}

__u64 rd_port_flap_count(const struct rd_port_row *r)
{
	if (r->flaps.downs || r->flaps.ups)
		return r->flaps.downs;
	/* the kernel counts both edges; a flap is a down and an up */
	return r->has_carrier ? r->carrier_changes / 2 : 0;
}

static void add_u64(struct json_object *o, const char *k, __u64 v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static void add_dbl(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
}

static struct json_object *class_obj(const __u64 *v)
{
	struct json_object *o = json_object_new_object();
	unsigned int c;

	for (c = 0; c < ROCEDP_CLASS_MAX; c++)
		add_u64(o, rd_class_name(c), v[c]);
	return o;
}

struct json_object *rd_porttab_json(const struct rd_porttab *t)
{
	struct json_object *a = json_object_new_array(), *o, *fl, *ts;
	unsigned int i, j, h;

	for (i = 0; i < t->n; i++) {
		const struct rd_port_row *r = &t->rows[i];

		o = json_object_new_object();
		json_object_object_add(o, "ifindex",
				       json_object_new_int64(r->ifindex));
		json_object_object_add(o, "name",
				       json_object_new_string(r->name));
		add_u64(o, "rx_pkts", r->st.rx_pkts);
		add_u64(o, "tx_pkts", r->st.tx_pkts);
		add_u64(o, "rx_bytes", r->st.rx_bytes);
		add_u64(o, "tx_bytes", r->st.tx_bytes);
		json_object_object_add(o, "rx_class",
				       class_obj(r->st.rx_class));
		json_object_object_add(o, "tx_class",
				       class_obj(r->st.tx_class));
		add_u64(o, "ecn_marked", r->st.ecn_marked);
		add_u64(o, "vq_high_water_bytes", r->hwm);
		fl = json_object_new_object();
		add_u64(fl, "downs", r->flaps.downs);
		add_u64(fl, "ups", r->flaps.ups);
		/* newest first */
		ts = json_object_new_array();
		h = r->flaps.n < ROCEDP_FLAP_HISTORY ? r->flaps.n :
						       ROCEDP_FLAP_HISTORY;
		for (j = 0; j < h; j++)
			json_object_array_add(
				ts,
				json_object_new_uint64(
					r->flaps.last_ns[(r->flaps.n - 1 - j) %
							 ROCEDP_FLAP_HISTORY]));
		json_object_object_add(fl, "last_realtime_ns", ts);
		json_object_object_add(
			fl, "kernel_carrier_changes",
			r->has_carrier ?
				json_object_new_int64(r->carrier_changes) :
				NULL);
		json_object_object_add(o, "flaps", fl);
		if (r->rate_valid) {
			struct json_object *ps = json_object_new_object();

			add_dbl(ps, "rx_pkts", r->rx_pps);
			add_dbl(ps, "tx_pkts", r->tx_pps);
			add_dbl(ps, "rx_bits", r->rx_bps);
			add_dbl(ps, "tx_bits", r->tx_bps);
			json_object_object_add(o, "per_second", ps);
		}
		json_object_array_add(a, o);
	}
	return a;
}

void rd_porttab_print_text(FILE *f, const struct rd_porttab *t)
{
	unsigned int i;

	fprintf(f, "%-16s %12s %12s %10s %10s %10s %6s %8s\n", "port",
		"rx_pkts", "tx_pkts", "rx_data", "tx_data", "hwm_bytes",
		"flaps", "kernel");
	for (i = 0; i < t->n; i++) {
		const struct rd_port_row *r = &t->rows[i];
		char kern[16] = "-", name[RD_ESC_IFNAME];

		if (r->has_carrier)
			snprintf(kern, sizeof(kern), "%u", r->carrier_changes);
		fprintf(f,
			"%-16s %12llu %12llu %10llu %10llu %10llu %6llu %8s\n",
			rd_esc_term(r->name, name, sizeof(name)),
			(unsigned long long)r->st.rx_pkts,
			(unsigned long long)r->st.tx_pkts,
			(unsigned long long)r->st.rx_class[ROCEDP_CLASS_DATA],
			(unsigned long long)r->st.tx_class[ROCEDP_CLASS_DATA],
			(unsigned long long)r->hwm,
			(unsigned long long)rd_port_flap_count(r), kern);
	}
}

/* /sys/class/net/NAME/ifalias, first line; "" when none or unreadable */
static void port_alias(const char *name, char *buf, size_t len)
{
	char path[64 + IF_NAMESIZE];
	FILE *f;

	buf[0] = 0;
	if (!name[0] || strchr(name, '/'))
		return;
	snprintf(path, sizeof(path), "/sys/class/net/%s/ifalias", name);
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
}

void rd_porttab_prometheus(FILE *f, const struct rd_porttab *t)
{
	char name[RD_ESC_IFNAME];
	unsigned int i, c;

	/* label values: the names escaped for Prometheus */
#define PNAME(i) rd_esc_prom(t->rows[i].name, name, sizeof(name))

	fprintf(f,
		"# HELP rocedp_port_class_packets_total Frames per port, direction and class.\n"
		"# TYPE rocedp_port_class_packets_total counter\n");
	for (i = 0; i < t->n; i++)
		for (c = 0; c < ROCEDP_CLASS_MAX; c++)
			fprintf(f,
				"rocedp_port_class_packets_total{port=\"%s\",dir=\"rx\",class=\"%s\"} %llu\n"
				"rocedp_port_class_packets_total{port=\"%s\",dir=\"tx\",class=\"%s\"} %llu\n",
				PNAME(i), rd_class_name(c),
				(unsigned long long)t->rows[i].st.rx_class[c],
				name, rd_class_name(c),
				(unsigned long long)t->rows[i].st.tx_class[c]);
	if (t->hwm_window_s > 0)
		fprintf(f,
			"# HELP rocedp_port_vq_high_water_bytes ECN virtual queue high-water mark over the last %g to %g seconds.\n",
			t->hwm_window_s, 2 * t->hwm_window_s);
	else
		fprintf(f,
			"# HELP rocedp_port_vq_high_water_bytes ECN virtual queue high-water mark since an interval reader last took it.\n");
	fprintf(f, "# TYPE rocedp_port_vq_high_water_bytes gauge\n");
	for (i = 0; i < t->n; i++)
		fprintf(f,
			"rocedp_port_vq_high_water_bytes{port=\"%s\"} %llu\n",
			PNAME(i), (unsigned long long)t->rows[i].hwm);
	fprintf(f,
		"# HELP rocedp_port_link_downs_total Carrier losses seen by the link watcher.\n"
		"# TYPE rocedp_port_link_downs_total counter\n");
	for (i = 0; i < t->n; i++)
		fprintf(f, "rocedp_port_link_downs_total{port=\"%s\"} %llu\n",
			PNAME(i), (unsigned long long)t->rows[i].flaps.downs);
	fprintf(f,
		"# HELP rocedp_port_carrier_changes_total The kernel's carrier changes (IFLA_CARRIER_CHANGES).\n"
		"# TYPE rocedp_port_carrier_changes_total counter\n");
	for (i = 0; i < t->n; i++)
		if (t->rows[i].has_carrier)
			fprintf(f,
				"rocedp_port_carrier_changes_total{port=\"%s\"} %u\n",
				PNAME(i), t->rows[i].carrier_changes);
	fprintf(f,
		"# HELP rocedp_port_info The port's description (ifalias): its peer, where the operator wrote it.\n"
		"# TYPE rocedp_port_info gauge\n");
	for (i = 0; i < t->n; i++) {
		char alias[256], esc[RD_ESC_LEN(sizeof(alias))];

		port_alias(t->rows[i].name, alias, sizeof(alias));
		fprintf(f,
			"rocedp_port_info{port=\"%s\",description=\"%s\"} 1\n",
			PNAME(i), rd_esc_prom(alias, esc, sizeof(esc)));
	}
#undef PNAME
}
