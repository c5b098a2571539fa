# SPDX-License-Identifier: Apache-2.0
"""tests/jobe/test_jobe.py - the Jobe API of `pyward serve --http --jobe`.

What Moodle CodeRunner relies on, through python3's http.client against
a server on 127.0.0.1: the languages, runs and their outcome codes (11
compile error, 12 runtime error, 13 time limit, 15 success, 17 memory
limit, 21 overload), stdin, files written and read, interpreter
arguments (-c), runargs as sys.argv, a cputime of the run's own, support
files PUT, checked with HEAD and used by a run, Jobe's 400 and 404
messages, the X-API-KEY check and the routes with and without
index.php.  TAP on stdout.
"""
import base64
import hashlib
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from tap import plan, point  # noqa: E402 - the tests' own module

PYWARD = os.environ.get("PYWARD", "./pyward")
API = "/jobe/index.php/restapi"

def check(name, cond, detail=""):
    """One TAP point, named first as these tests read."""
    point(cond, name, detail)


class Server:
    """`pyward serve --http 127.0.0.1:0 --jobe` with a file cache of its
    own; ARGS are more flags."""

    def __init__(self, *args):
        self.dir = tempfile.mkdtemp(prefix="pyward-jobe-")
        self.proc = subprocess.Popen(
            [PYWARD, "serve", "--http", "127.0.0.1:0", "--jobe",
             "--jobe-files", os.path.join(self.dir, "files")] + list(args),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE)
        self.err = []
        self.port = None
        ready = threading.Event()

        def reader():
            for raw in self.proc.stderr:
                line = raw.decode("utf-8", "replace")
                self.err.append(line)
                m = re.search(r"serving MCP on http://[^ ]+:(\d+)/mcp", line)
                if m:
                    self.port = int(m.group(1))
                    ready.set()
            ready.set()

        threading.Thread(target=reader, daemon=True).start()
        ready.wait(60)
        if self.port is None:
            raise RuntimeError("no port: " + "".join(self.err))

    def request(self, method, path, body=None, headers=None):
        """(status, decoded JSON body or None)."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        h = {"Content-Type": "application/json; charset=utf-8",
             "Accept": "application/json"}
        h.update(headers or {})
        data = json.dumps(body) if body is not None else None
        c.request(method, path, data, h)
        r = c.getresponse()
        raw = r.read()
        c.close()
        return r.status, json.loads(raw) if raw else None

    def request_text(self, path):
        """The body of GET PATH, as text."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        c.request("GET", path)
        text = c.getresponse().read().decode("utf-8", "replace")
        c.close()
        return text

    def run(self, spec, headers=None, route=API):
        spec = dict({"language_id": "python3", "sourcefilename": "test.py"},
                    **spec)
        return self.request("POST", route + "/runs", {"run_spec": spec},
                            headers)

    def put(self, file_id, data):
        return self.request("PUT", API + "/files/" + file_id, {
            "file_contents": base64.b64encode(data).decode()})

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def expect_run(srv, name, spec, outcome, stdout=None, also=None):
    st, res = srv.run(spec)
    ok = st == 200 and isinstance(res, dict) and \
        set(res) == {"run_id", "outcome", "cmpinfo", "stdout", "stderr"} and \
        res["outcome"] == outcome and \
        (stdout is None or res["stdout"] == stdout) and \
        (also is None or also(res))
    check(name, ok, f"{st} {res}")
    return res


def test_languages(srv):
    for route in (API, "/jobe/restapi", "/restapi"):
        st, res = srv.request("GET", route + "/languages")
        check(f"GET {route}/languages lists python3 with its version",
            st == 200 and res == [["python3", "%d.%d" % (
                sys.version_info[0], sys.version_info[1])]], f"{st} {res}")


def test_outcomes(srv):
    expect_run(srv, "hello world: 15 and its output",
               {"sourcecode": 'print("Hello world!")\n'}, 15,
               "Hello world!\n")
    expect_run(srv, "stdin is the run's input",
               {"sourcecode": "print(input())\nprint(input())\n",
                "input": "Line1\nLine2\n"}, 15, "Line1\nLine2\n")
    expect_run(srv, "a syntax error is a compile error (11) with cmpinfo",
               {"sourcecode": 'print("Hello world!"\n'}, 11, "",
               lambda r: 'File "test.py", line 1' in r["cmpinfo"] and
               "SyntaxError" in r["cmpinfo"])
    expect_run(srv, "an exception is a runtime error (12), its traceback "
               "naming the file",
               {"sourcecode": "data = [1, 2]\nprint(data[2])\n"}, 12, "",
               lambda r: 'File "test.py", line 2' in r["stderr"] and
               "IndexError" in r["stderr"])
    expect_run(srv, "a compile-time warning names the file, as python3's",
               {"sourcecode": "x = 1\nif x is 1:\n    print(x)\n"}, 12,
               "1\n", lambda r: r["stderr"].startswith(
                   "test.py:2: SyntaxWarning: \"is\" with a literal"))
    expect_run(srv, "output to stderr makes a runtime error, as in Jobe",
               {"sourcecode": "import sys\nsys.stderr.write('x\\n')\n"}, 12,
               "", lambda r: r["stderr"] == "x\n")
    expect_run(srv, "sys.exit(3) without stderr is a success, as in Jobe",
               {"sourcecode": "import sys\nprint(1)\nsys.exit(3)\n"}, 15,
               "1\n")
    expect_run(srv, "an endless loop is a time limit (13)",
               {"sourcecode": "while True:\n    pass\n",
                "parameters": {"cputime": 1}}, 13)
    expect_run(srv, "a run over its memory limit is 17",
               {"sourcecode": "x = bytearray(900 * 1024 * 1024)\n"
                "print(len(x))\n",
                "parameters": {"memorylimit": 200}}, 17)
    expect_run(srv, "subprocess is refused before the run (11) and named",
               {"sourcecode": "import subprocess\n"
                "subprocess.run(['pylint'])\n"}, 11, "",
               lambda r: "'subprocess'" in r["cmpinfo"])
    expect_run(srv, "UTF-8 output comes back as text",
               {"sourcecode": 'print("Un rôle délétère")\n'}, 15,
               "Un rôle délétère\n")


