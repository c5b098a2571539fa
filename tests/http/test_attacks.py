# SPDX-License-Identifier: Apache-2.0
"""tests/http/test_attacks.py - attacks on the HTTP surface of `pyward
serve --http`, each judged by what happened: its status, and whether a
program ran (the server's count of runs answered) or a Jobe file was
stored.

Two servers on loopback, both with --jobe: OPEN has no token file (what a
web page reaching it through DNS rebinding would find); TOKENS has
--auth-token-file and no --jobe-keys.  The attacks: a Host that names the
attacker's domain (with or without a port, with or without an Origin,
twice, or absent from HTTP/1.1) on /mcp, the Jobe API, /metrics and
/healthz; the Jobe API without one of the tokens (no key, a wrong one, a
prefix of a right one, a file PUT); a JSON-RPC id that is a fraction; a
Jobe cputime past what a long long holds.  Each kind has a control that
must pass (the listener's own Host, the right token).  A third server,
KEYS, with --jobe-keys: a file PUT's body trickled without end, past
the cap (by Content-Length and chunked), with base64 that never ends, and
a storm of PUTs on one key's quota (only its own files evicted, at most
one per 4 KiB of its quota).  TAP on stdout.
"""
import base64
import hashlib
import json
import os
import re
import select
import shutil
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from tap import plan, point  # noqa: E402 - the tests' own module
from serve_client import HttpServer  # noqa: E402

PYWARD = os.environ.get("PYWARD", "./pyward")
TOKEN = "attack-token-%d" % os.getpid()
JOBE = "/jobe/index.php/restapi"
EVIL = "rebind.attacker.example"


class Server(HttpServer):
    """`pyward serve --http 127.0.0.1:0 --jobe` with ARGS (@TOKENS@: the
    path of a token file holding TOKEN)."""

    def __init__(self, *args):
        self.dir = tempfile.mkdtemp(prefix="pyward-attacks-")
        self.tokens = os.path.join(self.dir, "tokens")
        with open(self.tokens, "w") as f:
            f.write(TOKEN + "\n")
        args = [a.replace("@TOKENS@", self.tokens) for a in args]
        super().__init__(PYWARD, ["--jobe", "--jobe-files",
                                  os.path.join(self.dir, "files"), *args])
        self.host = "127.0.0.1:%d" % self.port

    def send(self, method, path, headers, body=b"", version="HTTP/1.1"):
        """One raw request: (status, headers lowercased, body)."""
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        head = "%s %s %s\r\n" % (method, path, version)
        for k, v in headers:
            head += "%s: %s\r\n" % (k, v)
        if body:
            head += "Content-Length: %d\r\n" % len(body)
        head += "Connection: close\r\n\r\n"
        s = socket.create_connection(("127.0.0.1", self.port), timeout=60)
        try:
            s.sendall(head.encode() + body)
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        finally:
            s.close()
        top, _, rest = data.partition(b"\r\n\r\n")
        lines = top.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1]) if lines[0] else None
        hdrs = {k.strip().lower(): v.strip() for k, _, v in
                (x.partition(":") for x in lines[1:])}
        return status, hdrs, rest

    def runs(self):
        """How many runs the server has answered."""
        _, _, body = self.send("GET", "/metrics",
                               [("Host", self.host),
                                ("Authorization", "Bearer " + TOKEN)])
        m = re.search(rb"^pyward_run_seconds_count (\d+)$", body, re.M)
        return int(m.group(1)) if m else None


def mcp_call(code, rid=1):
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call",
            "params": {"name": "execute_code", "arguments": {"code": code}}}


def jobe_run(code):
    return {"run_spec": {"language_id": "python3", "sourcecode": code}}


JSON = ("Content-Type", "application/json")
ACCEPT = ("Accept", "application/json, text/event-stream")


def attack(srv, name, request, want_status, ran=False, check=None):
    """REQUEST(srv) -> (status, headers, body); the point holds when the
    status is WANT_STATUS, a run happened exactly when RAN, and CHECK (of
    the answer) holds."""
    before = srv.runs()
    st, hdrs, body = request(srv)
    after = srv.runs()
    ok = st == want_status and (after != before) == ran and \
        before is not None and (check is None or check(st, hdrs, body))
    point(ok, name, "status %s, runs %s -> %s\n%s" % (st, before, after,
                                                      body[:300]))


