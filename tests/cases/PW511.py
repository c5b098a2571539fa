def __eq__(a, b):  # error: not in a class
    pass
class P:
    def __repr__(self):  # ok
        return 'P()'
    def __getattribute__(self, n):  # error: not ordinary
        pass
    def _helper(self):  # ok: a private method
        pass
def _util():  # error: not in a class
    pass
