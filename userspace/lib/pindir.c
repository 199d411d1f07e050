// SPDX-License-Identifier: GPL-2.0
/*
 * Pin directory per network namespace, on the host's bpffs.
 *
 * `ip netns exec NS cmd` unshares the mount namespace for that one call and
 * mounts a fresh sysfs on /sys, which hides the host's /sys/fs/bpf. A bpffs
 * mounted there again is a new, empty superblock that dies with the call
 * (every bpffs mount is its own instance), so pins made through it do not
 * last. The host's bpffs is still reachable through the root of a process
 * that lives in the host's mount namespace: kthreadd's (/proc/2/root, the
 * kernel's initial mount namespace), else init's (/proc/1/root, in a
 * container's pid namespace). Every namespace then shares
 * one bpffs, so each gets its own directory, keyed by the netns cookie (the
 * inode is reused as soon as a namespace dies; the cookie never is in a
 * boot). The initial namespace keeps <bpffs>/rocedp, as does a bpffs that
 * is private to this mount namespace (someone made it this switch's own).
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <linux/magic.h>
#include "pindir.h"

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71
#endif

#define SYS_BPFFS "/sys/fs/bpf"

static struct {
	bool done;
	bool shared; /* one bpffs for every netns: key the directory */
	bool must_mount; /* not mounted yet, and mounting here lasts */
	int err; /* nowhere that lasts: why */
	const char *ref; /* "/proc/1" or "/proc/2", or NULL */
	char root[64];
	char dir[256];
} pd;

static bool is_bpffs(const char *path, dev_t *dev)
{
	struct statfs sfs;
	struct stat st;

	if (statfs(path, &sfs) || sfs.f_type != BPF_FS_MAGIC || stat(path, &st))
		return false;
	*dev = st.st_dev;
	return true;
}

static bool same_ns(const char *ref, const char *type)
{
	char a[64], b[64], p[64];
	ssize_t n, m;

	snprintf(p, sizeof(p), "/proc/self/ns/%s", type);
	n = readlink(p, a, sizeof(a) - 1);
	snprintf(p, sizeof(p), "%s/ns/%s", ref, type);
	m = readlink(p, b, sizeof(b) - 1);
	return n > 0 && n == m && !memcmp(a, b, n);
}

/*
 * A process in the host's namespaces whose root and ns links we may read:
 * kthreadd first (the kernel's own initial namespaces; a pid 1 can be the
 * init of a pid namespace made for one command), else pid 1 (a container's
 * init, where kthreadd is not in our pid namespace).
 */
static const char *host_ref(void)
{
	char comm[32] = "", buf[64];
	FILE *f;

	f = fopen("/proc/2/comm", "r");
	if (f) {
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = 0;
		fclose(f);
	}
	if (!strcmp(comm, "kthreadd\n") &&
	    readlink("/proc/2/ns/mnt", buf, sizeof(buf)) > 0)
		return "/proc/2";
	if (readlink("/proc/1/ns/mnt", buf, sizeof(buf)) > 0)
		return "/proc/1";
	return NULL;
}

static void resolve_bpffs(void)
{
	char host[64];
	dev_t ldev = 0, hdev = 0;
	bool local, hostfs = false;

	pd.ref = host_ref();
	local = is_bpffs(SYS_BPFFS, &ldev);
	if (pd.ref) {
		snprintf(host, sizeof(host), "%s/root" SYS_BPFFS, pd.ref);
		hostfs = is_bpffs(host, &hdev);
	}
	snprintf(pd.root, sizeof(pd.root), "%s", SYS_BPFFS);
	if (local) {
		/* the host's own, or one this mount namespace was given */
		pd.shared = !hostfs || ldev == hdev;
	} else if (hostfs) {
		snprintf(pd.root, sizeof(pd.root), "%s", host);
		pd.shared = true;
	} else if (!pd.ref || same_ns(pd.ref, "mnt")) {
		pd.shared = true;
		pd.must_mount = true;
	} else {
		/* a mount here would vanish with this command */
		pd.err = -EXDEV;
	}
}

bool rd_netns_initial(void)
{
	if (!pd.done)
		rd_pin_dir();
	return !pd.ref || same_ns(pd.ref, "net");
}

__u64 rd_netns_cookie(void)
{
	socklen_t len = sizeof(__u64);
	__u64 cookie = 0;
	int fd;

	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	if (getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, &cookie, &len))
		cookie = 0;
	close(fd);
	return cookie;
}

static const char *pin_dir_set;

/* --pin-dir: before the first rd_pin_dir(), wins over the environment */
void rd_pin_dir_set(const char *dir)
{
	pin_dir_set = dir;
}

