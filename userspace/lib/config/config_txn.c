// SPDX-License-Identifier: GPL-2.0
/*
 * A staged config applied to the maps as one transaction, without exposing
 * a half state; the writers' lock.
 *
 * Apply order (the dataplane may read any map at any time):
 *   devmap ports, ECN ports -> static groups and routes, through the FIB
 *   model (config_static.h: groups, routes, then stale routes and groups)
 *   -> qos -> CTS rules -> rd_config (one 64-byte value) -> ECN ports back
 *   to the defaults.
 * Every write of the settings is logged with the value it replaced; a
 * failed write replays the log backwards, and the FIB model commits the
 * static routes and groups that were there before, so the maps return to
 * what they held.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include <linux/bpf.h>

#include "config_txn.h"
#include "config_json.h"
#include "config_parse.h"
#include "config_read.h"
#include "config_handoff.h"
#include "config_static.h"
#include "names.h"
#include "pindir.h"
#include "portw.h"

/* ROCEDP_FAULT_CONFIG_CRASH: the exit status of the simulated kill */
#define RD_EXIT_TEST_CRASH 70

struct undo {
	int fd;
	bool had; /* the key existed: restore old, else delete */
	bool devmap; /* old holds a program id, not an fd */
	__u32 ksz, vsz;
	__u8 key[24];
	void *old;
};

struct txn {
	struct undo *u;
	unsigned int n, cap;
	/* writes, counted with the FIB model's; test hooks: fail one
	 * (1-based), die right after one with no rollback; 0 = never */
	struct rd_fib_fault fault;
	int devmap_fd, port_cfg_fd; /* written through portw.c */
	int cfg_fd; /* rd_config */
	struct rd_config_static fib; /* the static routes and groups */
	const char *obj; /* the command, for messages */
};

/* One map write (val) or delete (!val): -errno, absent deletes are 0. */
static int txn_write(struct txn *t, int fd, const void *key, const void *val,
		     __u64 flags)
{
	if (fd == t->devmap_fd && fd >= 0)
		return rd_portw_tx(fd, *(const __u32 *)key, val);
	if (fd == t->port_cfg_fd && fd >= 0 && val)
		return rd_portw_cfg(fd, *(const __u32 *)key, val);
	if (val)
		return bpf_map_update_elem(fd, key, val, flags) ? -errno : 0;
	return bpf_map_delete_elem(fd, key) && errno != ENOENT ? -errno : 0;
}

static void txn_init(struct txn *t, const struct rd_maps *m, const char *obj)
{
	memset(t, 0, sizeof(*t));
	t->obj = obj;
	t->fault.crash_status = RD_EXIT_TEST_CRASH;
	t->fib.obj = obj;
	t->fib.fault = &t->fault;
#ifdef ROCEDP_FAULTS
	/* test builds only (docs/faults.md): never in the shipped binary */
	const char *f = getenv("ROCEDP_FAULT_CONFIG_WRITE");
	const char *c = getenv("ROCEDP_FAULT_CONFIG_CRASH");

	t->fault.fail_at = f ? atol(f) : 0;
	t->fault.crash_at = c ? atol(c) : 0;
#endif
	t->devmap_fd = m->fd[RD_MAP_TX_PORTS];
	t->port_cfg_fd = m->fd[RD_MAP_PORT_CFG];
	t->cfg_fd = m->fd[RD_MAP_CONFIG];
}

static void txn_free(struct txn *t)
{
	unsigned int i;

	for (i = 0; i < t->n; i++)
		free(t->u[i].old);
	free(t->u);
}

/* Record the current value of key, then write (val) or delete (!val). */
static int txn_op(struct txn *t, int fd, const void *key, __u32 ksz,
		  const void *val, __u32 vsz, __u64 flags, const char *what)
{
	struct undo *u;
	int err;

	if (rd_cfg_grow((void **)&t->u, t->n, &t->cap, sizeof(*t->u)))
		return -ENOMEM;
	u = &t->u[t->n];
	memset(u, 0, sizeof(*u));
	u->fd = fd;
	u->ksz = ksz;
	u->vsz = vsz;
	u->devmap = fd == t->devmap_fd;
	memcpy(u->key, key, ksz);
	u->old = malloc(vsz);
	if (!u->old)
		return -ENOMEM;
	u->had = !bpf_map_lookup_elem(fd, key, u->old);
	if (!u->had) {
		free(u->old);
		u->old = NULL;
		if (!val)
			return 0; /* deleting what is not there */
	}
	if (++t->fault.writes == t->fault.fail_at)
		err = -ENOMEM;
	else
		err = txn_write(t, fd, key, val, flags);
	if (err) {
		free(u->old);
		rd_err(t->obj, "%s: %s", what, strerror(-err));
		return err;
	}
	t->n++;
	if (t->fault.writes == t->fault.crash_at)
		_exit(RD_EXIT_TEST_CRASH); /* as if killed: maps stay as they are */
	return 0;
}

