# SPDX-License-Identifier: Apache-2.0
"""tests/http/test_http.py - `pyward serve --http` against bad input.

Every bad request gets its status while the server keeps serving others:
malformed HTTP, oversized bodies, wrong content types, missing or wrong
tokens, a bad Origin, a slow (half-open) client, a flood of connections;
tokens reloaded on SIGHUP, SIGTERM draining a run in flight, the
operations endpoints, the access log, and the server's fds and children
counted before and after.  Loopback only; TAP on stdout.
"""
import base64
import http.client
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from serve_client import HttpServer, all_read, busy_vproc  # noqa: E402 - the tests' own module
from bigprog import big_program  # noqa: E402

PYWARD = os.environ.get("PYWARD", "./pyward")
TOKEN = "robust-token-%d" % os.getpid()
TOKEN2 = "second-token-%d" % os.getpid()
ORIGIN_OK = "http://localhost:3000"

_n = 0
_failed = 0


def tap(name, cond, detail=""):
    global _n, _failed
    _n += 1
    if cond:
        print("ok %d - %s" % (_n, name), flush=True)
    else:
        _failed += 1
        print("not ok %d - %s" % (_n, name), flush=True)
        for line in str(detail).splitlines():
            print("# " + line, flush=True)


class Server(HttpServer):
    """One `pyward serve --http 127.0.0.1:0` with a token file of TOKEN
    and TOKEN2, its stderr collected."""

    READY_S = 30
    STOP_S = 30

    def __init__(self, *args):
        self.dir = tempfile.mkdtemp(prefix="pyward-http-")
        self.tokens = os.path.join(self.dir, "tokens")
        with open(self.tokens, "w") as f:
            f.write(TOKEN + "\n" + TOKEN2 + "\n")
        super().__init__(PYWARD, ["--auth-token-file", self.tokens, *args])

    def log(self):
        return "".join(self.err)

    def conn(self, timeout=30):
        if getattr(self, "tls", None) is not None:
            return http.client.HTTPSConnection("127.0.0.1", self.port,
                                               timeout=timeout,
                                               context=self.tls)
        return http.client.HTTPConnection("127.0.0.1", self.port,
                                          timeout=timeout)

    def request(self, method, path, body=None, headers=None, token=TOKEN):
        h = {"Content-Type": "application/json",
             "Accept": "application/json, text/event-stream"}
        if token is not None:
            h["Authorization"] = "Bearer " + token
        h.update(headers or {})
        c = self.conn()
        try:
            if isinstance(body, (dict, list)):
                body = json.dumps(body)
            c.request(method, path, body=body, headers=h)
            r = c.getresponse()
            return r.status, dict(r.getheaders()), r.read()
        finally:
            c.close()

    def wait_ready(self, timeout=120):
        """Until /readyz says the zygote's spares are warm: before that a
        run waits in the queue for them, and counts as queued."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.request("GET", "/readyz", token=None)[0] == 200:
                return
            time.sleep(0.05)
        raise RuntimeError("/readyz not 200 after %d s" % timeout)

    def fds(self):
        return len(os.listdir("/proc/%d/fd" % self.proc.pid))

    def children(self):
        out = subprocess.run(["ps", "-o", "pid=", "--ppid",
                              str(self.proc.pid)],
                             capture_output=True, text=True).stdout
        return len(out.split())


def tap_stop(name, srv):
    """A point: SRV exits 0 on SIGTERM (on failure, its status and the
    end of its stderr: a sanitizer's report lands there).  The server may
    take its whole grace (30 s by default) to drain, so the wait is longer
    than that; how long it took is noted in the log either way."""
    t0 = time.monotonic()
    rc = srv.stop(timeout=45)
    took = time.monotonic() - t0
    if rc != 0:
        srv.reader.join(5)  # the reader thread takes the rest of stderr
    tap(name, rc == 0, "exit status %r\n%s" % (rc, srv.log()[-4000:]))
    print("# stopped in %.1f s" % took, flush=True)


def call(code, rid=1, meta=None):
    params = {"name": "execute_code", "arguments": {"code": code}}
    if meta:
        params["_meta"] = meta
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call",
            "params": params}


def stdout_of(body):
    return json.loads(body)["result"]["structuredContent"]["stdout"]


def raw(port, data, timeout=10):
    """Send DATA on a fresh socket; the status line that comes back."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        s.sendall(data)
        got = b""
        while b"\r\n" not in got:
            chunk = s.recv(4096)
            if not chunk:
                break
            got += chunk
        return got.split(b"\r\n", 1)[0].decode("latin-1")
    finally:
        s.close()


def wait_for(cond, timeout=10):
    """Poll COND until it is true (its value) or TIMEOUT seconds pass
    (said in the log: the point that follows shows what went wrong)."""
    deadline = time.monotonic() + timeout
    while True:
        got = cond()
        if got:
            return got
        if time.monotonic() > deadline:
            print("# waited %g s in vain" % timeout, flush=True)
            return got
        time.sleep(0.02)


def accepted(srv, backlog=False):
    """The connections on SRV's port the server has accepted (their
    sockets are in its fd table), with BACKLOG those it has not closed
    yet (established or closed by the client) too: [(TCP state, bytes
    unread)]."""
    fd_dir = "/proc/%d/fd" % srv.proc.pid
    mine = set()
    for fd in os.listdir(fd_dir):
        try:
            mine.add(os.readlink(os.path.join(fd_dir, fd)))
        except OSError:
            pass
    out = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue  # no IPv6
        with open(table) as f:
            for line in f.readlines()[1:]:
                x = line.split()
                if (int(x[1].rsplit(":", 1)[1], 16) == srv.port and
                        x[3] != "0A" and ("socket:[%s]" % x[9] in mine or
                         backlog and x[3] in ("01", "03", "08"))):
                    out.append((x[3], int(x[4].split(":")[1], 16)))
    return out


def settled_spares(srv, timeout=10):
    """The prepared spares of SRV's pools once their count has held for a
    second (each holds fds of the server's: the fd count is compared at
    one count of them)."""
    until = time.time() + timeout
    last, since = None, time.time()
    while time.time() < until:
        n = metric(srv, "pyward_spares")
        if n != last:
            last, since = n, time.time()
        elif time.time() - since >= 1.0:
            break
        time.sleep(0.1)
    return last


def wait_stable(srv, want_fds, want_children, spares, timeout=10):
    until = time.time() + timeout
    while time.time() < until:
        if srv.fds() <= want_fds and srv.children() <= want_children and \
                metric(srv, "pyward_spares") == spares:
            return True
        time.sleep(0.1)
    return False


def test_statuses(srv):
    ok = call("print(6 * 7)")
    st, _, body = srv.request("POST", "/mcp", ok)
    tap("a good call is answered 200 with its output",
        st == 200 and stdout_of(body) == "42\n", (st, body))
    cases = [
        ("no token -> 401", dict(token=None), 401),
        ("a wrong token -> 401", dict(token="nope"), 401),
        ("a bad Origin -> 403",
         dict(headers={"Origin": "http://evil.example"}), 403),
        ("a null Origin -> 403", dict(headers={"Origin": "null"}), 403),
        ("Content-Type text/plain -> 415",
         dict(headers={"Content-Type": "text/plain"}), 415),
        ("Accept text/html only -> 406",
         dict(headers={"Accept": "text/html"}), 406),
    ]
    for name, kw, want in cases:
        st, hdrs, _ = srv.request("POST", "/mcp", ok, **kw)
        tap(name, st == want, (st, hdrs))
    st, hdrs, _ = srv.request("POST", "/mcp", ok, token=None)
    tap("401 names the Bearer scheme",
        "Bearer" in hdrs.get("WWW-Authenticate", ""), hdrs)
    st, _, _ = srv.request("POST", "/mcp", ok,
                           headers={"Origin": ORIGIN_OK})
    tap("a loopback Origin is allowed", st == 200, st)
    st, _, body = srv.request("POST", "/mcp", "{not json")
    tap("a body that is not JSON -> 400 with a parse error",
        st == 400 and json.loads(body)["error"]["code"] == -32700,
        (st, body))
    st, _, body = srv.request("POST", "/mcp", "42")
    tap("a JSON number -> 400 invalid request",
        st == 400 and json.loads(body)["error"]["code"] == -32600,
        (st, body))
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    st, _, body = srv.request("POST", "/mcp", note)
    tap("a notification -> 202 without a body", st == 202 and body == b"",
        (st, body))
    resp = {"jsonrpc": "2.0", "id": 9, "result": {}}
    st, _, _ = srv.request("POST", "/mcp", resp)
    tap("a response -> 202", st == 202, st)
    st, _, body = srv.request(
        "POST", "/mcp", {"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
        headers={"MCP-Protocol-Version": "1999-01-01"})
    tap("an unknown MCP-Protocol-Version -> 400", st == 400, (st, body))
    test_mirrored_headers(srv)
    meta = {"io.modelcontextprotocol/protocolVersion": "2099-01-01",
            "io.modelcontextprotocol/clientCapabilities": {}}
    st, _, body = srv.request(
        "POST", "/mcp", {"jsonrpc": "2.0", "id": 5, "method": "tools/list",
                         "params": {"_meta": meta}})
    err = json.loads(body).get("error", {}) if body else {}
    tap("an unknown _meta protocol version -> 400 with -32022 and its id",
        st == 400 and err.get("code") == -32022 and
        json.loads(body)["id"] == 5, (st, body))
    batch = [call("print(12)", 21), note,
             {"jsonrpc": "2.0", "id": 22, "method": "tools/list"}]
    st, _, body = srv.request("POST", "/mcp", batch)
    got = json.loads(body) if st == 200 else []
    tap("a batch (2025-03-26) -> 200 with one answer per request",
        st == 200 and sorted(x["id"] for x in got) == [21, 22] and
        stdout_of(json.dumps(next(x for x in got if x["id"] == 21)))
        == "12\n", (st, body[:300]))
    st, _, body = srv.request("POST", "/mcp", [note, note])
    tap("a batch of notifications -> 202", st == 202 and body == b"",
        (st, body))
    st, hdrs, _ = srv.request("GET", "/mcp")
    tap("GET /mcp -> 405 Allow: POST",
        st == 405 and hdrs.get("Allow") == "POST", (st, hdrs))
    st, _, _ = srv.request("DELETE", "/mcp")
    tap("DELETE /mcp -> 405", st == 405, st)
    st, _, _ = srv.request("GET", "/nowhere")
    tap("an unknown path -> 404", st == 404, st)
    st, _, body = srv.request("POST", "/mcp", call("print(1)"))
    tap("the server still answers after all that",
        st == 200 and stdout_of(body) == "1\n", (st, body))


def test_body_cap(srv):
    big = "x" * (300 * 1024)
    st, _, _ = srv.request("POST", "/mcp", call("s = '%s'" % big))
    tap("a body over --max-body -> 413 (Content-Length)", st == 413, st)
    # The same without a length: chunked, cut while it is read.
    c = srv.conn()
    c.putrequest("POST", "/mcp")
    c.putheader("Authorization", "Bearer " + TOKEN)
    c.putheader("Content-Type", "application/json")
    c.putheader("Transfer-Encoding", "chunked")
    c.endheaders()
    st = None
    try:
        chunk = b"a" * 65536
        for _ in range(6):
            c.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        c.send(b"0\r\n\r\n")
        st = c.getresponse().status
    except OSError as e:
        st = str(e)
    finally:
        c.close()
    tap("a chunked body over --max-body -> 413", st == 413, st)


def test_malformed(srv):
    port = srv.port
    line = raw(port, b"GARBAGE\r\n\r\n")
    tap("a request line without a target: 400 or the connection closed",
        line == "" or " 400 " in line, line)
    line = raw(port, b"GET /healthz HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n")
    tap("an unknown HTTP version -> 505", " 505 " in line, line)
    line = raw(port, b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
               b"abc\r\n\r\n")
    tap("a Content-Length that is not a number -> 400", " 400 " in line,
        line)
    line = raw(port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " +
               b"a" * 100000 + b"\r\n\r\n")
    tap("a header block over the memory limit -> 431 or 413",
        " 431 " in line or " 413 " in line or " 400 " in line, line)
    st, _, body = srv.request("POST", "/mcp", call("print(3)"))
    tap("served after malformed HTTP", st == 200, (st, body))


def test_slow_client(srv):
    """A client that sends half its headers and stops is cut after
    --request-timeout, and others are served meanwhile."""
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=20)
    s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: app")
    t0 = time.time()
    st, _, body = srv.request("POST", "/mcp", call("print(4)"))
    tap("another client is served while a half-open one waits",
        st == 200 and time.time() - t0 < 5, (st, body))
    s.settimeout(15)
    try:
        got = s.recv(100)
    except OSError:
        got = b""
    took = time.time() - t0
    tap("the half-open client is cut after the request timeout",
        got == b"" and 1 < took < 10, (got, took))
    s.close()


def metric(srv, name):
    _, _, body = srv.request("GET", "/metrics")
    m = re.search(r"^%s (\d+)$" % re.escape(name), body.decode(), re.M)
    return int(m.group(1)) if m else None


def test_sse_gone(srv):
    """A client that drops its SSE answer has its run killed."""
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
    body = json.dumps(call("import time\ntime.sleep(20)", 31,
                           {"progressToken": "t"})).encode()
    s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " +
              TOKEN.encode() + b"\r\nContent-Type: application/json\r\n"
              b"Accept: application/json, text/event-stream\r\n"
              b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    head = s.recv(4096)
    tap("a call with a progressToken is answered as an SSE stream",
        b"text/event-stream" in head and b" 200 " in head, head[:200])
    running = metric(srv, "pyward_runs_in_flight")
    s.close()
    until = time.time() + 5
    while time.time() < until and metric(srv, "pyward_runs_in_flight"):
        time.sleep(0.1)
    tap("its client gone, the run is killed (in flight %s -> 0)" % running,
        running == 1 and metric(srv, "pyward_runs_in_flight") == 0)


def test_json_gone(srv):
    """A client that drops a plain JSON request has its run killed."""
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
    body = json.dumps(call("import time\ntime.sleep(20)", 32)).encode()
    s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " +
              TOKEN.encode() + b"\r\nContent-Type: application/json\r\n"
              b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    running = wait_for(lambda: metric(srv, "pyward_runs_in_flight"))
    s.close()
    until = time.time() + 5
    while time.time() < until and metric(srv, "pyward_runs_in_flight"):
        time.sleep(0.1)
    tap("a client gone while its JSON answer waits has its run killed "
        "(in flight %s -> 0)" % running,
        running == 1 and metric(srv, "pyward_runs_in_flight") == 0)


def tool(srv, name, args, token=TOKEN):
    st, _, body = srv.request("POST", "/mcp", {
        "jsonrpc": "2.0", "id": 40, "method": "tools/call",
        "params": {"name": name, "arguments": args}}, token=token)
    return st, json.loads(body)["result"] if st == 200 else body


def test_sessions(srv):
    """A session made over HTTP belongs to its token: state is kept
    across POSTs, and another token's caller cannot reach it."""
    st, r = tool(srv, "create_session", {"timeout": 10})
    sid = r["structuredContent"]["session_id"] if st == 200 else None
    tool(srv, "execute_code", {"code": "x = 41", "session_id": sid})
    st, r = tool(srv, "execute_code", {"code": "print(x + 1)",
                                       "session_id": sid})
    tap("a session keeps its state across HTTP requests",
        st == 200 and r["structuredContent"]["stdout"] == "42\n", r)
    st, r = tool(srv, "execute_code", {"code": "print(x)",
                                       "session_id": sid}, token=TOKEN2)
    tap("another token's caller cannot reach the session",
        st == 200 and r.get("isError") and
        "unknown session" in json.dumps(r), r)
    st, r = tool(srv, "fork_session", {"session_id": sid}, token=TOKEN2)
    tap("another token's caller cannot copy the session: 'unknown session'",
        st == 200 and r.get("isError") and
        "unknown session" in json.dumps(r), r)
    st, r = tool(srv, "fork_session", {"session_id": sid})
    copy = (r.get("structuredContent") or {}).get("session_id")
    st2, r2 = tool(srv, "execute_code", {"code": "print(x)",
                                         "session_id": copy or ""})
    st3, r3 = tool(srv, "execute_code", {"code": "print(x)",
                                         "session_id": copy or ""},
                   token=TOKEN2)
    tap("its owner copies it: the copy is the owner's alone",
        copy and st2 == 200 and r2["structuredContent"]["stdout"] == "41\n"
        and r3.get("isError") and "unknown session" in json.dumps(r3),
        [r, r2, r3])
    tool(srv, "close_session", {"session_id": copy or ""})
    st, r = tool(srv, "close_session", {"session_id": sid})
    tap("its owner closes it", st == 200 and not r.get("isError"), r)


def b64_param(text):
    """TEXT as the base64 form of an Mcp-Param-* header."""
    return "=?base64?%s?=" % base64.b64encode(text.encode()).decode()


def test_mirrored_headers(srv):
    """SEP-2243: Mcp-Method, Mcp-Name and MCP-Protocol-Version, when sent,
    must agree with the body, or 400 with -32020 (HeaderMismatch) and the
    request's id, before anything runs; agreeing ones pass."""
    def post(msg, headers):
        st, _, body = srv.request("POST", "/mcp", msg, headers=headers)
        return st, json.loads(body) if body else {}

    def refused(name, st, r, rid):
        err = r.get("error", {})
        tap(name + " -> 400, -32020 and the request's id",
            st == 400 and err.get("code") == -32020 and r.get("id") == rid and
            "header mismatch" in err.get("message", ""), (st, r))
    refused("an Mcp-Method header that differs from the body",
            *post({"jsonrpc": "2.0", "id": 4, "method": "tools/list"},
                  {"Mcp-Method": "tools/call"}), 4)
    refused("an Mcp-Name header that differs from the tool called",
            *post(call("print('ran')", 6),
                  {"Mcp-Method": "tools/call", "Mcp-Name": "validate_code"}),
            6)
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}
    refused("an MCP-Protocol-Version header that differs from _meta's",
            *post(call("print('ran')", 7, meta),
                  {"MCP-Protocol-Version": "2025-06-18"}), 7)
    st, r = post(call("print('agreed')", 8, meta),
                 {"Mcp-Method": "tools/call", "Mcp-Name": "execute_code",
                  "MCP-Protocol-Version": "2026-07-28"})
    tap("Mcp-Method, Mcp-Name and MCP-Protocol-Version that agree with the "
        "body -> the call runs",
        st == 200 and r.get("result", {}).get("structuredContent", {})
        .get("stdout") == "agreed\n", (st, r))


