// SPDX-License-Identifier: GPL-2.0
/* Files written through a fresh temporary file and rename (safefile.h). */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include "safefile.h"

#define TMP_TRIES 100

static void tmp_name(struct rd_safefile *s)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char r[12];
	char rnd[sizeof(r) + 1];
	unsigned int i;

	/* unpredictable, so nobody can plant anything under it beforehand;
	 * O_EXCL makes a guessed one harmless anyway */
	if (getrandom(r, sizeof(r), 0) != sizeof(r))
		for (i = 0; i < sizeof(r); i++)
			r[i] = (unsigned char)(getpid() * 31 + i * 7 + rand());
	for (i = 0; i < sizeof(r); i++)
		rnd[i] = abc[r[i] % (sizeof(abc) - 1)];
	rnd[sizeof(r)] = 0;
	/* hidden and without the target's suffix: collectors skip it */
	snprintf(s->tmp, sizeof(s->tmp), ".%.40s.%s", s->base, rnd);
}

/* root's, or the caller's own */
static bool trusted_owner(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/*
 * May the existing target be written in place? Only character devices and
 * FIFOs (/dev/null, a pipe, a terminal) that are root's or ours, and
 * through a symlink only when the symlink is root's or ours (/dev/stdout):
 * one planted by another user is replaced, never followed. A FIFO or
 * device of anyone else is refused (-EPERM): writing into it would block
 * or feed whoever made it. 1: in place (*follow: through the symlink),
 * 0: replaced, -errno: refused.
 */
static int in_place(int dir_fd, const char *base, bool *follow)
{
	struct stat st;

	*follow = false;
	if (fstatat(dir_fd, base, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISLNK(st.st_mode)) {
		if (!trusted_owner(st.st_uid))
			return 0;
		if (fstatat(dir_fd, base, &st, 0))
			return 0; /* dangling: replaced */
		if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
			return S_ISDIR(st.st_mode) ? -EISDIR : 0;
		*follow = true;
	}
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (S_ISREG(st.st_mode))
		return 0;
	if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
		return -EINVAL; /* a block device or socket is no output file */
	return trusted_owner(st.st_uid) ? 1 : -EPERM;
}

/*
 * Never blocks: O_NONBLOCK makes a FIFO without a reader ENXIO at once
 * instead of waiting for one; writes block again once it is open.
 */
static int open_in_place(struct rd_safefile *s, bool follow)
{
	struct stat st;
	int fd, fl;

	fd = openat(s->dir_fd, s->base,
		    O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK |
			    (follow ? 0 : O_NOFOLLOW));
	if (fd < 0)
		return errno == ELOOP ? -EAGAIN : -errno;
	/* it may have been swapped since in_place() looked */
	if (fstat(fd, &st) || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) ||
	    !trusted_owner(st.st_uid)) {
		close(fd);
		return -EAGAIN;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		close(fd);
		return -errno;
	}
	return fd;
}

int rd_safefile_open(struct rd_safefile *s, const char *path, mode_t mode)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	int fd = -1, err, i;
	bool follow;

	memset(s, 0, sizeof(*s));
	s->dir_fd = -1;
	if (slash) {
		if ((size_t)(slash - path) >= sizeof(dir))
			return -ENAMETOOLONG;
		memcpy(dir, path, slash - path);
		dir[slash - path] = 0;
		if (!dir[0])
			strcpy(dir, "/");
	} else {
		strcpy(dir, ".");
	}
	if (snprintf(s->base, sizeof(s->base), "%s",
		     slash ? slash + 1 : path) >= (int)sizeof(s->base))
		return -ENAMETOOLONG;
	if (!s->base[0] || !strcmp(s->base, ".") || !strcmp(s->base, ".."))
		return -EISDIR;
	/* one directory for the temp, the rename and the checks */
	s->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->dir_fd < 0)
		return -errno;
	err = in_place(s->dir_fd, s->base, &follow);
	if (err == 1) {
		fd = open_in_place(s, follow);
		if (fd >= 0) {
			s->tmp[0] = 0;
			goto fdopen;
		}
		err = fd == -EAGAIN ? 0 : fd;
	}
	if (err < 0)
		goto fail;
	for (i = 0; i < TMP_TRIES && fd < 0; i++) {
		tmp_name(s);
		fd = openat(s->dir_fd, s->tmp,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    mode);
		if (fd < 0 && errno != EEXIST) {
			err = -errno;
			goto fail;
		}
	}
	if (fd < 0) {
		err = -EEXIST;
		goto fail;
	}
fdopen:
	s->f = fdopen(fd, "w");
	if (!s->f) {
		err = -errno;
		close(fd);
		if (s->tmp[0])
			unlinkat(s->dir_fd, s->tmp, 0);
		goto fail;
	}
	return 0;
fail:
	close(s->dir_fd);
	s->dir_fd = -1;
	return err;
}

int rd_safefile_commit(struct rd_safefile *s)
{
	int err = 0;

	if (!s->f)
		return -EBADF;
	if (fflush(s->f))
		err = -errno;
	else if (ferror(s->f))
		err = -EIO;
	/* durable before it replaces the old file: never an empty file after a
	 * crash (not for devices and pipes, which cannot be synced) */
	if (!err && s->tmp[0] && fsync(fileno(s->f)))
		err = -errno;
	if (fclose(s->f) && !err)
		err = -errno;
	s->f = NULL;
	if (!err && s->tmp[0] &&
	    renameat(s->dir_fd, s->tmp, s->dir_fd, s->base))
		err = -errno;
	if (s->tmp[0]) {
		if (err)
			unlinkat(s->dir_fd, s->tmp, 0);
		else
			fsync(s->dir_fd); /* the rename itself; best effort */
	}
	close(s->dir_fd);
	s->dir_fd = -1;
	return err;
}

void rd_safefile_abort(struct rd_safefile *s)
{
	if (s->f)
		fclose(s->f);
	s->f = NULL;
	if (s->dir_fd < 0)
		return;
	if (s->tmp[0])
		unlinkat(s->dir_fd, s->tmp, 0);
	close(s->dir_fd);
	s->dir_fd = -1;
}

int rd_same_file(const char *path, dev_t dev, ino_t ino)
{
	struct stat st;

	if (stat(path, &st))
		return 0;
	return st.st_dev == dev && st.st_ino == ino;
}

const char *rd_safefile_strerror(int err)
{
	if (err == -ENXIO)
		return "a FIFO with no reader (not waiting for one)";
	if (err == -EPERM)
		return "a FIFO or device of another user: not written";
	return strerror(-err);
}
