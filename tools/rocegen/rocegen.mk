# SPDX-License-Identifier: GPL-2.0
# rocegen: RoCEv2 traffic generator + NIC-like responder (tools/rocegen).
# Links $(LIBROCEDP), from which it takes icrc.o, frame.o, util.o and
# nlrecv.o: the ICRC code the rocedp binary uses, the frame builder the
# tests use, the one error line (rd_verr) and netlink read from the kernel
# only.

ROCEGEN := $(OUT)/rocegen
ROCEGEN_SRCS := $(wildcard tools/rocegen/*.c)
ROCEGEN_HDRS := $(wildcard tools/rocegen/*.h) userspace/lib/wire/icrc.h \
	userspace/lib/wire/frame.h userspace/lib/util/util.h userspace/lib/sync/nlrecv.h
ICRC_SO := $(OUT)/librd_icrc.so
FORMAT_EXTRA += $(wildcard tools/rocegen/*.c tools/rocegen/*.h)

.PHONY: rocegen rocegen-test icrc-test

all: $(ROCEGEN)
rocegen: $(ROCEGEN)

$(ROCEGEN): $(ROCEGEN_SRCS) $(ROCEGEN_HDRS) $(LIBROCEDP) | $(OUT)
	$(CC) $(CFLAGS) -Itools/rocegen $(ROCEGEN_SRCS) $(LIBROCEDP) -o $@ -lm

# The ICRC library as a shared object, for tests/icrc_scapy.py (ctypes).
$(ICRC_SO): userspace/lib/wire/icrc.c userspace/lib/wire/icrc.h | $(OUT)
	$(CC) $(CFLAGS) -fPIC -shared $< -o $@

icrc-test: $(ICRC_SO)
	$(PY) tests/icrc_scapy.py $(ICRC_SO)

rocegen-test: $(ROCEGEN) icrc-test
	selftests/rocegen_basic.sh $(ROCEGEN)
