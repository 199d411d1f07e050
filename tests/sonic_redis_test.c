// SPDX-License-Identifier: GPL-2.0
/*
 * sonic_redis.c without a server: the --redis address forms, and Redis
 * hashes into the config_db.json shape (TABLE|rest split at the first '|',
 * ConfigDBConnector's "field@" lists, its "NULL" placeholder).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sonic_redis.h"
#include "tap.h"

static const struct {
	const char *url;
	int ret;
	const char *host;
	int port;
} urls[] = {
	{ "unix:/var/run/redis/redis.sock", 0, "/var/run/redis/redis.sock",
	  -1 },
	{ "127.0.0.1:6379", 0, "127.0.0.1", 6379 },
	{ "redis.local:1", 0, "redis.local", 1 },
	{ "[::1]:6379", 0, "::1", 6379 },
	{ "[fe80::1%eth0]:65535", 0, "fe80::1%eth0", 65535 },
	{ "unix:", -EINVAL, NULL, 0 },
	{ "localhost", -EINVAL, NULL, 0 },
	{ ":6379", -EINVAL, NULL, 0 },
	{ "host:", -EINVAL, NULL, 0 },
	{ "host:0", -EINVAL, NULL, 0 },
	{ "host:65536", -EINVAL, NULL, 0 },
	{ "host:63x", -EINVAL, NULL, 0 },
	{ "[::1]", -EINVAL, NULL, 0 },
	{ "[]:6379", -EINVAL, NULL, 0 },
	{ "::1:6379", 0, "::1", 6379 }, /* the last ':' is the port's */
	/* a password would show in ps and the log: --auth-file instead */
	{ "rd:Sekr1t@127.0.0.1:6379", -EPERM, NULL, 0 },
	{ "unix:/x@y", -EPERM, NULL, 0 },
};

static void test_urls(void)
{
	char host[256];
	size_t i;
	int port, r;

	for (i = 0; i < sizeof(urls) / sizeof(urls[0]); i++) {
		port = 0;
		host[0] = 0;
		r = rd_sredis_parse_url(urls[i].url, host, sizeof(host), &port);
		result(r == urls[i].ret && (r || (!strcmp(host, urls[i].host) &&
						  port == urls[i].port)),
		       "--redis %s: %s (got %d, '%s', %d)", urls[i].url,
		       urls[i].ret ? "refused" : urls[i].host, r, host, port);
	}
}

/* the same document as JSON text, for one comparison */
static void expect(struct json_object *root, const char *want, const char *what)
{
	struct json_object *w = json_tokener_parse(want);
	bool ok = w && json_object_equal(root, w);

	result(ok, "%s: %s", what,
	       ok ? want : json_object_to_json_string(root));
	json_object_put(w);
}

static void test_hashes(void)
{
	struct json_object *root = json_object_new_object();
	const char *queue[] = { "wred_profile", "AZURE_LOSSLESS" };
	const char *hash[] = { "ecmp_hash@", "SRC_IP,DST_IP,RDMA_BTH_DEST_QP",
			       "lag_hash@", "SRC_IP" };
	const char *empty[] = { "NULL", "NULL" };
	const char *one[] = { "x@", "" };

	result(!rd_sredis_add_hash(root, "QUEUE|Ethernet0|3-4", queue, 1),
	       "QUEUE|Ethernet0|3-4 is table QUEUE, key Ethernet0|3-4");
	rd_sredis_add_hash(root, "SWITCH_HASH|GLOBAL", hash, 2);
	rd_sredis_add_hash(root, "PFC_WD|GLOBAL", empty, 1);
	rd_sredis_add_hash(root, "T|k", one, 1);
	result(rd_sredis_add_hash(root, "CONFIG_DB_INITIALIZED", queue, 1) ==
		       -EINVAL,
	       "a key without TABLE| is no table entry: refused");
	result(rd_sredis_add_hash(root, "|k", queue, 1) == -EINVAL,
	       "an empty table name is refused");
	expect(root,
	       "{\"QUEUE\": {\"Ethernet0|3-4\": {\"wred_profile\": \"AZURE_LOSSLESS\"}},"
	       " \"SWITCH_HASH\": {\"GLOBAL\": {\"ecmp_hash\": [\"SRC_IP\", \"DST_IP\","
	       " \"RDMA_BTH_DEST_QP\"], \"lag_hash\": [\"SRC_IP\"]}},"
	       " \"PFC_WD\": {\"GLOBAL\": {}}, \"T\": {\"k\": {\"x\": []}}}",
	       "config_db.json shape: field@ lists as arrays, NULL dropped");
	json_object_put(root);
}

/* the auth file: one line PASSWORD, two lines USER PASSWORD */
static void auth_case(const char *what, const char *text, int mode, int want,
		      const char *user, const char *pass)
{
	char path[] = "/tmp/sonic_auth_XXXXXX", err[300] = "";
	struct rd_sredis_auth a;
	int fd = mkstemp(path), r;

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) ||
	    fchmod(fd, mode)) {
		result(0, "auth file: cannot write %s", path);
		return;
	}
	close(fd);
	r = rd_sredis_auth_load(path, &a, err, sizeof(err));
	unlink(path);
	result(r == want &&
		       (r ||
			(!strcmp(a.user, user) && !strcmp(a.pass, pass))) &&
		       !strstr(err, "Sekr1t"),
	       "auth file %s, mode %o: %d (got %d, user '%s') %s", what, mode,
	       want, r, r ? "" : a.user, err);
}

static void test_auth(void)
{
	auth_case("one line", "Sekr1t\n", 0600, 0, "", "Sekr1t");
	auth_case("spaces, no newline", "pass with spaces", 0640, 0, "",
		  "pass with spaces");
	auth_case("user and password", "rd\nSekr1t\n", 0600, 0, "rd", "Sekr1t");
	auth_case("others may read", "Sekr1t\n", 0604, -EPERM, "", "");
	auth_case("empty", "\n", 0600, -EINVAL, "", "");
}

int main(void)
{
	test_urls();
	test_auth();
	test_hashes();
	printf("%d passed, %d failed\n", n_test - n_fail, n_fail);
	return n_fail ? 1 : 0;
}
