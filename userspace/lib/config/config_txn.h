/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Config writes to the maps (config_txn.c): one transaction with an undo
 * journal (the static routes and groups committed by the one committer,
 * config_static.h), and the lock that serialises writers.
 */
#ifndef ROCEDP_CONFIG_TXN_H
#define ROCEDP_CONFIG_TXN_H

#include <stddef.h>
#include "config.h"

/* Make the maps hold s; on failure the maps are rolled back. -errno. */
int rd_config_apply(const struct rd_maps *m, const struct rd_staged *s);
/* The same, *writes the map entries it wrote (entries already right are
 * not written: a re-apply of what runs writes none). */
int rd_config_apply_counted(const struct rd_maps *m, const struct rd_staged *s,
			    unsigned long *writes);
/* Config file (JSON) -> maps; validate fully first, then apply. -errno. */
int rd_config_apply_file(const char *path, const struct rd_maps *m);
/* The same from JSON text in memory; name stands for it in messages. */
int rd_config_apply_text(const char *name, const char *buf, size_t len,
			 const struct rd_maps *m);
/* Write built-in defaults (config, qos profile) into fresh maps. */
int rd_config_apply_defaults(const struct rd_maps *m);

/* Open the pinned maps; prints "rocedp: OBJ: ..." on failure. -errno. */
int rd_config_open_maps(const char *obj, struct rd_maps *m);
/* Exclusive lock against other writers; returns the fd to close. */
int rd_config_lock(const char *obj);

/*
 * Every other writer of the config's maps comes through here (docs/design.md,
 * "Who writes which map"). obj names the command in error lines.
 */
/* Change one port's rd_port_cfg entry (unset: from the defaults); edit
 * validates and may refuse (-errno, its own message). Takes the lock. */
typedef int (*rd_port_edit_fn)(struct rocedp_port_cfg *pc, void *ctx);
int rd_config_port_edit(const struct rd_maps *m, const char *obj, __u32 ifindex,
			rd_port_edit_fn edit, void *ctx);
/* rd_config's features (attach --features), the rest kept. Takes the lock. */
int rd_config_set_features(const struct rd_maps *m, const char *obj,
			   __u32 features);
/* One class of rd_qos. Takes the lock. */
int rd_config_qos_set(const struct rd_maps *m, const char *obj, __u32 cls,
		      const struct rocedp_qos *q);

#endif
