# attack: import sys and pull os out of sys.modules
import sys

sys.modules["os"].system("echo escaped")
