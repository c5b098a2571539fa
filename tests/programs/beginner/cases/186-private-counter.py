# A counter that keeps its count private behind a property.
class Counter:
    _instances = 0

    def __init__(self, start=0):
        self._count = start
        Counter._instances = Counter._instances + 1

    @property
    def count(self):
        return self._count

    def _step(self):
        return 1

    def click(self):
        self._count += self._step()

    @classmethod
    def made(cls):
        return cls._instances


clicks = Counter()
for i in range(3):
    clicks.click()
other = Counter(10)
other.click()
print("clicks:", clicks.count)
print("other:", other.count)
print("counters made:", Counter.made())
