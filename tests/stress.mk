# SPDX-License-Identifier: GPL-2.0
# Stress tests: group rewrites racing the dataplane
# (group_race), a full route trie (route_full); and the decision cache
# against the full path (fwdcache_test). run.sh runs every program in
# $(OUT)/tests.
STRESS_LIB_OBJS = $(LIBROCEDP)

$(OUT)/tests/group_race: tests/group_race.c $(STRESS_LIB_OBJS) \
		$(USER_HDRS) tests/tap.h $(ABI_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(STRESS_LIB_OBJS) \
		-o $@ $(LDLIBS) -lpthread

# the two without threads, built alike
STRESS_PLAIN := $(OUT)/tests/route_full $(OUT)/tests/fwdcache_test
$(STRESS_PLAIN): $(OUT)/tests/%: tests/%.c $(STRESS_LIB_OBJS) \
		$(USER_HDRS) tests/tap.h $(ABI_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(STRESS_LIB_OBJS) \
		-o $@ $(LDLIBS)

test-progs: $(OUT)/tests/group_race $(STRESS_PLAIN)

FORMAT_EXTRA += tests/group_race.c tests/route_full.c tests/fwdcache_test.c
