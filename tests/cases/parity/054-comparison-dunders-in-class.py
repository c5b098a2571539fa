# parity: the comparison dunders and __contains__ are in ALLOWED_FUNC_NAMES (RestrictedPython's name rule, check_name)
# restricted: accept
# default: accept
class C:
    def __eq__(self, o):
        return True

    def __ne__(self, o):
        return False

    def __lt__(self, o):
        return False

    def __le__(self, o):
        return True

    def __gt__(self, o):
        return False

    def __ge__(self, o):
        return True

    def __contains__(self, x):
        return False
