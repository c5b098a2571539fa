# SPDX-License-Identifier: Apache-2.0
"""The three layers that judge attribute names agree with
rules/runtime.json: the guard (loaded as guard.c loads it), the audit
hook's exec_names (the same file), and the validator's attribute rules
(rules/attributes.json, asked through `pyward check`).  Every difference
is listed below with its reason: a name the guard refuses and the
validator lets through must be one of them."""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import guardload  # noqa: E402

G = guardload.load()
POLICY = json.loads(guardload.runtime_text())
ATTRS = POLICY["attributes"]
PREFIXES = [p for p in ATTRS["refused_prefixes"] if p != "_"]
# Every name the guard refuses outright: RestrictedPython's inspection
# names (which the validator's PW303 and PW304 take from the same lists)
# and the guard's own additions.
REFUSED = set(ATTRS["inspect"]) | set(ATTRS["inspect_async"]) | \
    set(ATTRS["refused"])

# Refused by the guard, let through by the validator's default rules.
VALIDATOR_GAPS = {
    "tb_lasti": "parity: not in RestrictedPython's INSPECT_ATTRIBUTES, "
                "which PW303 reproduces; an int, refused at run time",
    "tb_lineno": "parity, as tb_lasti: a line number",
    "f_lasti": "parity, as tb_lasti",
    "mro": "parity: RestrictedPython allows cls.mro(); the guard refuses "
           "it, the type's whole chain is what a breakout walks",
}
# Prefix families: the validator lists RestrictedPython's names one by
# one (PW303, PW304; tests/cases/parity keeps f_lineno, co_consts,
# gi_running allowed), the guard refuses every name with the prefix.
PREFIX_SAMPLES = ("f_lineno", "co_consts", "co_names", "gi_running",
                  "cr_running", "ag_running", "tb_other")
# Let through by the validator's default rules, judged by the guard on
# each object: names starting with '_' (owned_prefixes) are read on the
# program's own classes and their instances only, which the validator
# cannot tell from a library object.
OWNED_SAMPLES = ("_private", "_C__hidden", "__hidden", "_x__")
# Refused by the validator, read by the guard.
GUARD_ALLOWS = {
    "Formatter": "module_refused hides string.Formatter; the validator "
                 "refuses the name on any object (PW309)",
}
# exec_names the guard does not refuse as attribute names.
AUDIT_ONLY = {
    "system": "os is not allowed: no program reaches os.system",
    "popen": "as system",
    "modules": "sys is not allowed: no program reaches sys.modules",
    "open": "not a builtin of the sandbox; io and os are not allowed",
}


class Probe:
    """Has every attribute, a string (as naming dunders hold): the guard's
    verdict alone decides."""

    def __getattr__(self, name):
        return "probe"


def refusal(obj, name):
    """True if the guard refuses NAME on OBJ (not a plain miss)."""
    try:
        G["guarded_getattr"](obj, name)
    except AttributeError as e:
        return "not allowed in the sandbox" in str(e)
    return False


def guard_refuses(name):
    return refusal(Probe(), name)


def guard_refuses_super(name):
    class Base:
        def __getattr__(self, name):
            return 1

    class Child(Base):
        def probe(self):
            return refusal(super(), name)
    return Child().probe()


def validator_refuses(names, rules="default", template="x.{}"):
    """The names whose attribute access `pyward check` reports (PW3xx)."""
    pyward = os.environ.get("PYWARD") or os.path.join(
        guardload.srcdir(), "pyward")
    src = "".join(template.format(n) + "\n" for n in names)
    out = subprocess.run(
        [pyward, "check", "-q", "--rules", rules, "--select", "PW3",
         "--stdin-filename", "p.py", "-"], input=src, capture_output=True,
        text=True, check=False)
    if out.returncode not in (0, 1):
        raise AssertionError(f"pyward check: {out.stderr}")
    lines = {int(r.split(":")[1]) for r in out.stdout.splitlines()}
    return {n for i, n in enumerate(names, 1) if i in lines}


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


