counts = {}
counts['a'] += 1  # error
counts[1:2] += [1]  # error
