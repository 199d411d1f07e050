// SPDX-License-Identifier: GPL-2.0
/* lbeval's trace input: see pcapin.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "pcap.h"
#include "pcapin.h"
#include "rocedp.h"

struct lb_raw_tmp {
	struct lb_raw r;
	uint64_t seq; /* file index, then order in the file: a stable sort */
};

static int raw_cmp(const void *a, const void *b)
{
	const struct lb_raw_tmp *x = a, *y = b;

	if (x->r.t_ns != y->r.t_ns)
		return x->r.t_ns < y->r.t_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int load_one(const char *path, unsigned int file, struct lb_raw_tmp **v,
		    size_t *n, size_t *cap)
{
	struct rd_pcap p = {};
	struct rd_pcap_rec *rec;
	struct lb_raw_tmp *nv;
	size_t in_file = 0;
	int err;

	rec = malloc(sizeof(*rec));
	if (!rec)
		return -ENOMEM;
	err = rd_pcap_open_read(&p, path);
	if (err) {
		rd_err(path, "%s",
		       err == -EPROTO ? "not an Ethernet pcap file (pcapng? "
					"capture with dumpcap -P)" :
					strerror(-err));
		free(rec);
		return err;
	}
	while ((err = rd_pcap_read(&p, rec)) == 1) {
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 65536;
			nv = realloc(*v, *cap * sizeof(**v));
			if (!nv) {
				err = -ENOMEM;
				break;
			}
			*v = nv;
		}
		nv = &(*v)[(*n)++];
		memset(nv, 0, sizeof(*nv));
		nv->r.t_ns = rec->ts_ns;
		nv->r.len = rec->origlen > rec->caplen ? rec->origlen :
							 rec->caplen;
		nv->r.caplen = rec->caplen < LB_RAW_HDR ? rec->caplen :
							  LB_RAW_HDR;
		memcpy(nv->r.hdr, rec->data, nv->r.caplen);
		nv->seq = (uint64_t)file << 40 | in_file++;
	}
	if (err == -EPROTO)
		rd_err(path, "truncated or corrupt record after %zu frames",
		       in_file);
	rd_pcap_close(&p);
	free(rec);
	return err;
}

int lb_pcap_load(const char *const *paths, unsigned int n, struct lb_raw **out,
		 size_t *n_out, uint64_t *bytes)
{
	struct lb_raw_tmp *v = NULL;
	size_t nv = 0, cap = 0, i;
	struct lb_raw *r;
	unsigned int f;
	int err = 0;

	for (f = 0; f < n && !err; f++)
		err = load_one(paths[f], f, &v, &nv, &cap);
	if (err == -ENOMEM)
		rd_err(paths[f - 1], "%s", strerror(ENOMEM));
	if (err || !nv) {
		free(v);
		return err;
	}
	qsort(v, nv, sizeof(*v), raw_cmp);
	r = malloc(nv * sizeof(*r));
	if (!r) {
		rd_err("--pcap", "%s", strerror(ENOMEM));
		free(v);
		return -ENOMEM;
	}
	*bytes = 0;
	for (i = 0; i < nv; i++) {
		r[i] = v[i].r;
		r[i].t_ns -= v[0].r.t_ns;
		*bytes += r[i].len;
	}
	free(v);
	*out = r;
	*n_out = nv;
	return 0;
}
