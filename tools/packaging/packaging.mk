# SPDX-License-Identifier: GPL-2.0
# make install (PREFIX, DESTDIR) and make deb (docs/operate.md)
VERSION := $(shell sed -n 's/^\#define ROCEDP_VERSION "\(.*\)"/\1/p' userspace/lib/rocedp.h)
SBINDIR = $(PREFIX)/sbin
UNITDIR ?= /lib/systemd/system
UNITS := $(wildcard tools/packaging/*.service tools/packaging/*.timer)
MODSRC = $(DESTDIR)$(PREFIX)/src/rocedp-ecn-$(VERSION)
DEB_DIR := build/deb
DEB_ARCH = $(VERSION)_$(shell dpkg --print-architecture)
.PHONY: install deb

install: all $(OUT)/rocedp.8
	install -d -m 0755 $(DESTDIR)$(SBINDIR) $(DESTDIR)$(PREFIX)/lib/rocedp \
		$(DESTDIR)$(PREFIX)/share/man/man8 $(DESTDIR)$(UNITDIR) \
		$(DESTDIR)$(PREFIX)/share/doc/rocedp/examples $(MODSRC) \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 0755 $(ROCEDP) $(DESTDIR)$(SBINDIR)/rocedp
	install -m 0644 $(BPF_OBJS) $(DESTDIR)$(PREFIX)/lib/rocedp/
	install -m 0644 $(OUT)/rocedp.8 docs/rocegen.8 docs/rocedp-lab.8 \
		$(DESTDIR)$(PREFIX)/share/man/man8/
	install -m 0644 tools/completion/rocedp.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/rocedp
	for u in $(UNITS); do \
		sed -e 's|@SBINDIR@|$(SBINDIR)|g' \
			-e '/^@HARDENING@$$/{r tools/packaging/hardening.inc' -e 'd}' \
			$$u > $(DESTDIR)$(UNITDIR)/$${u##*/} && \
		chmod 0644 $(DESTDIR)$(UNITDIR)/$${u##*/} || exit 1; \
	done
	install -m 0644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/rocedp/
	install -m 0644 docs/examples/*.json $(DESTDIR)$(PREFIX)/share/doc/rocedp/examples/
	install -m 0644 kernel/rocedp_ecn.c kernel/Kbuild bpf/abi_ecn.h \
		kernel/btfids.c $(MODSRC)/
	install -m 0755 kernel/dkms-build.sh $(MODSRC)/
	sed 's|#MODULE_VERSION#|$(VERSION)|' tools/packaging/dkms.conf > $(MODSRC)/dkms.conf

# debian/ builds the packages (debhelper); they land in $(DEB_DIR). The
# .buildinfo and .changes go there too: nothing is written outside the tree.
deb:
	@tools/install-deps.sh base deb
	@mkdir -p $(DEB_DIR)
	rm -f $(DEB_DIR)/*.deb $(DEB_DIR)/*.ddeb $(DEB_DIR)/*.buildinfo $(DEB_DIR)/*.changes
	dpkg-buildpackage -b -us -uc -tc -Jauto \
		--buildinfo-option=-u$(DEB_DIR) --buildinfo-file=$(DEB_DIR)/rocedp_$(DEB_ARCH).buildinfo \
		--changes-option=-u$(DEB_DIR) --changes-file=$(DEB_DIR)/rocedp_$(DEB_ARCH).changes
	@ls $(DEB_DIR)/*.deb