def post_mcp(host, origin=None, token=None, body=None):
    def request(srv):
        h = [("Host", host if host != "@" else srv.host), JSON, ACCEPT]
        h += [("Origin", origin)] if origin else []
        h += [("Authorization", "Bearer " + token)] if token else []
        return srv.send("POST", "/mcp", h,
                        body or mcp_call("print('attack ran')"))
    return request


def rebinding(srv):
    """OPEN: a page on the attacker's domain, rebound to 127.0.0.1."""
    port = srv.port
    evil = "%s:%d" % (EVIL, port)
    refused = (lambda st, h, b: b"Host header does not name this server" in b)
    attack(srv, "control: POST /mcp with the listener's Host runs",
           post_mcp("@"), 200, ran=True)
    attack(srv, "DNS rebinding: POST /mcp, Host the attacker's name, no "
           "Origin -> 403, nothing runs", post_mcp(evil), 403,
           check=refused)
    attack(srv, "DNS rebinding: the same with the attacker's Origin -> 403",
           post_mcp(evil, origin="http://" + evil), 403)
    attack(srv, "DNS rebinding: Host without a port -> 403",
           post_mcp(EVIL), 403, check=refused)
    attack(srv, "Host 127.0.0.1.nip.io:PORT (a name, not an address) -> 403",
           post_mcp("127.0.0.1.nip.io:%d" % port), 403, check=refused)
    attack(srv, "Host localhost.attacker.example -> 403",
           post_mcp("localhost.%s:%d" % (EVIL, port)), 403, check=refused)
    attack(srv, "Host 127.0.0.1:PORT@attacker -> 403",
           post_mcp("127.0.0.1:%d@%s" % (port, EVIL)), 403, check=refused)
    attack(srv, "Host naming another port -> 403",
           post_mcp("127.0.0.1:%d" % (port % 65535 + 1)), 403,
           check=refused)
    attack(srv, "two Host headers, the listener's then the attacker's -> 403",
           lambda s: s.send("POST", "/mcp",
                            [("Host", s.host), ("Host", evil), JSON, ACCEPT],
                            mcp_call("print(1)")), 403, check=refused)
    attack(srv, "HTTP/1.1 without Host -> 403",
           lambda s: s.send("POST", "/mcp", [JSON, ACCEPT],
                            mcp_call("print(1)")), 403, check=refused)
    attack(srv, "DNS rebinding to the Jobe API: POST runs -> 403, nothing "
           "runs",
           lambda s: s.send("POST", JOBE + "/runs", [("Host", evil), JSON],
                            jobe_run("print(1)")), 403, check=refused)
    attack(srv, "DNS rebinding to the Jobe API: PUT a file -> 403",
           lambda s: s.send("PUT", JOBE + "/files/rebound01", [
               ("Host", evil), JSON],
               {"file_contents": base64.b64encode(b"x").decode()}), 403)
    st, _, _ = srv.send("HEAD", JOBE + "/files/rebound01",
                        [("Host", srv.host)])
    point(st == 404, "... and the file was not stored", st)
    attack(srv, "DNS rebinding to /metrics -> 403",
           lambda s: s.send("GET", "/metrics", [("Host", evil)]), 403)
    attack(srv, "DNS rebinding to /healthz -> 403",
           lambda s: s.send("GET", "/healthz", [("Host", evil)]), 403)
    attack(srv, "control: HTTP/1.0 without Host (a health checker) -> 200",
           lambda s: s.send("GET", "/healthz", [], version="HTTP/1.0"), 200)
    attack(srv, "control: Host localhost:PORT -> 200",
           lambda s: s.send("GET", "/healthz", [("Host", "localhost:%d" %
                                                 port)]), 200)
    attack(srv, "a JSON-RPC id that is a fraction -> 400, -32600, id null, "
           "nothing runs",
           post_mcp("@", body={**mcp_call("print(1)"), "id": 1.5}), 400,
           check=lambda st, h, b: json.loads(b)["id"] is None and
           json.loads(b)["error"]["code"] == -32600)


