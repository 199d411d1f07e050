// SPDX-License-Identifier: GPL-2.0
/*
 * The keys `rocedp config set` takes, for shell completion
 * (`rocedp help --config-keys`, tools/completion/rocedp.bash). They are
 * read off the defaults document: the parser's defaults rendered by the
 * same code as `config dump`, so the list cannot drift from the loader.
 */
#include <errno.h>
#include <stdio.h>
#include <json-c/json.h>

#include "config.h"
#include "config_keys.h"
#include "config_parse.h"
#include "config_render.h"

static void print_keys(FILE *f, const char *prefix, struct json_object *o)
{
	char path[256];

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_length(o)) {
		/* a leaf, a list (set by index: routes.0.group) or a map */
		fprintf(f, "%s\n", prefix);
		return;
	}
	json_object_object_foreach(o, key, val)
	{
		snprintf(path, sizeof(path), "%s%s%s", prefix,
			 *prefix ? "." : "", key);
		print_keys(f, path, val);
	}
}

int rd_config_keys_print(FILE *f)
{
	struct json_object *root = json_object_new_object(), *doc;
	struct rd_staged s;
	int err;

	if (!root)
		return -ENOMEM;
	err = rd_config_parse(root, &s);
	json_object_put(root);
	if (err)
		return err;
	doc = rd_config_to_json(&s);
	rd_staged_free(&s);
	if (!doc)
		return -ENOMEM;
	print_keys(f, "", doc);
	json_object_put(doc);
	return 0;
}
