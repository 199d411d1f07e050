// SPDX-License-Identifier: GPL-2.0
/*
 * A staged config rendered: as the JSON document rd_config_parse accepts
 * (config dump, config set's starting point) and as text (config show).
 */
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/socket.h>

#include "config_render.h"
#include "config_json.h"
#include "names.h"
#include "opcode.h"

int rd_json_flags(void)
{
	return JSON_C_TO_STRING_NOSLASHESCAPE |
	       (rd_pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED :
			    JSON_C_TO_STRING_PLAIN);
}

static struct json_object *op_to_json(unsigned int op)
{
	char buf[48];

	if (!rd_op_name(op, buf, sizeof(buf)))
		return json_object_new_int(op);
	return json_object_new_string(buf);
}

static struct json_object *name_list(__u32 mask, const char *const *names,
				     unsigned int n)
{
	struct json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < n; i++)
		if (mask & (1u << i))
			json_object_array_add(a,
					      json_object_new_string(names[i]));
	return a;
}

static struct json_object *jname(unsigned int v, const char *const *names,
				 unsigned int n)
{
	if (v < n && names[v])
		return json_object_new_string(names[v]);
	return json_object_new_int64(v);
}

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *jaddr(int family, const void *addr, int plen)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN + 16];

	inet_ntop(family, addr, a, sizeof(a));
	if (plen < 0)
		return json_object_new_string(a);
	snprintf(b, sizeof(b), "%s/%d", a, plen);
	return json_object_new_string(b);
}

static struct json_object *jmac(const __u8 *mac)
{
	char b[18];

	snprintf(b, sizeof(b), "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1],
		 mac[2], mac[3], mac[4], mac[5]);
	return json_object_new_string(b);
}

struct json_object *rd_cts_rule_to_json(const struct rocedp_cts_rule *r,
					const char *name)
{
	struct json_object *o = json_object_new_object(), *ops, *qp;
	int fam = r->flags & ROCEDP_CTSF_IPV6 ? AF_INET6 : AF_INET;
	unsigned int op;

	if (name && *name)
		add(o, "name", json_object_new_string(name));
	ops = json_object_new_array();
	for (op = 0; op < 256; op++)
		if (r->opcode_bitmap[op / 64] & (1ull << (op % 64)))
			json_object_array_add(ops, op_to_json(op));
	add(o, "opcodes", ops);
	qp = json_object_new_array();
	json_object_array_add(qp, json_object_new_int64(r->qp_min));
	json_object_array_add(qp, json_object_new_int64(r->qp_max));
	add(o, "qp", qp);
	if (r->max_payload != UINT32_MAX)
		add(o, "max_payload", json_object_new_int64(r->max_payload));
	if (r->flags & ROCEDP_CTSF_SRC_PREFIX)
		add(o, "src", jaddr(fam, r->src_addr, r->src_plen));
	if (r->flags & ROCEDP_CTSF_DST_PREFIX)
		add(o, "dst", jaddr(fam, r->dst_addr, r->dst_plen));
	return o;
}

/* A port's discard action as config.md's ecn.ports keys. */
static void render_trim(struct json_object *q,
			const struct rocedp_trim_port *tp)
{
	struct json_object *a;
	int d;

	json_object_object_add(
		q, "discard",
		json_object_new_string(
			tp->action == ROCEDP_DISCARD_TRIM ? "trim" : "drop"));
	if (tp->action != ROCEDP_DISCARD_TRIM)
		return;
	json_object_object_add(q, "trim_size", json_object_new_int(tp->size));
	json_object_object_add(q, "trim_dscp",
			       tp->dscp == ROCEDP_TRIM_DSCP_FROM_TC ?
				       json_object_new_string("from_tc") :
				       json_object_new_int(tp->dscp));
	a = json_object_new_array();
	for (d = 0; d < 64; d++)
		if ((tp->eligible_dscp >> d) & 1)
			json_object_array_add(a, json_object_new_int(d));
	json_object_object_add(q, "trim_eligible_dscp", a);
}

static struct json_object *jdev(struct json_object *o, __u32 ifindex)
{
	char name[IF_NAMESIZE];

