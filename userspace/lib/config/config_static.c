// SPDX-License-Identifier: GPL-2.0
/* A config's static routes and groups through the FIB model (config_static.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config_static.h"
#include "group.h"
#include "group_commit.h"
#include "group_static.h"
#include "routew.h"

bool rd_config_static_differs(const struct rd_staged *cur,
			      const struct rd_staged *s)
{
	return cur->n_groups != s->n_groups || cur->n_routes != s->n_routes ||
	       memcmp(cur->groups, s->groups,
		      s->n_groups * sizeof(*s->groups)) ||
	       memcmp(cur->routes, s->routes, s->n_routes * sizeof(*s->routes));
}

int rd_config_static_apply(const struct rd_maps *m, const struct rd_staged *s,
			   struct rd_config_static *run)
{
	const char *obj = run->obj;
	struct rd_fib_maps fm = {
		.routes4 = m->fd[RD_MAP_ROUTES4],
		.routes6 = m->fd[RD_MAP_ROUTES6],
		.groups = m->fd[RD_MAP_GROUPS],
		.group_banks = m->fd[RD_MAP_GROUP_BANKS],
		.group_live = m->fd[RD_MAP_GROUP_LIVE],
		.tx_ports = m->fd[RD_MAP_TX_PORTS],
		.port_cfg = m->fd[RD_MAP_PORT_CFG],
	};
	struct rd_fib_counts c = { 0 };
	uint32_t *ids = NULL;
	struct rd_fib *f;
	unsigned int i;
	int err;

	err = rd_routew_gen_map(m->fd[RD_MAP_ROUTE_GEN], &fm.route_gen);
	if (err) {
		rd_err(obj, "rd_route_gen: cannot map it: %s", strerror(-err));
		return err;
	}
	f = rd_fib_new();
	if (s->n_groups)
		ids = calloc(s->n_groups, sizeof(*ids));
	if (!f || (s->n_groups && !ids)) {
		err = -ENOMEM;
		goto out;
	}
	rd_fib_set_obj(f, obj);
	rd_fib_set_fault(f, run->fault);
	rd_fib_set_maps(f, &fm);
	for (i = 0; i < s->n_groups; i++)
		ids[i] = s->groups[i].id;
	/* > 0: groups of rocedp sync moved off the config's ids */
	err = rd_fib_static_begin(f, ids, s->n_groups, &c);
	if (err > 0)
		err = 0;
	for (i = 0; i < s->n_groups && !err; i++)
		err = rd_fib_static_group(f, s->groups[i].id, &s->groups[i].g);
	for (i = 0; i < s->n_routes && !err; i++) {
		const struct rd_cfg_route *rt = &s->routes[i];

		err = rd_fib_static_route(f, rt->family, rt->plen, rt->addr,
					  &rt->val);
	}
	if (!err)
		err = rd_fib_static_commit(f, &c);
	if (err == -EIO && rd_fib_first_error(f))
		err = rd_fib_first_error(f); /* named as it failed */
	if (err && !rd_fib_first_error(f)) { /* else its write was named */
		if (err == -ENOSPC)
			rd_err(obj,
			       "groups: no free id to move a group of rocedp sync to");
		else
			rd_err(obj, "static routes and groups: %s",
			       strerror(-err));
	}
out:
	if (c.group_writes || c.group_deletes || c.route_writes ||
	    c.route_deletes || c.route_marks || c.errors)
		run->wrote = true;
	free(ids);
	rd_fib_free(f);
	rd_routew_gen_unmap(fm.route_gen);
	return err;
}
