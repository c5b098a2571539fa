# attack: import os under the name of an allowed module
import os as math

print(math.getcwd())
