# program: A submodule the zygote did not import: the import system loads it during the run (its .pyc unmarshalled, its Cython init run)
# profile: data_science
# verdict: ok rejected
# timeout: 30
# stdout: 0.333333
# A submodule the zygote did not import: the import system loads it
# during the run (its .pyc unmarshalled, its Cython init run).
from scipy import integrate
value, _err = integrate.quad(lambda t: t * t, 0, 1)
print(round(value, 6))
