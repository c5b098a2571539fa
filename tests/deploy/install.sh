#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make install` of this build into a scratch DESTDIR: every file lands
# inside the configured prefix (the systemd units too, unless configure
# was given --with-systemdsystemunitdir outside it, as Debian's packaging
# does), and the documents pyward(1) names are installed.
. "${top_srcdir:-.}/tests/lib.sh"

work=$(tmpdir_new)
trap 'rm -rf "$work"' EXIT
mk() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" "$@"
}
# The configured directories, as make expands them.
var() {
    printf 'print:\n\t@echo $(%s)\n' "$1" >"$work/print.mk"
    mk -f Makefile -f "$work/print.mk" print 2>/dev/null
}
prefix=$(var prefix)
unitdir=$(var systemdsystemunitdir)
docdir=$(var docdir)
if [ -z "$prefix" ]; then
    not_ok "make reports the prefix"
    done_testing
fi
if out=$(mk install DESTDIR="$work/root" 2>&1); then
    ok "make install DESTDIR=... ($prefix)"
else
    not_ok "make install DESTDIR=..." "$out"
    done_testing
fi
# Files outside the prefix, but for the units in a directory configure
# was given outside it.
outside=$(cd "$work/root" && find . -type f | sed 's|^\.||' |
    while read -r f; do
        case "$f" in
        "$prefix"/*) ;;
        "$unitdir"/pyward.service | "$unitdir"/pyward.socket) ;;
        *) echo "$f" ;;
        esac
    done)
case "$unitdir" in
"$prefix"/* | no) where="inside the prefix" ;;
*) where="inside the prefix, the units in $unitdir (configured)" ;;
esac
if [ -z "$outside" ]; then
    ok "every installed file is $where"
else
    not_ok "every installed file is $where" "$outside"
fi
case "$unitdir" in
no) skip "the units are installed" "configured without systemd units" ;;
*)
    if [ -f "$work/root$unitdir/pyward.service" ] &&
        [ -f "$work/root$unitdir/pyward.socket" ]; then
        ok "the units are installed in $unitdir"
    else
        not_ok "the units are installed in $unitdir" \
            "$(cd "$work/root" && find . -name 'pyward.s*')"
    fi
    ;;
esac
missing=""
for f in README $(cd "$top_srcdir/doc" && ls ./*.md); do
    [ -f "$work/root$docdir/$(basename "$f")" ] || missing="$missing $f"
done
if [ -z "$missing" ]; then
    ok "README and every doc/*.md are installed in $docdir"
else
    not_ok "README and every doc/*.md are installed in $docdir" "missing:$missing"
fi
done_testing