def jobe_tokens(srv):
    """TOKENS: --auth-token-file without --jobe-keys guards the Jobe API."""
    def jobe(method, route, headers, body=b""):
        return lambda s: s.send(method, JOBE + route,
                                [("Host", s.host), JSON] + headers, body)
    denied = (lambda st, h, b: json.loads(b) ==
              "Forbidden: a valid X-API-KEY header is needed")
    run = jobe_run("print('jobe ran')")
    attack(srv, "Jobe runs without a token -> 403 in Jobe's words, nothing "
           "runs", jobe("POST", "/runs", [], run), 403, check=denied)
    attack(srv, "Jobe languages without a token -> 403",
           jobe("GET", "/languages", []), 403, check=denied)
    attack(srv, "Jobe runs with a wrong X-API-KEY -> 403",
           jobe("POST", "/runs", [("X-API-KEY", "guess")], run), 403)
    attack(srv, "Jobe runs with a prefix of the token -> 403",
           jobe("POST", "/runs", [("X-API-KEY", TOKEN[:-1])], run), 403)
    attack(srv, "Jobe runs with the token and more -> 403",
           jobe("POST", "/runs", [("X-API-KEY", TOKEN + "x")], run), 403)
    attack(srv, "Jobe runs with a wrong bearer token -> 403",
           jobe("POST", "/runs", [("Authorization", "Bearer guess")], run),
           403)
    attack(srv, "Jobe PUT a file without a token -> 403",
           jobe("PUT", "/files/untokened1", [],
                {"file_contents": base64.b64encode(b"x").decode()}), 403)
    st, _, _ = srv.send("HEAD", JOBE + "/files/untokened1",
                        [("Host", srv.host), ("X-API-KEY", TOKEN)])
    point(st == 404, "... and the file was not stored", st)
    attack(srv, "control: Jobe runs with the token as X-API-KEY",
           jobe("POST", "/runs", [("X-API-KEY", TOKEN)], run), 200, ran=True,
           check=lambda st, h, b: json.loads(b)["stdout"] == "jobe ran\n")
    attack(srv, "control: Jobe runs with the token as a bearer token",
           jobe("POST", "/runs", [("Authorization", "Bearer " + TOKEN)],
                run), 200, ran=True)
    attack(srv, "Jobe cputime 1e308 (past a long long) -> 400 naming it, "
           "nothing runs",
           jobe("POST", "/runs", [("X-API-KEY", TOKEN)],
                {"run_spec": {**run["run_spec"],
                              "parameters": {"cputime": 1e308}}}), 400,
           check=lambda st, h, b: json.loads(b).startswith(
               "cputime exceeds maximum allowed"))
    attack(srv, "Jobe memorylimit -1e308 -> 400 naming it, nothing runs",
           jobe("POST", "/runs", [("X-API-KEY", TOKEN)],
                {"run_spec": {**run["run_spec"],
                              "parameters": {"memorylimit": -1e308}}}), 400,
           check=lambda st, h, b: json.loads(b).startswith(
               "memorylimit must be a number of MB"))
    attack(srv, "/mcp without the token -> 401, nothing runs",
           post_mcp("@"), 401)
    attack(srv, "a JSON-RPC id that is an object -> 400, -32600, id null",
           post_mcp("@", token=TOKEN,
                    body={**mcp_call("print(1)"), "id": {"a": 1}}), 400,
           check=lambda st, h, b: json.loads(b)["id"] is None)


KEY_A = "attack-key-a-%d" % os.getpid()
KEY_B = "attack-key-b-%d" % os.getpid()
# KEYS: --jobe-files-max 4m, two keys: a key's quota 2 MiB, the largest
# file as much; the longest body of a file PUT --max-body (8 MiB), longer
# than the base64 of 2 MiB and an eighth (src/server/jobe.c,
# put_body_max).
FILE_MAX = 2 << 20
BODY_MAX = 8 << 20


def temp_files(srv):
    """Temporary files of PUTs in the cache's folders."""
    files = os.path.join(srv.dir, "files")
    return [n for d in (os.listdir(files) if os.path.isdir(files) else [])
            for n in os.listdir(os.path.join(files, d)) if n.startswith(".")]


def folder_bytes(srv, key):
    """The bytes of KEY's files in the cache (its folder: the key's hash,
    as the server names it; found as the folder holding MARK)."""
    files = os.path.join(srv.dir, "files")
    for d in os.listdir(files):
        names = os.listdir(os.path.join(files, d))
        if key in names:
            return sum(os.stat(os.path.join(files, d, n)).st_size
                       for n in names), len(names)
    return None, 0


def wait_for(cond):
    for _ in range(6000):
        if cond():
            return True
        time.sleep(0.01)
    return False