def probe_names():
    rules = json.load(open(os.path.join(guardload.srcdir(),
                                        "rules/attributes.json")))
    names = REFUSED | set(ATTRS["super_refused"]) | \
        set(ATTRS["allowed_dunders"]) | set(POLICY["audit"]["exec_names"])
    for rule in rules["rules"]:
        listed = rule.get("where", {}).get("attr", {}).get("in", ())
        if isinstance(listed, dict):  # {"$runtime": "attributes.KEY"}
            listed = ATTRS[listed["$runtime"].split(".", 1)[1]]
        names |= set(listed)
    names |= {"__class__", "Formatter", "real", "upper"}
    return sorted(names | set(PREFIX_SAMPLES))


def test_policy_is_applied():
    expect(G["INSPECT"] == frozenset(REFUSED), "refused")
    expect(G["SUPER_DENY"] == frozenset(ATTRS["super_refused"]), "super")
    expect(G["MODULE_DENY"]["string"] == ("Formatter",), "module_refused")
    expect("_" in ATTRS["refused_prefixes"], "'_' is a refused prefix")
    for p in ATTRS["refused_prefixes"]:
        expect(guard_refuses(p + "x"), f"the guard refuses {p}x")


def test_validator_takes_the_runtime_lists():
    """PW303 and PW304 name runtime.json's lists instead of copying them:
    one list, read by the guard and by the validator."""
    rules = json.load(open(os.path.join(guardload.srcdir(),
                                        "rules/attributes.json")))
    refs = {r["code"]: r["where"]["attr"]["in"] for r in rules["rules"]
            if r["code"] in ("PW303", "PW304")}
    expect(refs == {"PW303": {"$runtime": "attributes.inspect"},
                    "PW304": {"$runtime": "attributes.inspect_async"}},
           f"PW303/PW304 refer to runtime.json: {refs}")
    out = validator_refuses(ATTRS["inspect"] + ATTRS["inspect_async"])
    expect(out == set(ATTRS["inspect"]) | set(ATTRS["inspect_async"]),
           "the validator refuses every name of the two lists")


def test_guard_refusals_are_the_validators():
    names = probe_names()
    refused_by_guard = [n for n in names if guard_refuses(n)]
    static = validator_refuses(refused_by_guard)
    gaps = [n for n in refused_by_guard if n not in static and
            n not in VALIDATOR_GAPS and n not in PREFIX_SAMPLES and
            not G["owned_name"](n)]
    expect(not gaps, f"the guard refuses, the validator does not: {gaps} "
           "(add them to rules/attributes.json or explain them here)")
    stale = [n for n in VALIDATOR_GAPS if n in static or
             not guard_refuses(n)]
    expect(not stale, f"differences no longer true: {stale}")
    for n in PREFIX_SAMPLES:
        expect(guard_refuses(n) and n.startswith(tuple(PREFIXES)),
               f"{n}: a prefix family the guard refuses")


def test_owned_names_are_the_guards():
    """Names starting with '_' pass the validator (default rules) and are
    judged by the guard: refused on an object the program did not define,
    read on one it did; the restricted rules refuse them all."""
    expect(not validator_refuses(OWNED_SAMPLES), "default: let through")
    expect(not validator_refuses(OWNED_SAMPLES, template="x.{} = 1"),
           "default: stores let through")
    expect(validator_refuses(OWNED_SAMPLES, "restricted") ==
           set(OWNED_SAMPLES), "restricted: refused")
    for n in OWNED_SAMPLES:
        expect(G["owned_name"](n) and guard_refuses(n),
               f"{n}: refused by the guard on a library object")
    for n in ("__class__", "__dict__", "_", "__", "___", "real"):
        expect(not G["owned_name"](n), f"{n}: not an owned name")


def test_naming_dunders_pass_both():
    """allowed_dunders and type_dunders: read through both layers (the
    guard answers strings, and type(obj) for __class__); stores refused
    by both."""
    names = ATTRS["allowed_dunders"] + ATTRS["type_dunders"]
    expect(not validator_refuses(names), "the validator reads them")
    expect(validator_refuses(names, template="x.{} = 1") == set(names),
           "the validator refuses stores")
    expect(not [n for n in names if guard_refuses(n)], "the guard reads")
    expect(G["guarded_getattr"](Probe(), "__class__") is Probe, "type(x)")


