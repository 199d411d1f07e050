# SPDX-License-Identifier: GPL-2.0
# rocedp top-level build. Everything lands in $(OUT); nothing else is written
# inside the tree. Component makefiles (*.mk) add their own targets.

OUT ?= build
PREFIX ?= /usr/local
DESTDIR ?=
CLANG ?= clang
CC ?= cc
BPFTOOL ?= bpftool
PY ?= /usr/bin/python3

ARCH := $(shell uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/')
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)

# hiredis: rocedp sonic sync talks to SONiC's Redis databases; openssl: its
# TLS, which Debian 12's hiredis 0.14 lacks (docs/sonic.md)
PKGS := libbpf libxdp libmnl json-c hiredis openssl
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)

WARN := -Wall -Wextra -Wno-unused-parameter -Werror
CFLAGS ?= -O2 -g
# CFLAGS_EXTRA reaches both sides, so an overridden ROCEDP_MAX_* limit
# (docs/maps.md) sizes the maps and the userspace that reads them alike
# userspace/lib is one folder per subsystem (attach/, config/, fib/, ...);
# each is on the include path, so `#include "x.h"` names a module by its
# file alone (docs/design.md, Library and commands)
LIB_DIRS := $(sort $(dir $(wildcard userspace/lib/*/*.[ch])))
LIB_INC := -Iuserspace/lib $(patsubst %/,-I%,$(LIB_DIRS))
override CFLAGS += $(WARN) -std=gnu11 -D_GNU_SOURCE -Ibpf -I$(OUT) $(LIB_INC) \
	$(CFLAGS_EXTRA)
LDLIBS += $(PKG_LIBS) -lm

# BPF_EXTRA: flags for the BPF side only (the package's -ffile-prefix-map);
# CFLAGS, CPPFLAGS and LDFLAGS (hardening) are the host compiler's alone
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) $(WARN) -fno-strict-aliasing \
	-Wno-unused-function -I bpf -I /usr/include/$(MULTIARCH) $(CFLAGS_EXTRA) \
	$(BPF_EXTRA)

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_HDRS := $(wildcard bpf/*.h)
# the ABI shared with userspace and the module: rocedp_abi.h and its parts
ABI_HDRS := bpf/rocedp_abi.h $(wildcard bpf/abi_*.h)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(OUT)/%.bpf.o,$(BPF_SRCS))
SKELS := $(patsubst bpf/%.bpf.c,$(OUT)/%.skel.h,$(BPF_SRCS))

# userspace/lib: the library every program links ($(LIBROCEDP)), its
# objects in $(OUT)/user/<subsystem>/; userspace/cli: the rocedp command's
# entry point and its commands, in $(OUT)/user/.
LIB_SRCS := $(wildcard userspace/lib/*/*.c)
LIB_OBJS := $(patsubst userspace/lib/%.c,$(OUT)/user/%.o,$(LIB_SRCS))
CLI_SRCS := $(wildcard userspace/cli/*.c)
CLI_OBJS := $(patsubst userspace/cli/%.c,$(OUT)/user/%.o,$(CLI_SRCS))
USER_SRCS := $(LIB_SRCS) $(CLI_SRCS)
USER_OBJS := $(LIB_OBJS) $(CLI_OBJS)
USER_HDRS := $(wildcard userspace/lib/*.h userspace/lib/*/*.h)
CLI_HDRS := $(wildcard userspace/cli/*.h)
LIBROCEDP := $(OUT)/librocedp.a
ROCEDP := $(OUT)/rocedp

.PHONY: all deps check format man test demo bench fuzz install deb clean
# the BPF objects are installed and read by tools: keep them
.SECONDARY: $(BPF_OBJS)

all: $(ROCEDP) $(OUT)/rocedp.8

deps:
	@tools/install-deps.sh

$(OUT) $(OUT)/user:
	@mkdir -p $@

# Header dependencies: every compile writes a .d beside its output
# (-MMD), with an empty rule per header (-MP) so that a header removed is
# no error; they are read at the end of this file. An edit rebuilds only
# what includes the file. The skeletons are generated headers: order-only,
# as they must exist before the first compile, which has no .d yet.
DEPFLAGS := -MMD -MP

$(OUT)/%.bpf.o: bpf/%.bpf.c | $(OUT)
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(OUT)/%.skel.h: $(OUT)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $(subst -,_,$*) > $@.tmp && mv $@.tmp $@

$(OUT)/user/%.o: userspace/lib/%.c | $(SKELS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(OUT)/user/%.o: userspace/cli/%.c | $(SKELS) $(OUT)/user
	$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) $(DEPFLAGS) -c $< -o $@

# the library through clang's front end too (its warnings are not gcc's),
# as the fuzzers build it, without generating code: a stamp per source
CLANG_OKS := $(patsubst userspace/lib/%.c,$(OUT)/clang/%.ok,$(LIB_SRCS))
.PHONY: clang-check
clang-check: $(CLANG_OKS)

$(OUT)/clang/%.ok: userspace/lib/%.c | $(SKELS)
	@mkdir -p $(@D)
	$(CLANG) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -DROCEDP_FAULTS -fsyntax-only \
		-MMD -MP -MT $@ -MF $@.d $< && touch $@

# rebuilt whole (rm first): a module removed from lib/ leaves no stale member
$(LIBROCEDP): $(LIB_OBJS)
	rm -f $@ && $(AR) rcs $@ $^

# ncurses: `rocedp top` draws a full screen (cmd_top.c); only the CLI
# binaries link it (with the test build's rocedp-faults), never the
# library or the tools built on it
# libmicrohttpd: `rocedp exporter` serves /metrics (cmd_exporter.c), CLI only
CLI_LDLIBS := $(shell pkg-config --libs ncurses 2>/dev/null || echo -lncurses) \
	$(shell pkg-config --libs libmicrohttpd 2>/dev/null || echo -lmicrohttpd) -lpthread
$(ROCEDP) $(OUT)/rocedp-faults: LDLIBS += $(CLI_LDLIBS)

$(ROCEDP): $(CLI_OBJS) $(LIBROCEDP)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)

-include $(wildcard */*.mk tests/harness/*/*.mk)
-include $(wildcard $(OUT)/*.d $(OUT)/user/*.d $(OUT)/user-faults/*.d \
	$(OUT)/user/*/*.d $(OUT)/user-faults/*/*.d \
	$(OUT)/tests/*.d $(OUT)/fuzz/obj/*.d $(OUT)/fuzz/obj/*/*.d \
	$(OUT)/clang/*/*.d)

# An output without its .d (built before there were .d files, or the .d
# lost) does not know its headers: it is built again once, not trusted.
# (A dependency on the .d itself would not do: the .d is written after
# its output, so the output would always look stale.)
DEP_OUTS := $(BPF_OBJS) $(wildcard $(OUT)/user/*.o $(OUT)/user-faults/*.o \
	$(OUT)/fuzz/obj/*.o $(OUT)/user/*/*.o $(OUT)/user-faults/*/*.o \
	$(OUT)/fuzz/obj/*/*.o) \
	$(foreach t,$(filter-out %.d,$(wildcard $(OUT)/tests/*)),\
		$(if $(wildcard tests/$(notdir $(t)).c),$(t))) \
	$(if $(wildcard $(OUT)/tests/fixtures),$(OUT)/tests/fixtures)
NO_DEP_OUTS := $(foreach o,$(DEP_OUTS),\
	$(if $(wildcard $(o)),$(if $(wildcard $(basename $(o)).d),,$(o)))) \
	$(foreach o,$(wildcard $(OUT)/clang/*/*.ok),$(if $(wildcard $(o).d),,$(o)))
.PHONY: FORCE
$(NO_DEP_OUTS): FORCE

FORMAT_SRCS = $(BPF_SRCS) $(BPF_HDRS) $(USER_SRCS) $(USER_HDRS) $(CLI_HDRS) \
	$(FORMAT_EXTRA)

format:
	clang-format -i $(FORMAT_SRCS)

# The installed rocedp.8: docs/rocedp.8 with its SYNOPSIS, OPTIONS and
# COMMANDS rebuilt from the binary's command table at build time, so the
# page installed always matches the binary installed
$(OUT)/rocedp.8: docs/rocedp.8 $(ROCEDP)
	$(ROCEDP) help --man docs/rocedp.8 >$@.new
	mv $@.new $@

# the same rebuilt into docs/rocedp.8 itself, to read in the tree
# (tests/cli_table.sh says when it is behind the table)
man: $(ROCEDP)
	$(ROCEDP) help --man docs/rocedp.8 >$(OUT)/rocedp.8.new
	mv $(OUT)/rocedp.8.new docs/rocedp.8

# The fast tier, the edit loop (`make test` is everything): in $(OUT)/check,
# both sides and the test programs built (-Wall -Werror; incrementally, as
# -MMD keeps the dependencies exact), the library through clang's front end
# (clang-check: its warnings; the fuzzers' instrumented build of the same
# files is `make test`'s), the formatting against .clang-format,
# then tests/run.sh's check tier: the fixtures, the unit programs, the CLI
# on files, the tree's rules and the fixtures regenerated (CHECK_SUITES in
# tests/run.sh). Root, as the BPF suites run programs. CHECK_JOBS: the
# builds' parallel jobs (default: one per CPU).
CHECK_JOBS ?= $(shell nproc)
check: deps
	$(MAKE) --no-print-directory -j$(CHECK_JOBS) OUT=$(OUT)/check all test-progs \
		clang-check
	clang-format --dry-run --Werror $(FORMAT_SRCS)
	@echo "check: builds and formatting OK"
	OUT=$(OUT)/check TIER=check tests/run.sh

clean:
	rm -rf $(OUT)
