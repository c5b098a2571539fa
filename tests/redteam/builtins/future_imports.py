# category: builtins
# attack: from __future__ imports in every profile (barry_as_FLUFL and the rest), then the __future__ module's private class to reach its globals
# profile: basic
# verdict: error rejected
# run-layer: guard
from __future__ import barry_as_FLUFL, annotations, generator_stop
import __future__

print(__future__.all_feature_names, __future__.barry_as_FLUFL)
g = __future__._Feature.getOptionalRelease.__globals__
print(g["__builtins__"]["open"]("@SECRET_FILE@").read())