def test_session_header(srv):
    """SEP-2243: session_id carries x-mcp-header Session-Id, and an
    Mcp-Param-Session-Id header must agree with the body's session_id
    (a load balancer may have routed on it), or the request is refused
    with 400 and -32020 before anything runs."""
    st, _, body = srv.request("POST", "/mcp", {
        "jsonrpc": "2.0", "id": 50, "method": "tools/list"})
    tools = {t["name"]: t for t in json.loads(body)["result"]["tools"]}

    def marked(name):
        prop = tools[name]["inputSchema"]["properties"]["session_id"]
        return prop.get("x-mcp-header") == "Session-Id"
    tap("execute_code, fork_session and close_session mark session_id "
        "x-mcp-header "
        "Session-Id", st == 200 and marked("execute_code") and
        marked("close_session") and marked("fork_session"), body[:300])
    st, r = tool(srv, "create_session", {})
    sid = r["structuredContent"]["session_id"] if st == 200 else "none"

    def run(code, headers, args=None, rid=51):
        a = {"code": code, "session_id": sid} if args is None else args
        st, _, body = srv.request("POST", "/mcp", {
            "jsonrpc": "2.0", "id": rid, "method": "tools/call",
            "params": {"name": "execute_code", "arguments": a}},
            headers=headers)
        return st, json.loads(body) if body else {}
    st, r = run("x = 1", {"Mcp-Param-Session-Id": sid})
    tap("a matching Mcp-Param-Session-Id is accepted",
        st == 200 and not r["result"].get("isError"), (st, r))
    st, r = run("x += 1", {"Mcp-Param-Session-Id": b64_param(sid)})
    tap("a matching header in the =?base64?...?= form is accepted",
        st == 200 and not r["result"].get("isError"), (st, r))
    st, r = run("x += 1", {})
    tap("a call without the header is accepted (routing falls back to "
        "the body)", st == 200 and not r["result"].get("isError"), (st, r))

    def refused(name, st, r, rid=51):
        err = r.get("error", {})
        tap(name + " -> 400, -32020 and the request's id",
            st == 400 and err.get("code") == -32020 and r.get("id") == rid,
            (st, r))
    other = sid[:-1] + ("0" if sid[-1] != "0" else "1")
    refused("a header naming another session",
            *run("x += 100", {"Mcp-Param-Session-Id": other}))
    refused("a mismatch with the header name in lower case",
            *run("x += 100", {"mcp-param-session-id": other}))
    refused("a base64 header that decodes to another session",
            *run("x += 100", {"Mcp-Param-Session-Id": b64_param(other)}))
    refused("a header whose base64 is broken",
            *run("x += 100", {"Mcp-Param-Session-Id": "=?base64?*?="}))
    refused("a header with a byte outside ASCII",
            *run("x += 100", {"Mcp-Param-Session-Id": sid.encode() +
                              b"\xff"}))
    refused("a header without the session_id argument",
            *run("print(1)", {"Mcp-Param-Session-Id": sid},
                 args={"code": "print(1)"}))
    refused("a header with a null session_id",
            *run("print(1)", {"Mcp-Param-Session-Id": sid},
                 args={"code": "print(1)", "session_id": None}))
    st, _, body = srv.request("POST", "/mcp", {
        "jsonrpc": "2.0", "id": 52, "method": "tools/call",
        "params": {"name": "close_session",
                   "arguments": {"session_id": other}}},
        headers={"Mcp-Param-Session-Id": sid})
    refused("close_session with a header naming another session", st,
            json.loads(body), 52)
    req = json.dumps({"jsonrpc": "2.0", "id": 53, "method": "tools/call",
                      "params": {"name": "execute_code", "arguments": {
                          "code": "x += 100", "session_id": sid}}})
    line = raw(srv.port, (
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Authorization: Bearer %s\r\nContent-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\n"
        "Mcp-Param-Session-Id: %s\r\nMcp-Param-Session-Id: %s\r\n"
        "Content-Length: %d\r\nConnection: close\r\n\r\n%s"
        % (TOKEN, sid, sid, len(req), req)).encode())
    tap("two Mcp-Param-Session-Id headers -> 400", " 400 " in line, line)
    batch = [{"jsonrpc": "2.0", "id": 55 + i, "method": "tools/call",
              "params": {"name": "execute_code",
                         "arguments": {"code": "x += 100", "session_id": s}}}
             for i, s in enumerate([sid, other])]
    st, _, body = srv.request("POST", "/mcp", batch,
                              headers={"Mcp-Param-Session-Id": sid})
    err = json.loads(body).get("error", {}) if body else {}
    tap("a batch with one tools/call the header does not name -> 400, "
        "-32020", st == 400 and err.get("code") == -32020, (st, body))
    st, _, body = srv.request(
        "POST", "/mcp", {"jsonrpc": "2.0", "id": 54, "method": "tools/list"},
        headers={"Mcp-Param-Session-Id": other})
    tap("the header on a request other than tools/call is ignored",
        st == 200, (st, body[:200]))
    st, r = run("print(x)", {"Mcp-Param-Session-Id": sid})
    out = r.get("result", {}).get("structuredContent", {}).get("stdout")
    tap("no refused call ran: the session's x is 3", out == "3\n", (st, r))
    tool(srv, "close_session", {"session_id": sid})


