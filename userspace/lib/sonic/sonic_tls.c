// SPDX-License-Identifier: GPL-2.0
/*
 * TLS to Redis without hiredis_ssl (Debian 12 ships hiredis 0.14, which
 * has none): OpenSSL makes the session, hiredis gets one end of a
 * socketpair (redisConnectFd), and a thread per connection pumps bytes
 * between the other end and the session. Everything hiredis does stays as
 * it is: timeouts (SO_RCVTIMEO on its end), the bounded reader, polling
 * the subscriber's fd. The pump ends when either side closes.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "sonic_tls.h"

#define BUF 16384 /* one TLS record */

struct rd_stls {
	SSL_CTX *ctx;
	char name[256]; /* --tls-server-name, "" for the host */
};

/* OpenSSL's reason for the last failure, or what */
static void ssl_reason(char *buf, size_t len, const char *what)
{
	unsigned long e = ERR_peek_last_error();

	if (e)
		ERR_error_string_n(e, buf, len);
	else
		snprintf(buf, len, "%s", what);
	ERR_clear_error();
}

struct rd_stls_conn {
	SSL *ssl;
	int tcp, plain; /* the server; the pump's end of the pair */
	pthread_t th;
	pthread_mutex_t lock; /* over why */
	char why[200]; /* why the session ended, "" while it runs */
};

/* The pump's last words: the server's alert, or what failed */
static void ended(struct rd_stls_conn *c, int ssl_err)
{
	char why[sizeof(c->why)], b;

	/* a write that failed first: the server's alert may be there */
	if (!ERR_peek_last_error() && ssl_err != SSL_ERROR_ZERO_RETURN)
		(void)SSL_read(c->ssl, &b, 1);
	if (ssl_err == SSL_ERROR_ZERO_RETURN)
		snprintf(why, sizeof(why), "the server closed the session");
	else
		ssl_reason(why, sizeof(why),
			   "the server closed the connection");
	pthread_mutex_lock(&c->lock);
	snprintf(c->why, sizeof(c->why), "%s", why);
	pthread_mutex_unlock(&c->lock);
}

void rd_stls_reason(struct rd_stls_conn *c, char *buf, size_t len)
{
	buf[0] = 0;
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	snprintf(buf, len, "%s", c->why);
	pthread_mutex_unlock(&c->lock);
}

static int file_err(char *err, size_t elen, const char *opt, const char *path)
{
	char why[200];

	ssl_reason(why, sizeof(why), "unusable");
	snprintf(err, elen, "%s %s: %s", opt, path, why);
	return -EINVAL;
}

static bool unreadable(const char *path, const char *opt, char *err,
		       size_t elen)
{
	if (!path || !access(path, R_OK))
		return false;
	snprintf(err, elen, "%s %s: %s", opt, path, strerror(errno));
	return true;
}

int rd_stls_new(const struct rd_stls_opts *o, struct rd_stls **out, char *err,
		size_t elen)
{
	struct rd_stls *t = calloc(1, sizeof(*t));
	struct stat st;
	int e = -EINVAL;

	*out = NULL;
	if (!t) {
		snprintf(err, elen, "out of memory");
		return -ENOMEM;
	}
	if (o->server_name)
		snprintf(t->name, sizeof(t->name), "%s", o->server_name);
	/* a missing file in OpenSSL's words is "system lib": say it */
	if (unreadable(o->ca, "--tls-ca", err, elen) ||
	    unreadable(o->cert, "--tls-cert", err, elen) ||
	    unreadable(o->key, "--tls-key", err, elen)) {
		e = -ENOENT;
		goto fail;
	}
	t->ctx = SSL_CTX_new(TLS_client_method());
	if (!t->ctx) {
		snprintf(err, elen, "TLS: no context (out of memory)");
		e = -ENOMEM;
		goto fail;
	}
	/* Redis 6 and 7 speak TLS 1.2 and 1.3 */
	SSL_CTX_set_min_proto_version(t->ctx, TLS1_2_VERSION);
	SSL_CTX_set_verify(t->ctx, SSL_VERIFY_PEER, NULL);
	if (o->ca ? SSL_CTX_load_verify_locations(t->ctx, o->ca, NULL) != 1 :
		    SSL_CTX_set_default_verify_paths(t->ctx) != 1) {
		e = file_err(err, elen, "--tls-ca",
			     o->ca ? o->ca : "(the system's CAs)");
		goto fail;
	}
	if (o->key) {
		/* a private key others can read is no secret */
		if (stat(o->key, &st)) {
			e = -errno;
			snprintf(err, elen, "--tls-key %s: %s", o->key,
				 strerror(errno));
			goto fail;
		}
		if (st.st_mode & S_IROTH) {
			snprintf(
				err, elen,
				"--tls-key %s: readable by everyone: chmod o-r it",
				o->key);
			e = -EPERM;
			goto fail;
		}
	}
	if (o->cert &&
	    SSL_CTX_use_certificate_chain_file(t->ctx, o->cert) != 1) {
		e = file_err(err, elen, "--tls-cert", o->cert);
		goto fail;
	}
	/* a key that is not the certificate's: said below, in words */
	if (o->key &&
	    SSL_CTX_use_PrivateKey_file(t->ctx, o->key, SSL_FILETYPE_PEM) !=
		    1 &&
	    ERR_GET_REASON(ERR_peek_last_error()) !=
		    X509_R_KEY_VALUES_MISMATCH) {
		e = file_err(err, elen, "--tls-key", o->key);
		goto fail;
	}
	if (o->key && SSL_CTX_check_private_key(t->ctx) != 1) {
		snprintf(err, elen,
			 "--tls-key %s: not the key of --tls-cert %s", o->key,
			 o->cert);
		goto fail;
	}
	*out = t;
	return 0;
fail:
	ERR_clear_error();
	rd_stls_free(t);
	return e;
}