def test_validator_refusals_are_the_guards():
    names = probe_names()
    static = validator_refuses(names)
    allowed = [n for n in static if not guard_refuses(n)]
    expected = set(GUARD_ALLOWS)
    expect(set(allowed) <= expected,
           f"the validator refuses, the guard reads: {sorted(allowed)}")
    expect(not validator_refuses(["real", "upper"]), "public names pass")


def test_restricted_set_refuses_underscore():
    names = ["_private", "__class__", "__subclasses__", "__init__"]
    expect(validator_refuses(names, "restricted") == set(names),
           "the restricted set refuses every '_' attribute")


def test_super_rules_agree():
    rules = json.load(open(os.path.join(guardload.srcdir(),
                                        "rules/attributes.json")))
    pw305 = [r for r in rules["rules"] if r["code"] == "PW305"][0]
    ordinary = [c for c in pw305["where"]["not"]["any_of"]
                if "value.func.id" in c][0]["attr"]["in"]
    blocked = [n for n in ordinary if guard_refuses_super(n)]
    expect(not blocked, f"super().NAME the validator allows, the guard "
           f"refuses: {blocked}")
    supers = ATTRS["super_refused"]
    static = validator_refuses(supers, template="super().{}")
    expect(static == set(supers), "super_refused names are refused by "
           f"the validator: missing {sorted(set(supers) - static)}")
    expect(all(guard_refuses_super(n) for n in supers), "and by the guard")


def test_audit_exec_names_are_refused_by_the_guard():
    builtins_refused = set(POLICY["refused_builtins"])
    loose = [n for n in POLICY["audit"]["exec_names"]
             if not guard_refuses(n) and n not in builtins_refused
             and n not in AUDIT_ONLY]
    expect(not loose, f"exec_names the guard lets a program read: {loose}")
    for n in builtins_refused & set(POLICY["audit"]["exec_names"]):
        expect(n not in G["make_builtins"]() or n in (
            "getattr", "setattr", "delattr", "__import__"),
            f"{n}: refused builtin")


def test_denied_modules_never_allowed():
    """The audit hook's deny_modules and the profiles' allow-lists: no
    profile allows a module the hook refuses to load."""
    profiles = json.load(open(os.path.join(guardload.srcdir(),
                                           "rules/profiles.json")))
    denied = POLICY["audit"]["deny_modules"]
    clash = [m for p in profiles["profiles"] for m in p["modules"]
             if m in denied or m.startswith(tuple(d + "." for d in denied))]
    expect(not clash, f"allowed by a profile, refused by the hook: {clash}")


def test_rules_speak_plainly_to_students():
    """Every shipped rule has a student text (what the Jobe API and
    pyward judge show a student) that names no rule code, tool or
    profile, and uses only placeholders its message uses."""
    import glob
    import re
    jargon = ("PW", "profile", "get_sandbox_info", "pyward",
              "RestrictedPython", "validator", "seccomp")
    place = re.compile(r"(?<!{){([^{}]+)}")
    for path in sorted(glob.glob(os.path.join(guardload.srcdir(),
                                              "rules/*.json"))):
        doc = json.load(open(path))
        for rule in doc.get("rules", []) if isinstance(doc, dict) else []:
            if "message" not in rule:
                continue  # not a validator rule (seccomp.json's)
            text = rule.get("student")
            expect(isinstance(text, str) and text, f"{rule['code']}: no "
                   "student text")
            said = [w for w in jargon if w in (text or "")]
            expect(not said, f"{rule['code']}: student text says {said}")
            extra = set(place.findall(text or "")) - \
                set(place.findall(rule["message"]))
            expect(not extra, f"{rule['code']}: placeholders {extra} are "
                   "not the message's")


if __name__ == "__main__":
    sys.exit(guardload.run_tests(dict(globals())))
