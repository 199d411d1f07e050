/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing a file that may sit in a directory other users can write
 * (a node_exporter textfile directory, /tmp, a shared capture directory):
 * the data goes to a new temporary file in the target's directory, created
 * with O_CREAT|O_EXCL|O_NOFOLLOW under a random name, is fsync'd and then
 * renamed over the target. Nothing is ever opened through a name another
 * user could have planted, a reader never sees half a file, and a failed
 * write leaves the old file as it was. A target that exists and is a
 * character device or FIFO of root's or the caller's (/dev/null, a pipe, a
 * terminal) is written in place, opened with O_NONBLOCK (a FIFO with no
 * reader fails with ENXIO instead of hanging); anyone else's is refused.
 */
#ifndef ROCEDP_SAFEFILE_H
#define ROCEDP_SAFEFILE_H

#include <stdio.h>
#include <sys/types.h>

struct rd_safefile {
	FILE *f; /* write here */
	int dir_fd; /* the target's directory; -1 when written in place */
	char tmp[64]; /* temporary name inside dir_fd */
	char base[256]; /* the target's name inside dir_fd */
};

/* Open a temporary file for path; mode is masked by the umask. -errno. */
int rd_safefile_open(struct rd_safefile *s, const char *path, mode_t mode);
/* Flush, fsync and rename over the target; on error as _abort. -errno. */
int rd_safefile_commit(struct rd_safefile *s);
/* Drop the temporary file; the target is left as it was. */
void rd_safefile_abort(struct rd_safefile *s);

/* strerror, or for the refusals above what was refused */
const char *rd_safefile_strerror(int err);

/*
 * 1 when path names an existing file that is the same as (st_dev, st_ino)
 * (through symlinks and hard links), 0 when not or when it does not exist.
 */
int rd_same_file(const char *path, dev_t dev, ino_t ino);

#endif
