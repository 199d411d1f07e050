// SPDX-License-Identifier: GPL-2.0
/*
 * What rocedp attached, recorded per network namespace in ROCEDP_RUN_DIR
 * (ifindexes are per netns), so detach removes exactly that and status
 * says only what is really there.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "attach_state.h"
#include "attach_tc.h"
#include "attach_xdp.h"

const char *rd_mode_name(enum rd_attach_mode m)
{
	switch (m) {
	case RD_MODE_NATIVE:
		return "native";
	case RD_MODE_GENERIC:
		return "generic";
	case RD_MODE_TC:
		return "tc";
	}
	return "unknown";
}

int rd_parse_mode(const char *s, enum rd_attach_mode *m)
{
	if (!strcmp(s, "native") || !strcmp(s, "drv"))
		*m = RD_MODE_NATIVE;
	else if (!strcmp(s, "generic") || !strcmp(s, "skb"))
		*m = RD_MODE_GENERIC;
	else if (!strcmp(s, "tc"))
		*m = RD_MODE_TC;
	else
		return -EINVAL;
	return 0;
}

/* The record's name before netns cookies (and without them): the inode. */
static const char *state_file_by_inode(void)
{
	static char path[128];
	struct stat st;

	if (!path[0]) {
		if (stat("/proc/self/ns/net", &st))
			st.st_ino = 0;
		snprintf(path, sizeof(path), "%s/attached.%lu", ROCEDP_RUN_DIR,
			 (unsigned long)st.st_ino);
	}
	return path;
}

/*
 * Attachment record, one per network namespace (ifindexes are per netns).
 * Named by the netns cookie, which the kernel never hands out twice in a
 * boot: the nsfs inode number is reused as soon as a namespace dies, and a
 * record a deleted namespace left behind was then read as a new one's.
 * Kernels before 5.14 have no cookie; the inode is the fallback there.
 */
const char *rd_state_file(void)
{
	static char path[128];
	__u64 cookie;

	if (path[0])
		return path;
	cookie = rd_netns_cookie();
	if (cookie)
		snprintf(path, sizeof(path), "%s/attached.c%llu",
			 ROCEDP_RUN_DIR, (unsigned long long)cookie);
	else
		snprintf(path, sizeof(path), "%s", state_file_by_inode());
	return path;
}

/* Is what the record says attached really there: our link, our filter? */
static bool attachment_present(const struct rd_attached *a)
{
	return a->mode == RD_MODE_TC ?
		       rd_tc_present(a->ifindex) :
		       rd_xdp_present(a->ifindex, a->flags & RD_AF_DISPATCHER);
}

/*
 * The records of this namespace. A deleted interface's record stays,
 * marked gone, until attach or detach has removed its link pin. A record
 * under the inode name (older builds, kernels without cookies) is trusted
 * only where its attachment is really there, as the inode may be a dead
 * namespace's; the next write moves it to the cookie name.
 */
int rd_state_read(struct rd_attach_state *st)
{
	char name[IF_NAMESIZE + 1], now[IF_NAMESIZE], mode[16];
	const char *path = rd_state_file();
	unsigned int ifindex, flags;
	bool by_inode;
	FILE *f;

	memset(st, 0, sizeof(*st));
	by_inode = !strcmp(path, state_file_by_inode()); /* kernel < 5.14 */
	f = fopen(path, "r");
	if (!f && errno == ENOENT && !by_inode) {
		f = fopen(state_file_by_inode(), "r");
		by_inode = true;
	}
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (st->n < RD_MAX_ATTACH && fscanf(f, "%16s %u %15s %u", name,
					       &ifindex, mode, &flags) == 4) {
		struct rd_attached *a = &st->ifs[st->n];

		memset(a, 0, sizeof(*a));
		snprintf(a->name, sizeof(a->name), "%s", name);
		a->ifindex = ifindex;
		if (rd_parse_mode(mode, &a->mode))
			continue;
		/* a renamed interface keeps its programs: follow its name */
		if (if_indextoname(ifindex, now))
			snprintf(a->name, sizeof(a->name), "%s", now);
		else if (errno == ENXIO || errno == ENODEV)
			a->gone = true;
		a->flags = flags;
		a->missing = !a->gone && !attachment_present(a);
		if (by_inode && (a->gone || a->missing))
			continue;
		st->n++;
	}
	fclose(f);
	return 0;
}

int rd_state_write(const struct rd_attach_state *st)
{
	unsigned int i;
	char tmp[160];
	FILE *f;
	int err;

	snprintf(tmp, sizeof(tmp), "%s.tmp", rd_state_file());
	mkdir(ROCEDP_RUN_DIR, 0700);
	if (!st->n) {
		unlink(rd_state_file());
		err = 0;
		goto out;
	}
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	for (i = 0; i < st->n; i++)
		fprintf(f, "%s %u %s %u\n", st->ifs[i].name, st->ifs[i].ifindex,
			rd_mode_name(st->ifs[i].mode), st->ifs[i].flags);
	if (fclose(f))
		return -errno;
	err = rename(tmp, rd_state_file()) ? -errno : 0;
out:
	/* the inode-named record is this namespace's, now moved, or a dead one's */
	if (!err && strcmp(rd_state_file(), state_file_by_inode()))
		unlink(state_file_by_inode());
	return err;
}

struct rd_attached *rd_state_find(struct rd_attach_state *st,
				  unsigned int ifindex)
{
	unsigned int i;

	for (i = 0; i < st->n; i++)
		if (st->ifs[i].ifindex == ifindex)
			return &st->ifs[i];
	return NULL;
}
