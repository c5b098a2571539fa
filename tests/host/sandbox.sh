#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The sandbox on the host, beyond the attacks and programs of the red-team
# suite (tests/redteam/redteam.py): an rlimit that cannot be set refuses
# the run, doctor reports the mandatory layers, the mount namespace hides
# the host's files, `pyward run --output-dir` saves the output files, and
# the workspace caps hold.
. "${top_srcdir:-.}/tests/lib.sh"

: "${PYTHON3:=python3}"
# Diagnostics of failing points go to the log with the TAP lines.
exec 2>&1
work=$(tmpdir_new)
chmod 755 "$work"
secret_file="$work/secret.txt"
printf '%s\n' "pyward-file-secret-$$" >"$secret_file"
chmod 644 "$secret_file"
trap 'rm -rf "$work"' EXIT

# Fail closed: an rlimit the child cannot set refuses the run (a user
# namespace drops the privilege to raise a hard limit).
if command -v prlimit >/dev/null && command -v unshare >/dev/null &&
    unshare -U true 2>/dev/null; then
    out=$(echo 'print(1)' | prlimit --fsize=1000000:1000000 unshare -U \
        "$PYWARD" run --skip-validation --json - 2>/dev/null)
    rc=$?
    name="an rlimit that cannot be set refuses the run"
    case "$rc $out" in
    2*'"status":"internal_error"'*RLIMIT_FSIZE*) ok "$name" ;;
    *) not_ok "$name" "rc=$rc $out" ;;
    esac
else
    skip "an rlimit that cannot be set refuses the run" "no prlimit/unshare"
fi

# doctor: every mandatory layer active and the self-test run passes.
doctor=$("$PYWARD" doctor --json 2>&1)
why=$(printf '%s' "$doctor" | "$PYTHON3" -c '
import json, sys
d = json.load(sys.stdin)
for k in ("seccomp", "rlimits", "no_new_privs", "audit_hook", "self_test"):
    if not d.get(k, {}).get("active"):
        print(k, "not active:", d.get(k))
' 2>&1)
if [ -z "$why" ]; then
    ok "doctor reports the mandatory layers active"
else
    not_ok "doctor reports the mandatory layers active" "$why $doctor"
fi

# The mount namespace: optional, but always reported with its reason.
mountns=$(printf '%s' "$doctor" | "$PYTHON3" -c '
import json, sys
m = json.load(sys.stdin).get("mount_namespace", {})
print("active" if m.get("active") else "inactive" if m.get("detail") else "")
' 2>&1)
check "doctor reports the mount namespace layer ($mountns)" \
    test -n "$mountns"

# Runs without files share one view when the server may join it (root
# with CAP_SYS_CHROOT); without that capability each run builds its own
# view again, and runs still work.
if [ "$(id -u)" = 0 ] && [ "$mountns" = active ] && command -v setpriv >/dev/null; then
    caps=-all,+sys_admin,+setuid,+setgid,+chown,+kill
    for variant in "+sys_chroot:share one such view:3" ":no shared view:4"; do
        add=${variant%%:*}
        rest=${variant#*:}
        want=${rest%%:*}
        n=${rest#*:}
        set -- setpriv --bounding-set "$caps${add:+,$add}"
        line=$("$@" "$PYWARD" doctor 2>&1 | grep '^mount_namespace')
        out=$(echo "print($n)" | "$@" "$PYWARD" run --json - 2>&1)
        name="with bounding set $caps${add:+,$add}: doctor says \"$want\" and a run works"
        case "$line|$out" in
        *"$want"*'|'*'"stdout":"'"$n"'\n"'*) ok "$name" ;;
        *) not_ok "$name" "$line | $out" ;;
        esac
    done
else
    skip "runs without files share one view (root with CAP_SYS_CHROOT)" \
        "not root, no mount namespace or no setpriv"
    skip "without CAP_SYS_CHROOT each run builds its own view" \
        "not root, no mount namespace or no setpriv"
fi

# The HTTP library is loaded by `serve --http` alone: doctor finds it, and
# neither a stdio server nor its zygote (which every run is forked from)
# maps it or the TLS libraries it brings.
http=$(printf '%s' "$doctor" | "$PYTHON3" -c '
import json, sys
h = json.load(sys.stdin).get("http_listener", {})
print(h.get("active"), h.get("detail"))
' 2>&1)
check "doctor: the HTTP listener's library loads ($http)" \
    test "${http%% *}" = True
mkfifo "$work/in"
"$PYWARD" serve <"$work/in" >/dev/null 2>&1 &
serve_pid=$!
exec 7>"$work/in"
zygote=""
for _ in $(seq 1 100); do
    zygote=$(pgrep -P "$serve_pid" -x pyward-zygote | head -n 1)
    [ -n "$zygote" ] && break
    sleep 0.05
done
maps=$(cat "/proc/$serve_pid/maps" "/proc/$zygote/maps" 2>/dev/null)
exec 7>&-
wait "$serve_pid"
libs=$(printf '%s\n' "$maps" | grep -c -E 'libmicrohttpd|libgnutls')
check "a stdio server (and its zygote $zygote) maps no libmicrohttpd or GnuTLS ($libs mappings; $(printf '%s\n' "$maps" | grep -c 'libpython') of libpython)" \
    test -n "$zygote" -a "$libs" = 0 -a -n "$(printf '%s\n' "$maps" | grep libpython)"

# Where the kernel offers large folios (doctor: large_folios), a server's
# zygote moves its memory into them once warm: its anonymous mappings are
# marked MADV_HUGEPAGE ("hg" in smaps), and none are where it does not.
folios=$(printf '%s' "$doctor" | "$PYTHON3" -c '
import json, sys
print(json.load(sys.stdin).get("large_folios", {}).get("active"))
' 2>&1)
marked=$("$PYTHON3" - "$PYWARD" <<'PY' 2>&1
import json, subprocess, sys
p = subprocess.Popen([sys.argv[1], "serve", "--event-log", "off"],
                     stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, text=True)
def call(i, method, params):
    p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": method,
                              "params": params}) + "\n")
    p.stdin.flush()
    return json.loads(p.stdout.readline())
call(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "host", "version": "0"}})
r = call(2, "tools/call", {"name": "execute_code",
                           "arguments": {"code": "print(6 * 7)"}})
