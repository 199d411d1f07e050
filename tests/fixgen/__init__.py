# SPDX-License-Identifier: GPL-2.0
"""The fixture generator's modules (entry point: tests/gen_fixtures.py).
Each star-imports the one before it: frames -> hashmodel -> blocks ->
gen_classes -> gen_fwd -> gen_corners, so every generator sees the model
as one namespace, as when it was one file."""
