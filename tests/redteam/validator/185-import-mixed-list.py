# attack: hide a forbidden module after an allowed one
import math, os

print(math.pi, os.getcwd())
