print('caf\u00e9'.encode('ascii'))
