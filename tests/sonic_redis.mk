# SPDX-License-Identifier: GPL-2.0
# sonic_redis.c without a server: addresses and the config_db.json shape.
$(OUT)/tests/sonic_redis_test: tests/sonic_redis_test.c \
		$(LIBROCEDP) $(USER_HDRS) tests/tap.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $< $(LIBROCEDP) -o $@ $(LDLIBS)

test-progs: $(OUT)/tests/sonic_redis_test

FORMAT_EXTRA += tests/sonic_redis_test.c
