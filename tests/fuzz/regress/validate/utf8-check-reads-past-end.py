x = """abc
