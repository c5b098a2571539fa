# attack: exec with a hand-made globals dict containing real builtins
env = {}
exec("x = 1", env)
print(sorted(env))
