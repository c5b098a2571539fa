# SPDX-License-Identifier: Apache-2.0
"""tests/http/test_conns.py - connections that must not keep others out.

`pyward serve --http` with --max-connections 8 and
--max-connections-per-address 4, on loopback; clients on several loopback
source addresses (127.0.0.x).  200 connections that send nothing, and 100
that send their headers a byte at a time, do not keep /healthz, /readyz,
/metrics or a call out (the answers arrive while those sockets are still
open); with 8 requests in progress and the queue full, a ninth request is
answered 503 with Retry-After and its connection closed while the probes
are still answered; one address gets 503 past its 4 requests while
another is served, and its connections that wait longest without a
request are closed when it opens more; a connection that sends nothing is
closed after --idle-timeout.  No assertion on how long anything took,
beyond generous timeouts.  TAP on stdout.
"""
import http.client
import json
import os
import re
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from tap import plan, point  # noqa: E402 - the tests' own module
from serve_client import HttpServer  # noqa: E402

PYWARD = os.environ.get("PYWARD", "./pyward")
WAIT = 60  # the most any one answer may take, in seconds


def tap(name, cond, detail=""):
    point(cond, name, detail)


class Server(HttpServer):
    """`pyward serve --http 127.0.0.1:0` with ARGS, no token file; .err
    leaves the access log out."""

    def __init__(self, *args):
        super().__init__(PYWARD, args)

    def keep(self, line):
        return not line.startswith("{")

    def request(self, method, path, body=None, src="127.0.0.1"):
        """(status, headers, body) of one request on a fresh connection
        from the source address SRC."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT,
                                       source_address=(src, 0))
        h = {"Content-Type": "application/json",
             "Accept": "application/json, text/event-stream"}
        try:
            c.request(method, path, body=json.dumps(body) if body else None,
                      headers=h)
            r = c.getresponse()
            return r.status, dict(r.getheaders()), r.read()
        except OSError as e:
            return None, {}, str(e).encode()
        finally:
            c.close()

    def metric(self, name, src="127.0.0.250"):
        _, _, body = self.request("GET", "/metrics", src=src)
        m = re.search(r"^%s (\d+)$" % re.escape(name), body.decode(), re.M)
        return int(m.group(1)) if m else None

    def wait_metric(self, name, want, timeout=WAIT):
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            if self.metric(name) == want:
                return True
            time.sleep(0.1)
        return False


def call(code, rid=1):
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call",
            "params": {"name": "execute_code", "arguments": {"code": code}}}


def stdout_of(body):
    try:
        return json.loads(body)["result"]["structuredContent"]["stdout"]
    except (ValueError, KeyError, TypeError):
        return None


def idle_sockets(port, n, src="127.0.0.1"):
    """N connections from SRC that send nothing."""
    socks = []
    for _ in range(n):
        try:
            socks.append(socket.create_connection(
                ("127.0.0.1", port), timeout=WAIT, source_address=(src, 0)))
        except OSError:
            break
    return socks


def closed_by_server(s, timeout):
    """True once S reads the end (or a reset) within TIMEOUT seconds."""
    s.settimeout(timeout)
    try:
        return s.recv(1) == b""
    except ConnectionResetError:
        return True
    except OSError:
        return False


def probes_answered(srv, src):
    """The three probes from SRC: their statuses."""
    return [srv.request("GET", p, src=src)[0]
            for p in ("/healthz", "/readyz", "/metrics")]


def test_idle_flood(srv):
    socks = idle_sockets(srv.port, 200)
    got = {
        "probes, same address": probes_answered(srv, "127.0.0.1"),
        "probes, another address": probes_answered(srv, "127.0.0.2"),
    }
    st, _, body = srv.request("POST", "/mcp", call("print(6 * 7)"))
    got["a call, same address"] = (st, stdout_of(body))
    st, _, body = srv.request("POST", "/mcp", call("print(7 * 7)"),
                              src="127.0.0.2")
    got["a call, another address"] = (st, stdout_of(body))
    tap("%d idle connections (nothing sent, sockets still open): /healthz, "
        "/readyz, /metrics and a call are answered" % len(socks),
        len(socks) == 200 and
        got["probes, same address"] == [200, 200, 200] and
        got["probes, another address"] == [200, 200, 200] and
        got["a call, same address"] == (200, "42\n") and
        got["a call, another address"] == (200, "49\n"), got)
    evicted = srv.metric("pyward_http_evicted_total")
    tap("idle connections were closed to make room (%s)" % evicted,
        evicted is not None and evicted > 0, evicted)
    for s in socks:
        s.close()


def test_slowloris(srv):
    """100 connections sending a header a byte at a time."""
    socks = idle_sockets(srv.port, 100)
    stop = threading.Event()
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: "

    def drip():
        i = 0
        while not stop.is_set():
            byte = head[i:i + 1] if i < len(head) else b"a"
            for s in socks:
                try:
                    s.send(byte)
                except OSError:
                    pass
            i += 1
            time.sleep(0.05)

    t = threading.Thread(target=drip, daemon=True)
    t.start()
    time.sleep(1)  # each of them has sent part of its header
    probes = probes_answered(srv, "127.0.0.1")
    st, _, body = srv.request("POST", "/mcp", call("print(8)"))
    stop.set()
    t.join()
    tap("100 connections sending headers a byte at a time: /healthz, "
        "/readyz, /metrics and a call are answered",
        probes == [200, 200, 200] and st == 200 and stdout_of(body) == "8\n",
        (probes, st, body[:200]))
    for s in socks:
        s.close()


def long_runs(srv, sources, seconds):
    """One run of SECONDS per address of SOURCES, each in a thread; the
    threads and the list their results go to."""
    results = []

    def one(src, k):
        results.append(srv.request(
            "POST", "/mcp",
            call("import time\ntime.sleep(%g)\nprint(%d)" % (seconds, k), k),
            src=src))

    threads = [threading.Thread(target=one, args=(src, k))
               for k, src in enumerate(sources)]
    for t in threads:
        t.start()
    return threads, results


def refused_busy(answer):
    st, hdrs, _ = answer
    return (st == 503 and hdrs.get("Retry-After") is not None and
            hdrs.get("Connection", "").lower() == "close")


def test_cap(srv):
    """8 requests in progress (2 running, 6 queued: the queue full) and 50
    idle connections: a ninth request gets 503, the probes are answered."""
    sources = ["127.0.0.%d" % (11 + k // 2) for k in range(8)]
    # The sockets of the tests before are closed on the client's side; the
    # server counts them until it has read their end: the 8 start once
    # it has (else the oldest of them could be the idle one a new
    # connection past the cap closes).
    until = time.monotonic() + WAIT
    while (srv.metric("pyward_http_connections") or 0) > 1 and \
            time.monotonic() < until:
        time.sleep(0.1)
    threads, results = long_runs(srv, sources, 3)
    full = srv.wait_metric("pyward_http_waiting", 8)
    socks = idle_sockets(srv.port, 50, src="127.0.0.19")
    ninth = srv.request("POST", "/mcp", call("print(9)"), src="127.0.0.21")
    probes = probes_answered(srv, "127.0.0.22")
    queued = srv.metric("pyward_queue_depth")
    for t in threads:
        t.join()
    for s in socks:
        s.close()
    tap("8 requests in progress, the queue full (%s queued): a ninth gets "
        "503 with Retry-After and Connection: close" % queued,
        full and queued == 6 and refused_busy(ninth), (full, queued, ninth))
    tap("... while /healthz, /readyz and /metrics are answered",
        probes == [200, 200, 200], probes)
    outs = sorted(stdout_of(r[2]) or "" for r in results)
    tap("the 8 requests in progress are answered",
        len(results) == 8 and all(r[0] == 200 for r in results) and
        outs == ["%d\n" % k for k in range(8)], results)
    st, _, body = srv.request("POST", "/mcp", call("print(10)"),
                              src="127.0.0.21")
    tap("then a request is served again", st == 200 and
        stdout_of(body) == "10\n", (st, body[:200]))


def test_per_address(srv):
    """--max-connections-per-address 4: a fifth request from the address
    gets 503 while another address is served; connections opened past 4
    close that address's oldest idle ones."""
    before = srv.metric('pyward_http_refused_total{reason="address"}')
    threads, results = long_runs(srv, ["127.0.0.31"] * 4, 3)
    full = srv.wait_metric("pyward_http_waiting", 4)
    fifth = srv.request("POST", "/mcp", call("print(5)"), src="127.0.0.31")
    other = srv.request("POST", "/mcp", call("print(6)"), src="127.0.0.32")
    after = srv.metric('pyward_http_refused_total{reason="address"}')
    for t in threads:
        t.join()
    tap("4 requests in progress from one address: a fifth from it gets 503 "
        "with Retry-After",
        full and refused_busy(fifth) and after == before + 1,
        (full, fifth, before, after))
    tap("... while another address is served",
        other[0] == 200 and stdout_of(other[2]) == "6\n", other)
    tap("... and the 4 are answered",
        len(results) == 4 and all(r[0] == 200 for r in results), results)
    socks = idle_sockets(srv.port, 10, src="127.0.0.33")
    closed = [closed_by_server(s, 20) for s in socks[:6]]
    still = [not closed_by_server(s, 0.5) for s in socks[6:]]
    tap("10 idle connections from one address: its 6 oldest are closed, "
        "the 4 newest stay open",
        len(socks) == 10 and all(closed) and all(still), (closed, still))
    for s in socks:
        s.close()


