# category: resources
# attack: catastrophic regex backtracking
# profile: basic
# timeout: 1
import re
re.match(r"(a+)+$", "a" * 64 + "b")
