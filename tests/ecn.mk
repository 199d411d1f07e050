# SPDX-License-Identifier: GPL-2.0
# RED marking test with a held queue estimate (issue: ECN marking).
$(OUT)/tests/ecn_test: tests/ecn_test.c $(LIBROCEDP) \
		$(USER_HDRS) tests/tap.h $(ABI_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(LIBROCEDP) -o $@ $(LDLIBS)

test-progs: $(OUT)/tests/ecn_test

FORMAT_EXTRA += tests/ecn_test.c
