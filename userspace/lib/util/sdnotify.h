/* SPDX-License-Identifier: GPL-2.0 */
/*
 * systemd's readiness notification (sd_notify(3)'s protocol) without
 * libsystemd: one datagram to $NOTIFY_SOCKET (sdnotify.c).
 */
#ifndef ROCEDP_SDNOTIFY_H
#define ROCEDP_SDNOTIFY_H

/* Send state ("READY=1", "STOPPING=1"); 0 also when not run by systemd. */
int rd_sd_notify(const char *state);

#endif
