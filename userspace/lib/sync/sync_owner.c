// SPDX-License-Identifier: GPL-2.0
/*
 * The sync lock file and the pid in it (sync_owner.h). The pid is only
 * believed for a process that has the lock file itself open, so a stale
 * or recycled number is never signalled.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <linux/limits.h>

#include "pindir.h"
#include "sync_owner.h"

#define OWNER_POLL_MS 20
/* the daemon notes its pid right after daemon() forks it */
#define OWNER_NOTE_WAIT_MS 500

int rd_sync_lock_path(const char *dir, char *buf, size_t len)
{
	struct stat st;

	if (stat(dir, &st))
		return -errno;
	snprintf(buf, len, "%s/sync-%lu-%lu.lock", ROCEDP_RUN_DIR,
		 (unsigned long)st.st_dev, (unsigned long)st.st_ino);
	return 0;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int rd_sync_owner_note(int fd)
{
	char buf[40];
	int n = snprintf(buf, sizeof(buf), "%d " RD_SYNC_OWNER_GEN "\n",
			 (int)getpid());

	if (ftruncate(fd, 0) || pwrite(fd, buf, n, 0) != n)
		return errno ? -errno : -EIO;
	return 0;
}

/* Does path still name the file fd has open? */
static int same_file(int fd, const char *path)
{
	struct stat a, b;

	return !fstat(fd, &a) && !stat(path, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

int rd_sync_owner_take(const char *dir, int *fd, char *path, size_t len)
{
	int err, lfd, tries;

	*fd = -1;
	err = rd_sync_lock_path(dir, path, len);
	if (err)
		return err;
	mkdir(ROCEDP_RUN_DIR, 0700);
	for (tries = 0;; tries++) {
		lfd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (lfd < 0)
			return -errno;
		if (flock(lfd, LOCK_EX | LOCK_NB)) {
			err = -errno;
			close(lfd);
			return err;
		}
		/*
		 * The holder before us removes the file as it lets go: a lock
		 * on the file it removed is no lock. Take the new one.
		 */
		if (same_file(lfd, path))
			break;
		close(lfd);
		if (tries >= 8)
			return -EBUSY; /* not "another sync runs" */
	}
	/* without the pid, detach could not stop us: not fatal to sync */
	rd_sync_owner_note(lfd);
	*fd = lfd;
	return 0;
}

void rd_sync_owner_release(int fd, const char *path)
{
	if (fd < 0)
		return;
	/* held: only a holder removes the file, so it is ours if it is */
	if (same_file(fd, path))
		unlink(path);
	close(fd);
}

static pid_t read_pid(int fd)
{
	char buf[24] = "";
	long v;

	if (pread(fd, buf, sizeof(buf) - 1, 0) <= 0)
		return 0;
	v = strtol(buf, NULL, 10);
	return v > 1 && v < (1L << 22) ? (pid_t)v : 0;
}

/* Has process pid the file of *st open? */
static int holds_file(pid_t pid, const struct stat *st)
{
	char dir[64], path[PATH_MAX];
	struct dirent *de;
	struct stat fst;
	int found = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	d = opendir(dir);
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		found = !stat(path, &fst) && fst.st_dev == st->st_dev &&
			fst.st_ino == st->st_ino;
	}
	closedir(d);
	return found;
}

/* The process the lock file *st names, if it has that file open; else 0. */
static pid_t named_holder(int fd, const struct stat *st)
{
	pid_t pid = read_pid(fd);

	return pid && pid != getpid() && holds_file(pid, st) ? pid : 0;
}

/*
 * The lock's holder, waiting for it to name itself (a daemon just forked);
 * 0: none names itself, or the lock came free (then it is ours).
 */
static pid_t holder(int fd, const struct stat *st)
{
	pid_t pid;
	int waited;

	for (waited = 0;; waited += OWNER_POLL_MS) {
		pid = named_holder(fd, st);
		if (pid)
			return pid;
		if (waited >= OWNER_NOTE_WAIT_MS ||
		    !flock(fd, LOCK_EX | LOCK_NB))
			return 0;
		sleep_ms(OWNER_POLL_MS);
	}
}

/* Has pid exited (gone, or a zombie nobody reaped yet)? */
static int exited(pid_t pid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 1;
	buf[n] = 0;
	/* "pid (comm) S ...": comm may hold anything, the state follows
	 * the last ')' */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}

int rd_sync_owner_stop(const char *dir, int timeout_ms, pid_t *pid)
{
	char path[PATH_MAX];
	int err, fd, waited;
	struct stat st;
	pid_t now;

	*pid = 0;
	err = rd_sync_lock_path(dir, path, sizeof(path));
	if (err)
		return err == -ENOENT ? 0 : err;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!flock(fd, LOCK_EX | LOCK_NB))
		goto free;
	if (fstat(fd, &st)) {
		err = -errno;
		close(fd);
		return err;
	}
	*pid = holder(fd, &st);
	if (!*pid) {
		/* holder() lets the lock go only by taking it */
		if (!flock(fd, LOCK_EX | LOCK_NB))
			goto free;
		close(fd);
		return -ESRCH;
	}
	if (kill(*pid, SIGTERM) && errno != ESRCH) {
		err = -errno;
		close(fd);
		return err;
	}
	for (waited = 0; flock(fd, LOCK_EX | LOCK_NB);
	     waited += OWNER_POLL_MS) {
		if (waited >= timeout_ms) {
			close(fd);
			return -ETIMEDOUT;
		}
		/*
		 * Signalled as daemon() forked: the parent took it and left,
		 * the child then names itself. Signal the one named now.
		 */
		now = named_holder(fd, &st);
		if (now && now != *pid) {
			*pid = now;
			kill(now, SIGTERM);
		}
		sleep_ms(OWNER_POLL_MS);
	}
	/* it lets the lock go just before it exits: wait for the exit, so
	 * that its sockets (and a deleted netns) are gone when we return */
	while (!exited(*pid) && waited < timeout_ms) {
		sleep_ms(OWNER_POLL_MS / 4);
		waited += OWNER_POLL_MS / 4;
	}
free:
	rd_sync_owner_release(fd, path);
	return 0;
}

/*
 * Is the file *st locked by anyone? From /proc/locks, without taking the
 * lock ourselves even for a moment: a sync starting then would find it
 * held and refuse to run.
 */
static int locked_by_anyone(const struct stat *st)
{
	unsigned int maj, min;
	unsigned long ino;
	char line[256];
	int found = 0;
	FILE *f;

	f = fopen("/proc/locks", "re");
	if (!f)
		return 1; /* cannot tell: assume the worst */
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "FLOCK");
		int i;

		/* "N: FLOCK  ADVISORY  WRITE pid maj:min:ino start end" */
		for (i = 0; p && i < 4; i++) {
			p = strchr(p, ' ');
			while (p && *p == ' ')
				p++;
		}
		found = p && sscanf(p, "%x:%x:%lu", &maj, &min, &ino) == 3 &&
			ino == st->st_ino && maj == major(st->st_dev) &&
			min == minor(st->st_dev);
	}
	fclose(f);
	return found;
}

int rd_sync_owner_moves_gen(const char *dir)
{
	char path[PATH_MAX], buf[40] = "";
	struct stat st;
	int fd, held;

	if (rd_sync_lock_path(dir, path, sizeof(path)))
		return 1; /* no pin directory: no sync either */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	held = !fstat(fd, &st) && locked_by_anyone(&st);
	if (held && pread(fd, buf, sizeof(buf) - 1, 0) < 0)
		buf[0] = 0;
	close(fd);
	return !held || strstr(buf, " " RD_SYNC_OWNER_GEN "\n") != NULL;
}
