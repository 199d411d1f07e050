/* SPDX-License-Identifier: GPL-2.0 */
/* BTH opcode names (IBTA vol 1 table 38) and what CTS rules can match. */
#ifndef ROCEDP_OPCODE_H
#define ROCEDP_OPCODE_H

#include <stdbool.h>
#include <stddef.h>

/* "send_only", "uc_send_only", "xrc_send_only", "cnp" -> opcode; -EINVAL */
int rd_op_from_name(const char *s);
/* The name of op into buf ("uc_send_only"), or NULL when it has none. */
const char *rd_op_name(unsigned int op, char *buf, size_t len);
/*
 * Can a CTS rule match op? The classifier checks rules on data opcodes
 * only (rocedp_opcode_is_data() in bpf/rocedp_abi.h); every other opcode has a
 * class of its own (ack, nak, cnp) or none.
 */
bool rd_op_cts_matchable(unsigned int op);

#endif
