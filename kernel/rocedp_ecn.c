// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp_ecn: RED/ECN thresholds for rocedp, exposed the way a switch driver
 * exposes WRED knobs.
 *
 * /sys/kernel/rocedp_ecn/profileN/{kmin_bytes,kmax_bytes,pmax_percent} and
 * an atomic "thresholds" knob ("KMIN KMAX PMAX") per profile, plus the kfunc
 * rocedp_ecn_thresholds(profile) for tc and XDP programs.
 *
 * Each profile lives in one packed u64 (ROCEDP_ECN_PACK from the shared ABI
 * header), so a BPF reader gets a consistent snapshot with one load and can
 * never see kmin > kmax half-way through an update. Writers serialise on a
 * mutex and validate the whole triple before publishing it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/version.h>

#include "abi_ecn.h"

static_assert(ROCEDP_ECN_MAX_BYTES <= 0xfffffff,
	      "thresholds must fit the 28-bit fields of ROCEDP_ECN_PACK");

/* Published thresholds, one packed word per profile (read lock-free). */
static u64 rocedp_ecn_packed[ROCEDP_ECN_MAX_PROFILES];
/* Serialises read-modify-write of a profile by the per-field knobs. */
static DEFINE_MUTEX(rocedp_ecn_lock);

struct rocedp_ecn_profile {
	struct kobject kobj;
	u32 index;
};

static struct kobject *rocedp_ecn_root;
static struct rocedp_ecn_profile *rocedp_ecn_profiles[ROCEDP_ECN_MAX_PROFILES];

struct rocedp_ecn_triple {
	u32 kmin;
	u32 kmax;
	u32 pmax;
};

static struct rocedp_ecn_triple rocedp_ecn_get(u32 index)
{
	u64 v = READ_ONCE(rocedp_ecn_packed[index]);
	struct rocedp_ecn_triple t = {
		.kmin = ROCEDP_ECN_KMIN(v),
		.kmax = ROCEDP_ECN_KMAX(v),
		.pmax = ROCEDP_ECN_PMAX(v),
	};

	return t;
}

static bool rocedp_ecn_valid(const struct rocedp_ecn_triple *t)
{
	return t->kmin <= t->kmax && t->kmax <= ROCEDP_ECN_MAX_BYTES &&
	       t->pmax <= 100;
}

/* Caller holds rocedp_ecn_lock and has validated @t. */
static void rocedp_ecn_publish(u32 index, const struct rocedp_ecn_triple *t)
{
	WRITE_ONCE(rocedp_ecn_packed[index],
		   ROCEDP_ECN_PACK(t->kmin, t->kmax, t->pmax));
}

/* ------------------------------------------------------------------ kfunc */

#ifndef __bpf_kfunc
#define __bpf_kfunc /* 6.1 has no annotation; noinline + global is enough */
#endif

#ifdef __bpf_kfunc_start_defs
__bpf_kfunc_start_defs();
#else
__diag_push();
__diag_ignore_all("-Wmissing-prototypes",
		  "kfuncs are called from BPF programs only");
#endif

/*
 * Packed thresholds of @profile (ROCEDP_ECN_PACK layout, valid bit set), or
 * 0 when @profile does not exist. Scalars in and out only, so the same
 * declaration works on 6.1 and on later kernels.
 */
__bpf_kfunc noinline u64 rocedp_ecn_thresholds(u32 profile)
{
	if (profile >= ROCEDP_ECN_MAX_PROFILES)
		return 0;
	profile = array_index_nospec(profile, ROCEDP_ECN_MAX_PROFILES);
	return READ_ONCE(rocedp_ecn_packed[profile]);
}

#ifdef __bpf_kfunc_end_defs
__bpf_kfunc_end_defs();
#else
__diag_pop();
#endif

/* 6.9 made kfunc sets a distinct, flagged kind of BTF set8. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
BTF_KFUNCS_START(rocedp_ecn_kfunc_ids)
BTF_ID_FLAGS(func, rocedp_ecn_thresholds)
BTF_KFUNCS_END(rocedp_ecn_kfunc_ids)
#else
BTF_SET8_START(rocedp_ecn_kfunc_ids)
BTF_ID_FLAGS(func, rocedp_ecn_thresholds)
BTF_SET8_END(rocedp_ecn_kfunc_ids)
#endif

static const struct btf_kfunc_id_set rocedp_ecn_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &rocedp_ecn_kfunc_ids,
};

/* ------------------------------------------------------------------ sysfs */