static int txn_rollback(struct txn *t)
{
	int failed = 0, pfd;
	struct undo *u;

	while (t->n) {
		u = &t->u[--t->n];
		if (!u->had) {
			if (txn_write(t, u->fd, u->key, NULL, 0))
				failed++;
		} else if (u->devmap) {
			struct bpf_devmap_val *dv = u->old;

			pfd = dv->bpf_prog.id ?
				      bpf_prog_get_fd_by_id(dv->bpf_prog.id) :
				      -1;
			dv->bpf_prog.fd = pfd;
			if (rd_portw_tx(u->fd, *(__u32 *)u->key, dv))
				failed++;
			if (pfd >= 0)
				close(pfd);
		} else if (txn_write(t, u->fd, u->key, u->old, BPF_ANY)) {
			failed++;
		}
		free(u->old);
		u->old = NULL;
	}
	if (failed)
		rd_err(t->obj,
		       "rollback incomplete: %d map entries could not be restored",
		       failed);
	return failed ? -EIO : 0;
}

static struct rd_cfg_port *find_port(struct rd_cfg_port *p, unsigned int n,
				     __u32 ifindex)
{
	struct rd_cfg_port key = { .ifindex = ifindex };

	return bsearch(&key, p, n, sizeof(key), rd_cfg_port_cmp);
}

static int apply_ports(struct txn *t, const struct rd_maps *m,
		       const struct rd_staged *s, struct rd_running *x)
{
	struct rocedp_port_cfg dflt;
	char what[64];
	unsigned int i, j;
	int err = 0;

	rd_port_defaults(&dflt);
	for (i = 0; i < s->n_groups && !err; i++) {
		const struct rocedp_group *g = &s->groups[i].g;

		for (j = 0; j < g->n_members && !err; j++) {
			__u32 ifx = g->members[j].ifindex;
			struct bpf_devmap_val have, want = { .ifindex = ifx };

			/* no program: XDP decides ECN in the ingress program */
			want.bpf_prog.fd = -1;
			/* modelled ports do not exist: the devmap refuses them */
			if (m->modelled)
				goto port_cfg;
			if (!bpf_map_lookup_elem(m->fd[RD_MAP_TX_PORTS], &ifx,
						 &have) &&
			    have.ifindex == ifx && !have.bpf_prog.id)
				goto port_cfg;
			snprintf(what, sizeof(what), "rd_tx_ports ifindex %u",
				 ifx);
			err = txn_op(t, m->fd[RD_MAP_TX_PORTS], &ifx, 4, &want,
				     sizeof(want), BPF_ANY, what);
			if (err)
				break;
port_cfg:
			/*
			 * like rocedp sync: every egress port gets ECN settings
			 * (x->ports are the slots in use; a port beyond the
			 * slots has none, its frames are counted untracked)
			 */
			if (ifx >= ROCEDP_PORT_SLOTS ||
			    find_port(x->ports, x->n_ports, ifx) ||
			    find_port(s->ports, s->n_ports, ifx))
				continue;
			snprintf(what, sizeof(what), "rd_port_cfg ifindex %u",
				 ifx);
			err = txn_op(t, m->fd[RD_MAP_PORT_CFG], &ifx, 4, &dflt,
				     sizeof(dflt), BPF_ANY, what);
			if (!err) {
				struct rd_cfg_port np = { .ifindex = ifx,
							  .pc = dflt };
				void *p = realloc(x->ports, (x->n_ports + 1) *
								    sizeof(np));

				if (!p) {
					err = -ENOMEM;
					break;
				}
				x->ports = p;
				x->ports[x->n_ports++] = np;
				rd_cfg_qsort(x->ports, x->n_ports, sizeof(np),
					     rd_cfg_port_cmp);
			}
		}
	}
	for (i = 0; i < s->n_ports && !err; i++) {
		const struct rd_cfg_port *want = &s->ports[i];
		struct rd_cfg_port *have =
			find_port(x->ports, x->n_ports, want->ifindex);

		if (have && !memcmp(&have->pc, &want->pc, sizeof(want->pc)) &&
		    have->hold_bytes == want->hold_bytes &&
		    !memcmp(&have->trim, &want->trim, sizeof(want->trim)))
			continue;
		/* the action before the flag that makes the dataplane read it */
		if (want->pc.flags & ROCEDP_PORTF_ADMIT) {
			snprintf(what, sizeof(what), "rd_trim_ports ifindex %u",
				 want->ifindex);
			err = txn_op(t, m->fd[RD_MAP_TRIM_PORTS],
				     &want->ifindex, 4, &want->trim,
				     sizeof(want->trim), BPF_ANY, what);
			if (err)
				break;
		}
		if (want->pc.flags & ROCEDP_PORTF_HOLD_QUEUE) {
			struct rocedp_port_state ps = {
				.vq_bytes = want->hold_bytes
			};

			snprintf(what, sizeof(what), "rd_port_state ifindex %u",
				 want->ifindex);
			err = txn_op(t, m->fd[RD_MAP_PORT_STATE],
				     &want->ifindex, 4, &ps, sizeof(ps),
				     BPF_ANY, what);
			if (err)
				break;
		}
		snprintf(what, sizeof(what), "rd_port_cfg ifindex %u",
			 want->ifindex);
		err = txn_op(t, m->fd[RD_MAP_PORT_CFG], &want->ifindex, 4,
			     &want->pc, sizeof(want->pc), BPF_ANY, what);
	}
	return err;
}

