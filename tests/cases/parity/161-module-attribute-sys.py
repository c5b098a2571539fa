# parity: an allowed module's own imports (dataclasses.sys, typing.sys) are plain attributes statically; run-time layers must hold (RestrictedPython's gaps pyward must cover)
# restricted: accept
# default: ?
import dataclasses
import typing

mods = dataclasses.sys.modules
t = typing.sys
