# program: uuid1 without libuuid's daemon socket (which seccomp refuses)
# profile: basic
# verdict: ok
# timeout: 30
# stdout: 1 True
# uuid1 without libuuid's daemon socket (which seccomp refuses).
import uuid
a, b = uuid.uuid1(), uuid.uuid1()
print(a.version, a != b)