static int cfg_write(struct txn *t, const struct rd_maps *m,
		     const struct rocedp_config *want)
{
	struct rocedp_config have;
	__u32 k = 0;

	if (!bpf_map_lookup_elem(m->fd[RD_MAP_CONFIG], &k, &have) &&
	    !memcmp(&have, want, sizeof(have)))
		return 0;
	return txn_op(t, m->fd[RD_MAP_CONFIG], &k, 4, want, sizeof(*want),
		      BPF_ANY, "rd_config");
}

/* Does the new CTS rule list differ from the live one? */
static bool cts_list_differs(const struct rd_staged *cur,
			     const struct rd_staged *s)
{
	return cur->cfg.n_cts_rules != s->cfg.n_cts_rules ||
	       memcmp(cur->rules, s->rules,
		      s->cfg.n_cts_rules * sizeof(s->rules[0]));
}

/*
 * The new list into bank (not live): its slots past the list are cleared,
 * so a bank holds exactly one list. Slots already right are not written.
 */
static int cts_fill_bank(struct txn *t, const struct rd_maps *m,
			 const struct rd_running *x, const struct rd_staged *s,
			 __u32 bank)
{
	static const struct rocedp_cts_rule zero_rule;
	const struct rocedp_cts_rule *want;
	char what[64];
	__u32 i, slot;
	int err;

	for (i = 0; i < ROCEDP_MAX_CTS_RULES; i++) {
		slot = bank * ROCEDP_MAX_CTS_RULES + i;
		want = i < s->cfg.n_cts_rules ? &s->rules[i] : &zero_rule;
		if (!memcmp(&x->rules[slot], want, sizeof(*want)))
			continue;
		snprintf(what, sizeof(what), "rd_cts_rules %u (bank %u)", slot,
			 bank);
		err = txn_op(t, m->fd[RD_MAP_CTS_RULES], &slot, 4, want,
			     sizeof(*want), BPF_ANY, what);
		if (err)
			return err;
	}
	return 0;
}

static int apply_writes(struct txn *t, const struct rd_maps *m,
			const struct rd_staged *s, struct rd_staged *cur,
			struct rd_running *x)
{
	struct rocedp_config want;
	struct rocedp_port_cfg dflt;
	unsigned int j, k;
	char what[64];
	__u32 bank;
	int err;

