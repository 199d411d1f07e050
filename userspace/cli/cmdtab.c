// SPDX-License-Identifier: GPL-2.0
/*
 * Every object, command and option of rocedp, with its help (cmdtab.h).
 * The descriptions are plain text: clihelp.c escapes them for roff.
 */
#include <stddef.h>
#include "cmdtab.h"
#include "commands.h"

static const struct cli_opt global_opts[] = {
	{ "json", 'j', NULL, 0,
	  "JSON output; errors too, as {\"error\": ...}" },
	{ "pretty", 'p', NULL, 0, "pretty-printed JSON (implies --json)" },
	{ "pin-dir", 0, "DIR", 0,
	  "the pin directory (default: /sys/fs/bpf/rocedp, or "
	  "/sys/fs/bpf/rocedp-netns/COOKIE outside the initial network "
	  "namespace); overrides ROCEDP_PIN_DIR" },
	{ "help", 'h', NULL, 0, "print the usage and exit" },
	{ "version", 'V', NULL, 0, "print the version and exit" },
	{ NULL },
};

static const struct cli_opt attach_opts[] = {
	{ "mode", 'm', "native|generic|tc", 0,
	  "XDP in the driver (native, the default), generic XDP, or tc "
	  "(clsact ingress and egress)" },
	{ "features", 'f', "LIST", 0,
	  "comma list of forward, remark, flowlet, ecn, telemetry; "
	  "--features remark is the remark-only mode" },
	{ "exclusive", 0, NULL, 0,
	  "attach alone through rocedp's own pinned bpf_link, not in "
	  "libxdp's dispatcher" },
	{ "force", 0, NULL, 0,
	  "replace an XDP program on the port that is not rocedp's and "
	  "that rocedp cannot join" },
	{ NULL },
};

static const struct cli_opt detach_opts[] = {
	{ "all", 0, NULL, 0, "every interface (also what no interface names)" },
	{ NULL },
};

static const struct cli_opt none[] = { { NULL } };

static const struct cli_opt config_check_opts[] = {
	{ "offline", 0, NULL, 0,
	  "without root, pins or this host's interfaces: port names are "
	  "checked for form only (1..15 bytes, no '/', ':' or blank)" },
	{ NULL },
};

static const struct cli_opt start_opts[] = {
	{ "config", 'c', "FILE", 0,
	  "the config file (default /etc/rocedp/rocedp.json)" },
	{ NULL },
};

static const struct cli_opt stats_opts[] = {
	{ "watch", 'w', "SEC", 0,
	  "print again every SEC seconds (0.1 to 3600, fractions too)" },
	{ "prometheus", 'P', NULL, 0,
	  "Prometheus text exposition format 0.0.4" },
	{ "textfile", 't', "DIR", 0,
	  "write DIR/rocedp.prom for node_exporter's textfile collector" },
	{ "top-qps", 0, "K", 0,
	  "Prometheus series of their own for the K sickest QPs "
	  "(0..10000, default 10)" },
	{ NULL },
};

static const struct cli_opt exporter_opts[] = {
	{ "listen", 'l', "ADDR:PORT", 0,
	  "where to serve /metrics (needed): 127.0.0.1:9436, [::1]:9436, or "
	  ":9436 for every address" },
	{ "top-qps", 0, "K", 0,
	  "series of their own for the K sickest QPs (0..10000, default 10)" },
	{ "hwm-window", 0, "SEC", 0,
	  "take the ECN queue high-water marks every SEC seconds, 1..3600 "
	  "(default 10): a scrape shows the mark of the last SEC to 2 SEC" },
	{ NULL },
};

static const struct cli_opt ipfix_opts[] = {
	{ "collector", 'c', "ADDR:PORT", 0,
	  "the IPFIX collector (needed): 192.0.2.1:4739 or [2001:db8::1]:4739" },
	{ "interval", 'i', "SEC", 0,
	  "seconds between exports, 0.1 to 3600 (default 10)" },
	{ "count", 'n', "N", 0,
	  "stop after N exports (default: until SIGTERM)" },
	{ "domain", 0, "N", 0, "the observation domain id (default 0)" },
	{ "enterprise", 0, "PEN", 0,
	  "the enterprise number of rocedp's own elements (default 32473, "
	  "RFC 5612's number for documentation)" },
	{ NULL },
};