def test_flood(srv):
    """More connections than --max-connections from one address: each
    request sent is answered (400 for its body, or 503 with Retry-After
    past the cap), or its connection was closed to make room before the
    request came; then everything is served again."""
    socks = []
    for _ in range(40):
        try:
            socks.append(socket.create_connection(("127.0.0.1", srv.port),
                                                  timeout=5))
        except OSError:
            break
    for s in socks[:30]:
        try:
            s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      b"Authorization: Bearer " + TOKEN.encode() +
                      b"\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 2\r\n\r\n{}")
        except OSError:
            pass
    statuses = []
    for s in socks[:30]:
        try:
            s.settimeout(10)
            statuses.append(s.recv(4096))
        except OSError:
            statuses.append(b"")
    answered = [x for x in statuses if x]
    good = all(b" 400 " in x.split(b"\r\n", 1)[0] or
               (b" 503 " in x.split(b"\r\n", 1)[0] and
                b"Retry-After:" in x) for x in answered)
    # Past the caps a new connection closes the one that has waited
    # longest without a request: on a quiet host every one of the 30 may
    # be closed before its request comes, which is an answer too.
    tap("a flood of connections: each request answered (400, or 503 with "
        "Retry-After) or its connection closed",
        len(socks) == 40 and good,
        [x.split(b"\r\n", 1)[0] for x in statuses])
    print("# %d answered, %d closed" % (len(answered),
                                        len(statuses) - len(answered)))
    for s in socks:
        s.close()
    wait_for(lambda: not accepted(srv, True))  # the server closed them all
    st, _, body = srv.request("POST", "/mcp", call("print(5)"))
    tap("served after the flood", st == 200 and stdout_of(body) == "5\n",
        (st, body))


