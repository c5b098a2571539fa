#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The operators' files: the systemd units (the service as built, with
# ExecStart pointed at this build's binary, and the socket: systemd-analyze
# verify; the socket listens where the service does by default), the
# HAProxy configurations
# (haproxy -c: contrib/haproxy's and the Kubernetes router's), and the
# Kubernetes manifests as `kubectl kustomize` renders them (kubectl when
# installed, else a reader of the kustomizations that says so), the unit
# and the HAProxy timeouts checked against each other and against pyward
# serve --help (tests/deploy/check_manifests.py).
. "${top_srcdir:-.}/tests/lib.sh"

: "${PYTHON3:=python3}"
work=$(tmpdir_new)
trap 'rm -rf "$work"' EXIT
unit="$top_builddir/contrib/systemd/pyward.service"
socket_unit="$top_srcdir/contrib/systemd/pyward.socket"

if [ ! -f "$unit" ]; then
    not_ok "the unit is built (contrib/systemd/pyward.service)"
else
    ok "the unit is built (contrib/systemd/pyward.service)"
fi
case "$(grep '^ExecStart=' "$unit")" in
"ExecStart=/"*"/bin/pyward serve") ok "the unit's ExecStart names the installed binary" ;;
*) not_ok "the unit's ExecStart names the installed binary" "$(grep ExecStart "$unit")" ;;
esac
listen=$(sed -n 's/^ListenStream=//p' "$socket_unit")
http=$(sed -n 's/^Environment=PYWARD_HTTP=//p' "$unit")
if [ -n "$listen" ] && [ "$listen" = "$http" ]; then
    ok "the socket unit listens on the service's default ($listen)"
else
    not_ok "the socket unit listens on the service's default" \
        "ListenStream=$listen, PYWARD_HTTP=$http"
fi

# verify UNIT NAME: a point that passes when systemd-analyze verify has
# nothing to say of UNIT.
verify() {
    out=$(MANPATH="$work/man" systemd-analyze verify "$1" 2>&1)
    rc=$?
    if [ "$rc" = 0 ] && [ -z "$out" ]; then
        ok "$2"
    else
        not_ok "$2" "exit $rc: $out"
    fi
}

if command -v systemd-analyze >/dev/null 2>&1; then
    # The same unit, run from this build, its man page found in the tree.
    mkdir -p "$work/man/man1"
    cp "$top_srcdir/doc/pyward.1" "$work/man/man1/"
    sed "s|^ExecStart=[^ ]*|ExecStart=$PYWARD|" "$unit" >"$work/pyward.service"
    verify "$work/pyward.service" "systemd-analyze verify: no complaint"
    # The socket, next to the service it starts.
    cp "$socket_unit" "$work/pyward.socket"
    verify "$work/pyward.socket" \
        "systemd-analyze verify pyward.socket: no complaint"
    # A misspelt option is reported, so silence above means something.
    printf 'ProtectSystm=strict\n' >>"$work/pyward.service"
    out=$(MANPATH="$work/man" systemd-analyze verify "$work/pyward.service" 2>&1)
    case "$out" in
    *ProtectSystm*) ok "systemd-analyze verify reports an unknown option" ;;
    *) not_ok "systemd-analyze verify reports an unknown option" "$out" ;;
    esac
else
    skip "systemd-analyze verify: no complaint" "no systemd-analyze"
    skip "systemd-analyze verify pyward.socket: no complaint" "no systemd-analyze"
    skip "systemd-analyze verify reports an unknown option" "no systemd-analyze"
fi

for cfg in contrib/haproxy/haproxy.cfg contrib/kubernetes/haproxy.cfg; do
    if command -v haproxy >/dev/null 2>&1; then
        out=$(HAPROXY_STATS_SOCKET="$work/haproxy.sock" \
            haproxy -c -f "$top_srcdir/$cfg" 2>&1)
        rc=$?
        if [ "$rc" = 0 ]; then
            ok "haproxy -c accepts $cfg"
        else
            not_ok "haproxy -c accepts $cfg" "$out"
        fi
    else
        skip "haproxy -c accepts $cfg" "haproxy not installed"
    fi
done

if ! "$PYTHON3" -c 'import yaml' 2>/dev/null; then
    skip "the Kubernetes manifests" "python3-yaml not installed"
    done_testing
fi
"$PYWARD" serve --help >"$work/serve-help" 2>&1
exec "$PYTHON3" "$top_srcdir/tests/deploy/check_manifests.py" \
    "$top_srcdir" "$unit" "$work/serve-help" $((tap_n + 1))
