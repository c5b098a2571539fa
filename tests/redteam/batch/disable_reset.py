# attack: disable the reset between tests (random.Random's seed and random replaced by functions of the test's, so that the next test's draws are the ones this test chose) and stash data on the class
import random

k = int(input())
seen = []
if random.random() == 0.25:
    seen.append("random replaced")
if random.Random().random() == 0.25:
    seen.append("random.Random replaced")
if getattr(random.Random, "stash", None) is not None:
    seen.append("data on random.Random")
print("LEAK: " + ", ".join(seen) if seen else "clean")
for plant in (lambda: setattr(random.Random, "seed", lambda self, *a: None),
              lambda: setattr(random.Random, "random", lambda self: 0.25),
              lambda: setattr(random.Random, "stash", k)):
    try:
        plant()
    except Exception:  # noqa: BLE001 - the sandbox may refuse one
        pass