def test_idle_timeout():
    srv = Server("--idle-timeout", "2", "--request-timeout", "120")
    try:
        s = idle_sockets(srv.port, 1)[0]
        tap("a connection that sends nothing is closed after --idle-timeout "
            "(2 s; --request-timeout is 120 s)", closed_by_server(s, 60))
        s.close()
        s = idle_sockets(srv.port, 1)[0]
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        s.settimeout(WAIT)
        first = s.recv(4096)
        tap("a kept-alive connection is closed after --idle-timeout once "
            "answered", first.startswith(b"HTTP/1.1 200") and
            closed_by_server(s, 60), first[:100])
        s.close()
    finally:
        tap("the server exits 0 on SIGTERM", srv.stop() == 0, srv.err[-20:])


def main():
    srv = Server("--max-connections", "8", "--max-connections-per-address",
                 "4", "--max-concurrency", "2", "--max-queued", "6")
    try:
        until = time.monotonic() + 120
        while srv.request("GET", "/readyz")[0] != 200 and \
                time.monotonic() < until:
            time.sleep(0.1)
        test_idle_flood(srv)
        test_slowloris(srv)
        test_cap(srv)
        test_per_address(srv)
        tap("the server exits 0 on SIGTERM", srv.stop() == 0, srv.err[-20:])
    finally:
        if srv.proc.poll() is None:
            srv.proc.kill()
    test_idle_timeout()
    return plan()


if __name__ == "__main__":
    sys.exit(main())
