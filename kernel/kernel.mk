# SPDX-License-Identifier: GPL-2.0
# rocedp_ecn kernel module and the Debian-kernel boot test.
#   make module       build $(OUT)/kernel/mod/rocedp_ecn.ko for the kernel of
#                     Debian's linux-headers-amd64 (with module BTF)
#   make test-kernel  boot that kernel under qemu TCG and test the module and
#                     every rocedp BPF program inside it (tests/kernel/)
# Downloads and tools are cached under $(OUT)/kernel (see kernel/prepare.sh).

# ROCEDP_KVER=RELEASE: build and boot another installed Debian headers/image
KMOD_CACHE := $(OUT)/kernel$(if $(ROCEDP_KVER),-$(ROCEDP_KVER))
KMOD_BUILD := $(KMOD_CACHE)/mod
KMOD := $(KMOD_BUILD)/rocedp_ecn.ko
KMOD_SRCS := kernel/rocedp_ecn.c kernel/Kbuild bpf/abi_ecn.h \
	kernel/btfids.c kernel/dkms-build.sh

# kfunc_probe: a tiny tc/XDP user of the kfunc and its loader, so the boot
# test checks the module end to end without the rocedp programs.
KPROBE_DIR := $(KMOD_CACHE)/probe
KPROBE := $(KPROBE_DIR)/kfunc_probe

.PHONY: module kernel-prep test-kernel

module: $(KMOD)

kernel-prep:
	@kernel/prepare.sh $(KMOD_CACHE)

# The module is built from a copy so that Kbuild's output stays in $(OUT),
# by the script DKMS runs on a switch (kernel/dkms-build.sh: our btfids, not
# the cache's resolve_btfids), so the boot test loads a module built the
# way the rocedp-dkms package builds it.
$(KMOD): $(KMOD_SRCS) kernel/prepare.sh kernel/check-btf.sh kernel/kernel.mk
	@kernel/prepare.sh $(KMOD_CACHE)
	@mkdir -p $(KMOD_BUILD)
	@cp -p $(KMOD_SRCS) $(KMOD_BUILD)/
	. $(KMOD_CACHE)/env.sh && cd $(KMOD_BUILD) && \
	ROCEDP_BTF_BASE=$$VMLINUX_BTF sh ./dkms-build.sh $$KVER \
		/usr/src/linux-headers-$$KVER
	@kernel/check-btf.sh $@ $(KMOD_CACHE)/env.sh || { rm -f $@; exit 1; }

$(KPROBE_DIR):
	@mkdir -p $@

$(KPROBE_DIR)/kfunc_probe.bpf.o: tests/kernel/kfunc_probe.bpf.c | $(KPROBE_DIR)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(KPROBE_DIR)/kfunc_probe.skel.h: $(KPROBE_DIR)/kfunc_probe.bpf.o
	$(BPFTOOL) gen skeleton $< name kfunc_probe > $@.tmp && mv $@.tmp $@

$(KPROBE): tests/kernel/kfunc_probe.c $(KPROBE_DIR)/kfunc_probe.skel.h $(ABI_HDRS)
	$(CC) $(CFLAGS) -I$(KPROBE_DIR) $< -o $@ -lbpf -lelf -lz

# rocedp itself and the fixture suite are booted along when they are built
# (the lead's `test` target builds them first); missing ones are SKIPs.
test-kernel: $(KMOD) $(KPROBE)
	@OUT=$(OUT) KTEST_CACHE=$(KMOD_CACHE) tests/kernel/run.sh

FORMAT_EXTRA += kernel/rocedp_ecn.c kernel/btfids.c tests/kernel/kfunc_probe.c \
	tests/kernel/kfunc_probe.bpf.c