	if (if_indextoname(ifindex, name))
		add(o, "dev", json_object_new_string(name));
	else
		add(o, "ifindex", json_object_new_int64(ifindex));
	return o;
}

struct json_object *rd_config_to_json(const struct rd_staged *s)
{
	static const char *const gaps[] = { "fixed", "auto" };
	const struct rocedp_config *c = &s->cfg;
	struct json_object *root = json_object_new_object(), *o, *a, *q, *p;
	char name[IF_NAMESIZE + 12];
	unsigned int i, j;

	add(root, "features",
	    name_list(c->features, rd_cfg_feature_names,
		      ARRAY_LEN(rd_cfg_feature_names)));
	o = json_object_new_object();
	if (c->hash_mode < ROCEDP_HASH_MODE_MAX)
		add(o, "mode",
		    json_object_new_string(rd_hash_mode_name(c->hash_mode)));
	else
		add(o, "mode", json_object_new_int64(c->hash_mode));
	add(o, "seed", json_object_new_int64(c->hash_seed));
	add(o, "symmetric",
	    json_object_new_boolean(c->hash_flags & ROCEDP_HASHF_SYMMETRIC));
	add(root, "hash", o);
	o = json_object_new_object();
	add(o, "rtt_us", json_object_new_int64(c->flowlet_rtt_us));
	add(o, "gap",
	    jname(!!(c->flowlet_flags & ROCEDP_FLOWLETF_AUTO_GAP), gaps, 2));
	add(o, "gap_min_us", json_object_new_int64(c->flowlet_gap_min_us));
	add(o, "gap_max_us", json_object_new_int64(c->flowlet_gap_max_us));
	add(o, "choice",
	    jname(c->flowlet_choice, rd_cfg_choice_names,
		  ARRAY_LEN(rd_cfg_choice_names)));
	add(o, "load_tau_us", json_object_new_int64(c->load_tau_us));
	add(o, "rtt_ewma_shift", json_object_new_int64(c->rtt_ewma_shift));
	add(root, "flowlet", o);
	o = json_object_new_object();
	add(o, "qp_stall_us", json_object_new_int64(c->qp_stall_us));
	add(root, "telemetry", o);
	o = json_object_new_object();
	for (i = 0; i < ROCEDP_CLASS_MAX; i++) {
		if (!rd_qos_class_settable(i))
			continue;
		if (s->qos[i].action != ROCEDP_QOS_SET_DSCP) {
			add(o, rd_class_name(i),
			    json_object_new_string("leave"));
			continue;
		}
		q = json_object_new_object();
		add(q, "dscp", json_object_new_int(s->qos[i].dscp));
		if (s->qos[i].set_pcp)
			add(q, "pcp", json_object_new_int(s->qos[i].pcp));
		add(o, rd_class_name(i), q);
	}
	add(root, "qos", o);
	a = json_object_new_array();
	for (i = 0; i < c->n_cts_rules && i < ROCEDP_MAX_CTS_RULES; i++)
		json_object_array_add(a, rd_cts_rule_to_json(&s->rules[i],
							     s->rule_names[i]));
	add(root, "cts_rules", a);
	o = json_object_new_object();
	add(o, "class_optout",
	    name_list(c->ecn_class_optout, rd_cfg_class_keys,
		      ROCEDP_CLASS_MAX));
	p = json_object_new_object();
	for (i = 0; i < s->n_ports; i++) {
		const struct rd_cfg_port *pt = &s->ports[i];

		if (!if_indextoname(pt->ifindex, name))
			snprintf(name, sizeof(name), "%u", pt->ifindex);
		q = json_object_new_object();
		add(q, "rate_mbps",
		    json_object_new_int64(pt->pc.rate_bps / 1000000));
		add(q, "kmin_bytes", json_object_new_int64(pt->pc.kmin_bytes));
		add(q, "kmax_bytes", json_object_new_int64(pt->pc.kmax_bytes));
		add(q, "pmax_percent",
		    json_object_new_int64(pt->pc.pmax_percent));
		add(q, "profile", json_object_new_int64(pt->pc.ecn_profile));
		if (pt->pc.flags & ROCEDP_PORTF_HOLD_QUEUE)
			add(q, "hold_queue_bytes",
			    json_object_new_int64(pt->hold_bytes));
		if (pt->pc.buffer_bytes)
			add(q, "buffer_bytes",
			    json_object_new_int64(pt->pc.buffer_bytes));
		if (pt->pc.flags & ROCEDP_PORTF_EXACT_CLOCK)
			add(q, "exact_clock", json_object_new_boolean(1));
		if (pt->pc.flags & ROCEDP_PORTF_ADMIT)
			render_trim(q, &pt->trim);
		add(p, name, q);
	}
	add(o, "ports", p);
	add(root, "ecn", o);
	a = json_object_new_array();
	for (i = 0; i < s->n_groups; i++) {
		const struct rocedp_group *g = &s->groups[i].g;
		struct json_object *mbs = json_object_new_array();

		o = json_object_new_object();
		add(o, "id", json_object_new_int64(s->groups[i].id));
		add(o, "rtt_us", json_object_new_int64(g->rtt_us));
		add(o, "buckets", json_object_new_int64(g->n_buckets));
		for (j = 0; j < g->n_members && j < ROCEDP_MAX_MEMBERS; j++) {
			const struct rocedp_member *mb = &g->members[j];

			q = jdev(json_object_new_object(), mb->ifindex);
			add(q, "smac", jmac(mb->smac));
			add(q, "dmac", jmac(mb->dmac));
			add(q, "weight",
			    json_object_new_int(mb->weight ? mb->weight :
							     mb->drain_weight));
			if (!mb->weight && mb->drain_weight)
				add(q, "drain", json_object_new_boolean(1));
			if (mb->nh_family == AF_INET ||
			    mb->nh_family == AF_INET6)
				add(q, "via",
				    jaddr(mb->nh_family, mb->nh_addr, -1));
			json_object_array_add(mbs, q);
		}
		add(o, "members", mbs);
		json_object_array_add(a, o);
	}
	add(root, "groups", a);
	a = json_object_new_array();
	for (i = 0; i < s->n_routes; i++) {
		const struct rd_cfg_route *rt = &s->routes[i];

		o = json_object_new_object();
		add(o, "prefix", jaddr(rt->family, rt->addr, rt->plen));
		if (rt->val.flags & ROCEDP_ROUTEF_LOCAL)
			add(o, "local", json_object_new_boolean(true));
		else
			add(o, "group",
			    json_object_new_int64(rt->val.group_id));
		json_object_array_add(a, o);
	}
	add(root, "routes", a);
	return root;
}

