# SPDX-License-Identifier: GPL-2.0
# Soft-RoCE guests in the lab (tools/lab/rdma.sh, docs/lab.md "Real RDMA"):
#   make test-rdma    perftest write/read/send through a 2-leaf fabric with
#                     rocedp, the checks of selftests/rdma.sh (also part of
#                     `make test`, as the selftest suite "rdma")
#   make rdma-image   build (or find) the cached guest image
.PHONY: test-rdma rdma-image

test-rdma: $(ROCEDP) $(OUT)/rocegen
	tools/install-deps.sh kernel
	OUT=$(OUT) ROCEDP_SELFTESTS=1 SUITES=selftest:rdma tests/run.sh

rdma-image:
	tools/lab/rdma.sh image $(OUT)