def test_retry_after(srv):
    st, hdrs, _ = srv.request("GET", "/metrics")
    tap("/metrics needs the token too", st == 200, st)
    st, hdrs, _ = srv.request("GET", "/metrics", token=None)
    tap("/metrics without a token -> 401", st == 401, st)


def test_queue_full():
    srv = Server("--max-concurrency", "1", "--max-queued", "1")
    try:
        srv.wait_ready()
        results = []

        def one(k):
            results.append(srv.request(
                "POST", "/mcp", call("import time\ntime.sleep(1)"
                                     if k == 0 else "print(%d)" % k, k)))

        # In turn, each once the server has taken the one before: the
        # first runs (a second), the second waits, the others find the
        # queue full.
        threads = [threading.Thread(target=one, args=(k,)) for k in range(4)]
        taken = [lambda: metric(srv, "pyward_runs_in_flight") == 1,
                 lambda: metric(srv, "pyward_queue_depth") == 1,
                 lambda: len(results) == 1, lambda: len(results) == 2]
        for t, cond in zip(threads, taken):
            t.start()
            wait_for(cond)
        for t in threads:
            t.join()
        codes = sorted(r[0] for r in results)
        busy = [r for r in results if r[0] == 503]
        tap("runs past --max-queued -> 503 with Retry-After",
            codes.count(200) == 2 and len(busy) == 2 and
            all(r[1].get("Retry-After") for r in busy), codes)
    finally:
        tap_stop("the server exits 0 on SIGTERM", srv)


def test_queue_together():
    """Requests that come in at the same moment: one takes the free run
    slot, one waits in the queue, only the one past --max-queued is
    refused (the free slot is not counted as a queued run)."""
    srv = Server("--max-concurrency", "1", "--max-queued", "1")
    conns = [srv.conn() for _ in range(3)]
    try:
        srv.wait_ready()
        wait_for(lambda: not accepted(srv, True))
        for c in conns:
            c.connect()
        wait_for(lambda: len(accepted(srv)) == 3)  # it has accepted all three
        h = {"Content-Type": "application/json",
             "Accept": "application/json, text/event-stream",
             "Authorization": "Bearer " + TOKEN}
        # Stopped, the server finds the three requests together when it
        # goes on, and reads them in one turn of its loop.
        os.kill(srv.proc.pid, signal.SIGSTOP)
        try:
            for k, c in enumerate(conns):
                c.request("POST", "/mcp", headers=h, body=json.dumps(
                    call("import time\ntime.sleep(0.3)\nprint(%d)" % k,
                         k + 1)))
            # The three requests wait unread in its sockets.
            wait_for(lambda: [n > 0 for _, n in accepted(srv)] == [True] * 3)
        finally:
            os.kill(srv.proc.pid, signal.SIGCONT)
        codes = sorted(c.getresponse().status for c in conns)
        tap("three requests at once, --max-concurrency 1 --max-queued 1: "
            "one runs, one waits, one is refused", codes == [200, 200, 503],
            codes)
    finally:
        for c in conns:
            c.close()
        tap_stop("the server exits 0 on SIGTERM", srv)


def test_ops(srv):
    st, _, body = srv.request("GET", "/healthz", token=None)
    tap("/healthz -> 200 without a token", st == 200 and body == b"ok\n",
        (st, body))
    st, _, body = srv.request("GET", "/readyz", token=None)
    tap("/readyz -> 200 once the zygote's spares are warm", st == 200,
        (st, body))
    st, _, body = srv.request("POST", "/healthz")
    tap("POST /healthz -> 405", st == 405, st)
    srv.request("POST", "/mcp", call("import os"))
    srv.request("POST", "/mcp", call("print(7)"))
    st, hdrs, body = srv.request("GET", "/metrics")
    text = body.decode()
    want = ['pyward_runs_total{status="ok"}',
            "pyward_run_seconds_bucket{le=\"+Inf\"}",
            "pyward_run_seconds_count", 'pyward_blocked_total{layer="validator"} ',
            "pyward_queue_depth 0", "pyward_spares ",
            "pyward_runs_in_flight 0", "# TYPE pyward_run_seconds histogram"]
    missing = [w for w in want if w not in text]
    tap("/metrics in Prometheus text: runs, latency, blocked, queue, spares",
        st == 200 and not missing and
        hdrs.get("Content-Type", "").startswith("text/plain"), missing)
    m = re.search(r'pyward_blocked_total\{layer="validator"\} (\d+)', text)
    tap("/metrics counts a run the validator refused",
        m is not None and int(m.group(1)) >= 1, text[:400])
    test_metrics_sessions(srv)