	/* 1. egress ports and their ECN settings, before any group uses them */
	err = apply_ports(t, m, s, x);
	if (err)
		return err;
	/*
	 * 2. static groups and routes through the FIB model, which writes
	 * groups before the routes that use them and removes what the config
	 * dropped once nothing uses it; sync's entries stay as they are. A
	 * running rocedp sync commits them (config_handoff.h), else we do.
	 */
	if (rd_config_static_differs(cur, s)) {
		err = rd_config_static_commit(m, s, &t->fib);
		if (err)
			return err;
	}
	/* 4. qos: one 4-byte value per class */
	for (k = 0; k < ROCEDP_CLASS_MAX; k++) {
		if (!memcmp(&cur->qos[k], &s->qos[k], sizeof(s->qos[k])))
			continue;
		snprintf(what, sizeof(what), "rd_qos %s", rd_class_name(k));
		err = txn_op(t, m->fd[RD_MAP_QOS], &k, 4, &s->qos[k],
			     sizeof(s->qos[k]), BPF_ANY, what);
		if (err)
			return err;
	}
	/*
	 * 5. CTS rules. An array value is copied without a lock, so a live
	 * rule is never rewritten: a changed list goes into the other bank,
	 * which step 6 makes live together with the new count.
	 */
	want = s->cfg;
	bank = ROCEDP_CTS_LIVE_BANK(cur->cfg.cts_live);
	if (cts_list_differs(cur, s)) {
		bank = !bank;
		err = cts_fill_bank(t, m, x, s, bank);
		if (err)
			return err;
	}
	want.cts_live = ROCEDP_CTS_LIVE(bank, s->cfg.n_cts_rules);
	/* 6. the switch-wide settings, the live rule bank and count: one update */
	err = cfg_write(t, m, &want);
	if (err)
		return err;
	/* 7. ECN ports the new config no longer has, back to the defaults */
	for (j = 0; j < cur->n_ports; j++) {
		__u32 ifx = cur->ports[j].ifindex;

		if (find_port((struct rd_cfg_port *)s->ports, s->n_ports, ifx))
			continue;
		snprintf(what, sizeof(what), "rd_port_cfg ifindex %u", ifx);
		rd_port_defaults(&dflt);
		err = txn_op(t, m->fd[RD_MAP_PORT_CFG], &ifx, 4, &dflt,
			     sizeof(dflt), BPF_ANY, what);
		if (err)
			return err;
	}
	/*
	 * The bank that was live is left as it is: a frame that read the old
	 * config may still be walking it. The next change overwrites it.
	 */
	return 0;
}

/*
 * After a failed load: the static routes and groups that were there
 * before, committed again, by the same committer (a sync that died
 * meanwhile leaves it to us).
 */
static int fib_restore(struct txn *t, const struct rd_maps *m,
		       const struct rd_staged *cur)
{
	int err;

	if (!t->fib.wrote)
		return 0;
	err = rd_config_static_commit(m, cur, &t->fib);
	if (err)
		rd_err(t->obj,
		       "rollback incomplete: static routes and groups: %s",
		       strerror(-err));
	return err;
}

int rd_config_apply(const struct rd_maps *m, const struct rd_staged *s)
{
	unsigned long writes;

	return rd_config_apply_counted(m, s, &writes);
}

int rd_config_apply_counted(const struct rd_maps *m, const struct rd_staged *s,
			    unsigned long *writes)
{
	struct rd_staged cur;
	struct rd_running *x;
	struct txn t;
	int err;

	*writes = 0;
	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	err = rd_config_load_running(m, &cur, x);
	if (err) {
		rd_err("config", "cannot read the running config: %s",
		       strerror(-err));
		free(x);
		return err;
	}
	txn_init(&t, m, "config");
	err = apply_writes(&t, m, s, &cur, x);
	*writes = (unsigned long)t.fault.writes;
	if (err && !txn_rollback(&t) && !fib_restore(&t, m, &cur))
		rd_err("config",
		       "nothing applied: the running config is unchanged");
	txn_free(&t);
	rd_staged_free(&cur);
	rd_running_free(x);
	free(x);
	return err;
}

/* Validate and apply a parsed document; takes the reference on root. */
static int apply_root(struct json_object *root, const struct rd_maps *m)
{
	struct rd_staged s;
	int err;

	err = rd_config_parse_host(root,
				   m->modelled ? rd_host_modelled() : NULL, &s);
	json_object_put(root);
	if (err)
		return err;
	err = rd_config_apply(m, &s);
	rd_staged_free(&s);
	return err;
}

int rd_config_apply_file(const char *path, const struct rd_maps *m)
{
	struct json_object *root;
	int err;

	err = rd_config_read_json(path, &root);
	return err ? err : apply_root(root, m);
}

int rd_config_apply_text(const char *name, const char *buf, size_t len,
			 const struct rd_maps *m)
{
	struct json_object *root;
	int err;

	err = rd_config_parse_text(name, buf, len, &root);
	return err ? err : apply_root(root, m);
}

