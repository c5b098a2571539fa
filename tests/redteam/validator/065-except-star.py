# attack: try/except* (type confusion in CPython 3.11 to 3.13.1, CVE-2025-22153)
try:
    raise ValueError(1)
except* ValueError as eg:
    print(eg)