out = r["result"]["structuredContent"]["stdout"]
zygote = subprocess.run(["pgrep", "-P", str(p.pid), "-x", "pyward-zygote"],
                        capture_output=True, text=True).stdout.split()[0]
marked = anon = 0
with open("/proc/%s/smaps" % zygote) as f:
    for line in f:
        head = line.split()
        if "-" in head[0] and len(head) >= 5:
            anon_now = head[4] == "0" and (len(head) == 5 or head[5] == "[heap]")
        elif head[0] == "VmFlags:" and anon_now:
            anon += 1
            marked += "hg" in head[1:]
p.stdin.close()
p.wait()
print(out.strip(), marked, anon)
PY
)
set -- $marked
if [ "$folios" = True ]; then
    check "doctor offers large folios; the served zygote moved its memory: $2 of its $3 anonymous mappings marked (the run printed $1)" \
        test "$1" = 42 -a "${2:-0}" -gt 0
else
    check "doctor offers no large folios ($folios); the served zygote marked none of its $3 anonymous mappings (the run printed $1)" \
        test "$1" = 42 -a "${2:-1}" = 0
fi

# doctor names the version and the rules directory it reads.
facts=$(printf '%s' "$doctor" | "$PYTHON3" -c '
import json, sys
d = json.load(sys.stdin)
print(d.get("pyward"), d.get("rules"))
' 2>&1)
version=$(sed -n 's/^AC_INIT(\[pyward\], *\[\([^]]*\)\].*/\1/p' \
    "$top_srcdir/configure.ac")
check "doctor prints the version and the rules directory ($facts)" \
    test "${facts%% *}" = "$version" -a -f "${facts#* }/runtime.json"

# What a program printed before a timeout comes back under plain
# `pyward run` (no flush in the program): stdout holds it, stderr the
# timeout alone, and the run exits 1 as for any limit.
printf 'print("started")\nwhile True:\n    pass\n' >"$work/loop.py"
"$PYWARD" run --timeout 1 "$work/loop.py" >"$work/stdout" 2>"$work/stderr"
rc=$?
got="rc=$rc stdout=$(cat "$work/stdout") stderr=$(cat "$work/stderr")"
check "run prints what came before a timeout ($got)" \
    test "$got" = "rc=1 stdout=started stderr=pyward: timeout: time limit of 1 s exceeded"

# With it, a program cannot even learn that a host file outside its scratch
# dir exists (stat is not covered by landlock); its own files still work.
probe='import os.path, pathlib
print(os.path.exists("'"$secret_file"'"), os.path.isdir("'"$work"'"))
pathlib.Path("own.txt").write_text("mine")
print(pathlib.Path("own.txt").read_text(), os.path.isdir("/usr/lib"))'
if [ "$mountns" = active ]; then
    got=$(printf '%s\n' "$probe" |
        "$PYWARD" run --skip-validation --profile filesystem - 2>&1)
    if [ "$got" = "False False
mine True" ]; then
        ok "host files outside the scratch dir are invisible"
    else
        not_ok "host files outside the scratch dir are invisible" "$got"
    fi
else
    skip "host files outside the scratch dir are invisible" "no mount ns"
fi

# pyward run lists the output files and saves them with --output-dir,
# byte for byte what the result carries.
plot='import matplotlib.pyplot as plt
fig, ax = plt.subplots(figsize=(2, 1), dpi=50)
fig.savefig("output/p.png")'
mkdir "$work/saved"
printf '%s\n' "$plot" | "$PYWARD" run --profile data_science \
    --output-dir "$work/saved" - 2>"$work/stderr"
if ! grep -q "No module named 'matplotlib'" "$work/stderr"; then
    head=$(od -An -tx1 -N24 "$work/saved/p.png" 2>/dev/null | tr -d ' \n')
    # PNG signature, IHDR, width 100, height 50.
    check "run --output-dir saves the plot ($(cat "$work/stderr"))" \
        test "$head" = 89504e470d0a1a0a0000000d494844520000006400000032
else
    skip "run --output-dir saves the plot" "matplotlib not installed"
fi

# With data_science among the profiles, a program that imports none of its
# packages runs from a zygote that never loaded them; one that imports
# numpy does (each run's peak memory shows it).
# ("missing": numpy is not installed.)
rss() {
    "$PYWARD" run --json --profile basic --profile data_science - |
        "$PYTHON3" -c 'import json, sys
r = json.load(sys.stdin)
print("missing" if "No module named \x27numpy\x27" in json.dumps(r)
      else r["max_rss_kb"])'
}
big=$(printf 'import numpy\nprint(6 * 7)\n' | rss)
if [ "$big" != missing ]; then
    small=$(printf 'print(6 * 7)\n' | rss)
    check "run: data_science loaded only for a program that needs it ($small kB against $big)" \
        test -n "$small" -a -n "$big" -a "$((small * 3))" -lt "${big:-0}"
else
    skip "run: data_science loaded only for a program that needs it" \
        "numpy not installed"
fi

# Without matplotlib: the filesystem profile writes its files into
# output/ itself.  --output-dir makes the folder (and its parents) when
# missing, and a file of the same name is replaced, a link of that name
# too (never followed): a second run saves again.  A folder that cannot
# be made exits 2.
printf 'x' >"$work/victim"
files=$work/made/files
prog='import pathlib
pathlib.Path("output/keep").write_text("new")
pathlib.Path("output/fresh.txt").write_text("fresh")'
printf '%s\n' "$prog" |
    "$PYWARD" run --profile filesystem --output-dir "$files" - \
        2>"$work/stderr"
rc=$?
check "run --output-dir makes the folder and saves the files ($rc: $(cat "$work/stderr"))" \
    test "$rc" = 0 -a "$(cat "$files/fresh.txt" 2>&1)" = fresh \
    -a "$(cat "$files/keep" 2>&1)" = new
printf 'old' >"$files/fresh.txt"
ln -sf "$work/victim" "$files/keep"
printf '%s\n' "$prog" |
    "$PYWARD" run --profile filesystem --output-dir "$files" - \
        2>"$work/stderr"
rc=$?
check "run --output-dir again replaces the files of the same name ($rc: $(cat "$work/stderr"))" \
    test "$rc" = 0 -a "$(cat "$files/fresh.txt" 2>&1)" = fresh \
    -a "$(cat "$files/keep" 2>&1)" = new -a ! -L "$files/keep"
check "run --output-dir replaces a link, never writes through it" \
    test "$(cat "$work/victim")" = x
check "run --output-dir leaves no file of its own beside them ($(ls -A "$files" | tr '\n' ' '))" \
    test "$(ls -A "$files" | tr '\n' ' ')" = "fresh.txt keep "
printf '%s\n' "$prog" |
    "$PYWARD" run --profile filesystem --output-dir "$work/victim/sub" - \
        2>"$work/stderr"
rc=$?
check "run --output-dir exits 2 when it could not save a file (got $rc: $(cat "$work/stderr"))" \
    test "$rc" = 2

# pyward run --json prints execute_code's structured result.
out=$(printf 'x = 6 * 7\nprint(x)\n1 / 0\n' | "$PYWARD" run --json - 2>&1)
check "run --json has execute_code's shape ($out)" "$PYTHON3" -c '
import json, sys
r = json.loads(sys.argv[1])
assert r["status"] == "error" and r["stdout"] == "42\n", r
assert r["error"] == "ZeroDivisionError: division by zero", r
assert r["error_details"]["type"] == "ZeroDivisionError", r
assert r["traceback"].startswith("Traceback (most recent call last):"), r
assert r["variables"] == ["x"] and r["variable_details"]["x"]["repr"] == "42", r
assert r["result"] is None and r["result_repr"] is None, r
assert round(r["execution_time"], 6) == r["execution_time"], r
' "$out"

# The workspace is a private tmpfs capped in bytes and files (with the
# mount namespace): writing past either cap fails with ENOSPC, the run
# itself goes on, and nothing of it is left on the host.  Its bytes count
# in the memory limit: the cap halved until it is at most half the limit
# (whole pages), at the default limit and at 64 MiB.
limits=$("$PYTHON3" -c '
import json, os, sys
rules = json.load(open(sys.argv[1]))
w = rules["workspace"]
page = os.sysconf("SC_PAGESIZE")
def share(memory):
    k = 0
    while (w["max_bytes"] >> k) // page * page > memory // 2:
        k += 1
    return (w["max_bytes"] >> k) // page * page
print(share(rules["defaults"]["memory"]), w["max_files"], share(64 << 20))
' "$top_srcdir/rules/seccomp.json")
set -- $limits
max_bytes=$1
max_files=$2
small_bytes=$3
fill='import io, pathlib
def fill(size, count):
    n = 0
    block = b"x" * size  # one allocation: memory stays flat as files grow
    try:
        for i in range(count):
            with io.open(f"output/f{i:05d}", "wb") as f:
                f.write(block)
            n += 1
    except OSError as e:
        return n, e.errno
    return n, 0'
if [ "$mountns" = active ]; then
    # Runs of their own scratch root, to see what is left on the host.
    ws_tmp="$work/ws-tmp"
    mkdir "$ws_tmp" && chmod 755 "$ws_tmp"
    got=$(printf '%s\nprint(*fill(%s, 1000))\n' "$fill" $((1 << 20)) |
        TMPDIR="$ws_tmp" "$PYWARD" run --skip-validation --profile filesystem \
            - 2>"$work/stderr")
    check "the workspace stops at $max_bytes bytes ($got)" \
        test "$got" = "$((max_bytes >> 20)) 28" -o \
        "$got" = "$((max_bytes >> 20 - 1)) 28"
    got=$(printf '%s\nprint(*fill(%s, 1000))\n' "$fill" $((1 << 20)) |
        TMPDIR="$ws_tmp" "$PYWARD" run --skip-validation --profile filesystem \
            --memory 64m - 2>"$work/stderr")
    check "under a 64 MiB memory limit the workspace stops at $small_bytes bytes ($got)" \
        test "$got" = "$((small_bytes >> 20)) 28" -o \
        "$got" = "$((small_bytes >> 20 - 1)) 28"
    got=$(printf '%s\nprint(*fill(1, 100000))\n' "$fill" |
        TMPDIR="$ws_tmp" "$PYWARD" run --skip-validation --profile filesystem \
            - 2>"$work/stderr")
    check "the workspace stops at $max_files files ($got)" \
        test "$got" = "$((max_files - 2)) 28"
    left=$(ls -A "$ws_tmp")
    check "no workspace left on the host ($left)" test -z "$left"
else
    skip "the workspace caps" "no mount ns"
fi

done_testing
