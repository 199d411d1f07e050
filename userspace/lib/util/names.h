/* SPDX-License-Identifier: GPL-2.0 */
/* Names of the ABI's enums, for output and for parsing arguments. */
#ifndef ROCEDP_NAMES_H
#define ROCEDP_NAMES_H

const char *rd_class_name(unsigned int cls);
const char *rd_malformed_name(unsigned int r);
const char *rd_pass_name(unsigned int r);
const char *rd_verdict_name(unsigned int v);
const char *rd_aeth_name(unsigned int k);
const char *rd_qp_nak_name(unsigned int k);
const char *rd_hash_mode_name(unsigned int m);
/* Reverse look-ups: -EINVAL for an unknown name. */
int rd_class_from_name(const char *s);
int rd_hash_mode_from_name(const char *s);

#endif
