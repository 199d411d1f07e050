// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp replay: every frame of a capture through the real XDP program
 * (BPF_PROG_TEST_RUN), with the capture's timestamps as the dataplane's
 * clock, so flowlet gaps replay exactly. Forwarded frames also pass the
 * egress (ECN) pipeline of their port, as they would through the devmap.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "commands.h"
#include "engine.h"
#include "config.h"
#include "config_txn.h"
#include "names.h"
#include "config_parse.h"
#include "portl2.h"
#include "pcap.h"
#include "safefile.h"

struct replay_opts {
	const char *in;
	const char *out;
	const char *verdicts;
	const char *config;
	enum rd_hook hook;
	unsigned int ifindex;
	bool summary;
};

static void print_verdict(FILE *f, unsigned long n, const struct rd_run *r)
{
	const struct rocedp_trace *t = &r->trace;
	const char *reason = t->malformed ? rd_malformed_name(t->malformed) :
					    rd_pass_name(t->pass_reason);

	fprintf(f,
		"{\"frame\":%lu,\"verdict\":\"%s\",\"class\":\"%s\","
		"\"reason\":\"%s\",",
		n, rd_verdict_name(r->verdict), rd_class_name(t->cls), reason);
	if (r->verdict == ROCEDP_VERDICT_REDIRECT)
		fprintf(f, "\"egress\":%u,\"member\":%u,\"group\":%u,",
			t->egress_ifindex, t->member, t->group_id);
	else
		fprintf(f, "\"egress\":null,\"member\":null,\"group\":null,");
	fprintf(f,
		"\"dscp_in\":%u,\"dscp_out\":%u,\"ecn_in\":%u,\"ecn_out\":%u,"
		"\"len\":%u",
		t->dscp_in, t->dscp_out, t->ecn_in, t->ecn_out, r->in_len);
	if (t->is_roce)
		fprintf(f,
			",\"opcode\":%u,\"dest_qp\":%u,\"psn\":%u,"
			"\"ack_req\":%u,\"aeth\":\"%s\",\"aeth_code\":%u",
			t->bth_opcode, t->dest_qp, t->psn, t->ack_req,
			rd_aeth_name(t->aeth_kind), t->aeth_code);
	if (t->cts_rule != 0xff)
		fprintf(f, ",\"cts_rule\":%u", t->cts_rule);
	if (t->vlan_tags)
		fprintf(f, ",\"vlan_tags\":%u", t->vlan_tags);
	fprintf(f, ",\"hash\":%u}\n", t->hash);
}

static int parse_args(const struct cli_call *c, struct replay_opts *o)
{
	const char *hook = cli_val(c, "hook"),
		   *ifx = cli_val(c, "ingress-ifindex");
	char *end;

	memset(o, 0, sizeof(*o));
	o->in = cli_val(c, "in");
	o->out = cli_val(c, "out");
	o->verdicts = cli_val(c, "verdicts");
	o->config = cli_val(c, "config");
	o->summary = cli_set(c, "summary");
	if (hook && !strcmp(hook, "xdp"))
		o->hook = RD_HOOK_XDP;
	else if (hook && !strcmp(hook, "tc"))
		o->hook = RD_HOOK_TC;
	else if (hook)
		return cli_usage_err(c, "--hook: '%s' is not xdp or tc", hook);
	if (ifx) {
		errno = 0;
		o->ifindex = strtoul(ifx, &end, 0);
		if (errno || *end || !*ifx)
			return cli_usage_err(
				c, "--ingress-ifindex: '%s' is not a number",
				ifx);
	}
	return 0;
}

struct replay_totals {
	unsigned long frames;
	unsigned long cls[ROCEDP_CLASS_MAX];
	unsigned long verdict[ROCEDP_VERDICT_MAX];
	unsigned long remarked;
	unsigned long ce_marked;
};

static void print_summary(FILE *f, const struct replay_totals *t)
{
	unsigned int i;

	if (rd_json) {
		fprintf(f, "{\"frames\":%lu,\"classes\":{", t->frames);
		for (i = 0; i < ROCEDP_CLASS_MAX; i++)
			fprintf(f, "%s\"%s\":%lu", i ? "," : "",
				rd_class_name(i), t->cls[i]);
		fprintf(f, "},\"verdicts\":{");
		for (i = 0; i < ROCEDP_VERDICT_MAX; i++)
			fprintf(f, "%s\"%s\":%lu", i ? "," : "",
				rd_verdict_name(i), t->verdict[i]);
		fprintf(f, "},\"remarked\":%lu,\"ce_marked\":%lu}\n",
			t->remarked, t->ce_marked);
		return;
	}
	fprintf(f, "%-12s %8s\n", "class", "frames");
	for (i = 0; i < ROCEDP_CLASS_MAX; i++)
		fprintf(f, "%-12s %8lu\n", rd_class_name(i), t->cls[i]);
	fprintf(f, "%-12s %8lu\n", "total", t->frames);
	for (i = 0; i < ROCEDP_VERDICT_MAX; i++)
		if (t->verdict[i])
			fprintf(f, "verdict %-8s %lu\n", rd_verdict_name(i),
				t->verdict[i]);
	fprintf(f, "remarked %lu, ce-marked %lu\n", t->remarked, t->ce_marked);
}

