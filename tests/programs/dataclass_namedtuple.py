# program: dataclass namedtuple
# profile: basic
# verdict: ok
# timeout: 30
# stdout: P(x=1, y=2) 3 Point(a=1, b=2)
import collections
import dataclasses

@dataclasses.dataclass
class P:
    x: int
    y: int = 2

Point = collections.namedtuple("Point", "a b")
p = P(1)
print(p, p.x + p.y, Point(1, 2))
