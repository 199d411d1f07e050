// SPDX-License-Identifier: GPL-2.0
/*
 * What every rocedp program shares, the CLI and the tools and tests that
 * link its objects alike: the output options and the one-line error.
 */
#include <errno.h>
#include <stdarg.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/sockios.h>
#include "util.h"

bool rd_json; /* -j */
bool rd_pretty; /* -p */
void (*rd_err_sink)(const char *prog, const char *obj, const char *msg);

/*
 * stderr is the journal's stream when systemd says so in JOURNAL_STREAM
 * ("DEV:INODE" of the socket it gave us, systemd.exec(5)), and the fd is
 * still that socket (not redirected by a script in between).
 */
bool rd_log_journal(void)
{
	static int cached = -1;
	unsigned long long dev, ino;
	const char *e;
	struct stat st;

	if (cached >= 0)
		return cached;
	e = getenv("JOURNAL_STREAM");
	cached = e && sscanf(e, "%llu:%llu", &dev, &ino) == 2 &&
		 !fstat(STDERR_FILENO, &st) &&
		 (unsigned long long)st.st_dev == dev &&
		 (unsigned long long)st.st_ino == ino;
	return cached;
}

const char *rd_log_prio(int prio)
{
	static const char *const p[] = { "<0>", "<1>", "<2>", "<3>",
					 "<4>", "<5>", "<6>", "<7>" };

	return rd_log_journal() && prio >= 0 && prio <= 7 ? p[prio] : "";
}

/*
 * One error, one line: control characters from the input (a newline in a
 * key or an argument, say) are printed as "?", so no input can split an
 * error or forge another line.
 */
void rd_verr(const char *prog, const char *obj, const char *fmt, va_list ap)
{
	char msg[2048], *p;

	if (vsnprintf(msg, sizeof(msg), fmt, ap) < 0)
		msg[0] = 0;
	for (p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	if (rd_err_sink)
		rd_err_sink(prog, obj, msg);
	else /* LOG_ERR for journald (sd-daemon(3) prefixes), nothing else */
		fprintf(stderr, "%s%s: %s: %s\n", rd_log_prio(3), prog, obj,
			msg);
}

void rd_err(const char *obj, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rd_verr("rocedp", obj, fmt, ap);
	va_end(ap);
}

const char *rd_ifname(unsigned int ifindex, char *buf)
{
	if (!if_indextoname(ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "if%u", ifindex);
	return buf;
}

int rd_grow(void **arr, size_t n, size_t *cap, size_t sz, size_t first)
{
	size_t c;
	void *p;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : first;
	p = realloc(*arr, c * sz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = c;
	return 0;
}

int rd_ethtool(const char *name, void *data)
{
	struct ifreq ifr = {};
	int fd, err = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ifr.ifr_data = data;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		err = -errno;
	close(fd);
	return err;
}
