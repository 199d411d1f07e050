// SPDX-License-Identifier: GPL-2.0
/*
 * kfunc_probe: load kfunc_probe.bpf.o and read ECN thresholds through the
 * rocedp_ecn kfunc from both a tc and an XDP program (BPF_PROG_TEST_RUN).
 *
 *   kfunc_probe [-f auto|on|off] load
 *       load only; prints whether the kfunc path is compiled in
 *   kfunc_probe [-f auto|on|off] read PROFILE
 *       prints "PROFILE KMIN KMAX PMAX" (or "PROFILE none" when the kfunc
 *       returned 0: no such profile, or the kfunc path is off)
 *   kfunc_probe [-f auto|on|off] race PROFILE REPEAT
 *       reads PROFILE REPEAT times in one BPF_PROG_TEST_RUN (run it while
 *       something rewrites the thresholds) and prints
 *       "snapshots N changes C torn T"; exits 1 if any snapshot was torn
 *
 * -f auto (default) turns the kfunc path on iff the module's BTF is present
 * (/sys/kernel/btf/rocedp_ecn), the way the rocedp loader decides.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "rocedp_abi.h"
#include "kfunc_probe.skel.h"

static int silent_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_WARN || getenv("KFUNC_PROBE_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

static int run(int prog_fd, const char *what, int repeat)
{
	unsigned char pkt[64] = { [12] = 0x08, [13] = 0x00 }; /* IPv4 */
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt,
		    .data_size_in = sizeof(pkt), .repeat = repeat);
	int err = bpf_prog_test_run_opts(prog_fd, &opts);

	if (err) {
		fprintf(stderr, "kfunc_probe: %s: test_run: %s\n", what,
			strerror(-err));
		return err;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *flag = "auto";
	struct kfunc_probe *skel;
	bool use_kfunc;
	int opt, err;

	while ((opt = getopt(argc, argv, "f:")) != -1) {
		if (opt != 'f')
			goto usage;
		flag = optarg;
	}
	if (optind >= argc)
		goto usage;

	if (!strcmp(flag, "auto"))
		use_kfunc = access("/sys/kernel/btf/rocedp_ecn", F_OK) == 0;
	else if (!strcmp(flag, "on") || !strcmp(flag, "off"))
		use_kfunc = !strcmp(flag, "on");
	else
		goto usage;

	libbpf_set_print(silent_print);
	skel = kfunc_probe__open();
	if (!skel) {
		fprintf(stderr, "kfunc_probe: open: %s\n", strerror(errno));
		return 1;
	}
	skel->rodata->use_kfunc = use_kfunc;
	err = kfunc_probe__load(skel);
	if (err) {
		fprintf(stderr, "kfunc_probe: load (kfunc %s): %s\n",
			use_kfunc ? "on" : "off", strerror(-err));
		goto out;
	}

	if (!strcmp(argv[optind], "load") && optind + 1 == argc) {
		printf("kfunc_probe: loaded, kfunc %s\n",
		       use_kfunc ? "on" : "off");
	} else if (!strcmp(argv[optind], "read") && optind + 2 == argc) {
		__u64 tc, xdp;

		skel->bss->probe_profile = strtoul(argv[optind + 1], NULL, 0);
		err = run(bpf_program__fd(skel->progs.kfunc_probe_tc), "tc", 1);
		if (!err)
			err = run(bpf_program__fd(skel->progs.kfunc_probe_xdp),
				  "xdp", 1);
		if (err)
			goto out;
		tc = skel->bss->tc_result;
		xdp = skel->bss->xdp_result;
		if (skel->bss->tc_runs != 1 || skel->bss->xdp_runs != 1 ||
		    tc != xdp) {
			fprintf(stderr,
				"kfunc_probe: tc (%u runs, %#llx) and xdp (%u runs, %#llx) disagree\n",
				skel->bss->tc_runs, (unsigned long long)tc,
				skel->bss->xdp_runs, (unsigned long long)xdp);
			err = -EIO;
			goto out;
		}
		if (!ROCEDP_ECN_VALID(tc))
			printf("%u none\n", skel->bss->probe_profile);
		else
			printf("%u %u %u %u\n", skel->bss->probe_profile,
			       ROCEDP_ECN_KMIN(tc), ROCEDP_ECN_KMAX(tc),
			       ROCEDP_ECN_PMAX(tc));
	} else if (!strcmp(argv[optind], "race") && optind + 3 == argc) {
		skel->bss->probe_profile = strtoul(argv[optind + 1], NULL, 0);
		err = run(bpf_program__fd(skel->progs.kfunc_probe_race), "race",
			  atoi(argv[optind + 2]));
		if (err)
			goto out;
		printf("snapshots %llu changes %llu torn %llu\n",
		       (unsigned long long)skel->bss->snapshots,
		       (unsigned long long)skel->bss->changes,
		       (unsigned long long)skel->bss->torn_snapshots);
		if (skel->bss->torn_snapshots || !skel->bss->snapshots)
			err = -EIO;
	} else {
		kfunc_probe__destroy(skel);
		goto usage;
	}
out:
	kfunc_probe__destroy(skel);
	return err ? 1 : 0;
usage:
	fprintf(stderr,
		"usage: kfunc_probe [-f auto|on|off] load | read PROFILE | race PROFILE REPEAT\n");
	return 2;
}
