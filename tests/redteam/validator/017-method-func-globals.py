# attack: from a bound method to its function and then its globals
class C:
    def m(self):
        pass


print(C().m.__func__.__globals__)
