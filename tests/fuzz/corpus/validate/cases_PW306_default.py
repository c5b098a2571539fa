class C:
    def inc(self):
        self.n += 1  # ok in default
        self.d[k] += 1  # ok in default
