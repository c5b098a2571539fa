# category: disclosure
# attack: /proc of a run without files (the shared view's /proc is empty): another run's or the host's processes, the run's own status, maps and exe link
# profile: basic
seen = []
for path in ("/proc/1/status", "/proc/2/cmdline", "/proc/self/status",
             "/proc/self/maps", "/proc/self/mountinfo", "/proc/meminfo",
             "/proc/self/exe"):
    try:
        with open(path, "rb") as f:
            seen.append(path + ": " + repr(f.read(80)))
    except Exception:  # noqa: BLE001 - every refusal is fine
        pass
for s in seen:
    print("@LEAK@", s)
print("seen", len(seen))
