#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Kubernetes router (contrib/kubernetes/haproxy.cfg) without a
# cluster (tests/haproxy/dns.mjs): pyward instances on loopback addresses,
# a dnsmasq answering their names as the headless Service would, HAProxy
# finding them by DNS.  Needs haproxy, dnsmasq (Debian's dnsmasq-base)
# and node (no npm package).  Nothing it starts outlives it: each process
# is noted in a file, and the trap ends what is left.
. "${top_srcdir:-.}/tests/lib.sh"

NODE=${NODE:-node}
for tool in haproxy dnsmasq "$NODE"; do
    if ! command -v "$tool" >/dev/null 2>&1 &&
        ! PATH="$PATH:/usr/sbin:/sbin" command -v "$tool" >/dev/null 2>&1; then
        echo "1..0 # SKIP $tool not installed (./autogen.sh --deps installs" \
            "haproxy, dnsmasq-base and nodejs from Debian)"
        exit 0
    fi
done
PATH="$PATH:/usr/sbin:/sbin"
work=$(tmpdir_new) || exit 1
pids="$work/pids"
: >"$pids"
cleanup() {
    while read -r pid; do
        kill -TERM "$pid" 2>/dev/null
    done <"$pids"
    sleep 1
    while read -r pid; do
        kill -KILL "$pid" 2>/dev/null
    done <"$pids"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
for f in cluster.mjs dns.mjs; do
    cp "$top_srcdir/tests/haproxy/$f" "$work/" || exit 1
done
CLUSTER_PIDS="$pids" DNSMASQ_USER=$(id -un) DNSMASQ_GROUP=$(id -gn) \
    "$NODE" "$work/dns.mjs" "$PYWARD" \
    "$top_srcdir/contrib/kubernetes/haproxy.cfg" "$work"
