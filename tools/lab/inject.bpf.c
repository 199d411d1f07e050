// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * Lab fault injector (docs/lab.md, Injecting loss): a tc egress program on
 * every port of one spine that drops, holds back (reorders) or duplicates
 * every Nth eligible RoCEv2 request frame of each QP, and counts per QP
 * what it did. No netem here, so the faults are made in BPF:
 *
 * - drop: TC_ACT_SHOT.
 * - dup: bpf_clone_redirect() of the frame to its own egress port; the
 *   clone leaves at once, the original right behind it, so the copy is
 *   the very next frame of the QP on that link.
 * - delay: every frame on the port (not only requests) is redirected to
 *   a veth that a small AF_PACKET relay reads (tools/lab/delay.py); it
 *   sends each frame back out of the port `every` microseconds later,
 *   marked so it passes: a fixed extra latency on one link. (No netem
 *   and no fq qdisc in this kernel, and tc can not hold a frame.)
 * - reorder: the frame's bytes go to a stash (one frame per slot of 8,
 *   by QP) and the frame is dropped; the QP's next frame on the port is
 *   cloned out first, then rewritten into the held frame and sent: the
 *   two leave swapped. XDP can do neither (it can not emit two frames or
 *   hold one); tc egress can.
 *
 * Eligible: IPv4 UDP/4791 RC requests that are not the last frame of a
 * message (SEND/WRITE FIRST and MIDDLE) unless cfg.any, so the QP always
 * sends another frame right behind: every injected event is seen by the
 * receiver and by rocedp as exactly one gap, rewind or duplicate.
 *
 * And new: a frame whose PSN is behind one past the highest this injector
 * let through for the QP is a go-back-N retransmission, which everything
 * after the spine has seen once. Holding or dropping one makes no gap there
 * (docs/telemetry.md, PSN rules), so retransmissions are left alone and
 * counted in `replayed`. A held frame's successor can still be one (a NAK
 * or a timeout for an earlier event came in between): the swap then makes
 * no gap either, and is counted in `held_stale`.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define INJ_OFF 0
#define INJ_DROP 1
#define INJ_REORDER 2
#define INJ_DUP 3
#define INJ_DELAY 4

#define INJ_MARK 0x1d1ec7ed /* our own clones pass untouched */
#define INJ_STASH_MAX 9216
#define INJ_ROCE_PORT 4791
#define INJ_PSN_MASK 0xffffffu
#define INJ_PSN_VALID (1u << 24)
#define INJ_PSN_HALF (1u << 23)

struct inj_cfg {
	__u32 mode; /* INJ_* */
	__u32 every; /* N >= 1; delay: microseconds */
	__u32 qp; /* destination QP to act on, if has_qp */
	__u32 has_qp;
	__u32 any; /* every request opcode, not only FIRST/MIDDLE */
	__u32 ifindex; /* delay: the relay's veth */
};

struct inj_key {
	__u32 saddr; /* network order */
	__u32 daddr;
	__u32 dqp;
};

struct inj_qp {
	__u64 seen; /* eligible frames */
	__u64 dropped;
	__u64 held; /* reorder: frames held back */
	__u64 released; /* reorder: held frames sent after their successor */
	__u64 duplicated;
	__u64 busy; /* reorder: the stash was busy, nothing done */
	__u64 replayed; /* retransmissions (PSN already let through): left alone */
	__u64 held_stale; /* reorder: released behind a successor not after it */
	__u32 high; /* one past the highest request PSN let through | VALID */
	__u32 pad;
};

struct inj_stash {
	__u64 state; /* 0 free, 1 busy, 2 held (64-bit: clang's BPF CAS) */
	__u32 len;
	struct inj_key key;
	__u32 psn; /* the held frame's */
	__u8 data[INJ_STASH_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct inj_cfg);
} inj_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, struct inj_key);
	__type(value, struct inj_qp);
} inj_qps SEC(".maps");

