#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make deb-check`: build the Debian package from the release tarball (the
# source tree is left as it is), lint it, install it with dpkg -i on this
# machine, check what it installed and that the installed pyward works
# (pyward doctor, a run, the systemd unit), then remove it.  Needs root
# and Debian's debhelper, lintian and dpkg-dev.  TAP output.
#   deb-check.sh TARBALL DEBIAN_DIR WORK_DIR
. "${top_srcdir:-.}/tests/lib.sh"
set -u
tarball=$1
debian=$2
work=$3

if [ "$(id -u)" != 0 ]; then
    echo "1..0 # SKIP dpkg -i needs root"
    exit 0
fi
for tool in dpkg-buildpackage dh lintian; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "Bail out! $tool is missing: apt-get install debhelper lintian dpkg-dev"
        exit 1
    fi
done
if dpkg-query -W -f='${Status}' pyward 2>/dev/null | grep -q 'ok installed'; then
    echo "Bail out! a pyward package is installed already: dpkg -r pyward first"
    exit 1
fi
if [ -e /usr/bin/pyward ]; then
    echo "Bail out! /usr/bin/pyward exists and is not from a package"
    exit 1
fi

rm -rf "$work"
mkdir -p "$work"
tar -C "$work" -xf "$tarball"
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'pyward-*')
cp -R "$debian" "$src/debian"

start=$(date +%s)
if (cd "$src" && dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1; then
    ok "dpkg-buildpackage -us -uc -b builds the package ($(($(date +%s) - start)) s)"
else
    not_ok "dpkg-buildpackage -us -uc -b builds the package" \
        "$(tail -n 40 "$work/build.log")"
    done_testing
fi
deb=$(ls "$work"/pyward_*.deb)
changes=$(ls "$work"/pyward_*.changes)

# Lintian: no error, no warning (debian/pyward.lintian-overrides says
# why each tag it overrides does not apply).
lint=$(lintian --fail-on error,warning --info --pedantic "$changes" 2>&1)
if [ $? = 0 ]; then
    ok "lintian --pedantic: no error or warning ($(printf '%s\n' "$lint" | grep -c '^[IPX]:') tags left)"
else
    not_ok "lintian: no error or warning" "$lint"
fi

# `serve --http` loads libmicrohttpd at run time (src/server/mhd.h), which
# dpkg-shlibdeps cannot see: the package depends on it by name.
depends=$(dpkg-deb -f "$deb" Depends)
case "$depends" in
*libmicrohttpd12*) ok "the package depends on libmicrohttpd12 ($depends)" ;;
*) not_ok "the package depends on libmicrohttpd12" "$depends" ;;
esac

contents=$(dpkg-deb -c "$deb")
for f in ./usr/bin/pyward ./usr/share/man/man1/pyward.1.gz \
    ./usr/share/man/man5/pyward-rules.5.gz \
    ./usr/share/pyward/rules/profiles.json \
    ./usr/share/pyward/rules/seccomp.json \
    ./usr/share/pyward/rules/runtime.json \
    ./lib/systemd/system/pyward.service \
    ./lib/systemd/system/pyward.socket; do
    if printf '%s\n' "$contents" | grep -q " $f\$"; then
        ok "the package holds $f"
    else
        not_ok "the package holds $f"
    fi
