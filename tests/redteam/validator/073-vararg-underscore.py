# attack: varargs and kwargs named like guard hooks
def f(*_apply_, **_inplacevar_):
    return _apply_, _inplacevar_


print(f(1, a=2))
