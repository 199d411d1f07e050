# SPDX-License-Identifier: GPL-2.0
# Test programs (into $(OUT)/tests) and `make test`.
#
# The test programs link the userspace library, $(LIBROCEDP) (userspace/lib;
# the CLI in userspace/cli is not in it); rd_err() comes from util.o. `make test` installs what is
# missing, builds everything, then runs tests/run.sh, whose last line is
# "N passed, M failed".

TEST_OUT := $(OUT)/tests
FORMAT_EXTRA += tests/tap.h
TEST_PROGS := $(TEST_OUT)/fixtures $(TEST_OUT)/hash_uniformity \
	$(TEST_OUT)/unit_group
# built by other components' makefiles when they exist
TEST_EXTRA := $(if $(wildcard tools/rocegen/rocegen.mk),\
	$(OUT)/rocegen $(OUT)/librd_icrc.so)

.PHONY: test-progs fixtures-gen

test-progs: $(TEST_PROGS)

$(TEST_OUT):
	@mkdir -p $@

# Every test program is tests/NAME.c linked with $(LIBROCEDP) into
# $(TEST_OUT)/NAME by this one rule (headers: -MMD, Makefile). A program
# joins with `test-progs: $(TEST_OUT)/NAME` beside its FORMAT_EXTRA line;
# one that needs more libraries sets TEST_LDLIBS for its target.
TEST_LINK = $(CC) $(CFLAGS) $(PKG_CFLAGS) $(DEPFLAGS) $< $(LIBROCEDP) \
	-o $@ $(LDLIBS) $(TEST_LDLIBS)

$(TEST_OUT)/%: tests/%.c $(LIBROCEDP) | $(SKELS) $(TEST_OUT)
	$(TEST_LINK)

$(TEST_OUT)/fixtures: tests/fixture_runner.c tests/fixture_ip4.h tests/fixture_probe.h tests/fixture_trim.h $(LIBROCEDP) | $(SKELS) $(TEST_OUT)
	$(TEST_LINK)

# the shared frame builder (userspace/lib/wire/frame.c): known answers and a grid
FORMAT_EXTRA += tests/frame_test.c
test-progs: $(TEST_OUT)/frame_test

# the escapes of outside names for terminal, JSON and Prometheus
FORMAT_EXTRA += tests/escape_test.c
test-progs: $(TEST_OUT)/escape_test

# The test build's CLI, $(OUT)/rocedp-faults: the shipped objects with the
# files that hold fault hooks (#ifdef ROCEDP_FAULTS) built again with them
# on. $(OUT)/rocedp, which `make install` and the .deb ship, has none: a
# test hook is not a knob in production's environment (docs/faults.md).
FAULT_SRCS := $(shell grep -lw ROCEDP_FAULTS $(USER_SRCS))
FAULT_OBJS := $(patsubst userspace/lib/%.c,$(OUT)/user-faults/%.o,\
	$(patsubst userspace/cli/%.c,$(OUT)/user-faults/%.o,$(FAULT_SRCS)))
ROCEDP_FAULTS_BIN := $(OUT)/rocedp-faults
test-progs: $(ROCEDP_FAULTS_BIN)

$(OUT)/user-faults:
	@mkdir -p $@

$(OUT)/user-faults/%.o: userspace/lib/%.c | $(SKELS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DROCEDP_FAULTS $(PKG_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(OUT)/user-faults/%.o: userspace/cli/%.c | $(SKELS) $(OUT)/user-faults
	$(CC) $(CFLAGS) -DROCEDP_FAULTS $(PKG_CFLAGS) $(DEPFLAGS) -c $< -o $@

# the faulty objects first: the linker then takes from $(LIBROCEDP) only
# the modules they do not replace
$(ROCEDP_FAULTS_BIN): $(FAULT_OBJS) $(filter-out \
		$(patsubst $(OUT)/user-faults/%,$(OUT)/user/%,$(FAULT_OBJS)),\
		$(CLI_OBJS)) $(LIBROCEDP)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# Regenerate the fixture files (the output is committed; review the diff).
fixtures-gen:
	$(PY) tests/gen_fixtures.py

test: deps
	tools/install-deps.sh kernel
	$(MAKE) all test-progs $(TEST_EXTRA) fuzz-build
	ROCEDP_SELFTESTS=1 ROCEDP_FUZZ=1 ROCEDP_KERNEL_TESTS=1 ROCEDP_INSTALL_TESTS=1 OUT=$(OUT) \
		tests/run.sh

FORMAT_EXTRA += tests/fixture_runner.c tests/fixture_ip4.h tests/fixture_probe.h \
	tests/fixture_trim.h tests/hash_uniformity.c

# Per-QP telemetry: PSN rules, attribution, waits, per-port counts
FORMAT_EXTRA += tests/telemetry_test.c
test-progs: $(TEST_OUT)/telemetry_test

# RTT pairing, Karn and expiry, and the flowlet claim (tests/rtt_test.c);
# they share the flowlet tests' harness
FORMAT_EXTRA += tests/rtt_test.c tests/flowlet_harness.h
test-progs: $(TEST_OUT)/rtt_test
$(TEST_OUT)/rtt_test: TEST_LDLIBS := -lpthread

# the engine leaves the caller's CPU affinity alone unless asked
FORMAT_EXTRA += tests/engine_test.c
test-progs: $(TEST_OUT)/engine_test

# the pin directory checks (userspace/lib/maps/pindir.c) on a plain tree
FORMAT_EXTRA += tests/pindir_test.c
test-progs: $(TEST_OUT)/pindir_test

# A table entry taken over between two steps of a frame: the flowlet way
# and the telemetry slot, the BPF headers compiled as C (tests/bpf_user.h)
FORMAT_EXTRA += tests/race_test.c tests/bpf_user.h
test-progs: $(TEST_OUT)/race_test
$(TEST_OUT)/race_test: CFLAGS += -Wno-unknown-pragmas

# attach's adoption of groups under the writers' lock
FORMAT_EXTRA += tests/attach_lock_test.c
test-progs: $(TEST_OUT)/attach_lock_test
$(TEST_OUT)/attach_lock_test: TEST_LDLIBS := -lpthread

# the RIB: selection among route sources against a brute force
FORMAT_EXTRA += tests/rib_test.c
test-progs: $(TEST_OUT)/rib_test

# config, sync and sonic sync writing routes together, against the RIB
FORMAT_EXTRA += tests/fib_mix_test.c
test-progs: $(TEST_OUT)/fib_mix_test

# attach and detach through the library alone, in a private netns
FORMAT_EXTRA += tests/attach_api_test.c
test-progs: $(TEST_OUT)/attach_api_test
