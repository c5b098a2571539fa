# SPDX-License-Identifier: Apache-2.0
"""tests/http/test_socket.py - `pyward serve --http` on a socket systemd
passed (socket activation: LISTEN_PID, LISTEN_FDS, fd 3).

systemd-socket-activate (Debian's systemd package) listens, and on the
first connection starts pyward with the socket; that connection and the
next ones are answered: /healthz, MCP's tools/list and a run over /mcp,
then SIGTERM exits 0.  The inherited socket wins over --http's HOST:PORT
(here a port another socket holds).  What cannot be served is refused with
status 2 and a message: two sockets, a datagram socket, a stream socket
that does not listen, fd 3 not a socket, a Unix socket, LISTEN_FDS not a
number, a non-loopback socket without tokens.  Sockets meant for another
process (LISTEN_PID) are ignored.  Loopback only; TAP on stdout.
"""
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

PYWARD = os.environ.get("PYWARD", "./pyward")
ACTIVATE = shutil.which("systemd-socket-activate")
# systemd-socket-activate hands the program only the variables named with
# -E: the sanitizers' options (a sanitized build's leak suppressions) and
# pyward's own go through.
PASS_ENV = [a for name in sorted(os.environ)
            if name.endswith("SAN_OPTIONS") or name.startswith("PYWARD_")
            or name == "TMPDIR"
            for a in ("-E", name)]
TOKEN = "socket-token-%d" % os.getpid()
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "test_socket",
                                               "version": "1"}}

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from tap import plan, point  # noqa: E402 - the tests' own module


def tap(name, cond, detail=""):
    point(cond, name, detail)


def free_port():
    """A port free on every address, below the kernel's ephemeral range:
    a port bind(0) gives back is one the other tests' connections may
    take before the activator binds it."""
    low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
    while True:
        port = random.randrange(max(1024, low - 12000), low)
        s = socket.socket()
        try:
            s.bind(("0.0.0.0", port))
            return port
        except OSError:
            continue
        finally:
            s.close()


def start(argv, pass_fds=()):
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, pass_fds=pass_fds)


def request(port, method, path, body=None, token=None, timeout=60):
    h = {"Content-Type": "application/json",
         "Accept": "application/json, text/event-stream"}
    if token is not None:
        h["Authorization"] = "Bearer " + token
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        c.request(method, path,
                  body=json.dumps(body) if body is not None else None,
                  headers=h)
        r = c.getresponse()
        return r.status, r.read()
    finally:
        c.close()


def rpc(rid, method, params=None):
    params = dict(params or {})
    params["_meta"] = META
    return {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}


def stop(p, sig=signal.SIGTERM):
    if p.poll() is None:
        p.send_signal(sig)
    try:
        rc = p.wait(30)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = None
    return rc, p.stderr.read().decode("utf-8", "replace")


def poke(port):
    """Connect to PORT once it listens (systemd-socket-activate starts
    pyward then)."""
    until = time.time() + 10
    while time.time() < until:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=10).close()
            return
        except OSError:
            time.sleep(0.1)


def udp_bound(port):
    """True if a UDP socket is bound to PORT."""
    with open("/proc/net/udp") as f:
        return any(int(line.split()[1].split(":")[1], 16) == port
                   for line in f.readlines()[1:])


