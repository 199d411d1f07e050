// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp ecn show|set: per-port RED settings in rd_port_cfg, and the
 * rocedp_ecn module's profiles when it is loaded (then the dataplane reads
 * its thresholds through the module's kfunc: the module is the live source).
 */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "commands.h"
#include "cli.h"
#include "config_txn.h"
#include "escape.h"
#include "engine.h"
#include "liveload.h"
#include "pindir.h"
#include "stats.h"

#define ECN_SYSFS "/sys/kernel/rocedp_ecn"

/* Thresholds of a module profile; -errno when unavailable. */
static int module_profile(unsigned int profile, unsigned int *kmin,
			  unsigned int *kmax, unsigned int *pmax)
{
	char path[128];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), ECN_SYSFS "/profile%u/thresholds",
		 profile);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fscanf(f, "%u %u %u", kmin, kmax, pmax);
	fclose(f);
	return n == 3 ? 0 : -EPROTO;
}

static int module_profile_set(unsigned int profile, unsigned int kmin,
			      unsigned int kmax, unsigned int pmax)
{
	char path[128];
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), ECN_SYSFS "/profile%u/thresholds",
		 profile);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	if (fprintf(f, "%u %u %u\n", kmin, kmax, pmax) < 0)
		err = -EIO;
	/* sysfs reports a refused write at close */
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

static int ecn_show(const struct rd_maps *m)
{
	bool module = rd_ecn_module_loaded();
	struct rocedp_port_cfg pc;
	struct rocedp_port_state ps;
	struct rocedp_port_stats st;
	unsigned int kmin, kmax, pmax, n = 0;
	unsigned long long queue;
	__u32 key;
	char name[RD_ESC_IFNAME];

	if (rd_json)
		printf("{\"source\":\"%s\",\"ports\":[",
		       module ? "module" : "map");
	else
		printf("ECN thresholds source: %s\n",
		       module ? "module (rocedp_ecn kfunc)" :
				"map (rd_port_cfg)");
	for (key = 0; key < ROCEDP_PORT_SLOTS; key++) {
		if (rd_port_cfg_get(m->fd[RD_MAP_PORT_CFG], key, &pc))
			continue;
		memset(&ps, 0, sizeof(ps));
		bpf_map_lookup_elem(m->fd[RD_MAP_PORT_STATE], &key, &ps);
		if (rd_percpu_sum(m->fd[RD_MAP_PORT_STATS], &key, (__u64 *)&st,
				  sizeof(st) / 8))
			memset(&st, 0, sizeof(st));
		/* the estimate: bytes still waiting for a clock reading too */
		queue = ps.vq_bytes + ps.vq_pending;
		kmin = pc.kmin_bytes;
		kmax = pc.kmax_bytes;
		pmax = pc.pmax_percent;
		if (module)
			module_profile(pc.ecn_profile, &kmin, &kmax, &pmax);
		if (rd_json)
			printf("%s{\"port\":\"%s\",\"ifindex\":%u,\"rate_bps\":%llu,"
			       "\"kmin_bytes\":%u,\"kmax_bytes\":%u,\"pmax_percent\":%u,"
			       "\"profile\":%u,\"queue_bytes\":%llu,\"marked\":%llu,"
			       "\"would_mark\":%llu}",
			       n ? "," : "",
			       rd_ifname_esc(key, RD_ESC_JSON, name), key,
			       (unsigned long long)pc.rate_bps, kmin, kmax,
			       pmax, pc.ecn_profile, queue,
			       (unsigned long long)st.ecn_marked,
			       (unsigned long long)st.ecn_would_mark);
		else
			printf("  %-16s rate %llu Mbit/s kmin %u kmax %u pmax %u%% profile %u queue %llu B marked %llu would-mark %llu\n",
			       rd_ifname_esc(key, RD_ESC_TERM, name),
			       (unsigned long long)pc.rate_bps / 1000000, kmin,
			       kmax, pmax, pc.ecn_profile, queue,
			       (unsigned long long)st.ecn_marked,
			       (unsigned long long)st.ecn_would_mark);
		n++;
	}
	if (rd_json) {
		printf("],\"module_profiles\":[");
		for (key = 0; module && key < ROCEDP_ECN_MAX_PROFILES; key++)
			if (!module_profile(key, &kmin, &kmax, &pmax))
				printf("%s{\"profile\":%u,\"kmin_bytes\":%u,"
				       "\"kmax_bytes\":%u,\"pmax_percent\":%u}",
				       key ? "," : "", key, kmin, kmax, pmax);
		printf("]}\n");
	} else if (!n) {
		printf("  no port has ECN marking configured\n");
	}
	return 0;
}