static const struct cli_opt routes_opts[] = {
	{ "table", 0, "N", 0,
	  "the kernel's routing table N instead of main (254), as rocedp "
	  "sync --table; local (255) is always read" },
	{ NULL },
};

static const struct cli_opt paths_send_opts[] = {
	{ "src", 0, "ADDR", CLI_REQUIRED,
	  "this leaf's IPv4 address, the probes' source" },
	{ "count", 0, "N", 0, "stop after N rounds (default: until SIGTERM)" },
	{ NULL },
};

static const struct cli_opt flows_opts[] = {
	{ "limit", 0, "N", 0, "at most N flowlets" },
	{ NULL },
};

static const struct cli_opt qps_opts[] = {
	{ "sort", 0, "bytes|rewinds|gaps|stalls|rtt", 0,
	  "the order, largest first (default bytes)" },
	{ "limit", 0, "N", 0, "at most N QPs" },
	{ NULL },
};

static const struct cli_opt top_opts[] = {
	{ "sort", 0, "bytes|rewinds|gaps|stalls|rtt", 0,
	  "the order of the QP rows (default bytes; the s key cycles it)" },
	{ "interval", 'd', "SEC", 0,
	  "seconds between refreshes, 0.1 to 3600 (default 1)" },
	{ "limit", 0, "N", 0, "at most N rows per table" },
	{ "once", 0, NULL, 0, "print one frame and exit (works in a pipe)" },
	{ "iterations", 'n', "ITER", 0, "stop after ITER refreshes" },
	{ NULL },
};

static const struct cli_opt sync_opts[] = {
	{ "once", 0, NULL, 0, "one full sync, print a summary, exit" },
	{ "daemon", 0, NULL, 0,
	  "detach from the terminal once the first sync is done" },
	{ "table", 0, "N", 0,
	  "the routing table to mirror (default main, 254; not local, 255)" },
	{ "pid-file", 0, "FILE", 0,
	  "write the daemon's pid to FILE (removed at exit)" },
	{ "verbose", 0, NULL, 0,
	  "print the summary of the first sync, and a line per config hand-off" },
	{ "latency-log", 0, NULL, 0,
	  "log each event's delay from the kernel to the maps" },
	{ "rcvbuf", 0, "BYTES", 0,
	  "the netlink socket's receive buffer (default: the kernel's "
	  "maximum the daemon may set)" },
	{ NULL },
};

static const struct cli_opt sonic_import_opts[] = {
	{ "ports", 0, "MAP", 0,
	  "SONiC port names to devices: Ethernet0=eth1,Ethernet4=eth2 "
	  "(default: SONiC's names are the devices)" },
	{ "strict", 0, NULL, 0,
	  "refuse a document with a key rocedp cannot honour" },
	{ NULL },
};

static const struct cli_opt sonic_sync_opts[] = {
	{ "redis", 0, "URL", 0,
	  "the Redis server: unix:PATH or HOST:PORT (no password in it; "
	  "default: CONFIG_DB's socket in database_config.json)" },
	{ "db-config", 0, "FILE", 0,
	  "SONiC's database_config.json: the database numbers (default "
	  "/var/run/redis/sonic-db/database_config.json when it exists, "
	  "else 4, 2, 6, 0)" },
	{ "namespace", 0, "NS", 0,
	  "a multi-ASIC namespace: its database_config.json, as "
	  "database_global.json beside FILE names it" },
	{ "auth-file", 0, "FILE", 0,
	  "Redis AUTH from FILE: one line PASSWORD, or two lines USER and "
	  "PASSWORD (not readable by others)" },
	{ "tls", 0, NULL, 0,
	  "TLS to HOST:PORT, the server's certificate verified (not for "
	  "unix:PATH)" },
	{ "tls-ca", 0, "FILE", 0,
	  "the CA certificates (PEM) the server's must chain to (default: "
	  "the system's)" },
	{ "tls-cert", 0, "FILE", 0,
	  "a client certificate (PEM), for a server that wants one; with "
	  "--tls-key" },
	{ "tls-key", 0, "FILE", 0,
	  "its private key (PEM, not readable by others)" },
	{ "tls-server-name", 0, "NAME", 0,
	  "the name the server's certificate must carry (default: the "
	  "host of --redis)" },
	{ "ports", 0, "MAP", 0,
	  "SONiC port names to devices: Ethernet0=eth1,Ethernet4=eth2" },
	{ "strict", 0, NULL, 0,
	  "refuse a document with a key rocedp cannot honour" },
	{ "port-interval", 0, "SEC", 0,
	  "seconds between per-port counter writes, 0.1..3600 (default 1)" },
	{ "queue-interval", 0, "SEC", 0,
	  "seconds between per-queue counter writes, 0.1..3600 (default 10)" },
	{ "qp-top", 0, "K", 0,
	  "per-QP counters for the K most active QPs, 0..1024 (default 64; "
	  "0: none)" },
	{ "quiet-ms", 0, "MS", 0,
	  "apply once a burst of CONFIG_DB events has been quiet this many "
	  "milliseconds, 1..10000 (default 100)" },
	{ "once", 0, NULL, 0,
	  "apply once and exit (1 if refused or unreachable)" },
	{ NULL },
};