/*
 * An output that is an input would be emptied before it is read (a 282 kB
 * capture once became 3 kB). Compared by device and inode, so another name,
 * a symlink or a hard link for the same file is caught too; only regular
 * files count (--out /dev/null --verdicts /dev/null is fine).
 */
static int same_file(const char *what, const char *out, const char *iwhat,
		     const char *in)
{
	struct stat a, b;

	if (!out || !in || !strcmp(out, "-") || !strcmp(in, "-") ||
	    stat(out, &a) || stat(in, &b) || !S_ISREG(a.st_mode) ||
	    a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		return 0;
	rd_err("replay",
	       "%s %s is the same file as %s %s: refusing to overwrite it",
	       what, out, iwhat, in);
	return 1;
}

static int outputs_distinct(const struct replay_opts *o)
{
	struct stat st;

	if (same_file("--out", o->out, "--in", o->in) ||
	    same_file("--verdicts", o->verdicts, "--in", o->in) ||
	    same_file("--out", o->out, "--config", o->config) ||
	    same_file("--verdicts", o->verdicts, "--config", o->config) ||
	    same_file("--verdicts", o->verdicts, "--out", o->out))
		return 0;
	/* one new file named twice: one output would silently win */
	if (o->out && o->verdicts && !strcmp(o->out, o->verdicts) &&
	    stat(o->out, &st) && errno == ENOENT) {
		rd_err("replay", "--out and --verdicts are both %s", o->out);
		return 0;
	}
	return 1;
}

int cmd_replay(const struct cli_call *c)
{
	static struct rd_pcap_rec rec;
	static uint8_t out[RD_PCAP_MAX_FRAME + 256];
	struct rd_engine_opts eo = { .trace = true,
				     .map_clock = true,
				     .bind_cpu = true };
	struct replay_totals tot = {};
	struct rd_pcap in, pout = {};
	struct rd_engine *e = NULL;
	struct rd_safefile vsf = { .dir_fd = -1 };
	struct replay_opts o;
	struct rd_run r, eg;
	FILE *vf = NULL;
	int err, ret = 1;

	if (parse_args(c, &o))
		return 2;
	if (!outputs_distinct(&o))
		return 2;
	err = rd_pcap_open_read(&in, o.in);
	if (err) {
		rd_err("replay", "%s: %s", o.in,
		       err == -EPROTO ? "not an Ethernet pcap file" :
					strerror(-err));
		return 1;
	}
	if (o.config) {
		/* the config's ports are modelled: any ifindex */
		err = rd_config_check_file_host(o.config, rd_host_modelled());
		if (err)
			goto out; /* the checker named the problem */
	}
	err = rd_engine_open(&e, &eo);
	if (err) {
		rd_err("replay", "loading the BPF programs: %s",
		       strerror(-err));
		goto out;
	}
	if (o.config && rd_config_apply_file(o.config, rd_engine_maps(e)))
		goto out;
	/* the ports' MACs, so frames for other hosts pass as they do live */
	err = rd_port_l2_learn(rd_engine_maps(e));
	if (err < 0) {
		rd_err("replay", "the ports' MACs from the config: %s",
		       strerror(-err));
		goto out;
	}
	if (o.out) {
		err = rd_pcap_open_write(&pout, o.out);
		if (err) {
			rd_err("replay", "%s: %s", o.out,
			       rd_safefile_strerror(err));
			goto out;
		}
	}
	if (o.verdicts && !strcmp(o.verdicts, "-")) {
		vf = stdout;
	} else if (o.verdicts) {
		/* like --out: a temp file renamed over it at the end */
		err = rd_safefile_open(&vsf, o.verdicts, 0644);
		if (err) {
			rd_err("replay", "%s: %s", o.verdicts,
			       rd_safefile_strerror(err));
			goto out;
		}
		vf = vsf.f;
	}
	for (;;) {
		err = rd_pcap_read(&in, &rec);
		if (err == 0)
			break;
		if (err < 0) {
			rd_err("replay",
			       "%s: frame %lu: truncated or corrupt record",
			       o.in, tot.frames + 1);
			goto out;
		}
		tot.frames++;
		if (rec.caplen < 14) {
			/* The kernel's test run refuses frames shorter than
			 * Ethernet (no NIC delivers them either); the parser
			 * would call them trunc_eth and pass them on. */
			memset(&r, 0, sizeof(r));
			r.in_len = rec.caplen;
			r.out_len = rec.caplen;
			memcpy(out, rec.data, rec.caplen);
			r.verdict = ROCEDP_VERDICT_PASS;
			r.trace.cls = ROCEDP_CLASS_MALFORMED;
			r.trace.malformed = ROCEDP_MAL_TRUNC_ETH;
			r.trace.cts_rule = 0xff;
			goto write;
		}
		rd_engine_set_time(e, rec.ts_ns);
		memset(&r, 0, sizeof(r));
		r.in = rec.data;
		r.in_len = rec.caplen;
		r.out = out;
		r.out_size = sizeof(out);
		r.ingress_ifindex = o.ifindex;
		err = rd_engine_run(e, o.hook, &r);
		if (err == -EINVAL && o.hook == RD_HOOK_TC &&
		    rec.caplen > 2048) {
			/* BPF_PROG_TEST_RUN builds an skb of one page at most */
			rd_err("replay",
			       "frame %lu: %u bytes: tc test runs take one page at most; replay jumbo frames with --hook xdp",
			       tot.frames, rec.caplen);
			goto out;
		}
		if (err) {
			rd_err("replay", "frame %lu: test run failed: %s",
			       tot.frames, strerror(-err));
			goto out;
		}
		if (r.verdict == ROCEDP_VERDICT_REDIRECT &&
		    o.hook == RD_HOOK_XDP) {
			/* XDP decides ECN in the ingress program */
			if (r.trace.ecn_out == 3 && r.trace.ecn_in != 3)
				tot.ce_marked++;
		} else if (r.verdict == ROCEDP_VERDICT_REDIRECT) {
			/* tc: the egress port's tc program sees it next */
			memset(&eg, 0, sizeof(eg));
			eg.in = out;
			eg.in_len = r.out_len;
			eg.out = out;
			eg.out_size = sizeof(out);
			eg.ingress_ifindex = r.trace.egress_ifindex;
			err = rd_engine_run(e, RD_HOOK_XDP_EGRESS, &eg);
			if (err) {
				rd_err("replay",
				       "frame %lu: egress test run failed: %s",
				       tot.frames, strerror(-err));
				goto out;
			}
			r.out_len = eg.out_len;
			r.trace.ecn_out = eg.trace.ecn_out;
			if (eg.trace.ecn_out == 3 && eg.trace.ecn_in != 3)
				tot.ce_marked++;
		}
write:
		if (pout.f && r.verdict != ROCEDP_VERDICT_DROP &&
		    r.verdict != ROCEDP_VERDICT_ABORTED &&
		    rd_pcap_write(&pout, rec.ts_ns, out, r.out_len)) {
			rd_err("replay", "%s: write failed", o.out);
			goto out;
		}
		tot.cls[r.trace.cls % ROCEDP_CLASS_MAX]++;
		tot.verdict[r.verdict % ROCEDP_VERDICT_MAX]++;
		if (r.trace.dscp_in != r.trace.dscp_out)
			tot.remarked++;
		if (vf)
			print_verdict(vf, tot.frames, &r);
	}
	/* the per-class table, unless stdout carries the verdicts */
	if (o.summary || vf != stdout)
		print_summary(vf == stdout ? stderr : stdout, &tot);
	ret = 0;
out:
	/* the outputs replace their files only after a whole replay; after a
	 * failure no partial file is left and the old ones are untouched */
	if (vf && vf != stdout && ret == 0) {
		err = rd_safefile_commit(&vsf);
		if (err) {
			rd_err("replay", "%s: write failed: %s", o.verdicts,
			       strerror(-err));
			ret = 1;
		}
	}
	if (vf && vf != stdout && ret)
		rd_safefile_abort(&vsf);
	if (pout.f && ret == 0) {
		err = rd_pcap_close(&pout);
		if (err) {
			rd_err("replay", "%s: write failed: %s", o.out,
			       strerror(-err));
			ret = 1;
		}
	}
	if (pout.f)
		rd_pcap_discard(&pout);
	rd_pcap_close(&in);
	rd_engine_close(e);
	return ret;
}
