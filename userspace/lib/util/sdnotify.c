// SPDX-License-Identifier: GPL-2.0
/*
 * The whole of sd_notify(3)'s protocol that a Type=notify daemon needs:
 * a datagram "VAR=VALUE\n..." on the AF_UNIX socket named by
 * $NOTIFY_SOCKET (a path, or "@name" in the abstract namespace). Written
 * here rather than linking libsystemd for one sendto(): rocedp also runs
 * where systemd is absent (SONiC containers, the lab's netns), and the
 * protocol is documented as stable (docs/operate.md).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include "sdnotify.h"

int rd_sd_notify(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len;
	ssize_t n;
	int fd, err = 0;

	if (!path || !*path)
		return 0;
	len = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || len >= sizeof(sa.sun_path))
		return -EINVAL;
	memcpy(sa.sun_path, path, len);
	if (path[0] == '@')
		sa.sun_path[0] = 0;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	n = sendto(fd, state, strlen(state), MSG_NOSIGNAL,
		   (struct sockaddr *)&sa,
		   offsetof(struct sockaddr_un, sun_path) + len);
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}
