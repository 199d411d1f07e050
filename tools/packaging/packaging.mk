# SPDX-License-Identifier: GPL-2.0
# make install (PREFIX, DESTDIR) and make deb
VERSION := $(shell sed -n 's/^\#define ROCEDP_VERSION "\(.*\)"/\1/p' userspace/lib/rocedp.h)
SBINDIR = $(PREFIX)/sbin
.PHONY: install deb

install: all
	install -d -m 0755 $(DESTDIR)$(SBINDIR) $(DESTDIR)$(PREFIX)/lib/rocedp \
		$(DESTDIR)$(PREFIX)/share/man/man8 $(DESTDIR)/lib/systemd/system \
		$(DESTDIR)$(PREFIX)/share/doc/rocedp/examples \
		$(DESTDIR)$(PREFIX)/src/rocedp-ecn-$(VERSION) \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 0755 $(ROCEDP) $(DESTDIR)$(SBINDIR)/rocedp
	install -m 0644 $(BPF_OBJS) $(DESTDIR)$(PREFIX)/lib/rocedp/
	install -m 0644 docs/rocedp.8 $(DESTDIR)$(PREFIX)/share/man/man8/rocedp.8
	install -m 0644 tools/completion/rocedp.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/rocedp
	sed 's|@SBINDIR@|$(SBINDIR)|' tools/packaging/rocedp-sync.service \
		> $(DESTDIR)/lib/systemd/system/rocedp-sync.service
	chmod 0644 $(DESTDIR)/lib/systemd/system/rocedp-sync.service
	install -m 0644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/rocedp/
	-install -m 0644 docs/examples/*.json $(DESTDIR)$(PREFIX)/share/doc/rocedp/examples/
	install -m 0644 kernel/rocedp_ecn.c kernel/Kbuild bpf/rocedp_abi.h \
		$(DESTDIR)$(PREFIX)/src/rocedp-ecn-$(VERSION)/
	sed 's|@VERSION@|$(VERSION)|' tools/packaging/dkms.conf \
		> $(DESTDIR)$(PREFIX)/src/rocedp-ecn-$(VERSION)/dkms.conf

deb: all
	tools/packaging/mkdeb.sh $(OUT) $(VERSION)
