# faithful: full
from mathh import sqrt
print(sqrt(4))
