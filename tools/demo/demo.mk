# SPDX-License-Identifier: GPL-2.0
# make demo: replay table, then the live fabric run (docs/demo.md)
.PHONY: demo
demo: deps
	$(MAKE) all $(OUT)/rocegen
	OUT=$(abspath $(OUT)) ROCEDP=$(abspath $(ROCEDP)) ROCEGEN=$(abspath $(OUT)/rocegen) \
		tools/demo/demo.sh
