// SPDX-License-Identifier: GPL-2.0
/*
 * SONiC's database_config.json: {"INSTANCES": {"redis": {"unix_socket_path":
 * ...}}, "DATABASES": {"CONFIG_DB": {"id": 4, "instance": "redis"}, ...}}.
 * A multi-ASIC box has one per namespace, listed in database_global.json:
 * {"INCLUDES": [{"include": "../../redis/sonic-db/database_config.json"},
 * {"namespace": "asic0", "include": "../../redis0/..."}]}, paths relative
 * to that file's directory.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "sonic_dbconf.h"

void rd_sdb_ids_default(struct rd_sdb_ids *ids)
{
	memset(ids, 0, sizeof(*ids));
	ids->appl = 0;
	ids->counters = 2;
	ids->config = 4;
	ids->state = 6;
}

static struct json_object *read_json(const char *file, char *err, size_t elen)
{
	struct json_object *j = json_object_from_file(file);

	if (!j)
		snprintf(err, elen, "%s: cannot read it as JSON (%s)", file,
			 json_util_get_last_err() ? json_util_get_last_err() :
						    "unknown error");
	else if (!json_object_is_type(j, json_type_object)) {
		snprintf(err, elen, "%s: not a JSON object", file);
		json_object_put(j);
		j = NULL;
	}
	return j;
}

/* DATABASES.name.id: 0..15 as Redis numbers them by default; -1 absent */
static int db_id(struct json_object *dbs, const char *name, const char *file,
		 char *err, size_t elen)
{
	struct json_object *d, *id;
	int v;

	if (!json_object_object_get_ex(dbs, name, &d))
		return -1;
	if (!json_object_object_get_ex(d, "id", &id) ||
	    !json_object_is_type(id, json_type_int) ||
	    (v = json_object_get_int(id)) < 0 || v > 1023) {
		snprintf(err, elen, "%s: DATABASES.%s.id: want 0..1023", file,
			 name);
		return -2;
	}
	return v;
}

static int load_one(struct rd_sdb_ids *ids, const char *file, char *err,
		    size_t elen)
{
	static const char *const names[] = { "APPL_DB", "COUNTERS_DB",
					     "CONFIG_DB", "STATE_DB" };
	int *slot[] = { &ids->appl, &ids->counters, &ids->config, &ids->state };
	struct json_object *j = read_json(file, err, elen), *dbs, *inst, *x, *c;
	const char *name = "redis";
	int i, v, e = 0;

	if (!j)
		return -EINVAL;
	if (!json_object_object_get_ex(j, "DATABASES", &dbs) ||
	    !json_object_is_type(dbs, json_type_object)) {
		snprintf(err, elen, "%s: no DATABASES object", file);
		json_object_put(j);
		return -EINVAL;
	}
	for (i = 0; i < 4 && !e; i++) {
		v = db_id(dbs, names[i], file, err, elen);
		if (v == -2)
			e = -EINVAL;
		else if (v >= 0)
			*slot[i] = v;
	}
	/* CONFIG_DB's instance: where the daemon connects by default */
	if (!e && json_object_object_get_ex(dbs, "CONFIG_DB", &c) &&
	    json_object_object_get_ex(c, "instance", &x) &&
	    json_object_is_type(x, json_type_string))
		name = json_object_get_string(x);
	if (!e && json_object_object_get_ex(j, "INSTANCES", &inst) &&
	    json_object_object_get_ex(inst, name, &c) &&
	    json_object_object_get_ex(c, "unix_socket_path", &x) &&
	    json_object_is_type(x, json_type_string) &&
	    strlen(json_object_get_string(x)) < sizeof(ids->sock))
		snprintf(ids->sock, sizeof(ids->sock), "%s",
			 json_object_get_string(x));
	json_object_put(j);
	return e;
}

/* The namespace's database_config.json from database_global.json */
static int ns_file(const char *file, const char *ns, char *out, size_t olen,
		   char *err, size_t elen)
{
	char global[PATH_MAX];
	struct json_object *j, *inc, *e, *x;
	const char *slash = strrchr(file, '/');
	int dlen = slash ? (int)(slash - file) : 1;
	size_t i;

	snprintf(global, sizeof(global), "%.*s/database_global.json", dlen,
		 slash ? file : ".");
	j = read_json(global, err, elen);
	if (!j)
		return -ENOENT;
	if (!json_object_object_get_ex(j, "INCLUDES", &inc) ||
	    !json_object_is_type(inc, json_type_array)) {
		snprintf(err, elen, "%s: no INCLUDES list", global);
		json_object_put(j);
		return -EINVAL;
	}
	for (i = 0; i < json_object_array_length(inc); i++) {
		e = json_object_array_get_idx(inc, i);
		if (!json_object_object_get_ex(e, "namespace", &x) ||
		    strcmp(json_object_get_string(x), ns) ||
		    !json_object_object_get_ex(e, "include", &x))
			continue;
		snprintf(out, olen, "%.*s/%s", dlen, slash ? file : ".",
			 json_object_get_string(x));
		json_object_put(j);
		return 0;
	}
	snprintf(err, elen, "%s: no namespace \"%s\" in INCLUDES", global, ns);
	json_object_put(j);
	return -ENOENT;
}

int rd_sdb_ids_load(struct rd_sdb_ids *ids, const char *file, const char *ns,
		    char *err, size_t elen)
{
	char path[PATH_MAX];
	int e;

	rd_sdb_ids_default(ids);
	if (ns) {
		e = ns_file(file, ns, path, sizeof(path), err, elen);
		if (e)
			return e;
		file = path;
	}
	return load_one(ids, file, err, elen);
}
