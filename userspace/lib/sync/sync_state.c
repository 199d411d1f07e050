// SPDX-License-Identifier: GPL-2.0
/* Helpers every sync module uses (sync_state.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>

#include "sync_state.h"
#include "escape.h"

uint64_t rd_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

void rd_note_event(struct rd_sync *s, const char *fmt, ...)
{
	char buf[sizeof(s->first_event)];
	va_list ap;

	if (s->in_dump)
		return;
	s->batch_events++;
	if (!s->opts.verbose && s->first_event[0])
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!s->first_event[0])
		memcpy(s->first_event, buf, sizeof(buf));
	if (s->opts.verbose) {
		char esc[RD_ESC_LEN(sizeof(buf))];

		fprintf(stderr, "sync: event %s\n",
			rd_esc_term(buf, esc, sizeof(esc)));
	}
}

const char *rd_addr_str(uint8_t family, const void *addr, char *buf, size_t len)
{
	if (!inet_ntop(family, addr, buf, len))
		snprintf(buf, len, "?");
	return buf;
}

void rd_schedule_resync(struct rd_sync *s, uint64_t delay_ns)
{
	uint64_t t = rd_now_ns() + delay_ns;

	if (s->in_dump)
		return;
	if (!s->resync_at || t < s->resync_at)
		s->resync_at = t;
}
