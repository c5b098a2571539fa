# SPDX-License-Identifier: Apache-2.0
"""guard.c's strict loader of rules/runtime.json: a copy of the rules with
one thing wrong in "attributes" or "audit" stops `pyward run` with a
message naming it, before any program runs."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guardload  # noqa: E402

PYWARD = os.environ.get("PYWARD") or os.path.join(guardload.srcdir(),
                                                  "pyward")


def run_with(change):
    """`pyward run` of print(1) with rules/runtime.json changed by CHANGE:
    (exit status, stdout, stderr)."""
    with tempfile.TemporaryDirectory() as tmp:
        rules = os.path.join(tmp, "rules")
        shutil.copytree(os.path.join(guardload.srcdir(), "rules"), rules)
        path = os.path.join(rules, "runtime.json")
        with open(path) as f:
            policy = json.load(f)
        change(policy)
        with open(path, "w") as f:
            json.dump(policy, f)
        prog = os.path.join(tmp, "p.py")
        with open(prog, "w") as f:
            f.write("print(1)\n")
        env = dict(os.environ, PYWARD_RULES_DIR=rules)
        out = subprocess.run([PYWARD, "run", "--skip-validation", prog],
                             env=env, capture_output=True, text=True,
                             timeout=60, check=False)
        return out.returncode, out.stdout, out.stderr


def refused(change, needle):
    rc, out, err = run_with(change)
    if rc == 0 or needle not in err:
        raise AssertionError(f"exit {rc}, stderr {err!r}: want {needle!r}")


def test_unchanged_runs():
    if not os.access(PYWARD, os.X_OK):
        return
    rc, out, err = run_with(lambda p: None)
    if rc != 0 or out != "1\n":
        raise AssertionError(f"exit {rc}: {out!r} {err!r}")


def test_attributes_checked():
    if not os.access(PYWARD, os.X_OK):
        return
    refused(lambda p: p["attributes"].update(extra=[]), "'extra'")
    refused(lambda p: p["attributes"].pop("super_refused"),
            "'super_refused'")
    refused(lambda p: p["attributes"]["refused_prefixes"].append(""),
            "'refused_prefixes'")
    refused(lambda p: p["attributes"].update(module_refused=[]),
            "'module_refused'")
    refused(lambda p: p["attributes"]["module_refused"].update(os=[1]),
            "'module_refused'")


def test_audit_checked():
    if not os.access(PYWARD, os.X_OK):
        return
    refused(lambda p: p["audit"].pop("deny_events"), "'deny_events'")
    refused(lambda p: p["audit"].update(more=[]), "'more'")
    refused(lambda p: p["audit"]["exec_names"].append(3), "'exec_names'")
    refused(lambda p: p.pop("audit"), "'audit'")
    refused(lambda p: p.update(audit_deny_modules=[]),
            "'audit_deny_modules'")


if __name__ == "__main__":
    sys.exit(guardload.run_tests(dict(globals())))
