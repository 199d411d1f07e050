/* SPDX-License-Identifier: GPL-2.0 */
/* Where the pins live: one directory per network namespace (pindir.c). */
#ifndef ROCEDP_PINDIR_H
#define ROCEDP_PINDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/* Records and locks: attachments, CTS rule names, the sync daemon's lock */
#define ROCEDP_RUN_DIR "/run/rocedp"

/* Parent of the pin directories of namespaces other than the initial one */
#define ROCEDP_NETNS_PIN_SUBDIR "rocedp-netns"

/*
 * The pin directory of this network namespace: ROCEDP_PIN_DIR from the
 * environment verbatim, else <bpffs>/rocedp in the kernel's initial netns,
 * else <bpffs>/rocedp-netns/<cookie>.
 */
const char *rd_pin_dir(void);
/* --pin-dir DIR (a global option): wins over ROCEDP_PIN_DIR */
void rd_pin_dir_set(const char *dir);
/* The bpffs the pin directory is on (the host's, maybe via /proc/N/root):
 * where libxdp keeps its dispatcher state too. */
const char *rd_bpffs_root(void);
/*
 * The bpffs the pin directory lives on, mounted first (mode 0700) where
 * that lasts: here, or in the host's mount namespace. -EXDEV: impossible.
 */
int rd_bpffs_prepare(void);
/*
 * Create (or open) the pin directory and then each of subs (NULL-ended,
 * may be NULL) inside it, every directory on the way opened without
 * following symlinks and refused (-EPERM) unless it is root's and not
 * writable by group or others; the bpffs root may be, with the sticky bit.
 */
int rd_pin_dir_make(const char *const *subs);
/*
 * The same checks on an existing pin directory (dir: rd_pin_dir() or an
 * operator's), without creating anything: 0, -ENOENT, or -EPERM (said on
 * stderr). Before anything is read from or removed in it.
 */
int rd_pin_dir_check(const char *dir);
/*
 * Open rel ("a/b") below base_fd (named base in messages) one directory at
 * a time with O_NOFOLLOW, creating missing ones (0700) when create, with
 * the checks above; the last one's fd, or -errno with the reason in why.
 */
int rd_dir_walk(int base_fd, const char *base, const char *rel, bool create,
		char *why, size_t len);
/*
 * A directory of the bpffs root that another library pins into (libxdp's
 * "xdp"), with the same checks: created 0700 when create and missing; 0,
 * -ENOENT (missing, !create) or -EPERM (said on stderr once).
 */
int rd_bpffs_dir_check(const char *sub, bool create);
/* After the pins are gone: remove the netns parent if it is empty. */
void rd_pin_dir_gc(void);
/* This netns's cookie (0: kernel before 5.14) and its `ip netns` name. */
__u64 rd_netns_cookie(void);
const char *rd_netns_name(char *buf, size_t len);
bool rd_netns_initial(void);
/* status: "netns":..., JSON fragment, or a text line (empty in the
 * initial netns) */
const char *rd_netns_describe(bool json, char *buf, size_t len);
/* strerror, or for -EXDEV / -EPERM what failed and what to do */
const char *rd_pin_dir_error(int err);

#endif
