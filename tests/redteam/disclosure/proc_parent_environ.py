# category: disclosure
# attack: /proc/<parent>/environ of the test process
# profile: basic filesystem
import pathlib
print(pathlib.Path("/proc/@TESTPID@/environ").read_bytes())