def test_metrics_sessions(srv):
    """/metrics counts sessions: open now, created, ended by reason (two
    were made and closed by test_sessions: a session and its copy)."""
    st, r = tool(srv, "create_session", {"timeout": 10})
    sid = r["structuredContent"]["session_id"] if st == 200 else None
    text = srv.request("GET", "/metrics")[2].decode()
    want = ["# TYPE pyward_sessions gauge",
            "# TYPE pyward_sessions_created_total counter",
            "# TYPE pyward_sessions_ended_total counter",
            "# HELP pyward_sessions_ended_total "]
    got = (metric(srv, "pyward_sessions"),
           metric(srv, "pyward_sessions_created_total"),
           metric(srv, 'pyward_sessions_ended_total{reason="closed"}'),
           metric(srv, 'pyward_sessions_ended_total{reason="idle"}'))
    tap("/metrics: sessions open, created and ended by reason",
        got == (1, 3, 2, 0) and all(w in text for w in want),
        (got, [w for w in want if w not in text]))
    tool(srv, "close_session", {"session_id": sid})
    got = (metric(srv, "pyward_sessions"),
           metric(srv, 'pyward_sessions_ended_total{reason="closed"}'))
    tap("/metrics: a closed session is counted ended, none open",
        got == (0, 3), got)


def counters_without_samples(text):
    """The counters /metrics declares (# TYPE NAME counter) that have no
    sample line.  The per-client counters (pyward_client_*) are left out:
    their series are the clients seen, none before the first request."""
    declared = re.findall(r"^# TYPE (\S+) counter$", text, re.M)
    return [n for n in declared if not n.startswith("pyward_client_")
            and not re.search(r"^%s(\{[^}]*\})? \d+$" % re.escape(n), text,
                              re.M)]


def test_quiet_server():
    """A server as a cluster runs it, at the default log level and with
    --max-sessions 0: every counter is exported, at 0, before the first
    run; /readyz's start-up 503s are not counted as server errors; the
    probes leave no access-log line (--log-probes, on another server, makes
    them); the session tools answer a tool error that says sessions are
    off, and execute_code runs."""
    srv = Server("--max-sessions", "0")
    try:
        first = srv.request("GET", "/metrics")[2].decode()
        runs = dict(re.findall(r'^pyward_runs_total\{status="(\w+)"\} (\d+)$',
                               first, re.M))
        tap("/metrics before any run: every counter has samples",
            not counters_without_samples(first),
            counters_without_samples(first))
        tap("/metrics before any run: pyward_runs_total at 0 for each "
            "status", set(runs) >= {"ok", "error", "timeout", "memory_limit",
                                    "output_limit", "killed",
                                    "internal_error"}
            and set(runs.values()) == {"0"}, runs)
        unready = 0
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            st = srv.request("GET", "/readyz", token=None)[0]
            if st == 200:
                break
            unready += st == 503
            time.sleep(0.02)
        srv.request("GET", "/healthz", token=None)
        text = srv.request("GET", "/metrics")[2].decode()
        got = (metric(srv, 'pyward_http_requests_total{code="5xx"}'),
               metric(srv, 'pyward_http_not_ready_total{reason="starting"}'))
        print("# /readyz answered 503 %d times while starting" % unready)
        tap("/readyz's start-up 503s are counted apart, not as 5xx",
            got == (0, unready), (got, unready))
        tap("no pyward_sessions metrics on a server without sessions",
            "pyward_sessions" not in text, text[-600:])
        for name, args in [("create_session", {}),
                           ("execute_code", {"code": "print(1)",
                                             "session_id": "ps-x-00"}),
                           ("list_sessions", {})]:
            st, r = tool(srv, name, args)
            tap("--max-sessions 0: %s is a tool error saying sessions "
                "are disabled" % name,
                st == 200 and r.get("isError") and
                "sessions are disabled on this server" in json.dumps(r), r)
        st, r = tool(srv, "execute_code", {"code": "print(6 * 7)"})
        tap("--max-sessions 0: execute_code without a session runs",
            st == 200 and r["structuredContent"]["stdout"] == "42\n", r)
        log = srv.log()
        paths = [json.loads(x).get("path") for x in log.splitlines()
                 if x.startswith("{")]
        tap("the probes are not in the access log, other requests are",
            "/readyz" not in paths and "/healthz" not in paths and
            "/metrics" in paths and "/mcp" in paths, paths)
        tap_stop("the server exits 0 on SIGTERM", srv)
    finally:
        if srv.proc.poll() is None:
            srv.proc.kill()
    try:
        bad = subprocess.run([PYWARD, "serve", "--max-sessions", "-1"],
                             stdin=subprocess.DEVNULL, capture_output=True,
                             text=True, timeout=30)
        tap("--max-sessions -1 is refused", bad.returncode == 2 and
            "--max-sessions" in bad.stderr, (bad.returncode, bad.stderr))
    except subprocess.TimeoutExpired as e:
        tap("--max-sessions -1 is refused", False, e)


def hup(srv):
    """SIGHUP, and wait until the server says it has read the file."""
    seen = srv.log().count("SIGHUP: ")
    srv.proc.send_signal(signal.SIGHUP)
    wait_for(lambda: srv.log().count("SIGHUP: ") > seen)


def test_sighup(srv):
    with open(srv.tokens, "w") as f:
        f.write("new-token-after-hup\n")
    hup(srv)
    st_old, _, _ = srv.request("POST", "/mcp", call("print(8)"))
    st_new, _, _ = srv.request("POST", "/mcp", call("print(8)"),
                               token="new-token-after-hup")
    tap("SIGHUP reloads the tokens: the old is refused, the new taken",
        st_old == 401 and st_new == 200, (st_old, st_new))
    with open(srv.tokens, "w") as f:
        f.write("\n# nothing\n")
    hup(srv)
    st, _, _ = srv.request("POST", "/mcp", call("print(9)"),
                           token="new-token-after-hup")
    tap("a token file left empty keeps the tokens in force", st == 200, st)
    with open(srv.tokens, "w") as f:
        f.write(TOKEN + "\n")
    hup(srv)


