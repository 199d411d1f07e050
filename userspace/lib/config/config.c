// SPDX-License-Identifier: GPL-2.0
/*
 * The config's one in-memory form, struct rd_staged, which the config
 * modules share (docs/design.md has the map): its defaults, its order and
 * the vocabulary of the config file. Schema: docs/config.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "names.h"

/* qsort() with an empty table may get a NULL base, which is undefined */
void rd_cfg_qsort(void *base, size_t n, size_t size,
		  int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}

const char *const rd_cfg_feature_names[RD_CFG_N_FEATURES] = {
	"forward", "remark", "flowlet", "ecn", "telemetry"
};

/* attach's --features: a comma list of the names above, plus "hash"
 * (forward, its old name), "all" (ROCEDP_F_ALL) and "none" */
int rd_cfg_features_parse(const char *list, __u32 *out)
{
	char buf[256], *tok, *save;
	__u32 f = 0;
	size_t i;

	if (strlen(list) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "hash"))
			tok = "forward";
		if (!strcmp(tok, "all")) {
			f |= ROCEDP_F_ALL;
			continue;
		}
		if (!strcmp(tok, "none"))
			continue;
		for (i = 0; i < RD_CFG_N_FEATURES; i++)
			if (!strcmp(tok, rd_cfg_feature_names[i]))
				break;
		if (i == RD_CFG_N_FEATURES)
			return -EINVAL;
		f |= 1u << i;
	}
	*out = f;
	return 0;
}

void rd_cfg_features_str(__u32 features, char *buf, size_t len)
{
	size_t i, n = 0;

	if (len)
		buf[0] = 0;
	for (i = 0; i < RD_CFG_N_FEATURES && n < len; i++)
		if (features & (1u << i))
			n += snprintf(buf + n, len - n, "%s%s", n ? "," : "",
				      rd_cfg_feature_names[i]);
}

const char *const rd_cfg_choice_names[RD_CFG_N_CHOICES] = {
	[ROCEDP_FLOWLET_LEAST_LOADED] = "least-loaded",
	[ROCEDP_FLOWLET_RANDOM] = "random",
	[ROCEDP_FLOWLET_HASH] = "hash",
};

bool rd_qos_class_settable(int cls)
{
	return cls >= 0 && cls < ROCEDP_CLASS_MAX &&
	       cls != ROCEDP_CLASS_NON_IP && cls != ROCEDP_CLASS_MALFORMED;
}

/* ------------------------------------------------------------ staging */

static void set_dscp(struct rd_staged *s, unsigned int cls, __u8 dscp)
{
	s->qos[cls] = (struct rocedp_qos){ .action = ROCEDP_QOS_SET_DSCP,
					   .dscp = dscp };
}

void rd_staged_defaults(struct rd_staged *s)
{
	struct rocedp_config *c = &s->cfg;

	memset(s, 0, sizeof(*s));
	c->features = ROCEDP_F_FORWARD | ROCEDP_F_REMARK | ROCEDP_F_ECN;
	c->hash_mode = ROCEDP_HASH_QP;
	c->flowlet_rtt_us = ROCEDP_DEFAULT_RTT_US;
	c->flowlet_gap_min_us = ROCEDP_DEFAULT_GAP_MIN_US;
	c->flowlet_gap_max_us = ROCEDP_DEFAULT_GAP_MAX_US;
	c->flowlet_choice = ROCEDP_FLOWLET_LEAST_LOADED;
	c->load_tau_us = ROCEDP_DEFAULT_LOAD_TAU_US;
	c->rtt_ewma_shift = ROCEDP_DEFAULT_RTT_EWMA_SHIFT;
	c->qp_stall_us = ROCEDP_DEFAULT_QP_STALL_US;
	c->ecn_class_optout = 1u << ROCEDP_CLASS_ACK | 1u << ROCEDP_CLASS_NAK |
			      1u << ROCEDP_CLASS_CNP |
			      1u << ROCEDP_CLASS_UEC_ACK |
			      1u << ROCEDP_CLASS_UEC_NACK;
	/* the reasons for these values are in docs/config.md */
	set_dscp(s, ROCEDP_CLASS_ACK, 46);
	set_dscp(s, ROCEDP_CLASS_NAK, 46);
	set_dscp(s, ROCEDP_CLASS_CNP, 48);
	set_dscp(s, ROCEDP_CLASS_CTS, 46);
	set_dscp(s, ROCEDP_CLASS_UEC_ACK, 46);
	set_dscp(s, ROCEDP_CLASS_UEC_NACK, 46);
}

void rd_staged_free(struct rd_staged *s)
{
	free(s->ports);
	free(s->groups);
	free(s->routes);
	free(s->attach_ports);
	s->ports = NULL;
	s->groups = NULL;
	s->routes = NULL;
	s->attach_ports = NULL;
	s->n_ports = s->n_groups = s->n_routes = s->n_attach = 0;
}

int rd_cfg_route_cmp(const void *a, const void *b)
{
	const struct rd_cfg_route *x = a, *y = b;

	if (x->family != y->family)
		return x->family < y->family ? -1 : 1;
	if (x->plen != y->plen)
		return x->plen < y->plen ? -1 : 1;
	return memcmp(x->addr, y->addr, sizeof(x->addr));
}

int rd_cfg_group_cmp(const void *a, const void *b)
{
	const struct rd_cfg_group *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int rd_cfg_port_cmp(const void *a, const void *b)
{
	const struct rd_cfg_port *x = a, *y = b;

	return x->ifindex < y->ifindex ? -1 : x->ifindex > y->ifindex;
}

const char *const rd_cfg_class_keys[ROCEDP_CLASS_MAX + 1] = {
	"data",	  "ack",       "nak", "cnp",	 "cts",	     "roce_other", "ip",
	"non_ip", "malformed", "uec", "uec_ack", "uec_nack", NULL,
};

/* The class names a QoS action may be set for, space separated. */
void rd_qos_settable_classes(char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < ROCEDP_CLASS_MAX && off < len; i++)
		if (rd_qos_class_settable(i))
			off += snprintf(buf + off, len - off, "%s%s",
					off ? " " : "", rd_class_name(i));
}

bool rd_cfg_has_group(const struct rd_staged *s, __u32 id)
{
	struct rd_cfg_group key = { .id = id };

	return bsearch(&key, s->groups, s->n_groups, sizeof(key),
		       rd_cfg_group_cmp);
}

int rd_cfg_grow(void **arr, unsigned int n, unsigned int *cap, size_t sz)
{
	size_t c = *cap;
	int err;

	/* *cap stays as it was when there is no room: the array did not grow */
	err = rd_grow(arr, n, &c, sz, 64);
	if (!err)
		*cap = c;
	return err;
}
