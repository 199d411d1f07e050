// SPDX-License-Identifier: GPL-2.0
/*
 * VLAN tag offloads of XDP ports. With rx-vlan-offload on (most NICs'
 * default, and veth's), the driver moves the outer tag into skb/descriptor
 * metadata before XDP runs, so rocedp's parser sees a tagged frame as an
 * untagged one and would route it with the main table across VLAN and VRF
 * boundaries. Only the tc hook reads that metadata (skb->vlan_tci); an XDP
 * program can read it only through bpf_xdp_metadata_rx_vlan_tag(), from
 * 6.8 on, in native mode, in a device-bound program (one load per port,
 * and no place in libxdp's dispatcher), so rocedp turns the stripping off
 * instead, with the ethtool ioctl, and detach restores it.
 *
 * A veth ignores its own rx setting: a tag reaches it in metadata when its
 * peer inserted it by offload (tx-vlan-hw-insert: a VLAN device or a tc
 * vlan push on the peer). So for a veth the peer's insert offload is
 * turned off too, when the peer is in this namespace; otherwise the attach
 * line says what to do there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include "attach_state.h"
#include "egress.h"
#include "util.h"
#include "vlanoff.h"

#define F_RX_CTAG "rx-vlan-hw-parse"
#define F_RX_STAG "rx-vlan-stag-hw-parse"
#define F_TX_CTAG "tx-vlan-hw-insert"
#define F_TX_STAG "tx-vlan-stag-hw-insert"

/* The index of feature feat among the device's feature strings. */
static int feature_index(const char *ifname, const char *feat, __u32 *n_out)
{
	/* the header and its one answer (a flexible array member) */
	__u64 sbuf[(sizeof(struct ethtool_sset_info) + sizeof(__u32) + 7) /
		   8] = {};
	struct ethtool_sset_info *si = (void *)sbuf;
	struct ethtool_gstrings *gs;
	__u32 n, i;
	int err, idx = -ENOENT;

	si->cmd = ETHTOOL_GSSET_INFO;
	si->sset_mask = 1ULL << ETH_SS_FEATURES;
	err = rd_ethtool(ifname, si);
	if (err)
		return err;
	n = si->sset_mask ? si->data[0] : 0;
	if (!n || n > 4096)
		return -EOPNOTSUPP;
	gs = calloc(1, sizeof(*gs) + (size_t)n * ETH_GSTRING_LEN);
	if (!gs)
		return -ENOMEM;
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_FEATURES;
	gs->len = n;
	err = rd_ethtool(ifname, gs);
	for (i = 0; !err && i < n; i++)
		if (!strncmp((char *)gs->data + i * ETH_GSTRING_LEN, feat,
			     ETH_GSTRING_LEN)) {
			idx = (int)i;
			break;
		}
	free(gs);
	*n_out = n;
	return err ?: idx;
}

int rd_feature_get(const char *ifname, const char *feat, struct rd_feature *f)
{
	struct ethtool_gfeatures *gf;
	__u32 n, blocks, bit;
	int idx, err;

	idx = feature_index(ifname, feat, &n);
	if (idx < 0)
		return idx;
	blocks = (n + 31) / 32;
	gf = calloc(1, sizeof(*gf) + blocks * sizeof(gf->features[0]));
	if (!gf)
		return -ENOMEM;
	gf->cmd = ETHTOOL_GFEATURES;
	gf->size = blocks;
	err = rd_ethtool(ifname, gf);
	if (!err) {
		bit = 1u << (idx % 32);
		f->on = gf->features[idx / 32].active & bit;
		f->fixed = !(gf->features[idx / 32].available & bit) ||
			   (gf->features[idx / 32].never_changed & bit);
	}
	free(gf);
	return err;
}

int rd_feature_set(const char *ifname, const char *feat, bool on)
{
	struct ethtool_sfeatures *sf;
	struct rd_feature now;
	__u32 n, blocks, bit;
	int idx, err;

	idx = feature_index(ifname, feat, &n);
	if (idx < 0)
		return idx;
	blocks = (n + 31) / 32;
	sf = calloc(1, sizeof(*sf) + blocks * sizeof(sf->features[0]));
	if (!sf)
		return -ENOMEM;
	sf->cmd = ETHTOOL_SFEATURES;
	sf->size = blocks;
	bit = 1u << (idx % 32);
	sf->features[idx / 32].valid = bit;
	sf->features[idx / 32].requested = on ? bit : 0;
	err = rd_ethtool(ifname, sf);
	free(sf);
	if (err)
		return err;
	/* a driver may take the request and keep the feature as it was */
	err = rd_feature_get(ifname, feat, &now);
	return err ?: (now.on == on ? 0 : -EOPNOTSUPP);
}