def put_raw(srv, key, file_id, head_extra, pieces, pause=0.0):
    """A PUT of FILE_ID with KEY whose body is PIECES (an iterable of
    bytes; chunked unless HEAD_EXTRA gives a Content-Length, then ended
    with the last chunk if PIECES end), sent until the server answers or
    closes: (status or None, body, bytes sent)."""
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=120)
    head = ("PUT %s/files/%s HTTP/1.1\r\nHost: %s\r\nX-API-KEY: %s\r\n"
            "Content-Type: application/json\r\nConnection: close\r\n"
            "%s\r\n" % (
                JOBE, file_id, srv.host, key, head_extra))
    chunked = "Content-Length" not in head_extra
    sent = 0
    try:
        s.sendall(head.encode())
        for p in pieces:
            if select.select([s], [], [], 0)[0]:
                break  # the server answered or closed
            s.sendall(b"%x\r\n%s\r\n" % (len(p), p) if chunked else p)
            sent += len(p)
            if pause:
                time.sleep(pause)
        else:
            if chunked:
                s.sendall(b"0\r\n\r\n")
    except OSError:
        pass
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    s.close()
    top, _, rest = data.partition(b"\r\n\r\n")
    line = top.split(b"\r\n")[0].split()
    return (int(line[1]) if len(line) > 1 else None), rest, sent


def forever(piece):
    while True:
        yield piece