/* one frame held at a time per slot; a QP's slot is its dqp's low bits */
#define INJ_STASH_SLOTS 8
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, INJ_STASH_SLOTS);
	__type(key, __u32);
	__type(value, struct inj_stash);
} inj_stash SEC(".maps");

struct inj_hdr {
	struct ethhdr eth;
	struct iphdr ip; /* options rejected below */
	struct udphdr udp;
	__u8 bth[12];
} __attribute__((packed));

static __always_inline int inj_eligible(__u8 op, __u32 any)
{
	/* RC requests are opcodes 0x00..0x0c, 0x13 (atomic ack) aside */
	if (op > 0x0c)
		return 0;
	if (any)
		return 1;
	/* SEND FIRST/MIDDLE, WRITE FIRST/MIDDLE: the message goes on */
	return op == 0x00 || op == 0x01 || op == 0x06 || op == 0x07;
}

/*
 * Whether len fits the stash. Two separate tests with a barrier after each:
 * clang folds "len < a || len > b" into one range test, and a 0/len return,
 * which the verifier cannot follow down to the helper's size argument.
 */
#define INJ_FITS(len)                                          \
	({                                                     \
		int fits_ = 0;                                 \
		if ((len) <= INJ_STASH_MAX) {                  \
			asm volatile("" : "+r"(len));          \
			if ((len) >= sizeof(struct inj_hdr)) { \
				asm volatile("" : "+r"(len));  \
				fits_ = 1;                     \
			}                                      \
		}                                              \
		fits_;                                         \
	})

/* whether psn is at or after q->high: never let through before */
static __always_inline int inj_psn_new(const struct inj_qp *q, __u32 psn)
{
	return !(q->high & INJ_PSN_VALID) ||
	       ((psn - q->high) & INJ_PSN_MASK) < INJ_PSN_HALF;
}

/* a request of the QP leaves: raise the highest let through */
static __always_inline void inj_sent(struct inj_qp *q, __u32 psn)
{
	if (inj_psn_new(q, psn))
		q->high = ((psn + 1) & INJ_PSN_MASK) | INJ_PSN_VALID;
}

/* the held frame goes out right behind skb, its successor (PSN psn) */
static __always_inline int inj_release(struct __sk_buff *skb,
				       struct inj_stash *st, struct inj_qp *q,
				       __u32 psn)
{
	__u32 held = st->psn, d = (psn - held) & INJ_PSN_MASK;
	__u64 len = st->len;

	if (!INJ_FITS(len))
		return TC_ACT_OK;
	skb->mark = INJ_MARK;
	if (bpf_clone_redirect(skb, skb->ifindex, 0)) {
		skb->mark = 0;
		return TC_ACT_OK; /* keep the successor; the held one is lost */
	}
	skb->mark = 0;
	if (bpf_skb_change_tail(skb, len, 0))
		return TC_ACT_SHOT;
	if (bpf_skb_store_bytes(skb, 0, st->data, len, 0))
		return TC_ACT_SHOT;
	__sync_fetch_and_add(&q->released, 1);
	/* a gap after the spine only if the successor is a newer PSN */
	if (!d || d >= INJ_PSN_HALF)
		__sync_fetch_and_add(&q->held_stale, 1);
	inj_sent(q, psn);
	inj_sent(q, held);
	return TC_ACT_OK;
}

static __always_inline int inj_hold(struct __sk_buff *skb, struct inj_stash *st,
				    const struct inj_key *k, struct inj_qp *q,
				    __u32 psn)
{
	__u64 len = skb->len;

	if (!INJ_FITS(len) ||
	    __sync_val_compare_and_swap(&st->state, 0, 1) != 0) {
		__sync_fetch_and_add(&q->busy, 1);
		return TC_ACT_OK;
	}
	if (bpf_skb_load_bytes(skb, 0, st->data, len)) {
		st->state = 0;
		__sync_fetch_and_add(&q->busy, 1);
		return TC_ACT_OK;
	}
	st->len = len;
	st->key = *k;
	st->psn = psn;
	__sync_fetch_and_add(&q->held, 1);
	st->state = 2;
	return TC_ACT_SHOT;
}

