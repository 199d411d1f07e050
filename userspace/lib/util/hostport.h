/* SPDX-License-Identifier: GPL-2.0 */
/* ADDR:PORT arguments (the exporter's --listen, ipfix's --collector). */
#ifndef ROCEDP_HOSTPORT_H
#define ROCEDP_HOSTPORT_H

#include <stdbool.h>
#include <netinet/in.h>
#include <sys/socket.h>

/*
 * ADDR:PORT, [ADDR6]:PORT or :PORT (every address, IPv6 and IPv4) into
 * sa; addresses are numeric (no name service in a switch's daemon), the
 * port 1..65535. false when it is not one of those.
 */
bool rd_hostport_parse(const char *s, struct sockaddr_storage *sa,
		       socklen_t *salen);

#endif
