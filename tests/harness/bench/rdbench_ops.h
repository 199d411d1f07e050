/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Operations per frame (rdbench_ops.c): counting copies of the timed
 * objects, run beside the cost section's timing (docs/bench.md).
 */
#ifndef RDBENCH_OPS_H
#define RDBENCH_OPS_H
#include <linux/types.h>

/* the kinds of opcount.h, in its order */
#define RD_OPC_N 6
extern const char *const rd_opc_names[RD_OPC_N];
#define RD_OPC_FRAME_LEN 130 /* the cost section's frames */

struct bpf_object;
struct rd_opc_set;
/* load both counting copies and copy the timed objects' maps into them */
struct rd_opc_set *rd_opc_open(struct bpf_object *rocedp,
			       struct bpf_object *empty);
/* a map of the counting rocedp, by name (its settings: rd_config) */
int rd_opc_map_fd(struct rd_opc_set *s, const char *map);
/* per_frame[RD_OPC_N]: each kind over n_frames x repeat rounds of prog */
int rd_opc_count(struct rd_opc_set *s, const char *prog,
		 __u8 (*frames)[RD_OPC_FRAME_LEN], unsigned int n_frames,
		 unsigned int repeat, unsigned int ifindex, double *per_frame);
/* "row":{"clock":x,...} */
void rd_opc_print(const char *row, const double *per_frame);
void rd_opc_close(struct rd_opc_set *s);

#endif