SEC("tc")
int inj_egress(struct __sk_buff *skb)
{
	struct inj_qp *q, zero = {};
	struct inj_stash *st;
	struct inj_cfg *cfg;
	struct inj_hdr h;
	struct inj_key k;
	__u32 z = 0, slot, psn;
	__u64 n;
	int rc;

	if (skb->mark == INJ_MARK)
		return TC_ACT_OK;
	cfg = bpf_map_lookup_elem(&inj_cfg, &z);
	if (!cfg || cfg->mode == INJ_OFF || !cfg->every)
		return TC_ACT_OK;
	/*
	 * Every frame goes to the delay relay (tools/lab/delay.py) through
	 * the veth cfg->ifindex; the relay sends it back out of this port
	 * `every` us later, marked INJ_MARK, which passed above.
	 */
	if (cfg->mode == INJ_DELAY)
		return bpf_redirect(cfg->ifindex, 0);
	if (bpf_skb_load_bytes(skb, 0, &h, sizeof(h)))
		return TC_ACT_OK;
	if (h.eth.h_proto != bpf_htons(ETH_P_IP) || h.ip.ihl != 5 ||
	    h.ip.protocol != IPPROTO_UDP ||
	    (h.ip.frag_off & bpf_htons(0x3fff)) ||
	    h.udp.dest != bpf_htons(INJ_ROCE_PORT))
		return TC_ACT_OK;
	k.saddr = h.ip.saddr;
	k.daddr = h.ip.daddr;
	k.dqp = (__u32)h.bth[5] << 16 | (__u32)h.bth[6] << 8 | h.bth[7];
	if (cfg->has_qp && k.dqp != cfg->qp)
		return TC_ACT_OK;
	psn = (__u32)h.bth[9] << 16 | (__u32)h.bth[10] << 8 | h.bth[11];
	slot = k.dqp % INJ_STASH_SLOTS;
	st = bpf_map_lookup_elem(&inj_stash, &slot);
	if (!st)
		return TC_ACT_OK;

	/* the QP's next frame (any opcode) releases a frame it holds */
	if (st->state == 2 && st->key.saddr == k.saddr &&
	    st->key.daddr == k.daddr && st->key.dqp == k.dqp) {
		q = bpf_map_lookup_elem(&inj_qps, &k);
		if (q && __sync_val_compare_and_swap(&st->state, 2, 1) == 2) {
			rc = inj_release(skb, st, q, psn);
			st->state = 0;
			return rc;
		}
	}
	if (h.bth[0] > 0x0c)
		return TC_ACT_OK; /* not an RC request */
	q = bpf_map_lookup_elem(&inj_qps, &k);
	if (!q) {
		bpf_map_update_elem(&inj_qps, &k, &zero, BPF_NOEXIST);
		q = bpf_map_lookup_elem(&inj_qps, &k);
		if (!q)
			return TC_ACT_OK;
	}
	if (!inj_eligible(h.bth[0], cfg->any)) {
		inj_sent(q, psn);
		return TC_ACT_OK;
	}
	if (!inj_psn_new(q, psn)) {
		__sync_fetch_and_add(&q->replayed, 1);
		return TC_ACT_OK;
	}
	n = __sync_fetch_and_add(&q->seen, 1) + 1;
	if (n % cfg->every) {
		inj_sent(q, psn);
		return TC_ACT_OK;
	}
	switch (cfg->mode) {
	case INJ_DROP:
		__sync_fetch_and_add(&q->dropped, 1);
		return TC_ACT_SHOT;
	case INJ_DUP:
		skb->mark = INJ_MARK;
		if (!bpf_clone_redirect(skb, skb->ifindex, 0))
			__sync_fetch_and_add(&q->duplicated, 1);
		skb->mark = 0;
		break;
	case INJ_REORDER:
		rc = inj_hold(skb, st, &k, q, psn);
		if (rc != TC_ACT_OK)
			return rc;
		break;
	}
	inj_sent(q, psn);
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
