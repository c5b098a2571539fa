# category: imports
# attack: print(typing.sys.modules["os"].environ)
# profile: basic
# verdict: error rejected
import typing
print(typing.sys.modules["os"].environ)
