/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every part of rocegen shares (log.c): the one error line and the
 * stop flag the signal handler sets and the send and serve loops poll.
 */
#ifndef ROCEGEN_LOG_H
#define ROCEGEN_LOG_H

/* "rocegen: WHAT: message" on stderr, one line (rd_verr, util.c) */
void rg_err(const char *what, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Set on SIGINT/SIGTERM: loops finish their report and return. */
extern volatile int rg_stop;
/* SIGUSR1: send posts no new message and ends when the ones begun are done */
extern volatile int rg_finish;

#endif
