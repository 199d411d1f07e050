# SPDX-License-Identifier: GPL-2.0
# Test programs (into $(OUT)/tests) and `make test`.
#
# The test programs link the userspace library, $(LIBROCEDP) (userspace/lib;
# the CLI in userspace/cli is not in it); rd_err() comes from util.o. `make test` installs what is
# missing, builds everything, then runs tests/run.sh, whose last line is
# "N passed, M failed".

TEST_OUT := $(OUT)/tests
TEST_LIB_OBJS = $(LIBROCEDP)
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

$(TEST_OUT)/fixtures: tests/fixture_runner.c $(TEST_LIB_OBJS) $(USER_HDRS) \
		tests/tap.h $(ABI_HDRS) | $(TEST_OUT)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(TEST_LIB_OBJS) -o $@ $(LDLIBS)

$(TEST_OUT)/hash_uniformity: tests/hash_uniformity.c $(TEST_LIB_OBJS) \
		$(USER_HDRS) tests/tap.h $(ABI_HDRS) | $(TEST_OUT)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(TEST_LIB_OBJS) -o $@ $(LDLIBS)

$(TEST_OUT)/unit_group: tests/unit_group.c $(TEST_LIB_OBJS) $(USER_HDRS) \
		tests/tap.h $(ABI_HDRS) | $(TEST_OUT)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(TEST_LIB_OBJS) -o $@ $(LDLIBS)

# the shared frame builder (userspace/lib/frame.c): known answers and a grid
FORMAT_EXTRA += tests/frame_test.c
test-progs: $(TEST_OUT)/frame_test
$(TEST_OUT)/frame_test: tests/frame_test.c $(TEST_LIB_OBJS) $(USER_HDRS) \
		tests/tap.h $(ABI_HDRS) | $(TEST_OUT)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(TEST_LIB_OBJS) -o $@ $(LDLIBS)

# the escapes of outside names for terminal, JSON and Prometheus
FORMAT_EXTRA += tests/escape_test.c
test-progs: $(TEST_OUT)/escape_test
$(TEST_OUT)/escape_test: tests/escape_test.c $(TEST_LIB_OBJS) $(USER_HDRS) \
		tests/tap.h | $(TEST_OUT)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(TEST_LIB_OBJS) -o $@ $(LDLIBS)

# The test build's CLI, $(OUT)/rocedp-faults: the shipped objects with the
# files that hold fault hooks (#ifdef ROCEDP_FAULTS) built again with them
# on. $(OUT)/rocedp, which `make install` and the .deb ship, has none: a
# test hook is not a knob in production's environment (docs/faults.md).
FAULT_SRCS := $(shell grep -lw ROCEDP_FAULTS $(USER_SRCS))
FAULT_OBJS := $(patsubst %.c,$(OUT)/user-faults/%.o,$(notdir $(FAULT_SRCS)))
ROCEDP_FAULTS_BIN := $(OUT)/rocedp-faults
test-progs: $(ROCEDP_FAULTS_BIN)

$(OUT)/user-faults:
	@mkdir -p $@

$(OUT)/user-faults/%.o: userspace/lib/%.c $(USER_HDRS) $(SKELS) \
		$(ABI_HDRS) | $(OUT)/user-faults
	$(CC) $(CFLAGS) -DROCEDP_FAULTS $(PKG_CFLAGS) -c $< -o $@

$(OUT)/user-faults/%.o: userspace/cli/%.c $(USER_HDRS) $(SKELS) \
		$(ABI_HDRS) | $(OUT)/user-faults
	$(CC) $(CFLAGS) -DROCEDP_FAULTS $(PKG_CFLAGS) -c $< -o $@

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

FORMAT_EXTRA += tests/fixture_runner.c tests/hash_uniformity.c

# Per-QP telemetry: PSN rules, attribution, waits, per-port counts
FORMAT_EXTRA += tests/telemetry_test.c
test-progs: $(TEST_OUT)/telemetry_test
$(TEST_OUT)/telemetry_test: tests/telemetry_test.c $(TEST_LIB_OBJS) \
		$(USER_HDRS) tests/tap.h $(ABI_HDRS) | $(TEST_OUT)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(TEST_LIB_OBJS) -o $@ $(LDLIBS)

# RTT pairing, Karn and expiry, and the flowlet claim (tests/rtt_test.c);
# they share the flowlet tests' harness
FORMAT_EXTRA += tests/rtt_test.c tests/flowlet_harness.h
test-progs: $(TEST_OUT)/rtt_test
$(OUT)/tests/flowlet_test: tests/flowlet_harness.h
$(TEST_OUT)/rtt_test: tests/rtt_test.c tests/flowlet_harness.h \
		$(TEST_LIB_OBJS) $(USER_HDRS) tests/tap.h \
		$(ABI_HDRS) | $(TEST_OUT)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(TEST_LIB_OBJS) \
		-o $@ $(LDLIBS) -lpthread

# the pin directory checks (userspace/lib/pindir.c) on a plain tree
FORMAT_EXTRA += tests/pindir_test.c
test-progs: $(TEST_OUT)/pindir_test
$(TEST_OUT)/pindir_test: tests/pindir_test.c $(TEST_LIB_OBJS) $(USER_HDRS) \
		tests/tap.h $(ABI_HDRS) | $(TEST_OUT)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(TEST_LIB_OBJS) -o $@ $(LDLIBS)