def put_attacks(srv, trickle_timeout):
    """KEYS: attacks on a file PUT's body (a body that trickles without
    end, one past the cap, base64 that never ends) and a PUT storm on one
    key's quota."""
    st, body, _ = put_raw(srv, KEY_A, "chunked001", "Transfer-Encoding: "
                          "chunked\r\n", iter([b'{"file_con', b'tents": "QU',
                                                b'FB"}']))
    head, _, _ = srv.send("HEAD", JOBE + "/files/chunked001",
                          [("Host", srv.host), ("X-API-KEY", KEY_A)])
    point(st == 204 and head == 204, "control: a chunked PUT in pieces "
          "is stored", f"{st} {body[:200]} {head}")
    st, body, sent = put_raw(srv, KEY_A, "trickled01", "Transfer-Encoding: "
                             "chunked\r\n",
                             iter([b'{"file_contents": "'] +
                                  [b"QUFB"] * 100000), pause=0.02)
    healthz, _, _ = srv.send("GET", "/healthz", [("Host", srv.host)])
    point(st is None and sent < 100000 * 4 and
          wait_for(lambda: temp_files(srv) == []) and healthz == 200,
          "a PUT body trickled without end is cut at --request-timeout "
          "(%d s): no answer, no temporary file left; /healthz answered" %
          trickle_timeout, f"{st} {body[:200]} sent {sent} "
          f"{temp_files(srv)} {healthz}")

    st, body, sent = put_raw(srv, KEY_A, "toolarge01",
                             "Content-Length: %d\r\n" % (BODY_MAX + 1),
                             forever(b" " * 65536))
    point(st == 413 and json.loads(body) == (
        "put: failed to write file toolarge01 to cache: the request's body "
        "is more than %d bytes" % BODY_MAX) and sent < BODY_MAX,
          "a PUT whose Content-Length is past the cap: 413 in Jobe's "
          "words before its body is read", f"{st} {body[:200]} sent {sent}")

    st, body, sent = put_raw(srv, KEY_A, "toolarge02",
                             "Transfer-Encoding: chunked\r\n",
                             iter([b'{"file_contents": "'] +
                                  [b" " * 65536] * 1000))
    point(st is None and sent <= BODY_MAX + (8 << 20) and
          wait_for(lambda: temp_files(srv) == []),
          "a chunked PUT body past the cap: the connection is closed once "
          "it is past (not read to its end), nothing stored",
          f"{st} {body[:200]} sent {sent}")

    quantum = b"QUFB" * 16384
    st, body, sent = put_raw(srv, KEY_A, "endless001",
                             "Content-Length: %d\r\n" % BODY_MAX,
                             iter([b'{"file_contents": "'] +
                                  [quantum] * (BODY_MAX // len(quantum))))
    point(st == 413 and "is too large: more than %d bytes" % FILE_MAX in
          json.loads(body) and wait_for(lambda: temp_files(srv) == []),
          "a PUT whose base64 never ends: 413 once its file passes the "
          "largest (2 MiB), no temporary file left",
          f"{st} {body[:200]} sent {sent}")
    st, body, sent = put_raw(srv, KEY_A, "endless002",
                             "Transfer-Encoding: chunked\r\n",
                             iter([b'{"file_contents": "'] +
                                  [quantum] * 1000))
    point(st is None and sent <= BODY_MAX + (8 << 20) and
          wait_for(lambda: temp_files(srv) == []),
          "... chunked: the connection is closed at the body's cap",
          f"{st} {body[:200]} sent {sent}")
    for fid in ("trickled01", "toolarge01", "toolarge02", "endless001",
                "endless002"):
        st, _, _ = srv.send("HEAD", JOBE + "/files/" + fid,
                            [("Host", srv.host), ("X-API-KEY", KEY_A)])
        point(st == 404, "... %s was not stored" % fid, st)

    # A storm of PUTs from key A on its quota (2 MiB of the 4 MiB cap).
    def put(key, fid, data):
        return srv.send("PUT", JOBE + "/files/" + fid, [
            ("Host", srv.host), ("X-API-KEY", key), JSON],
            {"file_contents": base64.b64encode(data).decode()})[0]

    b_data = os.urandom(1 << 20)
    st_b = put(KEY_B, "bfilemark01", b_data)
    chunk = os.urandom(256 << 10)
    results = []
    lock = threading.Lock()

    def storm(n):
        for i in range(n, n + 10):
            st = put(KEY_A, "stormfile%03d" % i, chunk)
            with lock:
                results.append(st)

    threads = [threading.Thread(target=storm, args=(n,))
               for n in range(0, 80, 10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    st_last = put(KEY_A, "stormfilelast", chunk)
    a_bytes, a_files = folder_bytes(srv, "stormfilelast")
    st_hb, _, _ = srv.send("HEAD", JOBE + "/files/bfilemark01",
                           [("Host", srv.host), ("X-API-KEY", KEY_B)])
    st_r, _, body = srv.send("POST", JOBE + "/runs", [
        ("Host", srv.host), ("X-API-KEY", KEY_B), JSON],
        {"run_spec": {"language_id": "python3", "sourcecode":
                      "import hashlib\nprint(hashlib.sha256(open('f', "
                      "'rb').read()).hexdigest())\n",
                      "file_list": [["bfilemark01", "f"]]}})
    point(st_b == 204 and set(results) == {204} and st_last == 204 and
          a_bytes is not None and a_bytes <= 2 << 20 and st_hb == 204 and
          st_r == 200 and json.loads(body)["stdout"] ==
          hashlib.sha256(b_data).hexdigest() + "\n",
          "80 PUTs of 256 KiB from one key at once (20 MiB past its 2 MiB "
          "quota): all stored, the key's own oldest evicted, another key's "
          "file kept whole", f"{st_b} {sorted(set(results))} {st_last} "
          f"{a_bytes} bytes in {a_files} files; {st_hb} {st_r} {body[:200]}")
    tiny = [put(KEY_A, "tinyfile%04d" % i, b"t") for i in range(530)]
    _, a_files = folder_bytes(srv, "tinyfile0529")
    point(set(tiny) == {204} and a_files <= 512,
          "530 PUTs of 1 byte from one key: at most 512 files kept (one per "
          "4 KiB of its quota)", f"{sorted(set(tiny))} {a_files} files")
    st_hb, _, _ = srv.send("HEAD", JOBE + "/files/bfilemark01",
                           [("Host", srv.host), ("X-API-KEY", KEY_B)])
    point(st_hb == 204, "... and the other key's file is still there", st_hb)


def main():
    for args, attacks in (((), rebinding),
                          (("--auth-token-file", "@TOKENS@"), jobe_tokens)):
        srv = Server(*args)
        try:
            attacks(srv)
        finally:
            point(srv.stop() == 0, "the server exits 0 on SIGTERM")
    keys = tempfile.mkdtemp(prefix="pyward-attacks-keys-")
    with open(os.path.join(keys, "keys"), "w") as f:
        f.write(KEY_A + "\n" + KEY_B + "\n")
    srv = Server("--jobe-keys", os.path.join(keys, "keys"),
                 "--jobe-files-max", "4m", "--request-timeout", "3")
    try:
        put_attacks(srv, 3)
    finally:
        point(srv.stop() == 0, "the server exits 0 on SIGTERM")
        shutil.rmtree(keys, ignore_errors=True)
    return plan()


if __name__ == "__main__":
    sys.exit(main())