static int parse_u(const char *what, const char *s, unsigned long long max,
		   unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || *end || s[0] == '-' || *out > max) {
		rd_err("ecn", "%s: '%s' is not a number in 0..%llu", what, s,
		       max);
		return -EINVAL;
	}
	return 0;
}

/* The knobs `ecn set` names; the others stay as they are. */
enum { K_KMIN, K_KMAX, K_PMAX, K_RATE, K_PROFILE, K_MAX };

struct knobs {
	bool has[K_MAX];
	unsigned long long v[K_MAX];
};

static void knobs_apply(const struct knobs *k, struct rocedp_port_cfg *pc)
{
	if (k->has[K_KMIN])
		pc->kmin_bytes = k->v[K_KMIN];
	if (k->has[K_KMAX])
		pc->kmax_bytes = k->v[K_KMAX];
	if (k->has[K_PMAX])
		pc->pmax_percent = k->v[K_PMAX];
	if (k->has[K_RATE])
		pc->rate_bps = k->v[K_RATE] * 1000000;
	if (k->has[K_PROFILE])
		pc->ecn_profile = k->v[K_PROFILE];
}

static int check_thresholds(const struct rocedp_port_cfg *pc)
{
	if (pc->kmin_bytes <= pc->kmax_bytes)
		return 0;
	rd_err("ecn", "kmin %u is above kmax %u", pc->kmin_bytes,
	       pc->kmax_bytes);
	return -EINVAL;
}

/* rd_port_edit_fn: applied under the writers' lock to the current entry */
static int port_edit(struct rocedp_port_cfg *pc, void *ctx)
{
	knobs_apply(ctx, pc);
	return check_thresholds(pc);
}

static int parse_knobs(int argc, char **argv, bool port, struct knobs *k)
{
	static const struct {
		const char *name, *what;
		unsigned long long max;
		bool port_only;
	} kn[K_MAX] = {
		[K_KMIN] = { "kmin", "kmin", ROCEDP_ECN_MAX_BYTES, false },
		[K_KMAX] = { "kmax", "kmax", ROCEDP_ECN_MAX_BYTES, false },
		[K_PMAX] = { "pmax", "pmax", 100, false },
		[K_RATE] = { "rate", "rate (Mbit/s)", ROCEDP_VQ_MAX_RATE_MBPS,
			     true },
		[K_PROFILE] = { "profile", "profile",
				ROCEDP_ECN_MAX_PROFILES - 1, true },
	};
	int i, j;

	memset(k, 0, sizeof(*k));
	for (i = 0; i < argc; i += 2) {
		if (i + 1 >= argc) {
			rd_err("ecn", "%s: missing value", argv[i]);
			return -EINVAL;
		}
		for (j = 0; j < K_MAX; j++)
			if (!strcmp(argv[i], kn[j].name) &&
			    (port || !kn[j].port_only))
				break;
		if (j == K_MAX) {
			rd_err("ecn", "set: unknown knob '%s'", argv[i]);
			return -EINVAL;
		}
		if (parse_u(kn[j].what, argv[i + 1], kn[j].max, &k->v[j]))
			return -EINVAL;
		k->has[j] = true;
	}
	return 0;
}

