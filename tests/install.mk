# SPDX-License-Identifier: GPL-2.0
# make test-install: the packages from `make deb` installed with apt on a
# Debian 12 guest (Debian's 6.1 kernel, systemd) under qemu TCG, rebooted,
# checked, purged (tests/install/run.sh, docs/install-test.md). Root.
# The guest image and the downloaded dependencies are cached under
# $(OUT)/install.
.PHONY: test-install

test-install: deb
	@OUT=$(OUT) DEB_DIR=$(DEB_DIR) tests/install/run.sh
