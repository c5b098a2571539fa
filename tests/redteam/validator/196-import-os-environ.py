# attack: read the environment for secrets
from os import environ

print(dict(environ))
