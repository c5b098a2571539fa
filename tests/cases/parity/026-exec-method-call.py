# parity: only a Call whose func is the bare Name exec is rejected; an attribute named exec is fine (RestrictedPython's node-type policy)
# restricted: accept
# default: accept
class Runner:
    def exec(self, x):
        return x


Runner().exec(1)
