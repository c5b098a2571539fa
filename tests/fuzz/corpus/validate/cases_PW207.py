'{0.__class__}'.format(x)  # error
'{0.f_globals}'.format(x)  # error
'{0[0]}, {1}'.format(a, b)  # ok: items are not attributes
'{name.upper}'.format(name='x')  # ok: a public attribute
'{}'.format_map({})  # ok
