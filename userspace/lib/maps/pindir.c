// SPDX-License-Identifier: GPL-2.0
/*
 * Pin directory per network namespace, on the host's bpffs.
 *
 * `ip netns exec NS cmd` unshares the mount namespace for that one call and
 * mounts a fresh sysfs on /sys, which hides the host's /sys/fs/bpf. A bpffs
 * mounted there again is a new, empty superblock that dies with the call
 * (every bpffs mount is its own instance), so pins made through it do not
 * last. The host's bpffs is still reachable through the root of a process
 * that lives in the host's mount namespace: a kernel thread's (the kernel's
 * initial mount namespace), else init's (/proc/1/root, in a container's pid
 * namespace). Where it is not mounted yet, it is mounted there (mode 0700).
 *
 * Only the kernel's initial network namespace uses <bpffs>/rocedp; every
 * other one gets <bpffs>/rocedp-netns/<netns cookie> (the inode is reused
 * as soon as a namespace dies; the cookie never is in a boot).
 *
 * A bpffs is world-writable (mode 1777) unless mounted otherwise, so every
 * directory on the way is opened without following symlinks and must be
 * root's and not writable by anyone else; nothing is chmod'ed by path.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/magic.h>
#include "escape.h"
#include "pindir.h"
#include "util.h"

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71
#endif
/* task flag in /proc/PID/stat: set only on kernel threads */
#define RD_PF_KTHREAD 0x00200000u
/*
 * The initial network namespace's fixed nsfs inode on kernels that fix
 * them (6.18 does; 6.1 gives it a dynamic one). Dynamic inodes start at
 * 0xf0000000, so no other namespace can have this one on any kernel.
 */
#define RD_NET_INIT_INO 0xEFFFFFF9u
/*
 * net.core.netdev_max_backlog is in net_core_table, which the kernel
 * registers for init_net only (6.1 and 6.18 alike); /proc/sys/net shows
 * the reader's own netns, so it exists only there.
 */
#define RD_INIT_NET_SYSCTL "/proc/sys/net/core/netdev_max_backlog"

#define SYS_BPFFS "/sys/fs/bpf"

static struct {
	bool done;
	bool auto_dir; /* chosen here, not --pin-dir or ROCEDP_PIN_DIR */
	bool must_mount; /* not mounted yet, and mounting there lasts */
	bool mount_here; /* in our own mount namespace (else ref's) */
	int initial; /* -1 unknown, 0/1 */
	bool said; /* the refusal is on stderr */
	const char *ref; /* a process in the host's namespaces, or NULL */
	char refbuf[32];
	char root[64];
	char dir[256];
	char why[400]; /* the last refusal, for rd_pin_dir_error() */
} pd = { .initial = -1 };

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
	struct stat a, b;
	char p[64];

	snprintf(p, sizeof(p), "/proc/self/ns/%s", type);
	if (stat(p, &a))
		return false;
	snprintf(p, sizeof(p), "%s/ns/%s", ref, type);
	if (stat(p, &b))
		return false;
	return a.st_ino == b.st_ino && a.st_dev == b.st_dev;
}

/* 1: /proc/PID is a kernel thread (its flags say so: no process can fake
 * them, unlike its name or its pid inside a pid namespace) */
static bool is_kthread(const char *pid)
{
	char p[64], buf[512], *c;
	unsigned int flags = 0;
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "/proc/%s/stat", pid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	c = strrchr(buf, ')'); /* the name may hold spaces and ')' */
	/* state ppid pgrp session tty_nr tpgid flags */
	if (!c || sscanf(c + 1, " %*c %*d %*d %*d %*d %*d %u", &flags) != 1)
		return false;
	return flags & RD_PF_KTHREAD;
}

/*
 * A kernel thread we can see: kthreadd (pid 2) where /proc is the initial
 * pid namespace's, else any other. None is visible from inside a pid
 * namespace of our own, and /proc must really be a procfs.
 */
