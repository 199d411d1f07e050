// SPDX-License-Identifier: GPL-2.0
/* BTH opcode names and the CTS rules' opcode domain. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rocedp.h"
#include "opcode.h"

/* IBTA vol 1 table 38: low five bits of the opcode, per transport */
static const char *const op_names[0x18] = {
	[0x00] = "send_first",
	[0x01] = "send_middle",
	[0x02] = "send_last",
	[0x03] = "send_last_imm",
	[0x04] = "send_only",
	[0x05] = "send_only_imm",
	[0x06] = "rdma_write_first",
	[0x07] = "rdma_write_middle",
	[0x08] = "rdma_write_last",
	[0x09] = "rdma_write_last_imm",
	[0x0a] = "rdma_write_only",
	[0x0b] = "rdma_write_only_imm",
	[0x0c] = "rdma_read_request",
	[0x0d] = "rdma_read_response_first",
	[0x0e] = "rdma_read_response_middle",
	[0x0f] = "rdma_read_response_last",
	[0x10] = "rdma_read_response_only",
	[0x11] = "acknowledge",
	[0x12] = "atomic_acknowledge",
	[0x13] = "compare_swap",
	[0x14] = "fetch_add",
	[0x16] = "send_last_inv",
	[0x17] = "send_only_inv",
};

/* name prefix per transport (op >> 5); RC has none, RD is not named */
static const char *const
	tr_prefix[8] = { [0] = "", [1] = "uc_", [3] = "ud_", [5] = "xrc_" };

/* Which low-bit opcodes each transport defines (RC, UC, UD, XRC). */
static bool op_valid(unsigned int op)
{
	unsigned int low = op & 0x1f;

	switch (op >> 5) {
	case 0: /* RC */
	case 5: /* XRC: RC's function codes */
		return low < 0x18 && op_names[low];
	case 1: /* UC */
		return low <= 0x0b;
	case 3: /* UD */
		return low == 0x04 || low == 0x05;
	}
	return false;
}

int rd_op_from_name(const char *s)
{
	unsigned int base = 0, i;
	size_t n;

	if (!strcmp(s, "cnp"))
		return ROCEDP_OP_CNP;
	if (!strncmp(s, "rc_", 3)) {
		s += 3;
	} else {
		for (i = 1; i < ARRAY_LEN(tr_prefix); i++) {
			n = tr_prefix[i] ? strlen(tr_prefix[i]) : 0;
			if (n && !strncmp(s, tr_prefix[i], n)) {
				base = i << 5;
				s += n;
				break;
			}
		}
	}
	for (i = 0; i < ARRAY_LEN(op_names); i++)
		if (op_names[i] && !strcmp(op_names[i], s) &&
		    op_valid(base | i))
			return base | i;
	return -EINVAL;
}

const char *rd_op_name(unsigned int op, char *buf, size_t len)
{
	if (op == ROCEDP_OP_CNP)
		return "cnp";
	if (op > 0xff || !op_valid(op))
		return NULL;
	snprintf(buf, len, "%s%s", tr_prefix[op >> 5], op_names[op & 0x1f]);
	return buf;
}

bool rd_op_cts_matchable(unsigned int op)
{
	return op <= 0xff && rocedp_opcode_is_data(op);
}
