# category: builtins
# attack: a class built by a library's guarded exec (sympy's parser) taken for the program's own, to read private names of library objects through it
# profile: basic data_science
# verdict: error
# run-layer: guard
import sympy

x = sympy.Symbol("x")
print(x._assumptions)
