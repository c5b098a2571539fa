# program: what a CodeRunner question does under the jobe profile: sys.argv, sys.stdin, a support file written then read with open(), sys.stdout swapped for a StringIO to capture a call's output, sys.exit(0)
# profile: basic jobe
# verdict: ok
# stdin: 3 4
# stdout: <user> 7 4 captured: 'hi\n' 3.11 True
import io
import sys

a, b = map(int, sys.stdin.readline().split())
with open("data.txt", "w") as f:
    f.write(str(a + b))
with open("data.txt") as f:
    total = f.read()
saved = sys.stdout
sys.stdout = io.StringIO()
print("hi")
captured = sys.stdout.getvalue()
sys.stdout = saved
print(sys.argv[0], total, len(sys.argv[0]) - 2, "captured:", repr(captured),
      f"{sys.version_info[0]}.{sys.version_info[1]}",
      sys.maxsize > 2**31, end="")
print()
sys.exit(0)
