# SPDX-License-Identifier: GPL-2.0
# Load-balance evaluator (build/lbeval) and the flowlet tests
# (build/tests/flowlet_test). Both link the userspace library
# $(LIBROCEDP) (rd_err() comes from util.o).

LBEVAL := $(OUT)/lbeval
LBEVAL_LIB_OBJS = $(LIBROCEDP)
LBEVAL_HDRS := $(USER_HDRS) $(ABI_HDRS)
FORMAT_EXTRA += tests/harness/lbeval/lbeval.c tests/flowlet_test.c \
	tests/harness/lbeval/pcapin.c tests/harness/lbeval/pcapin.h \
	tests/harness/lbeval/report.c tests/harness/lbeval/lbeval.h

.PHONY: lbeval lbeval-standard

FLOWLET_TEST := $(if $(wildcard tests/flowlet_test.c),$(OUT)/tests/flowlet_test)

# built by `make` (and so by `make test`, which runs build/tests/*), by
# the test-program rule in tests/tests.mk
all: $(LBEVAL) $(FLOWLET_TEST)

lbeval: $(LBEVAL)

# pcapin.c: the trace input (--pcap), frames captured on a live fabric
$(LBEVAL): tests/harness/lbeval/lbeval.c tests/harness/lbeval/pcapin.c tests/harness/lbeval/report.c \
		tests/harness/lbeval/pcapin.h tests/harness/lbeval/lbeval.h \
		$(LBEVAL_LIB_OBJS) $(LBEVAL_HDRS) | $(OUT)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -Itests/harness/lbeval $(filter %.c,$^) $(LBEVAL_LIB_OBJS) \
		-o $@ $(LDLIBS)

# The standard trace; `make bench` (owned elsewhere) may call this.
lbeval-standard: $(LBEVAL)
	$(LBEVAL) --standard --png $(OUT)/lbeval-standard.png
