# attack: yield inside a class body (a compile-stage error)
class C:
    yield 1