def test_program_features(srv):
    expect_run(srv, "a file written then read in the workspace",
               {"sourcecode": "with open('out.txt', 'w') as f:\n"
                "    f.write('One fish\\nTwo fish\\n')\n"
                "with open('out.txt') as f:\n"
                "    print(f.read(), end='')\n"}, 15,
               "One fish\nTwo fish\n")
    expect_run(srv, "open() outside the workspace fails",
               {"sourcecode": "try:\n    open('/etc/passwd').read()\n"
                "    print('read')\nexcept OSError:\n    print('refused')\n"},
               15, "refused\n")
    expect_run(srv, "a CodeRunner template's names (__saved_input__, "
               "__student_answer__) and its input() that echoes",
               {"sourcecode": "__saved_input__ = input\n"
                "def input(prompt=''):\n"
                "    s = __saved_input__(prompt)\n    print(s)\n    return s\n"
                "__student_answer__ = 'n = int(input())'\n"
                "n = int(input('n? '))\nprint(n * 2, len(__student_answer__))\n",
                "input": "21\n"}, 15, "n? 21\n42 16\n")
    expect_run(srv, "interpreterargs -c CODE runs CODE instead",
               {"sourcecode": "\n",
                "parameters": {"interpreterargs": ['-c "print(\\"Blah\\")"']}},
               15, "Blah\n")
    expect_run(srv, "harmless interpreter flags are accepted",
               {"sourcecode": "print(2)\n",
                "parameters": {"interpreterargs": ["-BE", "-u"]}}, 15, "2\n")
    expect_run(srv, "runargs are sys.argv[1:], the file name sys.argv[0]",
               {"sourcecode": "import sys\nprint(sys.argv)\n",
                "parameters": {"runargs": ["Arg1", "Arg 2"]}}, 15,
               "['test.py', 'Arg1', 'Arg 2']\n")
    expect_run(srv, "a cputime of the run's own lets it work longer than "
               "the default",
               {"sourcecode": "from time import perf_counter\n"
                "t = perf_counter()\n"
                "while perf_counter() < t + 6: pass\nprint('done')\n",
                "parameters": {"cputime": 8}}, 15, "done\n")


def test_files(srv):
    a, b = "fileaaaa0001", "filebbbb0002"
    st1, _ = srv.put(a, b"The first file\nLine 2")
    st2, _ = srv.put(b, "Second file é".encode())
    check("PUT files: 204", (st1, st2) == (204, 204), f"{st1} {st2}")
    st, _ = srv.request("HEAD", API + "/files/" + a)
    check("HEAD of a file PUT: 204", st == 204, st)
    st, _ = srv.request("HEAD", API + "/files/nosuchfile99")
    check("HEAD of an unknown file: 404", st == 404, st)
    expect_run(srv, "a run reads its support files by their names",
               {"sourcecode": "print(open('file1').read())\n"
                "print(open('file2').read())\n",
                "file_list": [[a, "file1"], [b, "file2"]]}, 15,
               "The first file\nLine 2\nSecond file é\n")
    src = ("import sys\nprint(len(open(sys.argv[0]).read()))\n"
           "print(open('same').read())\n")
    expect_run(srv, "the source is in the workspace under its file name, "
               "and the later of two support files of one name wins",
               {"sourcecode": src, "file_list": [[a, "same"], [b, "same"]]},
               15, "%d\nSecond file é\n" % len(src))
    big = bytes(range(256)) * 4096  # 1 MiB, every byte value
    srv.put("bigbinary0003", big)
    expect_run(srv, "a 1 MiB binary support file arrives whole",
               {"sourcecode": "import hashlib\n"
                "d = open('big.bin', 'rb').read()\n"
                "print(len(d), hashlib.sha256(d).hexdigest())\n",
                "file_list": [["bigbinary0003", "big.bin"]]}, 15,
               "%d %s\n" % (len(big), hashlib.sha256(big).hexdigest()))
    st, res = srv.run({"sourcecode": "print(1)\n",
                       "file_list": [["nosuchfileid", "file1"]]})
    check("a missing support file: 404 with Jobe's message",
        st == 404 and res == "One or more of the specified files is "
        "missing/unavailable", f"{st} {res}")
    for bad in ("../x", "a/b", ".."):
        st, res = srv.run({"sourcecode": "print(1)\n",
                           "file_list": [[a, bad]]})
        check(f"a support file named {bad!r}: 400",
            st == 400 and str(res).startswith("Invalid file specifier"),
            f"{st} {res}")
    st, res = srv.request("PUT", API + "/files/" + a, {"file_contents": "@@"})
    check("PUT of contents that are not base64: 400",
        st == 400 and "not valid base-64" in res, f"{st} {res}")
    st, res = srv.request("PUT", API + "/files/" + a, {"other": 1})
    check("PUT without file_contents: 400",
        st == 400 and res == "put: missing file_contents parameter",
        f"{st} {res}")


