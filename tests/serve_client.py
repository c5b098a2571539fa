# SPDX-License-Identifier: Apache-2.0
# serve_client.py - what the Python test drivers (red team, soak) share:
# a `pyward serve` talked to over JSON-RPC, and the process table they
# check for processes that outlive their run.

import json
import os
import select
import subprocess
import time


def proc_table():
    """{pid: (ppid, state)} of every process we can see."""
    table = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/stat", encoding="utf-8",
                      errors="replace") as f:
                rest = f.read().rpartition(")")[2].split()
        except OSError:
            continue
        table[int(p)] = (int(rest[1]), rest[0])
    return table


class ServeClient:
    """One `pyward serve --profiles PROFILES [ARGS]` (ENV added to the
    environment), talked to over JSON-RPC on its stdin/stdout; its stderr
    goes to STDERR."""

    def __init__(self, pyward, profiles, stderr, args=(), env=None):
        self.p = subprocess.Popen(
            [pyward, "serve", "--profiles", profiles, *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
            env={**os.environ, **(env or {})})
        self.next_id = 0
        self.buf = b""

    def send(self, obj):
        self.p.stdin.write((json.dumps(obj) + "\n").encode())
        self.p.stdin.flush()

    def readline(self, deadline):
        """The next line from the server, or None at EOF or DEADLINE."""
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.p.stdout], [], [], left)
            if not r:
                return None
            chunk = os.read(self.p.stdout.fileno(), 1 << 20)
            if not chunk:
                return None
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line.decode("utf-8", "replace")

    def call(self, method, params, wait=30.0):
        """(raw line, message) of the answer, or (None, None); a line that
        is not JSON is (line, None)."""
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                   "params": params})
        deadline = time.monotonic() + wait
        while True:
            line = self.readline(deadline)
            if line is None:
                return None, None
            try:
                msg = json.loads(line)
            except ValueError:
                return line, None
            if msg.get("id") == self.next_id:
                return line, msg
