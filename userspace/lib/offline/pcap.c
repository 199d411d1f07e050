// SPDX-License-Identifier: GPL-2.0
/*
 * The classic pcap format is small enough that a reader with exact error
 * reporting (which record is cut, and where) is shorter than adapting
 * libpcap's, whose errors do not say that.
 */
#include <errno.h>
#include <string.h>
#include "pcap.h"

#define PCAP_MAGIC_US 0xa1b2c3d4
#define PCAP_MAGIC_NS 0xa1b23c4d
#define LINKTYPE_ETHERNET 1

struct pcap_file_hdr {
	uint32_t magic;
	uint16_t major;
	uint16_t minor;
	int32_t thiszone;
	uint32_t sigfigs;
	uint32_t snaplen;
	uint32_t linktype;
};

struct pcap_rec_hdr {
	uint32_t ts_sec;
	uint32_t ts_frac;
	uint32_t caplen;
	uint32_t origlen;
};

static uint32_t sw32(const struct rd_pcap *p, uint32_t v)
{
	return p->swapped ? __builtin_bswap32(v) : v;
}

int rd_pcap_open_read(struct rd_pcap *p, const char *path)
{
	struct pcap_file_hdr h;

	memset(p, 0, sizeof(*p));
	p->path = path;
	p->f = fopen(path, "rb");
	if (!p->f)
		return -errno;
	if (fread(&h, sizeof(h), 1, p->f) != 1)
		goto bad;
	switch (h.magic) {
	case PCAP_MAGIC_US:
		break;
	case PCAP_MAGIC_NS:
		p->nsec = 1;
		break;
	case __builtin_bswap32(PCAP_MAGIC_US):
		p->swapped = 1;
		break;
	case __builtin_bswap32(PCAP_MAGIC_NS):
		p->swapped = p->nsec = 1;
		break;
	default:
		goto bad;
	}
	if (sw32(p, h.linktype) != LINKTYPE_ETHERNET)
		goto bad;
	p->snaplen = sw32(p, h.snaplen);
	return 0;
bad:
	fclose(p->f);
	p->f = NULL;
	return -EPROTO;
}

int rd_pcap_read(struct rd_pcap *p, struct rd_pcap_rec *r)
{
	struct pcap_rec_hdr h;
	size_t n;

	n = fread(&h, 1, sizeof(h), p->f);
	if (n == 0 && feof(p->f))
		return 0;
	if (n != sizeof(h))
		return -EPROTO;
	r->caplen = sw32(p, h.caplen);
	r->origlen = sw32(p, h.origlen);
	if (r->caplen > RD_PCAP_MAX_FRAME)
		return -EPROTO;
	r->ts_ns = (uint64_t)sw32(p, h.ts_sec) * 1000000000ull +
		   (uint64_t)sw32(p, h.ts_frac) * (p->nsec ? 1 : 1000);
	if (fread(r->data, 1, r->caplen, p->f) != r->caplen)
		return -EPROTO;
	return 1;
}

int rd_pcap_open_write(struct rd_pcap *p, const char *path)
{
	struct pcap_file_hdr h = {
		.magic = PCAP_MAGIC_NS,
		.major = 2,
		.minor = 4,
		.snaplen = RD_PCAP_MAX_FRAME,
		.linktype = LINKTYPE_ETHERNET,
	};
	int err;

	memset(p, 0, sizeof(*p));
	p->path = path;
	p->nsec = 1;
	err = rd_safefile_open(&p->out, path, 0644);
	if (err)
		return err;
	p->f = p->out.f;
	p->writing = 1;
	if (fwrite(&h, sizeof(h), 1, p->f) != 1) {
		rd_pcap_discard(p);
		return -EIO;
	}
	return 0;
}

int rd_pcap_write(struct rd_pcap *p, uint64_t ts_ns, const void *data,
		  uint32_t len)
{
	struct pcap_rec_hdr h = {
		.ts_sec = ts_ns / 1000000000ull,
		.ts_frac = ts_ns % 1000000000ull,
		.caplen = len,
		.origlen = len,
	};

	if (fwrite(&h, sizeof(h), 1, p->f) != 1 ||
	    (len && fwrite(data, len, 1, p->f) != 1))
		return -EIO;
	return 0;
}

int rd_pcap_close(struct rd_pcap *p)
{
	int err = 0;

	if (p->writing && p->f)
		err = rd_safefile_commit(&p->out);
	else if (p->f && fclose(p->f))
		err = -errno;
	p->f = NULL;
	p->writing = 0;
	return err;
}

void rd_pcap_discard(struct rd_pcap *p)
{
	if (p->writing)
		rd_safefile_abort(&p->out);
	else if (p->f)
		fclose(p->f);
	p->f = NULL;
	p->writing = 0;
}
