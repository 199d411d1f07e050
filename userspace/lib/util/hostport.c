// SPDX-License-Identifier: GPL-2.0
/* ADDR:PORT arguments into socket addresses (hostport.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hostport.h"

/*
 * ADDR:PORT, [ADDR6]:PORT or :PORT (every address, IPv6 and IPv4) into
 * sa; addresses are numeric (no name service in a switch's daemon).
 * false when it is not one of those.
 */
bool rd_hostport_parse(const char *s, struct sockaddr_storage *sa,
		       socklen_t *salen)
{
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)sa;
	struct sockaddr_in *s4 = (struct sockaddr_in *)sa;
	char host[INET6_ADDRSTRLEN + 2];
	const char *colon = strrchr(s, ':');
	unsigned long port;
	size_t hl;
	char *end;

	if (!colon || !colon[1])
		return false;
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (*end || errno || !port || port > 65535 || colon[1] == '-' ||
	    colon[1] == '+' || colon[1] == ' ')
		return false;
	hl = colon - s;
	if (hl >= sizeof(host))
		return false;
	memcpy(host, s, hl);
	host[hl] = 0;
	memset(sa, 0, sizeof(*sa));
	if (!hl || !strcmp(host, "[::]")) {
		s6->sin6_family = AF_INET6;
		s6->sin6_addr = in6addr_any;
		s6->sin6_port = htons(port);
		*salen = sizeof(*s6);
		return true;
	}
	if (host[0] == '[' && host[hl - 1] == ']') {
		host[hl - 1] = 0;
		if (inet_pton(AF_INET6, host + 1, &s6->sin6_addr) != 1)
			return false;
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(port);
		*salen = sizeof(*s6);
		return true;
	}
	if (inet_pton(AF_INET, host, &s4->sin_addr) != 1)
		return false;
	s4->sin_family = AF_INET;
	s4->sin_port = htons(port);
	*salen = sizeof(*s4);
	return true;
}
