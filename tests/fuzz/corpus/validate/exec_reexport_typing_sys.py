# expect: error
import typing
print(typing.sys.modules["os"].environ)
