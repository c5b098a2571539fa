# exec-check.py CASE RESULT_JSON [SECRET...]: check one sandbox case's
# result against the "# key: value" lines at the top of CASE.  Prints the
# reasons it fails (nothing when it passes).
import base64
import json
import sys

case, result_file = sys.argv[1], sys.argv[2]
secrets = sys.argv[3:]
expect = {}
with open(case, encoding="utf-8") as f:
    for line in f:
        if not line.startswith("# ") or ":" not in line:
            break
        k, _, v = line[2:].partition(":")
        expect[k.strip()] = v.strip()
raw = open(result_file, encoding="utf-8").read()
bad = []
try:
    res = json.loads(raw.strip().splitlines()[-1])
except (ValueError, IndexError):
    print("no JSON result:", raw[:500])
    sys.exit(0)
status = res.get("status")
if status not in expect.get("expect", "ok").split(","):
    bad.append(f"status {status}, expected {expect.get('expect')}")
if "stdout" in expect and res.get("stdout") != expect["stdout"] + "\n":
    bad.append(f"stdout {res.get('stdout')!r}")
if "result" in expect and res.get("result") != expect["result"]:
    bad.append(f"result {res.get('result')!r}")
if "error-line" in expect:
    line = (res.get("error") or {}).get("line")
    if str(line) != expect["error-line"]:
        bad.append(f"error line {line}")
    tb = (res.get("error") or {}).get("traceback", "")
    if "guard" in tb or "File " in tb:
        bad.append(f"traceback not trimmed: {tb!r}")
if "variables" in expect:
    name, _, value = expect["variables"].partition("=")
    got = (res.get("variables") or {}).get(name, {}).get("repr")
    if got != value:
        bad.append(f"variable {name} = {got!r}")
if "blocked" in expect:
    kind = (res.get("blocked") or {}).get("kind")
    if kind != expect["blocked"]:
        bad.append(f"blocked {res.get('blocked')!r}")
if "blocked-name" in expect:
    name = (res.get("blocked") or {}).get("name")
    if name != expect["blocked-name"]:
        bad.append(f"blocked name {name!r}")
files = {f.get("name"): f for f in res.get("files") or []}
for item in expect.get("files", "").split():
    name, _, want = item.partition("=")
    f = files.get(name)
    if f is None:
        bad.append(f"file {name} not listed")
    elif want == "refused":
        if f.get("sent") or "data" in f or not f.get("reason"):
            bad.append(f"file {name} sent: {f.get('sent')}")
    elif not f.get("sent") or f.get("mime_type") != want or \
            len(base64.b64decode(f.get("data", ""))) != f.get("size"):
        bad.append(f"file {name}: {f.get('mime_type')}, "
                   f"sent {f.get('sent')}, size {f.get('size')}")
if "files-count" in expect and len(files) != int(expect["files-count"]):
    bad.append(f"{len(files)} files listed")
for s in secrets + [expect.get("absent", "\0")]:
    if s and s in raw:
        bad.append(f"output contains {s!r}")
if bad:
    print("; ".join(bad))
    print(raw[:1500])
