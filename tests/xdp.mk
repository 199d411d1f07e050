# SPDX-License-Identifier: GPL-2.0
# Helper programs of the XDP coexistence and VLAN offload tests
# (selftests/xdp_coexist.sh, selftests/xdp_vlan.sh, tests/kernel).
XDP_TEST_OBJS := $(OUT)/xdp_foreign.bpf.o $(OUT)/vlan_push.bpf.o
FORMAT_EXTRA += tests/xdp/foreign.bpf.c tests/xdp/vlan_push.bpf.c
all: $(XDP_TEST_OBJS)

$(OUT)/xdp_foreign.bpf.o: tests/xdp/foreign.bpf.c | $(OUT)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUT)/vlan_push.bpf.o: tests/xdp/vlan_push.bpf.c | $(OUT)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@