int rd_config_apply_defaults(const struct rd_maps *m)
{
	struct rd_staged s;
	__u32 k;

	/* fresh maps: plain writes, nothing to keep consistent yet */
	rd_staged_defaults(&s);
	for (k = 0; k < ROCEDP_CLASS_MAX; k++)
		if (bpf_map_update_elem(m->fd[RD_MAP_QOS], &k, &s.qos[k],
					BPF_ANY))
			return -errno;
	k = 0;
	if (bpf_map_update_elem(m->fd[RD_MAP_CONFIG], &k, &s.cfg, BPF_ANY))
		return -errno;
	return 0;
}

/* Maps of the running dataplane; the one error line of every command
 * when they cannot be opened (a stale pin: mapset.c named it already). */
int rd_config_open_maps(const char *obj, struct rd_maps *m)
{
	int err = rd_maps_open_pinned(m, rd_pin_dir());

	if (err == -ENOENT)
		rd_err(obj, "no maps pinned in %s (is rocedp attached?)",
		       rd_pin_dir());
	else if (err)
		rd_err(obj, "%s: %s (is rocedp attached?)", rd_pin_dir(),
		       strerror(-err));
	return err;
}

/* Serialise writers (config load/set, qos set); released at exit. */
int rd_config_lock(const char *obj)
{
	int fd = open(rd_pin_dir(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || flock(fd, LOCK_EX)) {
		rd_err(obj, "%s: cannot lock: %s", rd_pin_dir(),
		       strerror(errno));
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	return fd;
}

/* ------------------------------------------------ writes outside a load */

/*
 * One map entry written by a command other than `config load/set`, by the
 * same rules as a load: under the writers' lock, so no load or sync write
 * falls between the read and the write, and through the journal. The
 * rd_config_* functions below take the lock themselves, not their
 * callers, so no command can forget it.
 */
static int single_write(const struct rd_maps *m, const char *obj, int map,
			__u32 key, const void *val, __u32 vsz, const char *what)
{
	struct txn t;
	int err;

	txn_init(&t, m, obj);
	err = txn_op(&t, m->fd[map], &key, 4, val, vsz, BPF_ANY, what);
	txn_free(&t);
	return err;
}

int rd_config_port_edit(const struct rd_maps *m, const char *obj, __u32 ifindex,
			rd_port_edit_fn edit, void *ctx)
{
	struct rocedp_port_cfg pc;
	char what[64];
	int lock, err;

	if (ifindex >= ROCEDP_PORT_SLOTS)
		return -E2BIG;
	lock = rd_config_lock(obj);
	if (lock < 0)
		return lock;
	/* an unset port starts from the defaults, as a load would give it */
	err = rd_port_cfg_get(m->fd[RD_MAP_PORT_CFG], ifindex, &pc);
	if (err == -ENOENT) {
		rd_port_defaults(&pc);
		err = 0;
	} else if (err) {
		rd_err(obj, "rd_port_cfg ifindex %u: %s", ifindex,
		       strerror(-err));
	}
	if (!err)
		err = edit(&pc, ctx);
#ifdef ROCEDP_FAULTS
	/* test builds only: widen the read-modify-write window (races) */
	const char *d = getenv("ROCEDP_FAULT_PORT_EDIT_DELAY_US");

	if (d)
		usleep(atol(d));
#endif
	if (!err) {
		snprintf(what, sizeof(what), "rd_port_cfg ifindex %u", ifindex);
		err = single_write(m, obj, RD_MAP_PORT_CFG, ifindex, &pc,
				   sizeof(pc), what);
	}
	close(lock);
	return err;
}

int rd_config_set_features(const struct rd_maps *m, const char *obj,
			   __u32 features)
{
	struct rocedp_config c;
	__u32 zero = 0;
	int lock, err;

	lock = rd_config_lock(obj);
	if (lock < 0)
		return lock;
	if (bpf_map_lookup_elem(m->fd[RD_MAP_CONFIG], &zero, &c)) {
		err = -errno;
		rd_err(obj, "rd_config: %s", strerror(-err));
	} else {
		c.features = features;
		err = single_write(m, obj, RD_MAP_CONFIG, 0, &c, sizeof(c),
				   "rd_config");
	}
	close(lock);
	return err;
}

int rd_config_qos_set(const struct rd_maps *m, const char *obj, __u32 cls,
		      const struct rocedp_qos *q)
{
	char what[64];
	int lock, err;

	if (cls >= ROCEDP_CLASS_MAX)
		return -EINVAL;
	lock = rd_config_lock(obj);
	if (lock < 0)
		return lock;
	snprintf(what, sizeof(what), "rd_qos %s", rd_class_name(cls));
	err = single_write(m, obj, RD_MAP_QOS, cls, q, sizeof(*q), what);
	close(lock);
	return err;
}
