// SPDX-License-Identifier: GPL-2.0
/*
 * btfids: the part of the kernel's tools/bpf/resolve_btfids that a module
 * needs, for kernels whose headers package does not ship that tool
 * (Debian's linux-headers up to at least 6.1). Kbuild calls it as
 *
 *     resolve_btfids -b BASE_BTF MODULE.ko
 *
 * after pahole has written the module's split BTF. It fills the
 * .BTF_ids section: every __BTF_ID__<kind>__<name>__<n> symbol gets the BTF
 * type id of <name>, every __BTF_ID__set__ / __BTF_ID__set8__ symbol its
 * count (from the symbol size), with the ids sorted as the kernel's
 * binary search expects. Unlike resolve_btfids, an unresolved name is an
 * error: a kfunc with id 0 makes the module refuse to register it.
 *
 * Self-contained (libc and <elf.h>), so DKMS builds it on the target with
 * the compiler it already needs. 64-bit little-endian ELF and raw base BTF
 * (what /sys/kernel/btf/vmlinux holds) only.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BTF_MAGIC 0xeb9f
#define BTF_KIND_INT 1
#define BTF_KIND_ARRAY 3
#define BTF_KIND_STRUCT 4
#define BTF_KIND_UNION 5
#define BTF_KIND_ENUM 6
#define BTF_KIND_TYPEDEF 8
#define BTF_KIND_FUNC 12
#define BTF_KIND_FUNC_PROTO 13
#define BTF_KIND_VAR 14
#define BTF_KIND_DATASEC 15
#define BTF_KIND_DECL_TAG 17
#define BTF_KIND_ENUM64 19
#define BTF_KIND_MAX 19

#define ID_PREFIX "__BTF_ID__"

struct btf_hdr {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t type_off;
	uint32_t type_len;
	uint32_t str_off;
	uint32_t str_len;
};

struct btf_type {
	uint32_t name_off;
	uint32_t info;
	uint32_t size_or_type;
};

/* One BTF blob: its types as offsets into the type section. */
struct btf {
	const uint8_t *types;
	const char *strs;
	uint32_t str_len;
	uint32_t *off; /* off[i]: type i + 1 */
	uint32_t n;
	const struct btf *base;
	uint32_t first_id; /* id of off[0] */
};

static const char *prog = "btfids";

static int fail(const char *what, const char *why)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, why);
	return -EINVAL;
}

static int read_file(const char *path, uint8_t **buf, size_t *len)
{
	struct stat st;
	ssize_t r;
	size_t got = 0;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		int err = -errno;

		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return err;
	}
	/* sysfs files report size 4096 or 0: read until EOF */
	*len = st.st_size > 0 ? (size_t)st.st_size : 1 << 20;
	*buf = malloc(*len + 1);
	while (*buf) {
		r = read(fd, *buf + got, *len - got);
		if (r < 0) {
			close(fd);
			return fail(path, strerror(errno));
		}
		if (r == 0)
			break;
		got += r;
		if (got == *len) {
			uint8_t *nb = realloc(*buf, *len * 2 + 1);

			if (!nb)
				break;
			*buf = nb;
			*len *= 2;
		}
	}
	close(fd);
	if (!*buf)
		return fail(path, "out of memory");
	*len = got;
	return 0;
}

/* Bytes of kind-specific data after a btf_type; -1 for an unknown kind. */
static long btf_extra(const struct btf_type *t)
{
	uint32_t vlen = t->info & 0xffff;

	switch ((t->info >> 24) & 0x1f) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return 12;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_DATASEC:
	case BTF_KIND_ENUM64:
		return 12L * vlen;
	case BTF_KIND_ENUM:
	case BTF_KIND_FUNC_PROTO:
		return 8L * vlen;
	default:
		return ((t->info >> 24) & 0x1f) > BTF_KIND_MAX ? -1 : 0;
	}
}

