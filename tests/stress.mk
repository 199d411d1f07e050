# SPDX-License-Identifier: GPL-2.0
# Stress tests of issue 17: group rewrites racing the dataplane
# (group_race), a full route trie (route_full). run.sh runs every program
# in $(OUT)/tests.
STRESS_LIB_OBJS = $(LIBROCEDP)

$(OUT)/tests/group_race: tests/group_race.c $(STRESS_LIB_OBJS) \
		$(USER_HDRS) tests/tap.h bpf/rocedp_abi.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(STRESS_LIB_OBJS) \
		-o $@ $(LDLIBS) -lpthread

$(OUT)/tests/route_full: tests/route_full.c $(STRESS_LIB_OBJS) \
		$(USER_HDRS) tests/tap.h bpf/rocedp_abi.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(STRESS_LIB_OBJS) \
		-o $@ $(LDLIBS)

test-progs: $(OUT)/tests/group_race $(OUT)/tests/route_full

FORMAT_EXTRA += tests/group_race.c tests/route_full.c

# the decision cache against the full path (bpf/fwdcache.h)
$(OUT)/tests/fwdcache_test: tests/fwdcache_test.c $(STRESS_LIB_OBJS) \
		$(USER_HDRS) tests/tap.h bpf/rocedp_abi.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(STRESS_LIB_OBJS) -o $@ $(LDLIBS)
test-progs: $(OUT)/tests/fwdcache_test
FORMAT_EXTRA += tests/fwdcache_test.c