/* feat off on ifname; bit into *flags when this turned it off. */
static int turn_off(const char *ifname, const char *feat, unsigned int bit,
		    unsigned int *flags)
{
	struct rd_feature f;
	int err = rd_feature_get(ifname, feat, &f);

	if (err == -ENOENT || err == -EOPNOTSUPP)
		return 0; /* no such offload: nothing strips */
	if (err || !f.on)
		return err;
	if (f.fixed)
		return -EOPNOTSUPP;
	err = rd_feature_set(ifname, feat, false);
	if (!err)
		*flags |= bit;
	return err;
}

int rd_vlan_offload_off(const char *ifname, unsigned int ifindex,
			unsigned int *flags, char *note, size_t len)
{
	char peer[IF_NAMESIZE];
	int peer_ifindex, nsid, err;

	note[0] = 0;
	err = turn_off(ifname, F_RX_CTAG, RD_AF_VLAN_CTAG, flags);
	if (!err)
		err = turn_off(ifname, F_RX_STAG, RD_AF_VLAN_STAG, flags);
	if (err) {
		snprintf(
			note, len,
			"%s: rx VLAN tag stripping cannot be turned off (%s): XDP would see tagged frames untagged: use --mode tc",
			ifname, strerror(-err));
		rd_vlan_offload_restore(ifname, ifindex, *flags);
		*flags &= ~(RD_AF_VLAN_CTAG | RD_AF_VLAN_STAG);
		return -EOPNOTSUPP;
	}
	if (rd_veth_peer(ifname, ifindex, &peer_ifindex, &nsid) || nsid >= 0 ||
	    !if_indextoname((unsigned int)peer_ifindex, peer))
		return 0; /* a peer elsewhere: status says what to do there */
	err = turn_off(peer, F_TX_CTAG, RD_AF_PEER_CTAG, flags);
	if (!err)
		err = turn_off(peer, F_TX_STAG, RD_AF_PEER_STAG, flags);
	if (err)
		snprintf(
			note, len,
			"%s: its veth peer %s keeps inserting VLAN tags by offload (%s): tags it inserts reach XDP outside the frame",
			ifname, peer, strerror(-err));
	return 0;
}

bool rd_vlan_peer_elsewhere(const char *ifname, unsigned int ifindex)
{
	int peer_ifindex, nsid;

	return !rd_veth_peer(ifname, ifindex, &peer_ifindex, &nsid) &&
	       nsid >= 0;
}

int rd_vlan_offload_restore(const char *ifname, unsigned int ifindex,
			    unsigned int flags)
{
	char peer[IF_NAMESIZE];
	int peer_ifindex, nsid, err = 0, e;

	if (flags & RD_AF_VLAN_CTAG)
		err = rd_feature_set(ifname, F_RX_CTAG, true);
	if (flags & RD_AF_VLAN_STAG) {
		e = rd_feature_set(ifname, F_RX_STAG, true);
		err = err ?: e;
	}
	if (!(flags & (RD_AF_PEER_CTAG | RD_AF_PEER_STAG)))
		return err;
	if (rd_veth_peer(ifname, ifindex, &peer_ifindex, &nsid) || nsid >= 0 ||
	    !if_indextoname((unsigned int)peer_ifindex, peer))
		return err; /* the pair is gone, or the peer moved away */
	if (flags & RD_AF_PEER_CTAG) {
		e = rd_feature_set(peer, F_TX_CTAG, true);
		err = err ?: e;
	}
	if (flags & RD_AF_PEER_STAG) {
		e = rd_feature_set(peer, F_TX_STAG, true);
		err = err ?: e;
	}
	return err;
}

const char *rd_vlan_offload_state(const char *ifname, unsigned int flags,
				  bool *by_rocedp)
{
	struct rd_feature c = {}, s = {};
	int ec = rd_feature_get(ifname, F_RX_CTAG, &c);
	int es = rd_feature_get(ifname, F_RX_STAG, &s);

	*by_rocedp = flags & (RD_AF_VLAN_CTAG | RD_AF_VLAN_STAG);
	if ((ec && ec != -ENOENT) || (es && es != -ENOENT))
		return "unknown";
	return (!ec && c.on) || (!es && s.on) ? "on" : "off";
}