def test_bad_specs(srv):
    cases = [
        ({"language_id": "nosuchlanguage", "sourcecode": "print(1)\n"},
         "Language 'nosuchlanguage' is not known"),
        ({"language_id": None, "sourcecode": "print(1)\n"},
         "run_spec is missing the required attribute 'language_id'"),
        ({"sourcecode": None},
         "run_spec is missing the required attribute 'sourcecode'"),
        ({"sourcecode": "print(1)\n", "parameters": {"cputime": 100000}},
         None),
        ({"sourcecode": "print(1)\n", "sourcefilename": "../x.py"},
         "The sourcefilename for the run_spec is illegal"),
        ({"sourcecode": "print(1)\n",
          "parameters": {"interpreterargs": ["-m pylint"]}}, None),
    ]
    for spec, msg in cases:
        spec = {k: v for k, v in dict(
            {"language_id": "python3"}, **spec).items() if v is not None}
        st, res = srv.request("POST", API + "/runs", {"run_spec": spec})
        check(f"400 for {json.dumps(spec)[:60]}",
            st == 400 and isinstance(res, str) and
            (msg is None or res == msg), f"{st} {res}")
    st, res = srv.request("POST", API + "/runs", {"no": "spec"})
    check("a body without run_spec: 400", st == 400 and "run_spec" in res,
        f"{st} {res}")


def test_keys():
    d = tempfile.mkdtemp(prefix="pyward-jobe-keys-")
    keys = os.path.join(d, "keys")
    with open(keys, "w") as f:
        f.write("# CodeRunner's key\nsecret-key-1\n")
    srv = Server("--jobe-keys", keys)
    try:
        st, _ = srv.request("GET", API + "/languages")
        check("--jobe-keys: no X-API-KEY is 403", st == 403, st)
        st, _ = srv.request("GET", API + "/languages",
                            headers={"X-API-KEY": "secret-key-2"})
        check("--jobe-keys: a wrong X-API-KEY is 403", st == 403, st)
        st, res = srv.run({"sourcecode": "print(5)\n"},
                          headers={"X-API-KEY": "secret-key-1"})
        check("--jobe-keys: the right X-API-KEY runs",
            st == 200 and res["outcome"] == 15, f"{st} {res}")
    finally:
        srv.stop()
        shutil.rmtree(d, ignore_errors=True)


def test_overload():
    srv = Server("--max-concurrency", "1", "--max-queued", "1")
    try:
        results = []

        def one(code):
            results.append(srv.run({"sourcecode": code}))

        # One run in flight (the server says so), then four at once: one
        # waits for it, the others find the queue full.
        threads = [threading.Thread(target=one, args=(
            "import time\ntime.sleep(1.5)\nprint(1)\n" if k == 0 else
            "print(1)\n",)) for k in range(5)]
        threads[0].start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not re.search(
                r"^pyward_runs_in_flight 1$",
                srv.request_text("/metrics"), re.M):
            time.sleep(0.02)
        for t in threads[1:]:
            t.start()
        for t in threads:
            t.join()
        outcomes = sorted(r[1]["outcome"] for r in results if r[0] == 200)
        check("a full queue answers outcome 21 (server overload), the rest "
            "run", len(outcomes) == 5 and 21 in outcomes and 15 in outcomes,
            results)
        expect_run(srv, "Jobe's overload test source answers 21, as Jobe "
                   "does, without a run",
                   {"sourcecode": "!** TESTING OVERLOAD EXCEPTION **!"}, 21,
                   "", lambda r: r["stderr"] == "" and r["cmpinfo"] == "")
        expect_run(srv, "the same text inside a program is a program: a "
                   "compile error",
                   {"sourcecode": "!** TESTING OVERLOAD EXCEPTION **!\n"},
                   11)
    finally:
        srv.stop()


def main():
    srv = Server()
    try:
        test_languages(srv)
        test_outcomes(srv)
        test_program_features(srv)
        test_files(srv)
        test_bad_specs(srv)
    finally:
        srv.stop()
    test_keys()
    test_overload()
    return plan()


if __name__ == "__main__":
    sys.exit(main())
