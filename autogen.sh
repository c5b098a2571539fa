#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Generate ./configure.  With --deps, first install the Debian packages the
# build and the tests need (as root, or through sudo).
set -e
cd "$(dirname "$0")"

if [ "${1:-}" = "--deps" ]; then
    shift
    SUDO=""
    if [ "$(id -u)" != 0 ]; then
        SUDO=sudo
    fi
    pkgs="autoconf automake libtool autoconf-archive pkg-config make gcc
          libpython3-dev libjansson-dev libseccomp-dev libmicrohttpd-dev check
          python3 curl
          python3-numpy python3-pandas python3-scipy python3-matplotlib
          nodejs npm clang libclang-rt-14-dev valgrind pyflakes3
          haproxy dnsmasq-base python3-yaml systemd pre-commit
          python3-pip python3-setuptools python3-wheel"
    missing=""
    for p in $pkgs; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
            missing="$missing $p"
    done
    # Node 20 may come from elsewhere than Debian; only ask apt when absent.
    case "$missing" in
    *nodejs*) command -v node >/dev/null 2>&1 &&
        missing=$(echo "$missing" | sed 's/ nodejs//; s/ npm//') ;;
    esac
    if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
        missing=$(echo "$missing" | sed 's/ nodejs//; s/ npm//')
    fi
    if [ -n "$missing" ]; then
        echo "autogen.sh: installing:$missing"
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
    fi
fi

autoreconf -fi
