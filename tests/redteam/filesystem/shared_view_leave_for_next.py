# category: filesystem
# attack: runs without files share one read-only view: look for a file an earlier run left in it (the working directory, /tmp, /, /proc, /etc) and try to leave one for the next
# profile: basic
found = []
for path in ("shared-view-@TOKEN@", "/tmp/shared-view-@TOKEN@",
             "/shared-view-@TOKEN@", "/proc/shared-view-@TOKEN@",
             "/etc/shared-view-@TOKEN@", "../shared-view-@TOKEN@"):
    try:
        with open(path) as f:
            found.append(path + ": " + f.read(100))
    except Exception:  # noqa: BLE001 - nothing there is the good case
        pass
    try:
        with open(path, "w") as f:
            f.write("left by an earlier run")
    except Exception:  # noqa: BLE001 - every refusal is fine
        pass
for f in found:
    print("@LEAK@", f)
print("found", len(found))
