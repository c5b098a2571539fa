# attack: yield from at module level (a compile-stage error)
yield from [1, 2]
