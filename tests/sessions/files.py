# SPDX-License-Identifier: Apache-2.0
# files.py - read_file and write_file of files around the sizes where
# they are done in steps (64 KiB at once; 256 KiB a step; replies sent 48
# KiB a chunk): text and binary round trips, a UTF-8 character split
# across a step, invalid UTF-8 at the very end, an empty file, the
# largest allowed, control characters escaped as sent; a cancel and a
# client gone mid-call leaving no temporary file; the file swapped by a
# concurrent call while it is read; over stdio.  TAP on
# stdout.  With --dump FILE, the raw answers are written there (to
# compare two builds' bytes).
#
# usage: files.py [--dump FILE]
import argparse
import base64
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import tap  # noqa: E402 - the tests' own module
from serve_client import ServeClient  # noqa: E402

PYWARD = os.environ.get("PYWARD", "./pyward")
KIB = 1024
MIB = 1024 * KIB


def sizes():
    for base in (64 * KIB, 256 * KIB, 512 * KIB, 48 * KIB * 6):
        for d in (-1, 0, 1):
            yield base + d
    yield 8 * MIB


def text_of(size, seed):
    """SIZE bytes of UTF-8 text (a 3-byte character across each 256 KiB
    step, control characters and quotes to escape)."""
    unit = "ab\"\\\n\t\x01é€😀" + "x" * 100
    raw = (unit * (size // len(unit.encode()) + 2)).encode()
    raw = raw[:size]
    keep = size
    while keep > 0 and raw[keep - 1] >= 0x80 and \
            not raw[:keep].decode(errors="ignore").encode() == raw[:keep]:
        keep -= 1  # back to a whole character
    return (raw[:keep] + b"x" * (size - keep)).decode()


SWAPS = {
    "a symbolic link": "import pathlib\n"
                       "pathlib.Path('n').symlink_to('/etc/passwd')\n"
                       "pathlib.Path('n').replace('f.txt')",
    "another file": "import pathlib\np = pathlib.Path('n')\n"
                    "p.write_text('y' * (1 << 20))\np.replace('f.txt')",
    "a huge file": "import pathlib\np = pathlib.Path('n')\n"
                   "p.write_text('y' * (8 << 20) + 'y')\np.replace('f.txt')",
    "itself grown": "open('f.txt', 'a').write('more' * 100000)",
    "itself truncated": "open('f.txt', 'r+').truncate(10)",
}


def swapped(tmp, log):
    """The file read_file reads swapped by a call of the same session
    (unvalidated, so that only the sandbox stops a link; a program cannot
    make a FIFO without os) while the read is under way: the answer is the bytes it opened, a refusal, or
    (changed after) of its announced length; never what the swap put
    there."""
    s = ServeClient(PYWARD, "basic,filesystem", log,
                    args=["--skip-validation"],
                    env={"TMPDIR": tmp, "PYWARD_SPARES": "0"})
    s.call("initialize", {"protocolVersion": "2025-06-18",
                          "capabilities": {},
                          "clientInfo": {"name": "files", "version": "1"}})
    s.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    _, m = s.call("tools/call", {"name": "create_session", "arguments": {
        "profile": ["basic", "filesystem"]}}, 60)
    sid = m["result"]["structuredContent"]["session_id"]
    text = ("%s\n" % ("t" * 63)) * (8 * MIB // 64)
    for what, code in SWAPS.items():
        s.call("tools/call", {"name": "write_file", "arguments": {
            "session_id": sid, "path": "f.txt", "content": text}}, 60)
        s.next_id += 1
        rid = s.next_id
        s.send({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                "params": {"name": "read_file", "arguments": {
                    "session_id": sid, "path": "f.txt"}}})
        s.send({"jsonrpc": "2.0", "id": rid + 1, "method": "tools/call",
                "params": {"name": "execute_code", "arguments": {
                    "session_id": sid, "code": code}}})
        s.next_id += 1
        got = {}
        deadline = time.monotonic() + 60
        while len(got) < 2:
            line = s.readline(deadline)
            if line is None:
                break
            msg = json.loads(line)
            got[msg.get("id")] = msg.get("result") or {}
        r = got.get(rid, {})
        c = (r.get("structuredContent") or {}).get("content")
        ok = (r.get("isError") and
              "changed" in r["content"][0]["text"]) or c == text or (
                  # changed once answered: the escaped length kept, the
                  # rest spaces
                  c is not None and c.endswith(" ") and
                  text.startswith(c.rstrip(" ")))
        tap.point(ok and "root:" not in json.dumps(r) and
                  "yyyy" not in json.dumps(r),
                  "read_file while a call swaps the file for %s: its own "
                  "bytes, a refusal, or spaces for the rest" % what,
                  json.dumps([r.get("isError"), (r.get("content") or
                                                 [{}])[0].get("text", "")
                              [:200], len(c or ""),
                              (got.get(rid + 1) or {}).get(
                                  "structuredContent", {}).get("status")]))
    s.p.stdin.close()
    tap.point(s.p.wait(30) == 0, "the unvalidated server exits cleanly")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dump")
    opts = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="pyward-files.")
    log = open(os.path.join(tmp, "serve.log"), "wb")
    s = ServeClient(PYWARD, "basic,filesystem", log,
                    env={"TMPDIR": tmp, "PYWARD_SPARES": "0"})
    s.call("initialize", {"protocolVersion": "2025-06-18",
                          "capabilities": {},
                          "clientInfo": {"name": "files", "version": "1"}})
    s.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    dump = open(opts.dump, "w") if opts.dump else None

    def tool(name, wait=60.0, **args):
        line, msg = s.call("tools/call", {"name": name, "arguments": args},
                           wait)
        if dump is not None and line is not None:
            dump.write(line.replace(sid or "\0", "SID") + "\n")
        return (msg or {}).get("result") or {"rpc_error": msg}

    sid = None
    r = tool("create_session", profile=["basic", "filesystem"])
    sid = r["structuredContent"]["session_id"]

    def run(code):
        return tool("execute_code", session_id=sid,
                    code=code).get("structuredContent", {})

    # Text round trips: written as content, read back as content.
    for n in sizes():
        t = text_of(n, n)
        w = tool("write_file", session_id=sid, path="t.txt", content=t)
        rd = tool("read_file", session_id=sid, path="t.txt")
        sc = rd.get("structuredContent", {})
        tap.point(not w.get("isError") and sc.get("content") == t and
                  sc.get("size") == len(t.encode()) and
                  rd["content"][0]["text"].startswith(
                      f"t.txt: {len(t.encode())} bytes\n"),
                  f"text of {len(t.encode())} bytes round trips",
                  json.dumps([w, sc.get("size")])[:300])
    # Binary round trips: written as base64, read back as base64.
    for n in sizes():
        raw = bytes((i * 7 + 255) % 256 for i in range(n))
        w = tool("write_file", session_id=sid, path="b.bin",
                 content_base64=base64.b64encode(raw).decode())
        rd = tool("read_file", session_id=sid, path="b.bin")
        sc = rd.get("structuredContent", {})
        tap.point(not w.get("isError") and "content" not in sc and
                  base64.b64decode(sc.get("content_base64", "")) == raw and
                  sc.get("size") == n,
                  f"binary of {n} bytes round trips",
                  json.dumps([w, sc.get("size")])[:300])
    # A character split across the 256 KiB step; invalid at the end.
    cut = "x" * (256 * KIB - 1) + "€" + "y" * 100
    w = tool("write_file", session_id=sid, path="c.txt", content=cut)
    sc = tool("read_file", session_id=sid, path="c.txt")["structuredContent"]
    tap.point(sc.get("content") == cut,
              "a character across a step's end is text", str(sc.get("size")))
    for n in (70 * KIB, 256 * KIB, 512 * KIB + 3):
        bad = b"z" * (n - 1) + b"\xe2"
        w = tool("write_file", session_id=sid, path="bad.txt",
                 content_base64=base64.b64encode(bad).decode())
        sc = tool("read_file", session_id=sid,
                  path="bad.txt")["structuredContent"]
        tap.point("content" not in sc and
                  base64.b64decode(sc.get("content_base64", "")) == bad,
                  f"a character cut short at the end of {n} bytes is binary",
                  str(sc.get("size")))
    for cp in (b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80"):
        bad = b"z" * (300 * KIB) + cp + b"z" * 10
        tool("write_file", session_id=sid, path="bad.txt",
             content_base64=base64.b64encode(bad).decode())
        sc = tool("read_file", session_id=sid,
                  path="bad.txt")["structuredContent"]
        tap.point("content_base64" in sc, f"{cp!r} (as jansson) is binary",
                  str(sc.get("size")))
    # Empty; the largest allowed; past it.
    w = tool("write_file", session_id=sid, path="e", content="")
    sc = tool("read_file", session_id=sid, path="e")["structuredContent"]
    tap.point(sc.get("content") == "" and sc.get("size") == 0,
              "an empty file", json.dumps(sc))
    over = "x" * (8 * MIB + 1)
    w = tool("write_file", session_id=sid, path="o", content=over)
    wb = tool("write_file", session_id=sid, path="o",
              content_base64=base64.b64encode(over.encode()).decode())
    bad64 = tool("write_file", session_id=sid, path="o",
                 content_base64="A" * (100 * KIB) + "*")
    gone = tool("write_file", session_id="nope", path="o",
                content_base64="A" * (100 * KIB) + "*")
    nosess = tool("write_file", session_id="nope", path="o",
                  content_base64="A" * (100 * KIB))
    ls = tool("list_files", session_id=sid)
    names = [e["name"] for e in ls["structuredContent"]["entries"]]
    tap.point(w.get("isError") and wb.get("isError") and
              "at most" in w["content"][0]["text"] and
              "at most" in wb["content"][0]["text"] and
              "not base64" in bad64["content"][0]["text"] and
              "not base64" in gone["content"][0]["text"] and
              nosess.get("isError") and "o" not in names and
              not any(n.startswith(".pyward") for n in names),
              "past 8 MiB, bad base64, no session: refused, nothing left",
              json.dumps([w, wb, bad64, gone, nosess, names])[:600])
    # A cancel mid-write and mid-read: nothing answered, nothing left.
    big = base64.b64encode(os.urandom(6 * MIB)).decode()
    for name, args in (("write_file", {"path": "cw", "content_base64": big}),
                       ("read_file", {"path": "b.bin"})):
        s.next_id += 1
        cid = s.next_id
        s.send({"jsonrpc": "2.0", "id": cid, "method": "tools/call",
                "params": {"name": name,
                           "arguments": {"session_id": sid, **args}}})
        s.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": cid}})
        _, pong = s.call("ping", {})
        answered = []
        deadline = time.monotonic() + 1.0
        while True:
            line = s.readline(deadline)
            if line is None:
                break
            answered.append(json.loads(line).get("id"))
        ls = tool("list_files", session_id=sid)
        names = [e["name"] for e in ls["structuredContent"]["entries"]]
        tap.point(pong is not None and cid not in answered and
                  "cw" not in names and
                  not any(n.startswith(".pyward") for n in names),
                  f"{name} cancelled: not answered, no file left",
                  json.dumps([answered, names]))
    s.p.stdin.close()
    rc = s.p.wait(30)
    tap.point(rc == 0, "the server exits cleanly", str(rc))
    swapped(tmp, log)
    if dump is not None:
        dump.close()
    return tap.plan()


if __name__ == "__main__":
    sys.exit(main())
