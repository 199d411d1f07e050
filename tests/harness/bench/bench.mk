# SPDX-License-Identifier: GPL-2.0
# `make bench`: per-packet cost, veth-fabric throughput against the
# kernel's forwarding, route sync timing, map memory, and the load-balance
# evaluator when it exists (docs/bench.md). Output in $(OUT)/bench.

BENCH_OUT := $(OUT)/bench
BENCH := $(BENCH_OUT)/rdbench
BENCH_BPF := $(BENCH_OUT)/empty.bpf.o $(BENCH_OUT)/pktgen.bpf.o
BENCH_SKELS := $(BENCH_BPF:.bpf.o=.skel.h)
BENCH_LIB_OBJS = $(LIBROCEDP)
# rdbench: rdbench.c (helpers, dispatch) and one file per command group
RDBENCH_SRCS := $(wildcard tests/harness/bench/rdbench*.c)
RDBENCH_HDRS := $(wildcard tests/harness/bench/rdbench*.h)
FORMAT_EXTRA += $(RDBENCH_SRCS) $(RDBENCH_HDRS) \
	$(wildcard tests/harness/bench/*.bpf.c) tests/harness/bench/bench_abi.h \
	tests/harness/bench/opcount.h

.PHONY: bench bench-progs
.SECONDARY: $(BENCH_BPF)

$(BENCH_OUT):
	@mkdir -p $@

$(BENCH_OUT)/%.bpf.o: tests/harness/bench/%.bpf.c tests/harness/bench/bench_abi.h \
		$(ABI_HDRS) | $(BENCH_OUT)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BENCH_OUT)/%.skel.h: $(BENCH_OUT)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $* > $@.tmp && mv $@.tmp $@

# the counting copies (opcount.h: operations per frame), never timed
BENCH_OPC := $(BENCH_OUT)/rocedp_opc.bpf.o $(BENCH_OUT)/empty_opc.bpf.o
BENCH_SKELS += $(BENCH_OPC:.bpf.o=.skel.h)
.SECONDARY: $(BENCH_OPC)
$(BENCH_OUT)/rocedp_opc.bpf.o: bpf/rocedp.bpf.c $(BPF_HDRS) tests/harness/bench/opcount.h \
		| $(BENCH_OUT)
	$(CLANG) $(BPF_CFLAGS) -include tests/harness/bench/opcount.h -c $< -o $@
$(BENCH_OUT)/empty_opc.bpf.o: tests/harness/bench/empty.bpf.c tests/harness/bench/bench_abi.h \
		tests/harness/bench/opcount.h $(ABI_HDRS) | $(BENCH_OUT)
	$(CLANG) $(BPF_CFLAGS) -include tests/harness/bench/opcount.h -c $< -o $@

$(BENCH): $(RDBENCH_SRCS) $(RDBENCH_HDRS) $(BENCH_SKELS) $(BENCH_LIB_OBJS) \
		$(USER_HDRS) $(ABI_HDRS) tests/harness/bench/bench_abi.h | $(BENCH_OUT)
	$(CC) $(CFLAGS) -I$(BENCH_OUT) -Itests/harness/bench $(PKG_CFLAGS) \
		$(RDBENCH_SRCS) $(BENCH_LIB_OBJS) -o $@ $(LDLIBS)

# healthy flows moved by a member going down and back (section resil)
$(BENCH_OUT)/resil: tests/harness/bench/resil.c $(BENCH_LIB_OBJS) $(USER_HDRS) \
		$(ABI_HDRS) | $(BENCH_OUT)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(BENCH_LIB_OBJS) -o $@ $(LDLIBS)
FORMAT_EXTRA += tests/harness/bench/resil.c

# the evaluator belongs to tests/harness/lbeval; built here when it exists.
# The failover section's traffic comes from rocegen (tools/rocegen).
bench-progs: $(ROCEDP) $(BENCH) $(BENCH_OUT)/resil $(OUT)/rocegen \
	$(OUT)/tests/fwdcache_race \
	$(if $(wildcard tests/harness/lbeval/lbeval.mk),$(OUT)/lbeval)

# BENCH_JSON=1 (or BENCH_ARGS=-j) also prints the JSON document.
bench: deps
	$(MAKE) --no-print-directory bench-progs
	OUT=$(OUT) PY=$(PY) tests/harness/bench/bench.sh $(if $(BENCH_JSON),-j) $(BENCH_ARGS)
	@# the decision cache under a racing writer at full length (make test
	@# runs 2M frames): quiet but for failures, which fail the bench
	$(OUT)/tests/fwdcache_race -q -n 10000000 2>/dev/null
