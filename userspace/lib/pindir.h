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
 * environment verbatim, else <bpffs>/rocedp (initial netns, or a bpffs
 * private to this mount namespace), else <bpffs>/rocedp-netns/<cookie>.
 */
const char *rd_pin_dir(void);
/* --pin-dir DIR (a global option): wins over ROCEDP_PIN_DIR */
void rd_pin_dir_set(const char *dir);
/* The bpffs the pin directory lives on, mounted first where that lasts. */
/* The bpffs the pin directory is on (the host's, maybe via /proc/N/root):
 * where libxdp keeps its dispatcher state too. */
const char *rd_bpffs_root(void);
int rd_bpffs_prepare(void);
/* Create the netns parent directory (if any) and the pin directory. */
int rd_pin_dir_make(void);
/* After the pins are gone: remove the netns parent if it is empty. */
void rd_pin_dir_gc(void);
/* This netns's cookie (0: kernel before 5.14) and its `ip netns` name. */
__u64 rd_netns_cookie(void);
const char *rd_netns_name(char *buf, size_t len);
bool rd_netns_initial(void);
/* status: "netns":..., JSON fragment, or a text line (empty in the
 * initial netns) */
const char *rd_netns_describe(bool json, char *buf, size_t len);
/* strerror, or for -EXDEV what to do (no bpffs that lasts) */
const char *rd_pin_dir_error(int err);

#endif
