# SPDX-License-Identifier: GPL-2.0
# sonic_redis.c without a server: addresses and the config_db.json shape.
# (built by the test-program rule in tests/tests.mk)
test-progs: $(OUT)/tests/sonic_redis_test

FORMAT_EXTRA += tests/sonic_redis_test.c