const char *rd_pin_dir(void)
{
	const char *env = pin_dir_set ? pin_dir_set : getenv("ROCEDP_PIN_DIR");
	struct stat st;
	__u64 cookie;

	if (pd.done)
		return pd.dir;
	pd.done = true;
	resolve_bpffs();
	if (env && *env) {
		snprintf(pd.dir, sizeof(pd.dir), "%s", env);
	} else if (!pd.shared || rd_netns_initial()) {
		snprintf(pd.dir, sizeof(pd.dir), "%s/rocedp", pd.root);
	} else {
		cookie = rd_netns_cookie();
		if (cookie)
			snprintf(pd.dir, sizeof(pd.dir),
				 "%s/" ROCEDP_NETNS_PIN_SUBDIR "/%llu", pd.root,
				 (unsigned long long)cookie);
		else /* kernel < 5.14: the inode, reused after a netns dies */
			snprintf(pd.dir, sizeof(pd.dir),
				 "%s/" ROCEDP_NETNS_PIN_SUBDIR "/i%lu", pd.root,
				 stat("/proc/self/ns/net", &st) ?
					 0ul :
					 (unsigned long)st.st_ino);
	}
	return pd.dir;
}

/* The bpffs the pin directory lives on, as this process reaches it. */
const char *rd_bpffs_root(void)
{
	rd_pin_dir();
	return pd.root;
}

int rd_bpffs_prepare(void)
{
	rd_pin_dir();
	if (pd.err)
		return pd.err;
	if (!pd.must_mount)
		return 0;
	mkdir(SYS_BPFFS, 0755);
	if (mount("bpf", SYS_BPFFS, "bpf", 0, "mode=0700"))
		return -errno;
	pd.must_mount = false;
	return 0;
}

static bool under_netns_parent(char *parent, size_t len)
{
	snprintf(parent, len, "%s/" ROCEDP_NETNS_PIN_SUBDIR, pd.root);
	return !strncmp(rd_pin_dir(), parent, strlen(parent)) &&
	       rd_pin_dir()[strlen(parent)] == '/';
}

int rd_pin_dir_make(void)
{
	char parent[128];
	int err = rd_bpffs_prepare();

	if (err)
		return err;
	if (under_netns_parent(parent, sizeof(parent)) && mkdir(parent, 0700) &&
	    errno != EEXIST)
		return -errno;
	if (mkdir(rd_pin_dir(), 0700) && errno != EEXIST)
		return -errno;
	chmod(rd_pin_dir(), 0700);
	return 0;
}

void rd_pin_dir_gc(void)
{
	char parent[128];

	if (under_netns_parent(parent, sizeof(parent)))
		rmdir(parent); /* fails while another namespace has pins */
}

/*
 * The name `ip netns` knows this namespace by, "" if none; a character that
 * would need quoting in JSON or a terminal reads as '?'.
 */
const char *rd_netns_name(char *buf, size_t len)
{
	struct stat self, st;
	struct dirent *e;
	char p[300], *c;
	DIR *d;

	buf[0] = 0;
	if (stat("/proc/self/ns/net", &self))
		return buf;
	d = opendir("/run/netns");
	if (!d)
		return buf;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/run/netns/%s", e->d_name);
		if (!stat(p, &st) && st.st_ino == self.st_ino &&
		    st.st_dev == self.st_dev) {
			snprintf(buf, len, "%s", e->d_name);
			for (c = buf; *c; c++)
				if ((unsigned char)*c < 0x20 || *c == 0x7f ||
				    *c == '"' || *c == '\\')
					*c = '?';
			break;
		}
	}
	closedir(d);
	return buf;
}

/*
 * For status: this namespace, as a JSON fragment ("netns":...,) or a text
 * line; the text is empty in the initial namespace (output as before).
 */
const char *rd_netns_describe(bool json, char *buf, size_t len)
{
	char name[64];
	unsigned long long cookie = rd_netns_cookie();

	rd_netns_name(name, sizeof(name));
	if (json)
		snprintf(buf, len, "\"netns\":\"%s\",\"netns_cookie\":%llu,",
			 name, cookie);
	else if (rd_netns_initial())
		buf[0] = 0;
	else
		snprintf(buf, len, "netns: %s (cookie %llu)\n",
			 name[0] ? name : "-", cookie);
	return buf;
}

const char *rd_pin_dir_error(int err)
{
	if (err == -EXDEV)
		return "no bpffs here outlives this command (a private mount namespace, as 'ip netns exec' makes one) and the host has none mounted: mount it on the host ('mount -t bpf bpf /sys/fs/bpf')";
	return strerror(-err);
}