void rd_stls_free(struct rd_stls *t)
{
	if (!t)
		return;
	SSL_CTX_free(t->ctx);
	free(t);
}

static long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* wait for fd until the deadline: 0, or -ETIMEDOUT / -errno */
static int wait_fd(int fd, short ev, long long deadline)
{
	struct pollfd p = { .fd = fd, .events = ev };
	long long left = deadline - mono_ms();
	int n;

	if (left <= 0)
		return -ETIMEDOUT;
	n = poll(&p, 1, (int)left);
	return n > 0 ? 0 : n == 0 ? -ETIMEDOUT : -errno;
}

/* a non-blocking TCP connection to host:port, made within the deadline */
static int tcp_open(const char *host, int port, long long deadline, char *err,
		    size_t elen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *a;
	char ps[8];
	int fd = -1, e = -ECONNREFUSED, soerr;
	socklen_t sl = sizeof(soerr);

	snprintf(ps, sizeof(ps), "%d", port);
	e = getaddrinfo(host, ps, &hints, &ai);
	if (e) {
		snprintf(err, elen, "%s: %s", host, gai_strerror(e));
		return -EHOSTUNREACH;
	}
	for (a = ai; a; a = a->ai_next) {
		fd = socket(a->ai_family,
			    a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
			    a->ai_protocol);
		if (fd < 0)
			continue;
		if (!connect(fd, a->ai_addr, a->ai_addrlen))
			break;
		e = errno == EINPROGRESS ? wait_fd(fd, POLLOUT, deadline) :
					   -errno;
		if (!e && !getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl))
			e = -soerr;
		if (!e)
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	if (fd < 0)
		snprintf(err, elen, "%s:%d: %s", host, port, strerror(-e));
	return fd < 0 ? e : fd;
}

/* The handshake, non-blocking, within the deadline; the reason in err. */
static int handshake(SSL *ssl, int fd, long long deadline, char *err,
		     size_t elen)
{
	char why[200];
	long v;
	int n, e;

	for (;;) {
		n = SSL_connect(ssl);
		if (n == 1)
			return 0;
		e = SSL_get_error(ssl, n);
		if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
			e = wait_fd(fd,
				    e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT,
				    deadline);
			if (!e)
				continue;
			snprintf(err, elen, "TLS handshake: %s", strerror(-e));
			return e;
		}
		break;
	}
	v = SSL_get_verify_result(ssl);
	if (v != X509_V_OK) {
		snprintf(err, elen,
			 "TLS: the server's certificate is refused: %s",
			 X509_verify_cert_error_string(v));
		ERR_clear_error();
		return -EACCES;
	}
	ssl_reason(why, sizeof(why), "the server closed the connection");
	snprintf(err, elen, "TLS handshake failed: %s", why);
	return -ECONNREFUSED;
}

/*
 * The pump: plain bytes from hiredis into the session, the session's into
 * hiredis. Both fds are non-blocking; it polls only for what it waits for,
 * so it sleeps while the connection is idle. It ends when hiredis closes
 * its end (POLLHUP) or the server closes or fails the session.
 */
