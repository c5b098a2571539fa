# SPDX-License-Identifier: Apache-2.0
"""raw.py - HTTP written by hand for the drivers of tests/http: a POST of
a JSON-RPC message to /mcp or a GET sent on a socket of its own (which a
test may then leave unread, or read with a small receive buffer), what
comes back until the server closes, chunked and SSE bodies taken apart,
and the server's resident memory."""
import json
import re
import socket


def post(port, obj, token, sse=False, rcvbuf=None, timeout=120):
    """A socket with a POST of OBJ to /mcp sent (Connection: close)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(timeout)
    s.connect(("127.0.0.1", port))
    body = json.dumps(obj).encode()
    accept = b"application/json, text/event-stream" if sse else \
        b"application/json"
    s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"
              b"Authorization: Bearer " + token.encode() + b"\r\n"
              b"Content-Type: application/json\r\nAccept: " + accept +
              b"\r\nConnection: close\r\n"
              b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    return s


def get(port, path, token):
    """A socket with a GET of PATH sent (Connection: close)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
              b"Authorization: Bearer " + token.encode() + b"\r\n"
              b"Connection: close\r\n\r\n")
    return s


def read_all(s):
    """(status, headers, body) of what S gets until the server closes
    (S closed then); a chunked body is put together."""
    data = b""
    while True:
        try:
            chunk = s.recv(1 << 20)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and lines[0] else 0
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    if headers.get("transfer-encoding") == "chunked":
        body = dechunk(body)
    return status, headers, body


def dechunk(data):
    """The body of a chunked transfer (what arrived of it)."""
    out = b""
    while data:
        size, _, rest = data.partition(b"\r\n")
        n = int(size.split(b";")[0] or b"0", 16)
        if n == 0:
            break
        out += rest[:n]
        data = rest[n + 2:]
    return out


def sse_messages(body):
    """The JSON messages of an SSE body."""
    out = []
    for event in body.split(b"\n\n"):
        for line in event.split(b"\n"):
            if line.startswith(b"data: "):
                out.append(json.loads(line[6:]))
    return out


def rss_kb(pid):
    """Process PID's resident set (VmRSS) in KiB; 0 once it is gone."""
    try:
        with open("/proc/%d/status" % pid) as f:
            m = re.search(r"^VmRSS:\s+(\d+)", f.read(), re.M)
    except OSError:
        return 0
    return int(m.group(1)) if m else 0