def test_drain():
    srv = Server("--grace", "10")
    srv2 = Server("--grace", "1", "--log-probes")  # warms meanwhile
    got = {}

    def run():
        got["r"] = srv.request(
            "POST", "/mcp", call("import time\ntime.sleep(1.5)\nprint(10)"))

    def refused():
        try:
            socket.create_connection(("127.0.0.1", srv.port),
                                     timeout=2).close()
            return False
        except OSError:
            return True

    t = threading.Thread(target=run)
    t.start()
    wait_for(lambda: metric(srv, "pyward_runs_in_flight"), 60)
    t0 = time.time()
    srv.proc.send_signal(signal.SIGTERM)
    tap("after SIGTERM new connections are refused",
        wait_for(refused, 5) and "r" not in got)  # while the run drains
    t.join(20)
    st, _, body = got.get("r", (None, None, b""))
    tap("SIGTERM lets the run in flight finish and answers it",
        st == 200 and stdout_of(body) == "10\n", (st, body))
    code = srv.stop()
    tap("then the server exits 0", code == 0 and time.time() - t0 < 8,
        (code, time.time() - t0))
    srv.reader.join(5)
    log = srv.log()
    tap("the drain is logged: its start with the run it waits for, its end",
        re.search(r"^pyward: signal 15: draining for up to 10 s \(1 runs in "
                  r"flight, 0 queued, 1 requests", log, re.M) and
        re.search(r"^pyward: drained in [0-9.]+ s, every request answered "
                  r"\(0 runs in flight", log, re.M), log[-1500:])
    got2 = {}

    def long_run():
        got2["r"] = srv2.request(
            "POST", "/mcp", call("import time\ntime.sleep(20)"))

    srv2.wait_ready()
    t = threading.Thread(target=long_run)
    t.start()
    wait_for(lambda: metric(srv2, "pyward_runs_in_flight"), 60)
    t0 = time.time()
    code = srv2.stop()
    t.join(10)
    st = got2.get("r", (None,))[0]
    tap("a run past --grace is killed: 503, exit 0 within the grace",
        code == 0 and st == 503 and time.time() - t0 < 5,
        (code, st, time.time() - t0))
    srv2.reader.join(5)
    log = srv2.log()
    tap("a drain cut by --grace is logged with the run it stopped",
        re.search(r"^pyward: grace over after [0-9.]+ s: stopping what is "
                  r"left \(1 runs in flight", log, re.M), log[-1500:])
    paths = [json.loads(x).get("path") for x in log.splitlines()
             if x.startswith("{")]
    tap("--log-probes: /readyz is in the access log", "/readyz" in paths,
        paths)


def test_log(srv):
    log = srv.log()
    lines = [json.loads(x) for x in log.splitlines() if x.startswith("{")]
    lines = [x for x in lines if "event" not in x]  # the event log aside
    keys = {"time", "remote", "method", "path", "status", "duration_ms",
            "bytes"}
    tap("one JSON access-log line per request with its fields",
        len(lines) > 20 and all(keys <= set(x) for x in lines),
        log[-500:])
    tap("the access log holds no token and no code",
        TOKEN not in log and "new-token-after-hup" not in log and
        "print(" not in log and "time.sleep" not in log)


def test_refusals():
    """Configurations the server refuses to start with (status 2)."""
    cases = [
        ("a non-loopback address without tokens is refused",
         ["--http", "0.0.0.0:0"], "needs --auth-token-file"),
        ("--tls-cert without --tls-key is refused",
         ["--http", "127.0.0.1:0", "--tls-cert", "/nonexistent"],
         "go together"),
        ("a malformed --http is refused", ["--http", "localhost"],
         "HOST:PORT"),
        ("a token file that does not exist is refused",
         ["--http", "127.0.0.1:0", "--auth-token-file", "/nonexistent"],
         "nonexistent"),
    ]
    procs = [subprocess.Popen([PYWARD, "serve"] + args,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL)
             for _, args, _ in cases]  # all at once
    for (name, args, text), p in zip(cases, procs):
        err = p.communicate(timeout=60)[1].decode("utf-8", "replace")
        tap(name, p.returncode == 2 and text in err, (p.returncode, err))


