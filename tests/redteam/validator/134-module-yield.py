# attack: yield at module level (a compile-stage error)
yield 1