static void *pump(void *arg)
{
	struct rd_stls_conn *c = arg;
	unsigned char out[BUF], in[BUF];
	size_t olen = 0, ilen = 0, ioff = 0;
	bool want_rd = true, want_wr = false, progress;
	struct pollfd p[2];
	ssize_t n;
	int r, e;

	for (;;) {
		progress = false;
		if (!olen) {
			n = read(c->plain, out, sizeof(out));
			if (n == 0)
				break;
			if (n < 0 && errno != EAGAIN && errno != EINTR)
				break;
			if (n > 0) {
				olen = (size_t)n;
				progress = true;
			}
		}
		want_rd = want_wr = false;
		if (olen) {
			/* a retried SSL_write gets the same buffer */
			r = SSL_write(c->ssl, out, (int)olen);
			if (r > 0) {
				olen = 0;
				progress = true;
			} else {
				e = SSL_get_error(c->ssl, r);
				if (e == SSL_ERROR_WANT_READ)
					want_rd = true;
				else if (e == SSL_ERROR_WANT_WRITE)
					want_wr = true;
				else {
					ended(c, e);
					break;
				}
			}
		}
		if (!ilen) {
			r = SSL_read(c->ssl, in, sizeof(in));
			if (r > 0) {
				ilen = (size_t)r;
				ioff = 0;
				progress = true;
			} else {
				e = SSL_get_error(c->ssl, r);
				if (e == SSL_ERROR_WANT_READ)
					want_rd = true;
				else if (e == SSL_ERROR_WANT_WRITE)
					want_wr = true;
				else {
					ended(c, e); /* closed, or failed */
					break;
				}
			}
		}
		if (ilen) {
			n = write(c->plain, in + ioff, ilen - ioff);
			if (n < 0 && errno != EAGAIN && errno != EINTR)
				break;
			if (n > 0) {
				ioff += (size_t)n;
				if (ioff == ilen)
					ilen = 0;
				progress = true;
			}
		}
		if (progress)
			continue;
		p[0].fd = c->plain;
		p[0].events = (olen ? 0 : POLLIN) | (ilen ? POLLOUT : 0);
		p[1].fd = c->tcp;
		p[1].events = (want_rd ? POLLIN : 0) | (want_wr ? POLLOUT : 0);
		p[0].revents = p[1].revents = 0;
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		/* hiredis closed its end: nothing more to carry */
		if (p[0].revents & (POLLHUP | POLLERR))
			break;
	}
	/* hiredis sees the end of the stream on its side */
	shutdown(c->plain, SHUT_RDWR);
	return NULL;
}

int rd_stls_connect(const struct rd_stls *t, const char *host, int port,
		    int timeout_ms, int *fd, struct rd_stls_conn **conn,
		    char *err, size_t elen)
{
	long long deadline = mono_ms() + timeout_ms;
	const char *name = t->name[0] ? t->name : host;
	struct rd_stls_conn *c = calloc(1, sizeof(*c));
	unsigned char ip[16];
	sigset_t all, old;
	int sv[2] = { -1, -1 }, e;

	*fd = -1;
	*conn = NULL;
	if (!c) {
		snprintf(err, elen, "out of memory");
		return -ENOMEM;
	}
	c->plain = -1;
	pthread_mutex_init(&c->lock, NULL);
	c->tcp = tcp_open(host, port, deadline, err, elen);
	if (c->tcp < 0) {
		e = c->tcp;
		free(c);
		return e;
	}
	e = -ENOMEM;
	c->ssl = SSL_new(t->ctx);
	if (!c->ssl || SSL_set_fd(c->ssl, c->tcp) != 1)
		goto nomem;
	/* the name the certificate must carry: an address as an IP SAN */
	if (inet_pton(AF_INET, name, ip) == 1 ||
	    inet_pton(AF_INET6, name, ip) == 1) {
		if (X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(c->ssl),
						  name) != 1)
			goto nomem;
	} else if (SSL_set_tlsext_host_name(c->ssl, name) != 1 ||
		   SSL_set1_host(c->ssl, name) != 1) {
		goto nomem;
	}
	e = handshake(c->ssl, c->tcp, deadline, err, elen);
	if (e)
		goto fail;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		e = -errno;
		snprintf(err, elen, "socketpair: %s", strerror(errno));
		goto fail;
	}
	c->plain = sv[1];
	fcntl(c->plain, F_SETFL, fcntl(c->plain, F_GETFL) | O_NONBLOCK);
	/* signals stay the main thread's: its reads must see SIGTERM */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = -pthread_create(&c->th, NULL, pump, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		snprintf(err, elen, "TLS: no thread: %s", strerror(-e));
		close(sv[0]);
		goto fail;
	}
	*fd = sv[0];
	*conn = c;
	return 0;
nomem:
	snprintf(err, elen, "TLS: out of memory");
fail:
	ERR_clear_error();
	SSL_free(c->ssl);
	close(c->tcp);
	if (c->plain >= 0)
		close(c->plain);
	free(c);
	return e;
}

void rd_stls_close(struct rd_stls_conn *c)
{
	if (!c)
		return;
	/* hiredis closed its end first: the pump sees POLLHUP and returns */
	pthread_join(c->th, NULL);
	/* a closed session tells the server so; never waits for its answer */
	SSL_shutdown(c->ssl);
	ERR_clear_error();
	SSL_free(c->ssl);
	close(c->tcp);
	close(c->plain);
	pthread_mutex_destroy(&c->lock);
	free(c);
}
