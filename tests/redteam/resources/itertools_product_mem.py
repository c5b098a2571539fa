# category: resources
# attack: list(itertools.product(range(1000), repeat=6))
# profile: basic
# timeout: 3
import itertools
print(len(list(itertools.product(range(1000), repeat=6))))