def test_tls():
    """--tls-cert/--tls-key: HTTPS with a self-signed certificate."""
    if shutil.which("openssl") is None:
        print("ok %d - HTTPS # SKIP openssl not installed" % (_n + 1))
        return
    d = tempfile.mkdtemp(prefix="pyward-tls-")
    cert, key = os.path.join(d, "cert.pem"), os.path.join(d, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", key, "-out", cert, "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext",
                    "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    srv = Server("--tls-cert", cert, "--tls-key", key)
    try:
        srv.tls = ssl.create_default_context(cafile=cert)
        st, _, body = srv.request("POST", "/mcp", call("print(11)"))
        tap("HTTPS with --tls-cert/--tls-key answers a call",
            st == 200 and stdout_of(body) == "11\n", (st, body))
        line = raw(srv.port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        tap("plain HTTP to the HTTPS port gets no HTTP answer",
            not line.startswith("HTTP/1.1 200"), line)
    finally:
        tap_stop("the HTTPS server exits 0 on SIGTERM", srv)


BUSY = ("import time\nt = time.process_time()\n"
        "while time.process_time() - t < %g:\n    pass\nprint(input())")


def grade_call(busy, n, rid):
    tests = [{"name": "t%d" % i, "stdin": "%d\n" % i,
              "expected_stdout": "%d\n" % i} for i in range(n)]
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call",
            "params": {"name": "grade_code",
                       "arguments": {"code": BUSY % busy,
                                     "tests": {"tests": tests}}}}


def runs_in_flight(srv):
    _, _, body = srv.request("GET", "/metrics")
    m = re.search(rb"^pyward_runs_in_flight (\d+)", body, re.M)
    return int(m.group(1)) if m else -1


def cpu_ticks(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except OSError:
        return 0


def test_fair():
    """One token's grade_code of 30 busy tests does not hold up the
    others: /healthz (no token) and a second token's short execute_code,
    sent once the suite runs, are answered before it (the order of the
    answers, not their times, is checked).  Then a client that leaves in
    the middle of a suite has its runs killed."""
    srv = Server()
    try:
        srv.wait_ready()
        srv.request("POST", "/mcp", call("print(0)"))
        done = []
        lock = threading.Lock()
        answers = {}

        def one(name, *args, **kw):
            r = srv.request(*args, **kw)
            with lock:
                done.append(name)
                answers[name] = r

        grade = threading.Thread(target=one, args=(
            "grade", "POST", "/mcp", grade_call(0.3, 30, "g")))
        grade.start()
        for _ in range(400):
            if runs_in_flight(srv) > 0:
                break
            time.sleep(0.025)
        others = [
            threading.Thread(target=one, args=("healthz", "GET", "/healthz"),
                             kwargs={"token": None}),
            threading.Thread(target=one, args=(
                "short", "POST", "/mcp", call("print(6*7)", "s")),
                kwargs={"token": TOKEN2})]
        for t in others:
            t.start()
        for t in others + [grade]:
            t.join(300)
        short = answers.get("short")
        tap("a token's grade_code of 30 busy tests: /healthz and another "
            "token's execute_code are answered before it",
            done[-1:] == ["grade"] and len(done) == 3 and
            answers["healthz"][0] == 200 and short[0] == 200 and
            stdout_of(short[2]) == "42\n", (done, short))
        g = answers.get("grade")
        report = json.loads(g[2])["result"]["structuredContent"] if g else {}
        tap("that grade_code grades every test (AC, 30 of 30)",
            report.get("verdict") == "AC" and report.get("passed") == 30,
            g)
        # A client gone mid-suite: its runs are killed and its queued
        # tests dropped (no child keeps a test's busy loop going).
        c = srv.conn()
        c.request("POST", "/mcp", body=json.dumps(grade_call(3, 20, "gone")),
                  headers={"Content-Type": "application/json",
                           "Accept": "application/json, text/event-stream",
                           "Authorization": "Bearer " + TOKEN})
        for _ in range(400):
            if runs_in_flight(srv) > 0:
                break
            time.sleep(0.025)
        ran = runs_in_flight(srv)
        c.close()
        for _ in range(400):
            if runs_in_flight(srv) == 0:
                break
            time.sleep(0.025)
        kids = [int(x) for x in subprocess.run(
            ["ps", "-o", "pid=", "--ppid", str(srv.proc.pid)],
            capture_output=True, text=True).stdout.split()]
        before = {p: cpu_ticks(p) for p in kids}
        time.sleep(1)
        busy = [p for p in kids if cpu_ticks(p) - before[p] > 30]
        st, _, body = srv.request("POST", "/mcp", call("print(7)"))
        tap("a client gone in the middle of its grade_code: its runs are "
            "killed, the server answers the next request",
            ran > 0 and runs_in_flight(srv) == 0 and not busy and
            st == 200 and stdout_of(body) == "7\n",
            (ran, busy, st, body[:200]))
    finally:
        tap_stop("the server exits 0 on SIGTERM", srv)


def fair_round(srv, tool, args, vproc=False, short=None):
    """Send a token's TOOL call with ARGS (a long program's), then, once
    the server has read it (VPROC: once a validator process works on
    it), /healthz (no token) and a second token's SHORT call (execute_code
    of print(6*7) by default).  Returns (the names in the order their
    answers came, {name: (status, headers, body)}, the validator process
    found working or None)."""
    done = []
    lock = threading.Lock()
    answers = {}
    sent = threading.Event()

    def one(name, *args, **kw):
        r = srv.request(*args, **kw)
        with lock:
            done.append(name)
            answers[name] = r

    def big():
        c = srv.conn(120)
        body = {"jsonrpc": "2.0", "id": "v", "method": "tools/call",
                "params": {"name": tool, "arguments": args}}
        c.request("POST", "/mcp", body=json.dumps(body),
                  headers={"Content-Type": "application/json",
                           "Accept": "application/json, "
                                     "text/event-stream",
                           "Authorization": "Bearer " + TOKEN})
        sent.set()
        r = c.getresponse()
        with lock:
            done.append("big")
            answers["big"] = (r.status, None, r.read())
        c.close()

    v = threading.Thread(target=big)
    busy = None
    if vproc:
        busy, _ = busy_vproc(srv.proc.pid, v)
    else:
        v.start()
        sent.wait(60)
        wait_for(lambda: all_read(srv.port), 60)
    others = [
        threading.Thread(target=one, args=("healthz", "GET", "/healthz"),
                         kwargs={"token": None}),
        threading.Thread(target=one, args=(
            "short", "POST", "/mcp", short or call("print(6*7)", "s")),
            kwargs={"token": TOKEN2})]
    for t in others:
        t.start()
    for t in others + [v]:
        t.join(120)
    return done, answers, busy


def big_result(answers):
    """The result of the long call fair_round sent, or {}."""
    b = answers.get("big")
    return json.loads(b[2]).get("result", {}) if b and b[0] == 200 else {}


def turns_of_checks(srv):
    """A token's 8 validate_code of (different) 300 KB programs, sent at
    once and read by the server, then a second token's one: the names of
    the answers in the order they came ("a0".."a7", "b")."""
    order = []
    lock = threading.Lock()

    def check(name, token, code):
        body = {"jsonrpc": "2.0", "id": name, "method": "tools/call",
                "params": {"name": "validate_code",
                           "arguments": {"code": code}}}
        st, _, _ = srv.request("POST", "/mcp", body, token=token)
        with lock:
            order.append(name if st == 200 else name + "!")

    big = big_program()
    firsts = [threading.Thread(target=check,
                               args=("a%d" % i, TOKEN, big + "\n#%d" % i))
              for i in range(8)]
    for t in firsts:
        t.start()
    wait_for(lambda: all_read(srv.port), 60)
    second = threading.Thread(target=check, args=("b", TOKEN2, big + "\n#b"))
    second.start()
    for t in firsts + [second]:
        t.join(120)
    return order


def test_fair_validation():
    """A token's validate_code of a 300 KB program, once the server has
    read it, does not hold up the others: /healthz (no token) and a second
    token's short execute_code sent then are answered before it (the
    order of the answers is checked, not their times)."""
    srv = Server()
    try:
        srv.wait_ready()
        srv.request("POST", "/mcp", call("print(0)"))
        done, answers, _ = fair_round(srv, "validate_code",
                                      {"code": big_program()})
        short = answers.get("short")
        tap("a token's validate_code of a 300 KB program: /healthz and "
            "another token's execute_code are answered before it",
            done[-1:] == ["big"] and len(done) == 3 and
            answers["healthz"][0] == 200 and short[0] == 200 and
            stdout_of(short[2]) == "42\n", (done, short))
        tap("that validate_code finds the program valid",
            big_result(answers).get("structuredContent", {})
            .get("validation", {}).get("valid") is True, answers.get("big"))
        order = turns_of_checks(srv)
        tap("a token's 8 validate_code of 300 KB programs read, then a "
            "second token's one: the second token's check takes its turn "
            "before most of the first's (%s)" % " ".join(order),
            len(order) == 9 and "b" in order[:4], order)
        # A suite's checker program of 300 KB, on two tests: compiled by
        # a validator process, not on the loop.
        checker = ("import json\nd = json.loads(input())\n"
                   "print('AC' if d['output'] == d['expected'] else 'WA')\n" +
                   big_program() + "\n")
        suite = {"checker_code": checker,
                 "tests": [{"name": "t%d" % i, "stdin": "%d\n" % i,
                            "expected_stdout": "%d\n" % i,
                            "checker": "program"} for i in range(2)]}
        done, answers, busy = fair_round(
            srv, "grade_code", {"code": "print(input())", "tests": suite},
            vproc=True)
        short = answers.get("short")
        tap("a token's grade_code with a 300 KB checker program: a "
            "validator process compiles the checker, and /healthz and "
            "another token's execute_code are answered before the grade",
            busy is not None and done[-1:] == ["big"] and len(done) == 3 and
            answers["healthz"][0] == 200 and short[0] == 200 and
            stdout_of(short[2]) == "42\n", (busy, done, short))
        tap("that grade_code is AC on both tests, judged by its checker",
            big_result(answers).get("structuredContent", {})
            .get("verdict") == "AC", answers.get("big"))
    finally:
        tap_stop("the server exits 0 on SIGTERM", srv)
    srv = Server("--compat", "mcp-python-exec-sandbox")
    try:
        srv.wait_ready()
        run = {"jsonrpc": "2.0", "id": "s", "method": "tools/call",
               "params": {"name": "execute_python",
                          "arguments": {"script": "print(6*7)"}}}
        srv.request("POST", "/mcp", run)
        done, answers, busy = fair_round(
            srv, "validate_script", {"script": big_program()}, vproc=True,
            short=run)
        short = answers.get("short")
        text = big_result(answers).get("content", [{}])[0].get("text")
        tap("--compat mcp-python-exec-sandbox: a token's validate_script of "
            "a 300 KB script is checked by a validator process, and "
            "/healthz and another token's execute_python are answered "
            "before it",
            busy is not None and done[-1:] == ["big"] and len(done) == 3 and
            answers["healthz"][0] == 200 and short[0] == 200 and
            b"42" in short[2], (busy, done, short))
        tap("that validate_script says VALID",
            text == "VALID\ndependencies: none", answers.get("big"))
    finally:
        tap_stop("the server exits 0 on SIGTERM", srv)


def rss_kb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            m = re.search(r"^VmRSS:\s+(\d+)", f.read(), re.M)
        return int(m.group(1)) if m else 0
    except OSError:
        return 0


def test_fork_wait():
    """/healthz is answered while a fork_session waits for its session
    (stopped: it cannot answer), and the copy is made once the session
    goes on (the order of the answers is checked, not their times)."""
    srv = Server()
    try:
        srv.wait_ready()
        st, r = tool(srv, "create_session", {})
        sid = r["structuredContent"]["session_id"] if st == 200 else ""
        tool(srv, "execute_code", {"session_id": sid, "code":
                                   "keep = b'k' * (96 << 20)"})
        kids = [int(x) for x in subprocess.run(
            ["ps", "-o", "pid=", "--ppid", str(srv.proc.pid)],
            capture_output=True, text=True).stdout.split()]
        big = [p for p in kids if rss_kb(p) > 96 * 1024]
        if len(big) != 1:
            tap("the session's process is found", False, (kids, r))
            return
        done = []
        answers = {}
        lock = threading.Lock()

        def one(name, *args, **kw):
            got = srv.request(*args, **kw)
            with lock:
                done.append(name)
                answers[name] = got

        os.kill(big[0], signal.SIGSTOP)
        try:
            fork = threading.Thread(target=one, args=(
                "fork", "POST", "/mcp",
                {"jsonrpc": "2.0", "id": 41, "method": "tools/call",
                 "params": {"name": "fork_session",
                            "arguments": {"session_id": sid}}}))
            fork.start()
            wait_for(lambda: all_read(srv.port) and accepted(srv), 30)
            one("healthz", "GET", "/healthz", token=None)
        finally:
            os.kill(big[0], signal.SIGCONT)
        fork.join(60)
        f = answers.get("fork")
        res = json.loads(f[2]).get("result", {}) if f and f[0] == 200 else {}
        if res.get("isError") and re.search(
                r"cannot|does not give|need", json.dumps(res)):
            global _n
            _n += 1
            print("ok %d - /healthz during a fork_session's wait # SKIP %s"
                  % (_n, res["content"][0]["text"]))
            return
        tap("/healthz sent while a fork_session waits for its stopped "
            "session is answered first",
            done[:1] == ["healthz"] and answers["healthz"][0] == 200,
            (done, f))
        copy = (res.get("structuredContent") or {}).get("session_id")
        st, r = tool(srv, "execute_code", {"session_id": copy or "",
                                           "code": "print(len(keep))"})
        tap("once the session goes on, the copy is made with its state",
            st == 200 and (r.get("structuredContent") or {}).get("stdout")
            == "%d\n" % (96 << 20), (res, r))
    finally:
        tap_stop("the server exits 0 on SIGTERM", srv)


def test_cors():
    """--cors-origin: the listed origins' preflights answered without a
    token, their answers carrying the CORS headers; no other origin gets
    any, and a server without the option answers none."""
    app, other = "https://app.example", "https://two.example"
    srv = Server("--cors-origin", app, "--cors-origin", other)
    plain = Server()
    try:
        pre = {"Origin": app, "Access-Control-Request-Method": "POST",
               "Access-Control-Request-Headers":
               "authorization, content-type, mcp-protocol-version"}
        st, h, body = srv.request("OPTIONS", "/mcp", headers=pre,
                                  token=None)
        tap("CORS: a listed origin's preflight -> 204 without a token",
            st == 204 and body == b"" and
            h.get("Access-Control-Allow-Origin") == app and
            "POST" in h.get("Access-Control-Allow-Methods", "") and
            h.get("Access-Control-Allow-Headers") ==
            pre["Access-Control-Request-Headers"] and
            h.get("Access-Control-Max-Age") == "600" and
            h.get("Vary") == "Origin", (st, h, body))
        st, h, _ = srv.request("OPTIONS", "/mcp", token=None, headers={
            "Origin": other, "Access-Control-Request-Headers": "x;y=<z>"})
        tap("CORS: the second --cors-origin too; odd request headers get "
            "the fixed list",
            st == 204 and h.get("Access-Control-Allow-Origin") == other and
            "Mcp-Session-Id" in h.get("Access-Control-Allow-Headers", ""),
            (st, h))
        st, h, body = srv.request("POST", "/mcp", call("print(6 * 7)"),
                                  headers={"Origin": app})
        tap("CORS: its call is answered with Access-Control-Allow-Origin "
            "and the exposed MCP headers",
            st == 200 and stdout_of(body) == "42\n" and
            h.get("Access-Control-Allow-Origin") == app and
            "Mcp-Session-Id" in h.get("Access-Control-Expose-Headers", ""),
            (st, h, body))
        st, h, _ = srv.request("POST", "/mcp", call("print(1)"),
                               headers={"Origin": app}, token=None)
        tap("CORS: its call without a token -> 401, readable by the page",
            st == 401 and h.get("Access-Control-Allow-Origin") == app,
            (st, h))
        for origin in ("https://evil.example", "null",
                       "https://app.example.evil.example"):
            st, h, _ = srv.request("OPTIONS", "/mcp", token=None,
                                   headers={"Origin": origin})
            st2, h2, _ = srv.request("POST", "/mcp", call("print(1)"),
                                     headers={"Origin": origin})
            tap("CORS: %s gets no CORS header (preflight 405, call 403)"
                % origin, st == 405 and st2 == 403 and not any(
                    k.startswith("Access-Control") for k in
                    list(h) + list(h2)), (st, h, st2, h2))
        st, h, _ = srv.request("GET", "/healthz", token=None,
                               headers={"Origin": app})
        tap("CORS: only /mcp answers with it",
            st == 200 and "Access-Control-Allow-Origin" not in h, (st, h))
        st, h, _ = plain.request("OPTIONS", "/mcp", token=None,
                                 headers={"Origin": ORIGIN_OK})
        st2, h2, _ = plain.request("POST", "/mcp", call("print(1)"),
                                   headers={"Origin": ORIGIN_OK})
        tap("CORS: none by default (preflight 405, no header on a call)",
            st == 405 and st2 == 200 and not any(
                k.startswith("Access-Control") for k in list(h) + list(h2)),
            (st, h, st2, h2))
    finally:
        for s in (srv, plain):
            if s.proc.poll() is None:
                s.proc.kill()
            s.proc.wait()


def main():
    srv = Server("--max-body", "256k", "--request-timeout", "2",
                 "--max-connections", "8")
    try:
        srv.wait_ready()
        srv.request("POST", "/mcp", call("print(0)"))
        srv.wait_ready()
        wait_for(lambda: not accepted(srv, True))  # every socket closed
        spares0 = settled_spares(srv)
        fds0, kids0 = srv.fds(), srv.children()
        test_statuses(srv)
        test_body_cap(srv)
        test_malformed(srv)
        test_slow_client(srv)
        test_sse_gone(srv)
        test_json_gone(srv)
        test_sessions(srv)
        test_retry_after(srv)
        test_ops(srv)
        test_session_header(srv)
        test_sighup(srv)
        tap("no fd or child left behind (fds %d, children %d before)" %
            (fds0, kids0), wait_stable(srv, fds0, kids0, spares0),
            (srv.fds(), srv.children(), metric(srv, "pyward_spares"),
             spares0))
        test_flood(srv)
        test_log(srv)
        tap_stop("the server exits 0 on SIGTERM", srv)
    finally:
        if srv.proc.poll() is None:
            srv.proc.kill()
    test_fair()
    test_fair_validation()
    test_fork_wait()
    test_queue_full()
    test_queue_together()
    test_drain()
    test_quiet_server()
    test_refusals()
    test_tls()
    test_cors()
    print("1..%d" % _n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
