raise ValueError()
