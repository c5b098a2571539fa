# category: builtins
# attack: a '_name' on a class a library built with type() (collections.namedtuple), to walk to the library's globals
# profile: basic
# verdict: error rejected
# run-layer: guard
import collections
P = collections.namedtuple("P", "x y")
g = P._make.__func__.__globals__
g["_sys"].modules["os"].system("cat @SECRET_FILE@ > @OUTSIDE@")
