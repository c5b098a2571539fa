# category: builtins
# attack: super(S, s).format: the unguarded str.format reached through a str subclass
# profile: basic
# run-layer: guard
class S(str):
    pass
f = super(S, S("{0.__class__.__base__.__subclasses__}")).format
subs = f(0)
print(subs)
