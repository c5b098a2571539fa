# attack: nonlocal at module level (a compile-stage error)
nonlocal x
