#!/bin/sh
# Real attacks (and normal programs) against the real sandbox: one TAP
# point per tests/exec/*.py, each run with `pyward run --skip-validation
# --json`, checked by what actually happened, then a normal program must
# still run (the runner is healthy after each case).
. "${top_srcdir:-.}/tests/lib.sh"

: "${PYTHON3:=python3}"
# Diagnostics of failing points go to the log with the TAP lines.
exec 2>&1
work=$(tmpdir_new)
chmod 755 "$work"
secret_value="pyward-file-secret-$$"
secret_file="$work/secret.txt"
printf '%s\n' "$secret_value" >"$secret_file"
chmod 644 "$secret_file"
PYWARD_TEST_ENV_SECRET="pyward-env-secret-$$"
export PYWARD_TEST_ENV_SECRET
conns="$work/connections"
: >"$conns"

# A TCP listener on 127.0.0.1 that records every connection it accepts.
"$PYTHON3" -c '
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
print(s.getsockname()[1], flush=True)
while True:
    c, _ = s.accept()
    open(sys.argv[1], "a").write("connection\n")
    c.close()
' "$conns" >"$work/port" &
listener=$!
sleep 1 &
victim_wait=$!
wait $victim_wait
sleep 600 &
victim=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do
    [ -s "$work/port" ] && break
    sleep 0.2
done
port=$(cat "$work/port")

cleanup() {
    kill "$listener" "$victim" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

healthy() {
    echo 'print(6 * 7)' | "$PYWARD" run --skip-validation - 2>&1
}

for case in "$top_srcdir"/tests/exec/*.py; do
    name=$(basename "$case" .py)
    outside="$work/outside-$name"
    sed -e "s|@SECRET_FILE@|$secret_file|g" -e "s|@OUTSIDE@|$outside|g" \
        -e "s|@PORT@|$port|g" -e "s|@TESTPID@|$victim|g" \
        "$case" >"$work/case.py"
    args=$(sed -n 's/^# args: //p' "$case")
    stdin=$(sed -n 's/^# stdin: //p' "$case")
    # shellcheck disable=SC2086
    printf '%s\n' "$stdin" | "$PYWARD" run --skip-validation --json $args \
        "$work/case.py" >"$work/result" 2>"$work/stderr"
    why=$("$PYTHON3" "$top_srcdir/tests/exec-check.py" "$case" \
        "$work/result" "$secret_value" "$PYWARD_TEST_ENV_SECRET")
    if grep -q '^# check:.*nofile' "$case" && [ -e "$outside" ]; then
        why="$why; $outside was created"
    fi
    if grep -q '^# check:.*noconn' "$case" && [ -s "$conns" ]; then
        why="$why; the listener received a connection"
        : >"$conns"
    fi
    if grep -q '^# check:.*[^o]conn' "$case"; then
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            [ -s "$conns" ] && break
            sleep 0.1
        done
    fi
    if grep -q '^# check:.*[^o]conn' "$case" && ! [ -s "$conns" ]; then
        why="$why; the listener received no connection"
    fi
    : >"$conns"
    if grep -q '^# check:.*alive' "$case" && ! kill -0 "$victim"; then
        why="$why; the test's process was killed"
    fi
    if [ "$(healthy)" != 42 ]; then
        why="$why; a normal program fails afterwards: $(healthy)"
    fi
    if [ -z "$why" ]; then
        ok "$name"
    else
        not_ok "$name" "$why"
    fi
done

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
out=$("$PYWARD" doctor --json 2>&1)
why=$(printf '%s' "$out" | "$PYTHON3" -c '
import json, sys
d = json.load(sys.stdin)
for k in ("seccomp", "rlimits", "no_new_privs", "audit_hook", "self_test"):
    if not d.get(k, {}).get("active"):
        print(k, "not active:", d.get(k))
' 2>&1)
if [ -z "$why" ]; then
    ok "doctor reports the mandatory layers active"
else
    not_ok "doctor reports the mandatory layers active" "$why $out"
fi

# The mount namespace: optional, but always reported with its reason.
mountns=$(printf '%s' "$out" | "$PYTHON3" -c '
import json, sys
m = json.load(sys.stdin).get("mount_namespace", {})
print("active" if m.get("active") else "inactive" if m.get("detail") else "")
' 2>&1)
check "doctor reports the mount namespace layer ($mountns)" \
    test -n "$mountns"

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
# byte for byte what the result carries, never overwriting a file.
plot='import matplotlib.pyplot as plt
fig, ax = plt.subplots(figsize=(2, 1), dpi=50)
fig.savefig("output/p.png")'
if printf 'import matplotlib\n' | "$PYWARD" run --profile data_science - \
    >/dev/null 2>&1; then
    mkdir "$work/saved"
    printf '%s\n' "$plot" | "$PYWARD" run --profile data_science \
        --output-dir "$work/saved" - 2>"$work/stderr"
    head=$(od -An -tx1 -N24 "$work/saved/p.png" 2>/dev/null | tr -d ' \n')
    # PNG signature, IHDR, width 100, height 50.
    check "run --output-dir saves the plot ($(cat "$work/stderr"))" \
        test "$head" = 89504e470d0a1a0a0000000d494844520000006400000032
    printf 'x' >"$work/saved/keep"
    printf 'import pathlib\npathlib.Path("output/keep").write_text("new")\n' |
        "$PYWARD" run --profile filesystem --output-dir "$work/saved" - \
            2>"$work/stderr"
    check "run --output-dir never overwrites ($(cat "$work/stderr"))" \
        test "$(cat "$work/saved/keep")" = x
else
    skip "run --output-dir saves the plot" "matplotlib not installed"
    skip "run --output-dir never overwrites" "matplotlib not installed"
fi

# The workspace is a private tmpfs capped in bytes and files (with the
# mount namespace): writing past either cap fails with ENOSPC, the run
# itself goes on, and nothing of it is left on the host.
limits=$("$PYTHON3" -c '
import json, sys
w = json.load(open(sys.argv[1]))["workspace"]
print(w["max_bytes"], w["max_files"])
' "$top_srcdir/rules/seccomp.json")
max_bytes=${limits% *}
max_files=${limits#* }
fill='import io, pathlib
def fill(size, count):
    n = 0
    try:
        for i in range(count):
            with io.open(f"output/f{i:05d}", "wb") as f:
                f.write(b"x" * size)
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
