// SPDX-License-Identifier: GPL-2.0
/*
 * Attach and detach as library calls (userspace/lib/attach/attach.h), with
 * no command line: what a program other than rocedp can do. In a private
 * network namespace (unshare), so its pin directory, records and veths are
 * its own: bad input refused before anything changes, a tc attach that is
 * recorded, a second mode refused, and a detach that leaves nothing.
 */
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "attach.h"
#include "attach_state.h"
#include "pindir.h"
#include "tap.h"

static unsigned int attached(const char *name, enum rd_attach_mode *mode)
{
	struct rd_attach_state *st = calloc(1, sizeof(*st));
	struct rd_attached *a;
	unsigned int n = 0;

	if (st && !rd_state_read(st)) {
		a = rd_state_find(st, if_nametoindex(name));
		if (a && !a->gone && !a->missing) {
			n = 1;
			*mode = a->mode;
		}
	}
	free(st);
	return n;
}

int main(void)
{
	const char *none[] = { "rdapi-none0" }, *both[] = { "rdapi0", NULL };
	const char *one[] = { "rdapi0" }, *peer[] = { "rdapi1" };
	struct rd_attach_opts tc = { .mode = RD_MODE_TC },
			      gen = { .mode = RD_MODE_GENERIC };
	enum rd_attach_mode mode = RD_MODE_NATIVE;
	struct stat sb;
	char pins[4096];

	if (geteuid()) {
		printf("1..0 # SKIP needs root (a network namespace, BPF)\n");
		return 0;
	}
	if (unshare(CLONE_NEWNET)) {
		printf("Bail out! unshare(CLONE_NEWNET): %s\n",
		       strerror(errno));
		return 1;
	}
	if (system("ip link add rdapi0 type veth peer name rdapi1 && "
		   "ip link set rdapi0 up && ip link set rdapi1 up")) {
		printf("Bail out! ip link add: a veth pair\n");
		return 1;
	}
	/* the pin directory of this netns alone (rocedp-netns/<cookie>) */
	snprintf(pins, sizeof(pins), "%s", rd_pin_dir());

	result(rd_attach(one, 0, &tc) == -EINVAL, "no port named: -EINVAL");
	result(rd_attach(none, 1, &tc) == -ENODEV,
	       "a name that resolves to no interface: -ENODEV");
	both[1] = none[0];
	result(rd_attach(both, 2, &tc) == -ENODEV && !attached("rdapi0", &mode),
	       "one bad name of two: -ENODEV, the good one not attached");
	result(stat(pins, &sb) && errno == ENOENT,
	       "refused before anything changed: no pin directory %s", pins);

	result(rd_attach(one, 1, &tc) == 0, "rd_attach rdapi0 tc: 0");
	result(attached("rdapi0", &mode) && mode == RD_MODE_TC,
	       "rdapi0 recorded in tc mode");
	result(!stat(pins, &sb) && S_ISDIR(sb.st_mode), "maps pinned in %s",
	       pins);
	result(rd_attach(one, 1, &tc) == 0 && attached("rdapi0", &mode),
	       "rd_attach again in the same mode: 0 (idempotent)");
	result(rd_attach(one, 1, &gen) == -EEXIST && mode == RD_MODE_TC,
	       "another mode while attached: -EEXIST, tc kept");
	result(rd_detach(peer, 1, false) == -ENOENT &&
		       attached("rdapi0", &mode),
	       "detach of a port not attached: -ENOENT, rdapi0 kept");

	result(rd_detach(one, 1, false) == 0 && !attached("rdapi0", &mode),
	       "rd_detach rdapi0: 0, no record left");
	result(stat(pins, &sb) && errno == ENOENT,
	       "nothing attached: the pin directory is gone");
	if (n_fail) /* no pins left behind by a failed run */
		rd_detach(NULL, 0, true);
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