static void print_addr(int family, const void *addr, int plen)
{
	char a[INET6_ADDRSTRLEN];

	inet_ntop(family, addr, a, sizeof(a));
	printf(plen >= 0 ? "%s/%d" : "%s", a, plen);
}

static const char *ifname(__u32 ifindex, char *buf)
{
	if (!if_indextoname(ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "if%u", ifindex);
	return buf;
}

void rd_config_print_text(const struct rd_staged *s)
{
	const struct rocedp_config *c = &s->cfg;
	char dev[IF_NAMESIZE];
	const char *sep = "";
	unsigned int i, j;

	printf("features:");
	for (i = 0; i < ARRAY_LEN(rd_cfg_feature_names); i++)
		if (c->features & (1u << i))
			printf(" %s", rd_cfg_feature_names[i]);
	printf("%s\n", c->features ? "" : " none");
	printf("hash: mode %s seed %u%s\n", rd_hash_mode_name(c->hash_mode),
	       c->hash_seed,
	       c->hash_flags & ROCEDP_HASHF_SYMMETRIC ? " symmetric" : "");
	printf("flowlet: rtt %uus gap %s %u..%uus choice %s load_tau %uus rtt_ewma_shift %u\n",
	       c->flowlet_rtt_us,
	       c->flowlet_flags & ROCEDP_FLOWLETF_AUTO_GAP ? "auto" : "fixed",
	       c->flowlet_gap_min_us, c->flowlet_gap_max_us,
	       c->flowlet_choice < ARRAY_LEN(rd_cfg_choice_names) ?
		       rd_cfg_choice_names[c->flowlet_choice] :
		       "unknown",
	       c->load_tau_us, c->rtt_ewma_shift);
	printf("telemetry: qp_stall %uus\n", c->qp_stall_us);
	printf("qos:\n");
	for (i = 0; i < ROCEDP_CLASS_MAX; i++) {
		const struct rocedp_qos *q = &s->qos[i];

		if (!rd_qos_class_settable(i))
			continue;
		printf("  %-11s", rd_class_name(i));
		if (q->action != ROCEDP_QOS_SET_DSCP)
			printf(" leave\n");
		else if (q->set_pcp)
			printf(" dscp %u pcp %u\n", q->dscp, q->pcp);
		else
			printf(" dscp %u\n", q->dscp);
	}
	printf("cts rules: %u\n", c->n_cts_rules);
	for (i = 0; i < c->n_cts_rules; i++) {
		struct json_object *r =
			rd_cts_rule_to_json(&s->rules[i], s->rule_names[i]);

		printf("  %u %s\n", i, rd_json_text(r));
		json_object_put(r);
	}
	printf("ecn: class_optout");
	for (i = 0; i < ROCEDP_CLASS_MAX; i++)
		if (c->ecn_class_optout & (1u << i)) {
			printf(" %s", rd_class_name(i));
			sep = "x";
		}
	printf("%s\n", *sep ? "" : " none");
	for (i = 0; i < s->n_ports; i++) {
		const struct rd_cfg_port *p = &s->ports[i];

		printf("  port %s: rate %llu Mb/s kmin %u kmax %u pmax %u%% profile %u",
		       ifname(p->ifindex, dev),
		       (unsigned long long)p->pc.rate_bps / 1000000,
		       p->pc.kmin_bytes, p->pc.kmax_bytes, p->pc.pmax_percent,
		       p->pc.ecn_profile);
		if (p->pc.flags & ROCEDP_PORTF_HOLD_QUEUE)
			printf(" hold_queue %llu",
			       (unsigned long long)p->hold_bytes);
		if (p->pc.buffer_bytes)
			printf(" buffer %u", p->pc.buffer_bytes);
		if (p->pc.flags & ROCEDP_PORTF_EXACT_CLOCK)
			printf(" exact_clock");
		if ((p->pc.flags & ROCEDP_PORTF_ADMIT) &&
		    p->trim.action == ROCEDP_DISCARD_TRIM)
			printf(" discard trim %u", p->trim.size);
		else if (p->pc.flags & ROCEDP_PORTF_ADMIT)
			printf(" discard drop");
		printf("\n");
	}
	printf("static groups: %u\n", s->n_groups);
	for (i = 0; i < s->n_groups; i++) {
		const struct rocedp_group *g = &s->groups[i].g;

		printf("  group %u: %u members, %u active, %u buckets, rtt %uus\n",
		       s->groups[i].id, g->n_members, g->n_active, g->n_buckets,
		       g->rtt_us);
		for (j = 0; j < g->n_members && j < ROCEDP_MAX_MEMBERS; j++) {
			const struct rocedp_member *mb = &g->members[j];
			const __u8 *a = mb->smac, *b = mb->dmac;

			printf("    %s %02x:%02x:%02x:%02x:%02x:%02x -> %02x:%02x:%02x:%02x:%02x:%02x weight %u",
			       ifname(mb->ifindex, dev), a[0], a[1], a[2], a[3],
			       a[4], a[5], b[0], b[1], b[2], b[3], b[4], b[5],
			       mb->weight);
			if (!mb->weight && mb->drain_weight)
				printf(" (drained, laid out with %u)",
				       mb->drain_weight);
			if (mb->nh_family == AF_INET ||
			    mb->nh_family == AF_INET6) {
				printf(" via ");
				print_addr(mb->nh_family, mb->nh_addr, -1);
			}
			printf("\n");
		}
	}
	printf("static routes: %u\n", s->n_routes);
	for (i = 0; i < s->n_routes; i++) {
		printf("  ");
		print_addr(s->routes[i].family, s->routes[i].addr,
			   s->routes[i].plen);
		if (s->routes[i].val.flags & ROCEDP_ROUTEF_LOCAL)
			printf(" local\n");
		else
			printf(" group %u\n", s->routes[i].val.group_id);
	}
}