done
# Every document of doc/, and each path of /usr/share/doc/pyward that
# pyward(1) names (compressed or not).
missing=""
for d in "$src"/doc/*.md $(zcat -f "$src/doc/pyward.1" |
    grep -oE '/usr/share/doc/pyward/[A-Za-z.]+[A-Za-z]' | sort -u); do
    name=./usr/share/doc/pyward/$(basename "$d")
    printf '%s\n' "$contents" | grep -qE " $name(\.gz)?\$" ||
        missing="$missing $name"
done
if [ -z "$missing" ]; then
    ok "the package holds doc/*.md and what pyward(1) names"
else
    not_ok "the package holds doc/*.md and what pyward(1) names" "missing:$missing"
fi
# Every rule file of the tree is in the package.
missing=""
for r in "$src"/rules/*.json; do
    name=./usr/share/pyward/rules/$(basename "$r")
    printf '%s\n' "$contents" | grep -q " $name\$" || missing="$missing $name"
done
if [ -z "$missing" ]; then
    ok "every rule file is installed"
else
    not_ok "every rule file is installed" "missing:$missing"
fi

if out=$(dpkg -i "$deb" 2>&1); then
    ok "dpkg -i installs it"
else
    not_ok "dpkg -i installs it" "$out"
    done_testing
fi

# The installed binary finds its installed rules, and every layer works.
doctor=$(env -u PYWARD_RULES_DIR /usr/bin/pyward doctor --json 2>&1)
rc=$?
printf '%s\n' "$doctor" >"$work/doctor.json"
summary=$("${PYTHON3:-python3}" - "$work/doctor.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
off = [k for k, v in d.items() if isinstance(v, dict) and not v["active"]]
print(d["rules"], d["self_test"]["detail"], "off:", " ".join(off) or "none")
PY
)
case "$rc:$summary" in
"0:/usr/share/pyward/rules print(sum(range(10))) -> 45 "*)
    ok "pyward doctor: $summary" ;;
*) not_ok "pyward doctor exits 0 with /usr/share/pyward/rules and 45" \
    "exit $rc: $summary $doctor" ;;
esac
out=$(printf 'Ada\n' | env -u PYWARD_RULES_DIR /usr/bin/pyward run "$src/tests/programs/examples/hello.py" 2>&1)
case "$out" in
*Ada*) ok "the installed pyward runs a program" ;;
*) not_ok "the installed pyward runs a program" "$out" ;;
esac
# The installed server answers over HTTP: /readyz once it is warm.
env -u PYWARD_RULES_DIR /usr/bin/pyward serve --http 127.0.0.1:0 \
    2>"$work/serve.err" &
serve_pid=$!
ready=""
for _ in $(seq 1 100); do
    url=$(sed -n 's|.*serving MCP on \(http://[^/]*\)/mcp.*|\1|p' "$work/serve.err")
    if [ -n "$url" ] && ready=$(curl -sf "$url/readyz" 2>/dev/null); then
        break
    fi
    sleep 0.2
done
kill -TERM "$serve_pid"
wait "$serve_pid"
rc=$?
if [ "$ready" = ready ] && [ "$rc" = 0 ]; then
    ok "the installed pyward serve --http answers /readyz and exits 0 on SIGTERM"
else
    not_ok "the installed pyward serve --http answers /readyz and exits 0 on SIGTERM" \
        "readyz '$ready', exit $rc: $(cat "$work/serve.err")"
fi
if man -w pyward >/dev/null 2>&1 && man -w 5 pyward-rules >/dev/null 2>&1; then
    ok "man pyward and man 5 pyward-rules find the pages"
else
    not_ok "man pyward and man 5 pyward-rules find the pages"
fi
for u in pyward.service pyward.socket; do
    if command -v systemd-analyze >/dev/null 2>&1; then
        out=$(systemd-analyze verify "/lib/systemd/system/$u" 2>&1)
        if [ $? = 0 ] && [ -z "$out" ]; then
            ok "systemd-analyze verify accepts the installed $u"
        else
            not_ok "systemd-analyze verify accepts the installed $u" "$out"
        fi
    else
        skip "systemd-analyze verify accepts the installed $u" "no systemd-analyze"
    fi
done
# Installed, not enabled: the operator sets the address and tokens first.
if [ -e /etc/systemd/system/multi-user.target.wants/pyward.service ] ||
    [ -e /etc/systemd/system/sockets.target.wants/pyward.socket ]; then
    not_ok "the units are not enabled on installation"
else
    ok "the units are not enabled on installation"
fi

if out=$(dpkg --purge pyward 2>&1) && [ ! -e /usr/bin/pyward ] &&
    [ ! -e /usr/share/pyward ] && [ ! -e /lib/systemd/system/pyward.service ] &&
    [ ! -e /lib/systemd/system/pyward.socket ]; then
    ok "dpkg --purge removes it all"
else
    not_ok "dpkg --purge removes it all" "$out"
fi
done_testing
