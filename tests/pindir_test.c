// SPDX-License-Identifier: GPL-2.0
/*
 * rd_dir_walk (pindir.c): the checks every pin directory passes, on a
 * plain directory tree under /tmp (the bpffs-only parts are in
 * selftests/security_pins.sh). Needs root (chown to nobody).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pindir.h"
#include "tap.h"

#define NOBODY 65534

static char top[64], why[400];

static int walk(const char *rel, bool create)
{
	int bfd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;

	if (bfd < 0)
		return -errno;
	why[0] = 0;
	fd = rd_dir_walk(bfd, top, rel, create, why, sizeof(why));
	close(bfd);
	if (fd >= 0)
		close(fd);
	return fd < 0 ? fd : 0;
}

static unsigned int mode_of(const char *rel)
{
	char p[128];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	return lstat(p, &st) ? 0 : st.st_mode & 07777;
}

static int sh(const char *fmt, const char *arg)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), fmt, top, arg);
	return system(cmd);
}

int main(void)
{
	int err;

	if (geteuid()) {
		printf("1..0 # SKIP needs root\n");
		return 0;
	}
	snprintf(top, sizeof(top), "/tmp/pindir_test.XXXXXX");
	if (!mkdtemp(top)) {
		result(false, "mkdtemp: %s", strerror(errno));
		return 1;
	}
	chmod(top, 0755);

	err = walk("a/b", true);
	result(!err && mode_of("a") == 0700 && mode_of("a/b") == 0700,
	       "create a/b: root's, 0700 (%d %s)", err, why);
	result(!walk("a/b", false), "open the existing chain: ok");
	result(walk("a/c", false) == -ENOENT,
	       "a missing one without create: -ENOENT");
	sh("chmod 0750 %s/a%s", "/b");
	result(!walk("a/b", true) && mode_of("a/b") == 0700,
	       "a root-owned 0750 made 0700 through the fd");

	chmod(top, 0777);
	err = walk("a/b", true);
	result(err == -EPERM && strstr(why, "sticky"),
	       "base writable by others without the sticky bit: refused (%s)",
	       why);
	chmod(top, 01777);
	result(!walk("a/b", true), "base 1777 (sticky): ok");
	chmod(top, 0755);
	if (chown(top, NOBODY, NOBODY))
		result(false, "chown: %s", strerror(errno));
	err = walk("a/b", true);
	result(err == -EPERM && strstr(why, "uid 65534"),
	       "base of another user: refused (%s)", why);
	if (chown(top, 0, 0))
		result(false, "chown back: %s", strerror(errno));

	sh("chown 65534 %s/a%s", "");
	err = walk("a/b", true);
	result(err == -EPERM && strstr(why, "not owned by root") &&
		       mode_of("a") == 0700,
	       "a directory of another user on the way: refused, not chmod'ed (%s)",
	       why);
	sh("chown 0 %s/a%s", "");

	sh("chmod 0770 %s/a%s", "");
	err = walk("a/b", true);
	result(err == -EPERM && strstr(why, "writable") && mode_of("a") == 0770,
	       "a group-writable one: refused, left as it was (%s)", why);
	sh("chmod 0700 %s/a%s", "");

	sh("mkdir -m 0755 %s/other%s", "");
	sh("ln -s other %s/link%s", "");
	err = walk("link/x", true);
	result(err == -EPERM && strstr(why, "symlink") &&
		       mode_of("other") == 0755,
	       "a symlink on the way: refused, its target not chmod'ed (%s)",
	       why);
	{
		char p[128];

		snprintf(p, sizeof(p), "%s/other/x", top);
		result(access(p, F_OK) != 0,
		       "nothing made through the symlink");
	}

	sh("rm -rf %s%s", "");
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
