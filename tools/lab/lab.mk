# SPDX-License-Identifier: GPL-2.0
# Lab fabric (docs/lab.md). LAB_ARGS passes options, e.g.
#   make lab-up LAB_ARGS="--mode tc --spines 2"
LAB_ARGS ?=

.PHONY: lab-up lab-down lab-status

lab-up: $(ROCEDP) $(OUT)/rocegen
	ROCEDP=$(abspath $(ROCEDP)) tools/lab/rocedp-lab up $(LAB_ARGS)

lab-down:
	ROCEDP=$(abspath $(ROCEDP)) tools/lab/rocedp-lab down $(LAB_ARGS)

lab-status:
	ROCEDP=$(abspath $(ROCEDP)) tools/lab/rocedp-lab status $(LAB_ARGS)

# the lab's fault injector (rocedp-lab inject, docs/lab.md): a tc program
LAB_INJECT := $(OUT)/lab_inject.bpf.o
FORMAT_EXTRA += tools/lab/inject.bpf.c
all: $(LAB_INJECT)

$(LAB_INJECT): tools/lab/inject.bpf.c | $(OUT)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@
