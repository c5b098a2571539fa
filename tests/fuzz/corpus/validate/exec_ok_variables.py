# expect: ok
# variables: total=15
total = sum(range(6))
