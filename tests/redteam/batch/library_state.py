# attack: store on a library's classes, functions, module-level objects and lists (json.JSONDecoder.stash, json.dumps.stash, json.JSONEncoder.stash, calendar.setfirstweekday, keyword.kwlist) for the next tests to find
import calendar
import json
import keyword

k = int(input())
seen = []
if getattr(json.JSONDecoder, "stash", None) is not None:
    seen.append("a library class")
if getattr(json.dumps, "stash", None) is not None:
    seen.append("a library function")
if getattr(json.JSONEncoder, "stash", None) is not None:
    seen.append("another library class")
if "stash" in keyword.kwlist:
    seen.append("a library's list")
if calendar.firstweekday() != 0:
    seen.append("calendar's first weekday")
print("LEAK: " + ", ".join(seen) if seen else "clean")
for plant in (lambda: setattr(json.JSONDecoder, "stash", k),
              lambda: setattr(json.dumps, "stash", k),
              lambda: setattr(json.JSONEncoder, "stash", k),
              lambda: keyword.kwlist.append("stash"),
              lambda: calendar.setfirstweekday(6)):
    try:
        plant()
    except Exception:  # noqa: BLE001 - the sandbox may refuse one
        pass
