# SPDX-License-Identifier: GPL-2.0
# Fuzzing (docs/fuzz.md): two libFuzzer harnesses that link the userspace
# engine, built here with clang and ASan+UBSan into $(OUT)/fuzz.
# fuzz_dataplane drives the real BPF programs with BPF_PROG_TEST_RUN;
# fuzz_config drives config documents through the loader onto the maps.
#
#   make fuzz-short   bounded: FUZZ_RUNS (1M) frames, then FUZZ_CFG_RUNS
#                     (100k) config documents (fuzz_config), each from a
#                     fresh corpus, a TAP line each; as in `make test`
#   make fuzz         long: FUZZ_SECONDS (600), then a fifth of it for the
#                     config fuzzer; corpora kept in $(OUT)/fuzz/corpus*

FUZZ_OUT := $(OUT)/fuzz
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 600
FUZZ_RUNS ?= 1000000
FUZZ_SEED ?= 1 # fuzz-short: fixed, so `make test` is repeatable
FUZZ_LONG_SEED ?= 0 # fuzz: 0 = a new random seed per run
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -O1 -g -fno-omit-frame-pointer $(WARN) -std=gnu11 \
	-D_GNU_SOURCE -Ibpf -I$(OUT) $(LIB_INC) $(FUZZ_SAN) \
	-DROCEDP_FAULTS # fuzz_config fails map writes on purpose
# the library (userspace/lib), as $(LIBROCEDP) has it, in its own archive
FUZZ_LIB_SRCS := $(LIB_SRCS)
FUZZ_LIB_OBJS := $(patsubst userspace/lib/%.c,$(FUZZ_OUT)/obj/%.o,$(FUZZ_LIB_SRCS))
FUZZ_LIB := $(FUZZ_OUT)/librocedp.a
FUZZ_BIN := $(FUZZ_OUT)/fuzz_dataplane
FUZZ_SEEDS := $(FUZZ_OUT)/seeds
FUZZ_CFG_BIN := $(FUZZ_OUT)/fuzz_config
FUZZ_CFG_SEEDS := $(FUZZ_OUT)/config-seeds
FUZZ_CFG_RUNS ?= 100000
FUZZ_FIB_BIN := $(FUZZ_OUT)/fuzz_fib
FUZZ_FIB_SEEDS := $(FUZZ_OUT)/fib-seeds
FUZZ_FIB_RUNS ?= 20000
FUZZ_NL_BIN := $(FUZZ_OUT)/fuzz_nl
FUZZ_NL_SEEDS := $(FUZZ_OUT)/nl-seeds
FUZZ_NL_RUNS ?= 30000
# the same inputs sent to a running `rocedp sync` (nl_socket.sh)
FUZZ_NL_SEND_RUNS ?= 20000
FORMAT_EXTRA += tests/harness/fuzz/fuzz_dataplane.c tests/harness/fuzz/fuzz_config.c \
	tests/harness/fuzz/fuzz_common.h tests/harness/fuzz/fuzz_probe.h \
	tests/harness/fuzz/fuzz_fib.c tests/harness/fuzz/fuzz_nl.c

.PHONY: fuzz fuzz-short fuzz-build fuzz-bins fuzz-seeds

# the harnesses alone (no root needed; make test builds them)
fuzz-bins: $(FUZZ_BIN) $(FUZZ_CFG_BIN) $(FUZZ_FIB_BIN) $(FUZZ_NL_BIN)

fuzz-build: fuzz-bins $(FUZZ_SEEDS)/.stamp $(FUZZ_CFG_SEEDS)/.stamp \
	$(FUZZ_FIB_SEEDS)/.stamp $(FUZZ_NL_SEEDS)/.stamp

$(FUZZ_OUT)/obj:
	@mkdir -p $@

# The engine's objects again, instrumented: a memory error in the loader or
# config code shows up here too, not only in the harness. nonnull-attribute
# is off for them: config.c passes qsort(NULL, 0, ...) for empty tables
# (harmless with glibc, reported to the owner), which would stop every run.
FUZZ_LIB_SAN := -fno-sanitize=nonnull-attribute
$(FUZZ_OUT)/obj/%.o: userspace/lib/%.c | $(SKELS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_LIB_SAN) $(PKG_CFLAGS) $(DEPFLAGS) -c $< -o $@

