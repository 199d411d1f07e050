/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TLS to Redis for `rocedp sonic sync` (sonic_tls.c, docs/sonic.md "TLS").
 * Debian 12's hiredis (0.14) has no hiredis_ssl, so the TLS session is
 * OpenSSL's and hiredis talks plain RESP over one end of a socketpair; a
 * thread per connection pumps bytes between the other end and the TLS
 * session. The server's certificate is verified against a CA and its name
 * (or IP address) checked before the pump starts.
 */
#ifndef ROCEDP_SONIC_TLS_H
#define ROCEDP_SONIC_TLS_H

#include <stddef.h>

struct rd_stls_opts {
	const char *ca; /* CA file; NULL: the system's trust store */
	const char *cert, *key; /* client certificate and key, or NULL */
	const char *server_name; /* NULL: the address's host */
};

struct rd_stls; /* the loaded CA, certificate and key */
struct rd_stls_conn; /* one connection and its pump thread */

/* Load the files once, at start: -errno and one line naming the file and
 * the reason in err. The key file must not be readable by others. */
int rd_stls_new(const struct rd_stls_opts *o, struct rd_stls **out, char *err,
		size_t elen);
void rd_stls_free(struct rd_stls *t);
/*
 * TCP to host:port, the TLS handshake and the checks within timeout_ms,
 * then the pump: *fd is the plain end for hiredis (redisConnectFd), *conn
 * the session for rd_stls_close(). -errno and the reason in err.
 */
int rd_stls_connect(const struct rd_stls *t, const char *host, int port,
		    int timeout_ms, int *fd, struct rd_stls_conn **conn,
		    char *err, size_t elen);
/* Why the session ended ("" while it runs): the server's alert (a client
 * certificate it wants, say) that hiredis would only see as a closed
 * connection. */
void rd_stls_reason(struct rd_stls_conn *c, char *buf, size_t len);
/* After the plain end is closed (redisFree): the pump ends, is joined. */
void rd_stls_close(struct rd_stls_conn *c);

#endif
