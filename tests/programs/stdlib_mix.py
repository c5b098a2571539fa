# program: stdlib mix
# profile: basic
# verdict: ok
# timeout: 30
# stdout: 3 [1, 2, 3] 2 abc
import math, json, re, statistics, itertools
print(math.isqrt(10), json.loads("[1,2,3]"), statistics.mean([1, 2, 3]),
      "".join(re.findall("[a-c]", "xaybzc")))