static bool find_kthread(char *ref, size_t len)
{
	struct statfs sfs;
	struct dirent *e;
	bool found = false;
	DIR *d;

	if (statfs("/proc", &sfs) || sfs.f_type != PROC_SUPER_MAGIC)
		return false;
	if (is_kthread("2")) {
		snprintf(ref, len, "/proc/2");
		return true;
	}
	d = opendir("/proc");
	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9' ||
		    strlen(e->d_name) > 10)
			continue;
		if (is_kthread(e->d_name)) {
			snprintf(ref, len, "/proc/%.10s", e->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/*
 * A process in the host's namespaces whose root and ns links we may read:
 * a kernel thread (the kernel's own initial namespaces), else pid 1 (a
 * container's init, where no kernel thread is in our pid namespace).
 * Sets pd.initial: whether we are in the initial network namespace, which
 * only a kernel thread's netns or the fixed initial inode can prove.
 */
static void find_host_ref(void)
{
	struct stat self, k;
	bool kt = find_kthread(pd.refbuf, sizeof(pd.refbuf));
	char p[64];

	pd.initial = 0;
	if (!stat("/proc/self/ns/net", &self)) {
		snprintf(p, sizeof(p), "%s/ns/net", pd.refbuf);
		if (kt && !stat(p, &k))
			pd.initial = self.st_ino == k.st_ino &&
				     self.st_dev == k.st_dev;
		else if (kt && (errno == EACCES || errno == EPERM))
			/*
			 * A kernel thread in our pid namespace whose ns links we
			 * may not read: root without CAP_SYS_PTRACE, as every
			 * rocedp unit runs. Then a sysctl that the kernel
			 * registers for the initial netns alone is the proof
			 * (the fixed inode first, where the kernel has one).
			 */
			pd.initial = self.st_ino == RD_NET_INIT_INO ||
				     !access(RD_INIT_NET_SYSCTL, F_OK);
		else
			pd.initial = self.st_ino == RD_NET_INIT_INO;
	}
	snprintf(p, sizeof(p), "%s/ns/mnt", pd.refbuf);
	if (kt && !access(p, F_OK)) {
		pd.ref = pd.refbuf;
	} else if (!access("/proc/1/ns/mnt", F_OK)) {
		snprintf(pd.refbuf, sizeof(pd.refbuf), "/proc/1");
		pd.ref = pd.refbuf;
	}
}

static void resolve_bpffs(void)
{
	char host[64];
	dev_t dev;

	find_host_ref();
	snprintf(pd.root, sizeof(pd.root), "%s", SYS_BPFFS);
	if (is_bpffs(SYS_BPFFS, &dev))
		return; /* the host's own, or one this mount namespace was given */
	if (!pd.ref || same_ns(pd.ref, "mnt")) {
		pd.must_mount = pd.mount_here = true;
		return;
	}
	/* a mount here would vanish with this command: the host's */
	snprintf(host, sizeof(host), "%s/root" SYS_BPFFS, pd.ref);
	snprintf(pd.root, sizeof(pd.root), "%s", host);
	if (!is_bpffs(host, &dev))
		pd.must_mount = true;
}

bool rd_netns_initial(void)
{
	if (!pd.done)
		rd_pin_dir();
	return pd.initial == 1;
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
	} else if (pd.initial == 1) {
		pd.auto_dir = true;
		snprintf(pd.dir, sizeof(pd.dir), "%s/rocedp", pd.root);
	} else {
		pd.auto_dir = true;
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

int rd_bpffs_dir_check(const char *sub, bool create)
{
	const char *root = rd_bpffs_root();
	int bfd, fd;

	bfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (bfd < 0)
		return -errno;
	fd = rd_dir_walk(bfd, root, sub, create, pd.why, sizeof(pd.why));
	close(bfd);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (fd == -EPERM && !pd.said)
		rd_err("pin dir", "%s", pd.why);
	pd.said |= fd == -EPERM;
	return fd;
}

static int refuse(char *why, size_t len, const char *path, const char *what)
{
	snprintf(why, len, "%s: %s: not trusted, nothing done there", path,
		 what);
	return -EPERM;
}

/*
 * The directory the walk starts from may be writable by others (a bpffs
 * mounted with its default mode 1777) only with the sticky bit: then no
 * one else can rename or remove the root-owned directory we keep in it.
 */
static int check_base(int fd, const char *path, char *why, size_t len)
{
	char what[64];
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (st.st_uid) {
		snprintf(what, sizeof(what), "owned by uid %u, not root",
			 (unsigned int)st.st_uid);
		return refuse(why, len, path, what);
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
		return refuse(why, len, path,
			      "writable by others without the sticky bit");
	return 0;
}

int rd_dir_walk(int base_fd, const char *base, const char *rel, bool create,
		char *why, size_t len)
{
	char path[512], name[256], what[64];
	const char *p = rel, *slash;
	struct stat st;
	int fd, nfd, err;
	size_t n;

	err = check_base(base_fd, base, why, len);
	if (err)
		return err;
	fd = fcntl(base_fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(path, sizeof(path), "%s", base);
	while (*p) {
		slash = strchr(p, '/');
		n = slash ? (size_t)(slash - p) : strlen(p);
		if (!n || n >= sizeof(name)) {
			close(fd);
			return -EINVAL;
		}
		memcpy(name, p, n);
		name[n] = 0;
		p += n + (slash ? 1 : 0);
		snprintf(path + strlen(path), sizeof(path) - strlen(path),
			 "/%s", name);
		if (create && mkdirat(fd, name, 0700) && errno != EEXIST) {
			err = -errno;
			close(fd);
			return err;
		}
		nfd = openat(fd, name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		err = -errno;
		close(fd);
		if (nfd < 0) {
			if (err == -ELOOP || err == -ENOTDIR)
				return refuse(why, len, path,
					      "a symlink or not a directory");
			return err;
		}
		fd = nfd;
		if (fstat(fd, &st)) {
			err = -errno;
			close(fd);
			return err;
		}
		if (st.st_uid || (st.st_mode & (S_IWGRP | S_IWOTH))) {
			snprintf(what, sizeof(what), "%s (uid %u, mode %04o)",
				 st.st_uid ? "not owned by root" :
					     "writable by group or others",
				 (unsigned int)st.st_uid,
				 (unsigned int)(st.st_mode & 07777));
			close(fd);
			return refuse(why, len, path, what);
		}
		/* on the fd: the directory just checked, never a path */
		if (create && (st.st_mode & 07777) != 0700)
			fchmod(fd, 0700);
	}
	return fd;
}

/* The pin directory as a base directory and the path below it to walk. */
static int split(const char *dir, char *base, size_t blen, const char **rel)
{
	const char *slash;

	if (pd.auto_dir && dir == pd.dir) {
		snprintf(base, blen, "%s", pd.root);
		*rel = dir + strlen(pd.root) + 1;
		return 0;
	}
	/* an operator's own directory: its parent is the base */
	slash = strrchr(dir, '/');
	if (!slash || !slash[1]) {
		snprintf(base, blen, ".");
		*rel = dir;
		return slash ? -EINVAL : 0;
	}
	if ((size_t)(slash - dir) >= blen)
		return -ENAMETOOLONG;
	memcpy(base, dir, slash - dir);
	base[slash - dir] = 0;
	if (!base[0])
		snprintf(base, blen, "/");
	*rel = slash + 1;
	return 0;
}

static int open_chain(const char *dir, bool create)
{
	const char *rel;
	char base[256];
	int bfd, fd, err;

	err = split(dir, base, sizeof(base), &rel);
	if (err)
		return err;
	bfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (bfd < 0)
		return -errno;
	fd = rd_dir_walk(bfd, base, rel, create, pd.why, sizeof(pd.why));
	close(bfd);
	return fd;
}

int rd_pin_dir_check(const char *dir)
{
	int fd;

	if (!dir || !strcmp(dir, rd_pin_dir()))
		dir = rd_pin_dir();
	fd = open_chain(dir, false);
	if (fd < 0) {
		if (fd == -EPERM && !pd.said)
			rd_err("pin dir", "%s", pd.why);
		pd.said |= fd == -EPERM; /* once per command */
		return fd;
	}
	close(fd);
	return 0;
}

/*
 * Mount bpffs in the mount namespace of pd.ref (the host's) from a child
 * that enters it, so this process keeps its own. Root in the initial user
 * namespace may; anyone else gets EPERM from setns.
 */
static int mount_in_host(void)
{
	char p[64];
	int status, fd;
	pid_t pid;

	snprintf(p, sizeof(p), "%s/ns/mnt", pd.ref);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(fd);
		return -errno;
	}
	if (!pid) {
		if (setns(fd, CLONE_NEWNS))
			_exit(errno);
		if (mount("bpf", SYS_BPFFS, "bpf", 0, "mode=0700") &&
		    errno != EBUSY)
			_exit(errno);
		_exit(0);
	}
	close(fd);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	if (!WIFEXITED(status))
		return -EINTR;
	return -WEXITSTATUS(status);
}

int rd_bpffs_prepare(void)
{
	dev_t dev;
	int err;

	rd_pin_dir();
	if (!pd.must_mount)
		return 0;
	if (pd.mount_here) {
		mkdir(SYS_BPFFS, 0755);
		if (mount("bpf", SYS_BPFFS, "bpf", 0, "mode=0700"))
			return -errno;
	} else {
		err = mount_in_host();
		if (err) {
			snprintf(
				pd.why, sizeof(pd.why),
				"no bpffs is mounted in the host's mount namespace and mounting one there (through %s/ns/mnt) failed: %s: mount it on the host ('mount -t bpf bpf /sys/fs/bpf')",
				pd.ref, strerror(-err));
			return -EXDEV;
		}
		/* another mount already there (EBUSY) must be a bpffs too */
		if (!is_bpffs(pd.root, &dev)) {
			snprintf(pd.why, sizeof(pd.why),
				 "%s: mounted, but not a bpffs", pd.root);
			return -EXDEV;
		}
	}
	pd.must_mount = false;
	return 0;
}

int rd_pin_dir_make(const char *const *subs)
{
	int fd, sfd, err = rd_bpffs_prepare();

	if (err)
		return err;
	fd = open_chain(rd_pin_dir(), true);
	if (fd < 0)
		return fd;
	for (; subs && *subs; subs++) {
		sfd = rd_dir_walk(fd, rd_pin_dir(), *subs, true, pd.why,
				  sizeof(pd.why));
		if (sfd < 0) {
			close(fd);
			return sfd;
		}
		close(sfd);
	}
	close(fd);
	return 0;
}

static bool under_netns_parent(char *parent, size_t len)
{
	snprintf(parent, len, "%s/" ROCEDP_NETNS_PIN_SUBDIR, pd.root);
	return !strncmp(rd_pin_dir(), parent, strlen(parent)) &&
	       rd_pin_dir()[strlen(parent)] == '/';
}

void rd_pin_dir_gc(void)
{
	char parent[128];

	if (pd.auto_dir && under_netns_parent(parent, sizeof(parent)))
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
	char name[64], esc[RD_ESC_LEN(sizeof(name))];
	unsigned long long cookie = rd_netns_cookie();

	/* an `ip netns` name is a file name: any byte but '/' */
	rd_netns_name(name, sizeof(name));
	if (json)
		snprintf(buf, len, "\"netns\":\"%s\",\"netns_cookie\":%llu,",
			 rd_esc_json(name, esc, sizeof(esc)), cookie);
	else if (rd_netns_initial())
		buf[0] = 0;
	else
		snprintf(buf, len, "netns: %s (cookie %llu)\n",
			 name[0] ? rd_esc_term(name, esc, sizeof(esc)) : "-",
			 cookie);
	return buf;
}

const char *rd_pin_dir_error(int err)
{
	if (err == -EXDEV && pd.why[0])
		return pd.why;
	if (err == -EXDEV)
		return "no bpffs here outlives this command (a private mount namespace, as 'ip netns exec' makes one) and no host mount namespace to mount one in";
	if (err == -EPERM && pd.why[0])
		return pd.why;
	return strerror(-err);
}