static int btf_parse(struct btf *b, const uint8_t *data, size_t len,
		     const struct btf *base, const char *what)
{
	const struct btf_hdr *h = (const void *)data;
	uint32_t pos = 0, cap = 0;

	if (len < sizeof(*h) || h->magic != BTF_MAGIC || h->hdr_len > len ||
	    (uint64_t)h->hdr_len + h->type_off + h->type_len > len ||
	    (uint64_t)h->hdr_len + h->str_off + h->str_len > len)
		return fail(what, "not BTF, or a BTF of another byte order");
	memset(b, 0, sizeof(*b));
	b->types = data + h->hdr_len + h->type_off;
	b->strs = (const char *)data + h->hdr_len + h->str_off;
	b->str_len = h->str_len;
	b->base = base;
	b->first_id = base ? base->first_id + base->n : 1;
	while (pos + sizeof(struct btf_type) <= h->type_len) {
		const struct btf_type *t = (const void *)(b->types + pos);
		long extra = btf_extra(t);

		if (extra < 0)
			return fail(what, "unknown BTF kind");
		if (b->n == cap) {
			uint32_t *no;

			cap = cap ? cap * 2 : 1024;
			no = realloc(b->off, cap * sizeof(*no));
			if (!no)
				return fail(what, "out of memory");
			b->off = no;
		}
		b->off[b->n++] = pos;
		pos += sizeof(*t) + extra;
	}
	if (pos != h->type_len)
		return fail(what, "truncated BTF type section");
	return 0;
}

/* A split BTF's string offsets continue the base's string section. */
static const char *btf_str(const struct btf *b, uint32_t off)
{
	if (b->base) {
		if (off < b->base->str_len)
			return btf_str(b->base, off);
		off -= b->base->str_len;
	}
	return off < b->str_len ? b->strs + off : "";
}

