# SPDX-License-Identifier: GPL-2.0
.PHONY: demo
demo: deps
	$(MAKE) all
	tools/demo/demo.sh
