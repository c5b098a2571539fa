class C:
    def inc(self):
        self.n += 1  # error
        n = 0
        n += 1  # ok: a plain name
