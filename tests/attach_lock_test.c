// SPDX-License-Identifier: GPL-2.0
/*
 * attach's adoption of groups (rd_live_adopt: groups in rd_groups that the
 * banks lack, made live) takes the writers' lock, as every group writer
 * does. Without it, a sync writing a group between adoption's read and its
 * publish got the older version republished under the newer sequence.
 * Deterministic: another process holds the lock (as a running sync does
 * while it writes); adoption must not publish while it is held, and after
 * the holder's write and release it must leave the holder's version live.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include "buckets.h"
#include "engine.h"
#include "groupw.h"
#include "liveload.h"
#include "tap.h"

#define GID 5

static struct rd_maps maps;
static int adopted = -1000;

static void *adopt(void *arg)
{
	adopted = rd_live_adopt(&maps);
	return NULL;
}

/* The live version of GID: its first member's weight, 0 when not live. */
static int live_weight(void)
{
	struct rocedp_group g;
	__u32 id = GID, v, key;

	if (bpf_map_lookup_elem(maps.fd[RD_MAP_GROUP_LIVE], &id, &v) ||
	    !(v & ROCEDP_GROUP_LIVE_PRESENT))
		return 0;
	key = ROCEDP_GROUP_LIVE_BANK(v) * ROCEDP_MAX_GROUPS + id;
	if (bpf_map_lookup_elem(maps.fd[RD_MAP_GROUP_BANKS], &key, &g))
		return -1;
	return g.members[0].weight;
}

static void mkgroup(struct rocedp_group *g, __u16 weight)
{
	memset(g, 0, sizeof(*g));
	g->n_members = 2;
	g->members[0].ifindex = g->members[1].ifindex = 1;
	g->members[0].weight = weight;
	g->members[1].weight = 1;
	g->members[0].flags = g->members[1].flags = ROCEDP_MEMBERF_UP |
						    ROCEDP_MEMBERF_RESOLVED;
	rd_group_build(g);
}

int main(void)
{
	struct rd_engine_opts eo = { .map_clock = true,
				     .hooks = RD_HOOKS_NONE };
	char dir[] = "/tmp/rdattlock.XXXXXX", c = 0;
	int to_child[2], to_parent[2], err, w_locked, w_after;
	static struct rocedp_group old, newer;
	struct rd_engine *e;
	pthread_t t;
	pid_t pid;
	__u32 id = GID;

	if (!mkdtemp(dir) || setenv("ROCEDP_PIN_DIR", dir, 1)) {
		printf("not ok 1 - temp pin directory: %s\n", strerror(errno));
		return 1;
	}
	err = rd_engine_open(&e, &eo);
	if (err) {
		printf("not ok 1 - engine: %s\n", strerror(-err));
		return 1;
	}
	maps = *rd_engine_maps(e);
	/* a group an older version left in rd_groups only */
	mkgroup(&old, 1);
	mkgroup(&newer, 7);
	if (bpf_map_update_elem(maps.fd[RD_MAP_GROUPS], &id, &old, BPF_ANY)) {
		printf("not ok 1 - rd_groups: %s\n", strerror(errno));
		return 1;
	}
	if (pipe(to_child) || pipe(to_parent))
		return 1;
	pid = fork();
	if (pid == 0) {
		/* the other writer: holds the lock until told to let go */
		int fd = open(dir, O_RDONLY | O_DIRECTORY);

		if (fd < 0 || flock(fd, LOCK_EX))
			_exit(1);
		if (write(to_parent[1], &c, 1) != 1 ||
		    read(to_child[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	if (pid < 0 || read(to_parent[0], &c, 1) != 1) {
		printf("not ok 1 - lock holder did not start\n");
		return 1;
	}
	pthread_create(&t, NULL, adopt, NULL);
	/*
	 * However long this waits, adoption may not publish while the lock
	 * is held; the wait only gives a lockless adoption time to show.
	 */
	usleep(300 * 1000);
	w_locked = live_weight();
	result(w_locked == 0 && adopted == -1000,
	       "attach's adoption waits while another writer holds the lock (group live: %s)",
	       w_locked ? "yes: adopted while another writer held the lock" :
			  "no");
	/* the holder's write: the newer version, as sync would publish it */
	err = rd_groupw_put_maps(&maps, GID, &newer);
	if (write(to_child[1], &c, 1) != 1)
		return 1;
	pthread_join(t, NULL);
	waitpid(pid, NULL, 0);
	w_after = live_weight();
	result(!err && adopted == 0 && w_after == 7,
	       "after the holder's write and release the newer version stays live (weight %d, want 7; %d adopted)",
	       w_after, adopted);
	rd_engine_close(e);
	rmdir(dir);
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