enum rocedp_ecn_field { FIELD_KMIN, FIELD_KMAX, FIELD_PMAX };

/*
 * Exactly @n decimal u32 values separated by blanks, for every knob: each
 * through kstrtou32, so 4294967296 is -ERANGE and "12abc" -EINVAL (sscanf's
 * "%u" once made 4294967296 a silent 0). Decimal only, as the knobs show
 * their values, so "010" is ten.
 */
static int rocedp_ecn_parse(const char *buf, size_t len, u32 *v, unsigned int n)
{
	char tmp[64], *p, *tok;
	unsigned int i = 0;
	int err;

	if (len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, buf, len);
	tmp[len] = 0;
	p = strim(tmp);
	while ((tok = strsep(&p, " \t"))) {
		if (!*tok)
			continue; /* more than one blank */
		if (i == n)
			return -EINVAL;
		err = kstrtou32(tok, 10, &v[i++]);
		if (err)
			return err;
	}
	return i == n ? 0 : -EINVAL;
}

static u32 profile_index(struct kobject *kobj)
{
	return container_of(kobj, struct rocedp_ecn_profile, kobj)->index;
}

static ssize_t field_show(struct kobject *kobj, char *buf,
			  enum rocedp_ecn_field f)
{
	struct rocedp_ecn_triple t = rocedp_ecn_get(profile_index(kobj));
	u32 v = f == FIELD_KMIN ? t.kmin : f == FIELD_KMAX ? t.kmax : t.pmax;

	return sysfs_emit(buf, "%u\n", v);
}

static ssize_t field_store(struct kobject *kobj, const char *buf, size_t len,
			   enum rocedp_ecn_field f)
{
	u32 index = profile_index(kobj);
	struct rocedp_ecn_triple t;
	u32 v;
	int err;

	err = rocedp_ecn_parse(buf, len, &v, 1);
	if (err)
		return err;

	mutex_lock(&rocedp_ecn_lock);
	t = rocedp_ecn_get(index);
	if (f == FIELD_KMIN)
		t.kmin = v;
	else if (f == FIELD_KMAX)
		t.kmax = v;
	else
		t.pmax = v;
	/* Refuse the whole write, leaving the profile as it was. */
	if (!rocedp_ecn_valid(&t))
		err = -EINVAL;
	else
		rocedp_ecn_publish(index, &t);
	mutex_unlock(&rocedp_ecn_lock);

	return err ? err : len;
}

#define ROCEDP_ECN_FIELD_ATTR(name, field)                                 \
	static ssize_t name##_show(struct kobject *kobj,                   \
				   struct kobj_attribute *attr, char *buf) \
	{                                                                  \
		return field_show(kobj, buf, field);                       \
	}                                                                  \
	static ssize_t name##_store(struct kobject *kobj,                  \
				    struct kobj_attribute *attr,           \
				    const char *buf, size_t len)           \
	{                                                                  \
		return field_store(kobj, buf, len, field);                 \
	}                                                                  \
	static struct kobj_attribute name##_attr = __ATTR_RW(name)

ROCEDP_ECN_FIELD_ATTR(kmin_bytes, FIELD_KMIN);
ROCEDP_ECN_FIELD_ATTR(kmax_bytes, FIELD_KMAX);
ROCEDP_ECN_FIELD_ATTR(pmax_percent, FIELD_PMAX);

static ssize_t thresholds_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	struct rocedp_ecn_triple t = rocedp_ecn_get(profile_index(kobj));

	return sysfs_emit(buf, "%u %u %u\n", t.kmin, t.kmax, t.pmax);
}

/* "KMIN KMAX PMAX": moves both bounds at once, checked as a whole. */
static ssize_t thresholds_store(struct kobject *kobj,
				struct kobj_attribute *attr, const char *buf,
				size_t len)
{
	struct rocedp_ecn_triple t;
	u32 v[3];
	int err;

	err = rocedp_ecn_parse(buf, len, v, 3);
	if (err)
		return err;
	t.kmin = v[0];
	t.kmax = v[1];
	t.pmax = v[2];
	if (!rocedp_ecn_valid(&t))
		return -EINVAL;

	mutex_lock(&rocedp_ecn_lock);
	rocedp_ecn_publish(profile_index(kobj), &t);
	mutex_unlock(&rocedp_ecn_lock);
	return len;
}