static const struct cli_opt replay_opts[] = {
	{ "in", 'i', "IN.pcap", CLI_REQUIRED, "the capture to replay" },
	{ "out", 'o', "OUT.pcap", 0,
	  "the frames the programs send out, as a capture" },
	{ "verdicts", 'v', "FILE|-", 0,
	  "one JSON object per frame: verdict, class, egress, DSCP, ECN" },
	{ "config", 'c', "FILE", 0,
	  "the rocedp config to replay with (default: the defaults)" },
	{ "hook", 'k', "xdp|tc", 0,
	  "the program the frames go through (default xdp)" },
	{ "ingress-ifindex", 'x', "N", 0,
	  "the ingress interface index the programs see" },
	{ "summary", 's', NULL, 0,
	  "the per-class and per-verdict table at the end" },
	{ NULL },
};

static const struct cli_opt help_opts[] = {
	{ "config-keys", 0, NULL, 0,
	  "every key of config set, one a line (for completion)" },
	{ "man", 0, "FILE", 0,
	  "print the man page FILE with its generated sections rebuilt from "
	  "this binary's table (make man)" },
	{ NULL },
};

static const struct cli_cmd cmds[] = {
	{ "attach", NULL, "IFACE...", 1, -1, CLI_ROOT, cmd_attach,
	  "load the programs (reusing pinned maps) and attach them",
	  "Idempotent: attaching again replaces the programs (bpf_link "
	  "update for XDP, BPF_TC_F_REPLACE for tc; in libxdp's dispatcher "
	  "the new program joins before the old one leaves), which is also "
	  "how an upgrade is done. Every name must resolve before anything "
	  "changes. In XDP modes rocedp joins libxdp's multi-program "
	  "dispatcher, so other XDP programs (xdp-loader's) share the port; "
	  "where the dispatcher is unavailable it attaches alone and says so. "
	  "A port carrying an XDP program that is not rocedp's and that "
	  "rocedp cannot join is refused unless --force. XDP attach turns the "
	  "port's VLAN tag stripping (rx-vlan-hw-parse, "
	  "rx-vlan-stag-hw-parse; for a veth, its peer's tag insert offload) "
	  "off, and detach restores it; a port that cannot stop stripping is "
	  "refused (use --mode tc).",
	  attach_opts },
	{ "detach", NULL, "[IFACE...]", 0, -1, CLI_ROOT, cmd_detach,
	  "detach; with nothing left attached, remove every trace",
	  "Without an interface, or with --all, every interface. When "
	  "nothing stays attached, the sync running on the pin directory is "
	  "stopped (and waited for), then every pin and the clsact qdiscs "
	  "rocedp added are removed.",
	  detach_opts },
	{ "status", NULL, "", 0, 0, CLI_ROOT, cmd_status,
	  "pinned maps, features, hash mode, ECN source, interfaces",
	  "For XDP ports, whether rocedp is in libxdp's dispatcher (and with "
	  "how many other programs) or alone (and whether because the "
	  "dispatcher is unavailable), and the VLAN tag stripping state. "
	  "Exits 3 when no interface is attached in this network namespace.",
	  none },
	{ "start", NULL, "", 0, 0, CLI_ROOT, cmd_start,
	  "attach the config file's ports, then load it (as at boot)",
	  "The file's attach section names the ports and the mode. The whole "
	  "file is checked before anything is attached; ports already "
	  "attached in that mode keep their programs, so a second start "
	  "only loads the file again. Exit 1 with nothing attached for a bad "
	  "file, no attach section or a missing port. rocedp.service runs "
	  "it at boot.",
	  start_opts },
	{ "stop", NULL, "", 0, 0, CLI_ROOT, cmd_stop,
	  "detach everything, as detach --all",
	  "No programs, pins, qdiscs or sync are left.", none },
	{ "config", "show", "", 0, 0, CLI_ROOT | CLI_DEFAULT, cmd_config_show,
	  "the running configuration", NULL, none },
	{ "config", "dump", "", 0, 0, CLI_ROOT, cmd_config_dump,
	  "the running configuration as JSON that config load accepts", NULL,
	  none },
	{ "config", "check", "FILE", 1, 1, 0, cmd_config_check,
	  "validate FILE (- for stdin), change nothing",
	  "Port names are resolved in this network namespace, which needs "
	  "root; with --offline, no root, pins or interfaces are needed, so "
	  "a config can be checked in CI or on a laptop. Schema: "
	  "/usr/share/doc/rocedp/config.md.",
	  config_check_opts },
	{ "config", "load", "FILE", 1, 1, CLI_ROOT, cmd_config_load,
	  "validate FILE (- for stdin), then apply it atomically",
	  "A refused file changes nothing.", none },
	{ "config", "set", "KEY=VALUE...", 1, -1, CLI_ROOT, cmd_config_set,
	  "change keys of the running configuration",
	  "For example hash.mode=qp qos.cnp.dscp=48 features=forward,remark; "
	  "KEY=null resets a key to its default. The whole result is "
	  "validated, then applied at once.",
	  none },
	{ "qos", "show", "", 0, 0, CLI_ROOT | CLI_DEFAULT, cmd_qos_show,
	  "per-class DSCP remarking", NULL, none },
	{ "qos", "set", "CLASS dscp D [pcp P]|CLASS leave", 2, 5, CLI_ROOT,
	  cmd_qos_set, "remark CLASS to DSCP D (0..63) and PCP P (0..7)",
	  "Classes: data, ack, nak, cnp, cts, roce_other, ip, uec, uec_ack, "
	  "uec_nack. leave keeps "
	  "the class's DSCP as it arrives.",
	  none },
	{ "qos", "rules", "", 0, 0, CLI_ROOT, cmd_qos_rules,
	  "the CTS rules with their hits", NULL, none },
	{ "ecn", "show", "", 0, 0, CLI_ROOT | CLI_DEFAULT, cmd_ecn_show,
	  "RED thresholds per port and their source",
	  "With the rocedp_ecn module loaded its profiles are the live "
	  "source (shown as module), otherwise the map (map).",
	  none },
	{ "ecn", "set",
	  "PORT [kmin B] [kmax B] [pmax P] [rate MBPS] [profile N]|"
	  "profile N [kmin B] [kmax B] [pmax P]",
	  1, 12, CLI_ROOT, cmd_ecn_set,
	  "set a port's RED thresholds, or a module profile's",
	  "Changes only the knobs it names (a port with no entry starts from "
	  "the defaults) and waits for a running config load or sync "
	  "commit: the pin directory's writers' lock. profile N alone "
	  "changes the rocedp_ecn module's profile N through sysfs.",
	  none },
	{ "stats", NULL, "", 0, 0, CLI_ROOT, cmd_stats,
	  "counters per class, reason, port and group member",
	  "Also the imbalance per group (busiest member divided by the "
	  "mean). Per port: rx and tx packets and bytes, ECN-marked frames "
	  "and their bytes, and Not-ECT frames that would have been marked. "
	  "The textfile is each time a new file, created exclusively beside "
	  "the old one and renamed over it, so a symlink another user "
	  "planted in DIR is replaced, never followed. The Prometheus forms "
	  "add the telemetry: totals over every QP and series for the top K "
	  "QPs only, sickest first.",
	  stats_opts },
	{ "exporter", NULL, "", 0, 0, CLI_ROOT, cmd_exporter,
	  "serve the Prometheus metrics over HTTP (/metrics)",
	  "The exposition of stats --prometheus, read afresh from this "
	  "network namespace's pinned maps at each scrape; rocedp_up is 0 "
	  "while nothing is attached. A scrape changes nothing: the ECN "
	  "queue high-water marks are taken on the exporter's own window. "
	  "Runs until SIGTERM; tells systemd when it is ready "
	  "(rocedp-exporter.service).",
	  exporter_opts },
	{ "ipfix", NULL, "", 0, 0, CLI_ROOT, cmd_ipfix,
	  "send every QP's flow record to an IPFIX collector",
	  "IPFIX (RFC 7011) over UDP, once an interval, the templates first "
	  "each time: IANA's elements for the addresses and the packet and "
	  "octet totals, rocedp's own (under --enterprise) for the QP, "
	  "gaps, rewinds, NAKs, CNPs, RTT min and mean (ns) and stalls. The "
	  "counts are totals since the QP's entry was made.",
	  ipfix_opts },
	{ "flows", NULL, "", 0, 0, CLI_ROOT, cmd_flows, "active flowlets", NULL,
	  flows_opts },
	{ "routes", NULL, "", 0, 0, CLI_ROOT, cmd_routes,
	  "every route of every source, and the one selected per prefix",
	  "The RIB, as show ip route shows zebra's: the config's static "
	  "routes (C, distance 1) and the kernel's routes (K, distance by "
	  "protocol as zebra gives it: connected 0, static 1, bgp 20, ospf "
	  "110, isis 115, rip 120), each with [distance/metric]. Per prefix "
	  "> marks the selected one (lowest distance, then metric, then "
	  "config before kernel) and * a route the route maps hold; F lists "
	  "what the maps hold and no source has.",
	  routes_opts },
	{ "paths", "show", "", 0, 0, CLI_ROOT | CLI_DEFAULT, cmd_paths_show,
	  "path quality per remote leaf and uplink, with each entry's age",
	  "What this leaf's accepted probes say (docs/paths.md): per remote "
	  "leaf and uplink the path's band, the worse of this leaf's band on "
	  "the uplink and the probe's (0 idle to 7 full; failed when no probe "
	  "came within the timeout), both halves, hops, the age of the entry "
	  "and its last sequence; then the probe counters by outcome.",
	  none },
	{ "paths", "set", "KEY VALUE...", 2, -1, CLI_ROOT, cmd_paths_set,
	  "probe settings: role, leaf-id, port, key, timeout-us, ...",
	  "KEY VALUE pairs: role none|leaf|spine, leaf-id N, port P, key HEX "
	  "(32 hex digits, the fabric's SipHash key), timeout-us N, "
	  "interval-us N (below the timeout), dscp D|leave, max-hops N, "
	  "check-age on|off, steer on|off. Written as one value.",
	  none },
	{ "paths", "port", "DEV ROLE [band N]", 2, 4, CLI_ROOT, cmd_paths_port,
	  "whether a port takes probes, and its least band",
	  "ROLE is fabric or host. Only fabric ports take probes; a probe "
	  "on any other port is "
	  "dropped and counted host_port. band N (0..7) is the least band "
	  "the port reports, for a link known degraded.",
	  none },
	{ "paths", "leaf", "PREFIX ID|PREFIX delete", 2, 2, CLI_ROOT,
	  cmd_paths_leaf, "which remote leaf an IPv4 prefix lives behind",
	  "The sender probes the first address of each prefix of another "
	  "leaf, through the members of the route to it.",
	  none },
	{ "paths", "clear", "", 0, 0, CLI_ROOT, cmd_paths_clear,
	  "forget every path-quality entry", NULL, none },
	{ "paths", "send", "", 0, 0, CLI_ROOT, cmd_paths_send,
	  "send this leaf's probes every interval",
	  "One probe per remote leaf and uplink each interval-us, out of "
	  "AF_PACKET; prints the probes' share of an uplink's bandwidth "
	  "first. Runs until SIGTERM or --count rounds.",
	  paths_send_opts },
	{ "qps", NULL, "", 0, 0, CLI_ROOT, cmd_qps,
	  "per-QP health (feature telemetry)",
	  "Frames, bytes, PSN gaps, rewinds and duplicates, NAKs by "
	  "syndrome, CNPs, RTT (min/EWMA), the wait of the oldest "
	  "unacknowledged request and stalls; a wait longer than "
	  "telemetry.qp_stall_us is marked ! (JSON stalled).",
	  qps_opts },
	{ "top", NULL, "", 0, 0, CLI_ROOT, cmd_top,
	  "a live full-screen view of the busiest and sickest QPs",
	  "With rates per second, and the ports with frames per class, the "
	  "ECN queue high-water mark of the interval and link flaps. Keys: q "
	  "quits, s cycles the sort, p pauses. -j prints one JSON document "
	  "a refresh. Each refresh takes the ports' high-water marks (so "
	  "does rocedp exporter, once a window; a scrape never does).",
	  top_opts },
	{ "sync", NULL, "", 0, 0, CLI_ROOT, cmd_sync,
	  "mirror routes, next hops, neighbours and links from the kernel",
	  "Over netlink: RTA_MULTIPATH and nexthop groups with weights, "
	  "resilient groups with the kernel's bucket table. A link down or a "
	  "failed neighbour takes its member out at once, moving only that "
	  "member's flows. Killing it leaves the dataplane forwarding; a "
	  "restart writes only the differences. It never writes without the "
	  "pin directory's lock and never exits for churn: interrupted dumps "
	  "are retried with a backoff of 10 ms up to 1 s. SIGHUP forces a "
	  "full resync.",
	  sync_opts },
	{ "sonic", "import", "CONFIG_DB.json", 1, 1, 0, cmd_sonic_import,
	  "print the rocedp config a SONiC config_db.json asks for",
	  "SWITCH_HASH, ARS, WRED_PROFILE on the lossless queues, the "
	  "DSCP/TC maps; one warning per key rocedp cannot carry out, a "
	  "refusal with --strict, one error and no output for a malformed "
	  "document (/usr/share/doc/rocedp/sonic.md).",
	  sonic_import_opts },
	{ "sonic", "sync", "", 0, 0, 0, cmd_sonic_sync,
	  "follow SONiC's CONFIG_DB live, write COUNTERS_DB",
	  "Reads CONFIG_DB (database 4, or as database_config.json says) "
	  "once SONiC says it is loaded "
	  "(CONFIG_DB_INITIALIZED), converts it as sonic import does and "
	  "applies it as config load does; then again after every burst of "
	  "keyspace events, when the maps drift from it (a re-attach, a "
	  "config set) and when a port's device appears. A refused change "
	  "leaves the running config alone and is logged and written to "
	  "STATE_DB ROCEDP|status. Beside syncd it writes only its own "
	  "COUNTERS_DB keys; as the dataplane, also the port and queue maps "
	  "portstat and queuestat read. When Redis goes away or misbehaves "
	  "the maps stay as they are; it reconnects (10 ms doubling to 1 s) "
	  "and resyncs.",
	  sonic_sync_opts },
	{ "replay", NULL, "", 0, 0, CLI_ROOT, cmd_replay,
	  "run a capture through the real programs, offline",
	  "BPF_PROG_TEST_RUN with the capture's timestamps as the clock, so "
	  "flowlet gaps replay exactly; forwarded frames also pass their "
	  "port's egress (ECN) program. An output that is the same file as "
	  "--in or --config (by device and inode) is refused; the outputs "
	  "replace their files only when the whole replay succeeded.",
	  replay_opts },
	{ "selftest-load", NULL, "", 0, 0, CLI_ROOT | CLI_HIDDEN,
	  cmd_selftest_load, "load every program, attach nothing (tests)", NULL,
	  none },
	{ "help", NULL, "[OBJECT [COMMAND]]", 0, 2, 0, cmd_help,
	  "this list, or one object's usage and options", NULL, help_opts },
};

const struct cli_table cli_table = {
	.cmds = cmds,
	.n_cmds = sizeof(cmds) / sizeof(cmds[0]),
	.globals = global_opts,
};
