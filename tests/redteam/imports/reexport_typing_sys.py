# category: imports
# attack: typing.sys.modules['os']
# profile: basic
import typing
print(typing.sys.modules["os"].popen("cat @SECRET_FILE@").read())