static struct kobj_attribute thresholds_attr = __ATTR_RW(thresholds);

static struct attribute *rocedp_ecn_profile_attrs[] = {
	&kmin_bytes_attr.attr,
	&kmax_bytes_attr.attr,
	&pmax_percent_attr.attr,
	&thresholds_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(rocedp_ecn_profile);

static void rocedp_ecn_profile_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct rocedp_ecn_profile, kobj));
}

/* const only since 6.2; a plain static object works on both. */
static struct kobj_type rocedp_ecn_profile_ktype = {
	.release = rocedp_ecn_profile_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = rocedp_ecn_profile_groups,
};

static void rocedp_ecn_sysfs_remove(void)
{
	u32 i;

	for (i = 0; i < ROCEDP_ECN_MAX_PROFILES; i++) {
		if (rocedp_ecn_profiles[i])
			kobject_put(&rocedp_ecn_profiles[i]->kobj);
		rocedp_ecn_profiles[i] = NULL;
	}
	kobject_put(rocedp_ecn_root);
	rocedp_ecn_root = NULL;
}

static int rocedp_ecn_sysfs_add(void)
{
	struct rocedp_ecn_profile *p;
	u32 i;
	int err;

	rocedp_ecn_root = kobject_create_and_add(KBUILD_MODNAME, kernel_kobj);
	if (!rocedp_ecn_root)
		return -ENOMEM;

	for (i = 0; i < ROCEDP_ECN_MAX_PROFILES; i++) {
		p = kzalloc(sizeof(*p), GFP_KERNEL);
		if (!p) {
			err = -ENOMEM;
			goto fail;
		}
		p->index = i;
		err = kobject_init_and_add(&p->kobj, &rocedp_ecn_profile_ktype,
					   rocedp_ecn_root, "profile%u", i);
		if (err) {
			kobject_put(&p->kobj);
			goto fail;
		}
		rocedp_ecn_profiles[i] = p;
	}
	return 0;
fail:
	rocedp_ecn_sysfs_remove();
	return err;
}

/* ------------------------------------------------------------------ module */

static int __init rocedp_ecn_init(void)
{
	const struct rocedp_ecn_triple def = {
		.kmin = ROCEDP_DEFAULT_KMIN_BYTES,
		.kmax = ROCEDP_DEFAULT_KMAX_BYTES,
		.pmax = ROCEDP_DEFAULT_PMAX_PERCENT,
	};
	u32 i;
	int err;

	BUILD_BUG_ON(ROCEDP_DEFAULT_KMIN_BYTES > ROCEDP_DEFAULT_KMAX_BYTES);
	BUILD_BUG_ON(ROCEDP_DEFAULT_KMAX_BYTES > ROCEDP_ECN_MAX_BYTES);
	BUILD_BUG_ON(ROCEDP_DEFAULT_PMAX_PERCENT > 100);

	for (i = 0; i < ROCEDP_ECN_MAX_PROFILES; i++)
		rocedp_ecn_publish(i, &def);

	/*
	 * Without module BTF the kfunc cannot be registered; fail the load so
	 * loaders never believe the module path is live when it is not.
	 */
	err = register_btf_kfunc_id_set(BPF_PROG_TYPE_SCHED_CLS,
					&rocedp_ecn_kfunc_set);
	if (!err)
		err = register_btf_kfunc_id_set(BPF_PROG_TYPE_XDP,
						&rocedp_ecn_kfunc_set);
	if (err) {
		pr_err("cannot register kfunc rocedp_ecn_thresholds: %d\n",
		       err);
		return err;
	}

	err = rocedp_ecn_sysfs_add();
	if (err) {
		pr_err("cannot create /sys/kernel/%s: %d\n", KBUILD_MODNAME,
		       err);
		return err;
	}
	return 0;
}

static void __exit rocedp_ecn_exit(void)
{
	/* kfunc sets go away with the module's BTF; nothing to unregister. */
	rocedp_ecn_sysfs_remove();
}

module_init(rocedp_ecn_init);
module_exit(rocedp_ecn_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rocedp ECN (RED) thresholds: sysfs knobs and a kfunc");
