# SPDX-License-Identifier: GPL-2.0
# RED marking test with a held queue estimate.
# (built by the test-program rule in tests/tests.mk)
test-progs: $(OUT)/tests/ecn_test

FORMAT_EXTRA += tests/ecn_test.c
