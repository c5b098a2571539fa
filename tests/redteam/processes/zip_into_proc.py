# category: processes
# attack: zipfile extraction over the test's process: write a member into /proc/<victim>/ files
# profile: basic filesystem
import zipfile
with zipfile.ZipFile("p.zip", "w") as z:
    z.writestr("../" * 12 + "proc/@TESTPID@/oom_score_adj", "1000")
    z.writestr("/proc/@TESTPID@/comm", "pwned")
zipfile.ZipFile("p.zip").extractall("/")