# the linker takes from it only the modules a -cov.o does not replace
$(FUZZ_LIB): $(FUZZ_LIB_OBJS)
	rm -f $@ && $(AR) rcs $@ $^

# A harness: its source, the engine's instrumented library and, for all
# but the dataplane harness, the userspace files it drives built again
# with coverage in place of their plain objects (libFuzzer's feedback; the
# dataplane harness gets its feedback from the programs' outcomes,
# docs/fuzz.md).
# $(SKELS) named in an explicit rule: not an intermediate make would delete.
#   $(call fuzz_harness,BIN,SRC,COVERED-FILES)
define fuzz_harness
$(1): $(2) tests/harness/fuzz/fuzz_common.h tests/harness/fuzz/fuzz_probe.h \
		$(patsubst %,$(FUZZ_OUT)/obj/%-cov.o,$(3)) $(FUZZ_LIB) \
		$(SKELS) $(USER_HDRS) $(ABI_HDRS)
	$$(FUZZ_CC) $$(FUZZ_CFLAGS) -fsanitize=fuzzer $$(PKG_CFLAGS) $$< \
		$$(filter %.o,$$^) $(FUZZ_LIB) -o $$@ $$(PKG_LIBS) -lm
endef

#   $(call fuzz_cov,FILE,EXTRA-FLAGS): userspace/lib/FILE.c with coverage
define fuzz_cov
$(FUZZ_OUT)/obj/$(1)-cov.o: userspace/lib/$(1).c | $(SKELS)
	@mkdir -p $$(@D)
	$$(FUZZ_CC) $$(FUZZ_CFLAGS) $$(FUZZ_LIB_SAN) -fsanitize=fuzzer-no-link \
		$(2) $$(PKG_CFLAGS) $$(DEPFLAGS) -c $$< -o $$@
endef

$(eval $(call fuzz_harness,$(FUZZ_BIN),tests/harness/fuzz/fuzz_dataplane.c,))

# the config fuzzer: the parser's and the loader's branches (docs/design.md
# has the config modules)
FUZZ_CFG_COV := $(addprefix config/,config config_json config_parse config_read \
	config_static config_txn)
$(foreach f,$(FUZZ_CFG_COV),$(eval $(call fuzz_cov,$(f),)))
$(eval $(call fuzz_harness,$(FUZZ_CFG_BIN),tests/harness/fuzz/fuzz_config.c,\
	$(FUZZ_CFG_COV)))

# the route-sync fuzzer: the FIB model. No comparison tracing: its loops
# over every group id would take most of the time, and the inputs are
# operation codes, not values to match.
# All the FIB model's modules (docs/design.md, FIB model modules).
FUZZ_FIB_COV := $(addprefix fib/,group group_tab group_hops group_commit)
$(foreach f,$(FUZZ_FIB_COV),$(eval $(call fuzz_cov,$(f),\
	-fno-sanitize-coverage=trace-cmp)))
$(eval $(call fuzz_harness,$(FUZZ_FIB_BIN),tests/harness/fuzz/fuzz_fib.c,\
	$(FUZZ_FIB_COV)))

# the netlink fuzzer: the daemon's message handling. No comparison
# tracing: a resync walks 65536 route buckets, which it would slow
# fivefold; the seeds already carry real attributes.
# All the sync modules that handle messages (docs/design.md, Sync modules).
FUZZ_NL_COV := $(addprefix sync/,sync sync_view sync_route sync_msg sync_commit sync_state)
$(foreach f,$(FUZZ_NL_COV),$(eval $(call fuzz_cov,$(f),\
	-fno-sanitize-coverage=trace-cmp)))
$(eval $(call fuzz_harness,$(FUZZ_NL_BIN),tests/harness/fuzz/fuzz_nl.c,\
	$(FUZZ_NL_COV)))

