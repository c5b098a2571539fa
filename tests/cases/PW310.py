import sys
print(sys.argv, sys.version_info, sys.maxsize)  # ok
sys.stdout.write("x\n")  # ok
sys.stdout = sys.stderr  # ok
sys.modules["os"]  # error
sys._getframe(0)  # error (PW305 too)
sys.settrace(print)  # error