/* ecn set profile N kmin B kmax B pmax P: the module's knobs (sysfs) */
static int profile_set(int argc, char **argv)
{
	struct rocedp_port_cfg pc = { 0 };
	unsigned int kmin, kmax, pmax;
	unsigned long long prof;
	struct knobs k;
	int err;

	if (argc < 3) {
		rd_err("ecn", "set profile: expected its number N");
		return -EINVAL;
	}
	if (parse_u("profile", argv[2], ROCEDP_ECN_MAX_PROFILES - 1, &prof))
		return -EINVAL;
	/*
	 * The module's profiles are not per namespace: from a namespace's
	 * switch, say so before changing every other one's too.
	 */
	if (!rd_netns_initial())
		rd_err("ecn",
		       "profile %llu: the rocedp_ecn module's profiles are shared by the whole host: setting one changes it for the switches of every network namespace, not only this one",
		       prof);
	if (!rd_ecn_module_loaded()) {
		rd_err("ecn",
		       "profile %llu: the rocedp_ecn module is not loaded",
		       prof);
		return -ENOENT;
	}
	err = module_profile(prof, &kmin, &kmax, &pmax);
	if (err) {
		rd_err("ecn", "profile %llu: %s", prof, strerror(-err));
		return err;
	}
	pc.kmin_bytes = kmin;
	pc.kmax_bytes = kmax;
	pc.pmax_percent = pmax;
	err = parse_knobs(argc - 3, argv + 3, false, &k);
	if (err)
		return err;
	knobs_apply(&k, &pc);
	err = check_thresholds(&pc);
	if (err)
		return err;
	err = module_profile_set(prof, pc.kmin_bytes, pc.kmax_bytes,
				 pc.pmax_percent);
	if (err)
		rd_err("ecn", "profile %llu: the module refused: %s", prof,
		       strerror(-err));
	return err;
}

/*
 * ecn set PORT [kmin B] [kmax B] [pmax P] [rate MBPS] [profile N]
 * ecn set profile N kmin B kmax B pmax P   (module knobs)
 */
static int ecn_set(int argc, char **argv)
{
	struct rd_maps m;
	unsigned int ifindex;
	struct knobs k;
	char *end;
	int err;

	if (argc < 2) {
		rd_err("ecn", "set: expected PORT or 'profile N'");
		return -EINVAL;
	}
	/* the module's knobs are the host's, not the pinned maps' */
	if (!strcmp(argv[1], "profile"))
		return profile_set(argc, argv);
	ifindex = if_nametoindex(argv[1]);
	if (!ifindex) {
		ifindex = strtoul(argv[1], &end, 10);
		if (*end || !ifindex) {
			rd_err("ecn", "%s: no such interface", argv[1]);
			return -ENODEV;
		}
	}
	if (ifindex >= ROCEDP_PORT_SLOTS) {
		rd_err("ecn", "%s: " RD_PORT_SLOTS_ERR, argv[1], ifindex,
		       ROCEDP_PORT_SLOTS);
		return -E2BIG;
	}
	err = parse_knobs(argc - 2, argv + 2, true, &k);
	if (err)
		return err;
	/* validated: now the maps, then the read, the edit and the write
	 * under the config writers' lock */
	if (cli_maps_open(&m, "ecn"))
		return -ENOENT;
	err = rd_config_port_edit(&m, "ecn", ifindex, port_edit, &k);
	rd_maps_close(&m);
	return err;
}

int cmd_ecn_show(const struct cli_call *c)
{
	struct rd_maps m;
	int err;

	(void)c;
	if (cli_maps_open(&m, "ecn"))
		return CLI_FAIL;
	err = ecn_show(&m);
	rd_maps_close(&m);
	return err ? CLI_FAIL : CLI_OK;
}

int cmd_ecn_set(const struct cli_call *c)
{
	/* ecn_set's argv[0] is the verb */
	int err = ecn_set(c->argc + 1, c->argv - 1);

	return err == -EINVAL ? CLI_USAGE : err ? CLI_FAIL : CLI_OK;
}
