# category: disclosure
# attack: look the guard's modules up in sys.modules (pyward_guard.common, .entry, .loader), reached through the sys facade and through the sys every allowed module that imports it re-exports, with subscripts, get() and a walk of its keys
# profile: basic jobe
# verdict: ok rejected
# stdout: sys typing dataclasses enum statistics fractions datetime contextlib
import contextlib
import dataclasses
import datetime
import enum
import fractions
import statistics
import sys
import typing

NAMES = ("pyward_guard", "pyward_guard.common", "pyward_guard.entry",
         "pyward_guard.loader")
routes = [("sys", lambda: sys)]
for m in (typing, dataclasses, enum, statistics, fractions, datetime,
          contextlib):
    name = m.__name__
    routes.append((name, lambda m=m: m.sys))
stopped = []
for name, route in routes:
    try:
        modules = route().modules
    except AttributeError:
        stopped.append(name)
        continue
    print("@LEAK@ sys.modules through", name)
    for n in NAMES:
        for look in (lambda: modules[n], lambda: modules.get(n),
                     lambda: [k for k in modules if k.startswith(n)]):
            try:
                print("@LEAK@", n, look())
            except Exception:  # noqa: BLE001 - each lookup is tried
                pass
print(*stopped)
