config = {'db': None}
print(config['db'].host.name)
