# SPDX-License-Identifier: GPL-2.0
# Stress tests: group rewrites racing the dataplane
# (group_race), a full route trie (route_full); and the decision cache
# against the full path (fwdcache_test), also under a racing writer
# (fwdcache_race). run.sh runs every program in $(OUT)/tests.
# (built by the test-program rule in tests/tests.mk)
$(OUT)/tests/group_race: TEST_LDLIBS := -lpthread
$(OUT)/tests/fwdcache_race: TEST_LDLIBS := -lpthread
STRESS_PLAIN := $(OUT)/tests/route_full $(OUT)/tests/fwdcache_test

test-progs: $(OUT)/tests/group_race $(OUT)/tests/fwdcache_race $(STRESS_PLAIN)

FORMAT_EXTRA += tests/group_race.c tests/route_full.c tests/fwdcache_test.c \
	tests/fwdcache_race.c