# real dumps of a scratch namespace (root, ip: tests/harness/fuzz/nl_seeds.py)
$(FUZZ_NL_SEEDS)/.stamp: tests/harness/fuzz/nl_seeds.py
	rm -rf $(FUZZ_NL_SEEDS)
	$(PY) tests/harness/fuzz/nl_seeds.py $(FUZZ_NL_SEEDS)
	@touch $@

# operation sequences (tests/harness/fuzz/fib_seeds.py)
$(FUZZ_FIB_SEEDS)/.stamp: tests/harness/fuzz/fib_seeds.py
	rm -rf $(FUZZ_FIB_SEEDS)
	$(PY) tests/harness/fuzz/fib_seeds.py $(FUZZ_FIB_SEEDS)
	@touch $@

# the shipped example configs, their ports made offline (ifindex numbers)
$(FUZZ_CFG_SEEDS)/.stamp: tests/harness/fuzz/config_seeds.py tests/harness/fuzz/fuzz.json \
		$(wildcard docs/examples/*.json tools/demo/*.json)
	rm -rf $(FUZZ_CFG_SEEDS)
	$(PY) tests/harness/fuzz/config_seeds.py $(FUZZ_CFG_SEEDS) tests/harness/fuzz/fuzz.json \
		$(wildcard docs/examples/*.json tools/demo/*.json)
	@touch $@

$(FUZZ_SEEDS)/.stamp: tests/harness/fuzz/seeds.py $(wildcard tests/fixtures/*.fix)
	rm -rf $(FUZZ_SEEDS)
	$(PY) tests/harness/fuzz/seeds.py $(FUZZ_SEEDS)
	@touch $@

fuzz-seeds: $(FUZZ_SEEDS)/.stamp

fuzz-short: fuzz-build $(ROCEDP)
	OUT=$(OUT) tests/harness/fuzz/run.sh -n $(FUZZ_RUNS) -s $(FUZZ_SEED)
	OUT=$(OUT) tests/harness/fuzz/run.sh -C -n $(FUZZ_CFG_RUNS) -s $(FUZZ_SEED)
	OUT=$(OUT) tests/harness/fuzz/run.sh -F -n $(FUZZ_FIB_RUNS) -s $(FUZZ_SEED)
	OUT=$(OUT) tests/harness/fuzz/run.sh -N -n $(FUZZ_NL_RUNS) -s $(FUZZ_SEED)
	OUT=$(OUT) tests/harness/fuzz/nl_socket.sh -n $(FUZZ_NL_SEND_RUNS) -s $(FUZZ_SEED)

# the config fuzzer gets a fifth of the time: its space is smaller; then
# group rewrites racing the dataplane (tests/group_race): RACE_FRAMES
# frames, at most FUZZ_SECONDS, misforwarded per 100M (goal 0)
RACE_FRAMES ?= 100000000
fuzz: fuzz-build $(OUT)/tests/group_race $(ROCEDP)
	OUT=$(OUT) tests/harness/fuzz/run.sh -t $(FUZZ_SECONDS) -s $(FUZZ_LONG_SEED) -k
	OUT=$(OUT) tests/harness/fuzz/run.sh -C -t $$(( $(FUZZ_SECONDS) / 5 + 1 )) \
		-s $(FUZZ_LONG_SEED) -k
	OUT=$(OUT) tests/harness/fuzz/run.sh -F -t $$(( $(FUZZ_SECONDS) / 5 + 1 )) \
		-s $(FUZZ_LONG_SEED) -k
	OUT=$(OUT) tests/harness/fuzz/run.sh -N -t $$(( $(FUZZ_SECONDS) / 5 + 1 )) \
		-s $(FUZZ_LONG_SEED) -k
	OUT=$(OUT) tests/harness/fuzz/nl_socket.sh -t $$(( $(FUZZ_SECONDS) / 10 + 1 )) \
		-s $(FUZZ_LONG_SEED)
	$(OUT)/tests/group_race -q -n $(RACE_FRAMES) -s $(FUZZ_SECONDS)
