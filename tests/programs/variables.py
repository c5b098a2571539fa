# program: total = sum(range(6))
# profile: basic
# verdict: ok
# timeout: 30
# variables: total=15
total = sum(range(6))