def refused(p, timeout=60):
    """P's status and stderr once it ended (killed after TIMEOUT)."""
    try:
        rc = p.wait(timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = None
    return rc, p.stderr.read().decode("utf-8", "replace")


def test_served():
    port = free_port()
    holder = socket.socket()  # --http's own port is taken: unused
    holder.bind(("127.0.0.1", 0))
    holder.listen(1)
    taken = holder.getsockname()[1]
    p = start([ACTIVATE, *PASS_ENV, "-l", "127.0.0.1:%d" % port, PYWARD, "serve",
               "--http", "127.0.0.1:%d" % taken])
    try:
        poke(port)
        st, body = request(port, "GET", "/healthz")
        tap("the first connection starts pyward and gets /healthz 200",
            st == 200 and body == b"ok\n", (st, body))
        st, body = request(port, "POST", "/mcp", rpc(1, "tools/list"))
        names = [t["name"] for t in
                 json.loads(body).get("result", {}).get("tools", [])]
        tap("tools/list over /mcp on the inherited socket",
            st == 200 and "execute_code" in names, (st, body[:300]))
        st, body = request(port, "POST", "/mcp", rpc(
            2, "tools/call", {"name": "execute_code",
                              "arguments": {"code": "print(6 * 7)"}}))
        out = json.loads(body).get("result", {}).get(
            "structuredContent", {}).get("stdout") if st == 200 else None
        tap("an execute_code call is answered", out == "42\n",
            (st, body[:400]))
    finally:
        rc, err = stop(p)
        holder.close()
    tap("it says it serves the socket passed by systemd, on its port",
        "serving MCP on http://127.0.0.1:%d/mcp (socket passed by systemd)"
        % port in err, err[-600:])
    tap("SIGTERM: exit 0", rc == 0, (rc, err[-600:]))


def test_non_loopback():
    port = free_port()
    p = start([ACTIVATE, *PASS_ENV, "-l", "0.0.0.0:%d" % port, PYWARD, "serve",
               "--http", "127.0.0.1:0"])
    poke(port)
    rc, err = refused(p)
    tap("a non-loopback socket without tokens: exit 2, named in the message",
        rc == 2 and "the socket passed by systemd (0.0.0.0:%d) is not a "
        "loopback address" % port in err and "--auth-token-file" in err,
        (rc, err[-600:]))
    d = tempfile.mkdtemp(prefix="pyward-socket-")
    tokens = os.path.join(d, "tokens")
    with open(tokens, "w") as f:
        f.write(TOKEN + "\n")
    port = free_port()
    p = start([ACTIVATE, *PASS_ENV, "-l", "0.0.0.0:%d" % port, PYWARD, "serve",
               "--http", "127.0.0.1:0", "--auth-token-file", tokens])
    try:
        poke(port)
        st, _ = request(port, "GET", "/healthz")
        st_none, _ = request(port, "POST", "/mcp", rpc(1, "tools/list"))
        st_tok, _ = request(port, "POST", "/mcp", rpc(1, "tools/list"),
                            token=TOKEN)
        tap("with tokens it serves it: /mcp 401 without, 200 with the token",
            (st, st_none, st_tok) == (200, 401, 200), (st, st_none, st_tok))
    finally:
        rc, err = stop(p)
        shutil.rmtree(d)
    tap("SIGTERM: exit 0 (non-loopback, tokens)", rc == 0, (rc, err[-600:]))


def test_activate_refusals():
    p1, p2 = free_port(), free_port()
    p = start([ACTIVATE, *PASS_ENV, "-l", "127.0.0.1:%d" % p1, "-l",
               "127.0.0.1:%d" % p2, PYWARD, "serve", "--http",
               "127.0.0.1:0"])
    poke(p1)
    rc, err = refused(p)
    tap("two sockets: exit 2, one is served",
        rc == 2 and "2 sockets passed" in err, (rc, err[-600:]))
    port = free_port()
    p = start([ACTIVATE, *PASS_ENV, "--datagram", "-l", "127.0.0.1:%d" % port, PYWARD,
               "serve", "--http", "127.0.0.1:0"])
    until = time.time() + 10  # until systemd-socket-activate has bound it
    while time.time() < until and not udp_bound(port):
        time.sleep(0.02)
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.sendto(b"x", ("127.0.0.1", port))
    u.close()
    rc, err = refused(p)
    tap("a datagram socket: exit 2, not a listening stream socket",
        rc == 2 and "not a listening stream socket" in err, (rc, err[-600:]))
    d = tempfile.mkdtemp(prefix="pyward-socket-")
    path = os.path.join(d, "sock")
    p = start([ACTIVATE, *PASS_ENV, "-l", path, PYWARD, "serve", "--http",
               "127.0.0.1:0"])
    for _ in range(50):
        if os.path.exists(path):
            break
        time.sleep(0.1)
    try:
        u = socket.socket(socket.AF_UNIX)
        u.connect(path)
        u.close()
    except OSError:
        pass
    rc, err = refused(p)
    shutil.rmtree(d)
    tap("a Unix socket: exit 2, TCP only",
        rc == 2 and "not a TCP socket" in err, (rc, err[-600:]))


def by_hand(fd3, pid="$$", fds="1", extra=()):
    """pyward started with FD3 (an fd of this process, or a redirection
    word) as its fd 3 and LISTEN_PID=PID, LISTEN_FDS=FDS."""
    redir = "3<&%d" % fd3 if isinstance(fd3, int) else fd3
    script = ('export LISTEN_PID=%s LISTEN_FDS=%s; exec "$@" %s'
              % (pid, fds, redir))
    return start(["bash", "-c", script, "bash", PYWARD, "serve", "--http",
                  "127.0.0.1:0"] + list(extra),
                 pass_fds=(fd3,) if isinstance(fd3, int) else ())


def test_hand_refusals():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = by_hand(s.fileno())
    rc, err = refused(p)
    s.close()
    tap("a stream socket that does not listen: exit 2",
        rc == 2 and "not a listening stream socket" in err, (rc, err[-600:]))
    rc, err = refused(by_hand("3</dev/null"))
    tap("fd 3 not a socket: exit 2", rc == 2 and "not a socket" in err,
        (rc, err[-600:]))
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(4)
    rc, err = refused(by_hand(s.fileno(), fds="one"))
    tap("LISTEN_FDS not a number: exit 2",
        rc == 2 and "LISTEN_FDS is not a number" in err, (rc, err[-600:]))
    p = by_hand(s.fileno(), pid="1")
    try:
        line = b""
        until = time.time() + 60
        while b"serving MCP" not in line and time.time() < until:
            line = p.stderr.readline()
            if not line:
                break
        text = line.decode("utf-8", "replace")
        m = re.search(r"http://127\.0\.0\.1:(\d+)/mcp", text)
        st = request(int(m.group(1)), "GET", "/healthz")[0] if m else None
        tap("sockets for another process (LISTEN_PID) are left: it binds "
            "--http", st == 200 and int(m.group(1)) != s.getsockname()[1]
            and "systemd" not in text, (st, text))
    finally:
        rc, err = stop(p)
        s.close()
    tap("SIGTERM: exit 0 (its own socket)", rc == 0, (rc, err[-600:]))


def main():
    if ACTIVATE is None:
        print("1..0 # SKIP systemd-socket-activate not installed")
        return 0
    test_served()
    test_non_loopback()
    test_activate_refusals()
    test_hand_refusals()
    return plan()


if __name__ == "__main__":
    sys.exit(main())
