# SPDX-License-Identifier: GPL-2.0
# Each tool under tools/ brings its own makefile.
include $(wildcard tools/*/*.mk)