/* The first type of that kind and name, base first (resolve_btfids' order). */
static uint32_t btf_find(const struct btf *b, const char *name, int kind)
{
	uint32_t i, id;

	if (b->base) {
		id = btf_find(b->base, name, kind);
		if (id)
			return id;
	}
	for (i = 0; i < b->n; i++) {
		const struct btf_type *t = (const void *)(b->types + b->off[i]);

		if ((int)((t->info >> 24) & 0x1f) == kind &&
		    !strcmp(btf_str(b, t->name_off), name))
			return b->first_id + i;
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int kind_of(const char *k, size_t len)
{
	static const struct {
		const char *name;
		int kind;
	} kinds[] = { { "struct", BTF_KIND_STRUCT },
		      { "union", BTF_KIND_UNION },
		      { "typedef", BTF_KIND_TYPEDEF },
		      { "func", BTF_KIND_FUNC } };
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strlen(kinds[i].name) == len &&
		    !strncmp(k, kinds[i].name, len))
			return kinds[i].kind;
	return -1;
}

/*
 * Patch one __BTF_ID__ symbol at sec[off]: sets get their count and sorted
 * ids, everything else its type id. Sets are patched after every id (the
 * caller's second pass), since they sort the ids.
 */
static int patch_sym(const struct btf *btf, const char *sym, uint8_t *sec,
		     uint64_t sec_len, uint64_t off, uint64_t size, int pass)
{
	const char *k = sym + strlen(ID_PREFIX), *name = strstr(k, "__");
	char buf[256];
	size_t n;
	uint32_t id;
	int set8 = !strncmp(k, "set8__", 6), set = !strncmp(k, "set__", 5);

	if (!name || off + 4 > sec_len || off % 4)
		return fail(sym, "malformed .BTF_ids symbol");
	if (set || set8) {
		size_t w = set8 ? 8 : 4, cnt = size / w;

		if (pass == 0)
			return 0;
		if (!cnt || off + size > sec_len)
			return fail(sym, "set symbol with a bad size");
		cnt--; /* the header (cnt, and set8's flags) */
		id = (uint32_t)cnt;
		memcpy(sec + off, &id, 4);
		qsort(sec + off + w, cnt, w, cmp_u32);
		return 0;
	}
	if (pass == 1)
		return 0;
	name += 2;
	/* strip the "__<n>" suffix that makes each symbol unique */
	n = strlen(name);
	while (n && name[n - 1] >= '0' && name[n - 1] <= '9')
		n--;
	if (n < 3 || name[n - 1] != '_' || name[n - 2] != '_' ||
	    n - 2 >= sizeof(buf))
		return fail(sym, "malformed .BTF_ids symbol");
	memcpy(buf, name, n - 2);
	buf[n - 2] = 0;
	if (kind_of(k, name - 2 - k) < 0)
		return fail(sym, "unknown BTF_ID kind");
	id = btf_find(btf, buf, kind_of(k, name - 2 - k));
	if (!id)
		return fail(buf, "not in the module's or the base BTF");
	memcpy(sec + off, &id, 4);
	return 0;
}

static const Elf64_Shdr *find_sec(const uint8_t *elf, size_t len,
				  const char *want, int *idx)
{
	const Elf64_Ehdr *eh = (const void *)elf;
	const Elf64_Shdr *sh = (const void *)(elf + eh->e_shoff);
	const char *names = (const char *)elf + sh[eh->e_shstrndx].sh_offset;
	int i;

	for (i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_name < sh[eh->e_shstrndx].sh_size &&
		    !strcmp(names + sh[i].sh_name, want) &&
		    sh[i].sh_offset + sh[i].sh_size <= len) {
			if (idx)
				*idx = i;
			return &sh[i];
		}
	return NULL;
}

static int resolve(const char *base_path, const char *path)
{
	const Elf64_Shdr *btf_sh, *ids_sh, *sym_sh, *sh;
	const Elf64_Ehdr *eh;
	struct btf base, mod;
	uint8_t *bb, *elf;
	size_t blen, len;
	int ids_idx, err, pass, fd;
	uint64_t i;

	err = read_file(base_path, &bb, &blen);
	if (!err)
		err = btf_parse(&base, bb, blen, NULL, base_path);
	if (!err)
		err = read_file(path, &elf, &len);
	if (err)
		return err;
	eh = (const void *)elf;
	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > len ||
	    eh->e_shstrndx >= eh->e_shnum)
		return fail(path, "not a 64-bit little-endian ELF object");
	ids_sh = find_sec(elf, len, ".BTF_ids", &ids_idx);
	if (!ids_sh)
		return 0; /* nothing to resolve, as resolve_btfids */
	btf_sh = find_sec(elf, len, ".BTF", NULL);
	if (!btf_sh)
		return fail(path,
			    "has .BTF_ids but no .BTF (pahole did not run?)");
	err = btf_parse(&mod, elf + btf_sh->sh_offset, btf_sh->sh_size, &base,
			path);
	if (err)
		return err;
	sym_sh = find_sec(elf, len, ".symtab", NULL);
	if (!sym_sh || sym_sh->sh_link >= eh->e_shnum)
		return fail(path, "no symbol table");
	sh = (const void *)(elf + eh->e_shoff);
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < sym_sh->sh_size / sizeof(Elf64_Sym); i++) {
			const Elf64_Sym *s =
				(const Elf64_Sym *)(elf + sym_sh->sh_offset) +
				i;
			const char *nm;

			if (s->st_shndx != ids_idx ||
			    s->st_name >= sh[sym_sh->sh_link].sh_size)
				continue;
			nm = (const char *)elf + sh[sym_sh->sh_link].sh_offset +
			     s->st_name;
			if (strncmp(nm, ID_PREFIX, strlen(ID_PREFIX)))
				continue;
			err = patch_sym(&mod, nm, elf + ids_sh->sh_offset,
					ids_sh->sh_size,
					s->st_value - ids_sh->sh_addr,
					s->st_size, pass);
			if (err)
				return err;
		}
	}
	/* only the section's bytes change: write them in place */
	fd = open(path, O_WRONLY);
	if (fd < 0 || pwrite(fd, elf + ids_sh->sh_offset, ids_sh->sh_size,
			     ids_sh->sh_offset) != (ssize_t)ids_sh->sh_size) {
		err = -errno;
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
	}
	if (fd >= 0 && close(fd) && !err)
		err = -errno;
	return err;
}

int main(int argc, char **argv)
{
	const char *base = NULL, *file = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-b") && i + 1 < argc)
			base = argv[++i];
		else if (!strcmp(argv[i], "-v") ||
			 !strcmp(argv[i], "--verbose"))
			continue;
		else if (argv[i][0] != '-' && !file)
			file = argv[i];
		else
			return fail(argv[i], "usage: btfids -b BASE_BTF FILE"),
			       2;
	}
	if (!base || !file)
		return fail("arguments", "usage: btfids -b BASE_BTF FILE"), 2;
	return resolve(base, file) ? 1 : 0;
}
