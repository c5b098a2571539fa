# attack: change state libraries keep in C (the random generator's seed, decimal's contexts, csv's dialects and field size limit, an ABC registration) for the next tests to find
import collections.abc
import csv
import decimal
import random

k = int(input())
seen = []
if random.random() == 0.9664535356921388:  # the first draw after seed(1234)
    seen.append("random's seed")
if decimal.getcontext().prec != 28 or decimal.DefaultContext.prec != 28:
    seen.append("decimal's context")
if "stash" in csv.list_dialects() or csv.field_size_limit() != 131072:
    seen.append("csv")
if isinstance([], collections.abc.Hashable):
    seen.append("an ABC registration")
print("LEAK: " + ", ".join(seen) if seen else "clean")
for plant in (lambda: random.seed(1234),
              lambda: setattr(decimal.getcontext(), "prec", 3),
              lambda: setattr(decimal.DefaultContext, "prec", 5),
              lambda: csv.register_dialect("stash", delimiter=";"),
              lambda: csv.field_size_limit(10),
              lambda: collections.abc.Hashable.register(list)):
    try:
        plant()
    except Exception:  # noqa: BLE001 - the sandbox may refuse one
        pass
