# SPDX-License-Identifier: GPL-2.0
# make demo: replay table, then the live fabric run (docs/demo.md);
# LAB_ARGS=--ipv6 runs the fabric part on IPv6
.PHONY: demo
demo: deps
	$(MAKE) all $(OUT)/rocegen
	OUT=$(abspath $(OUT)) ROCEDP=$(abspath $(ROCEDP)) ROCEGEN=$(abspath $(OUT)/rocegen) \
		LAB_ARGS="$(LAB_ARGS)" tools/demo/demo.sh
