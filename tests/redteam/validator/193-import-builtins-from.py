# attack: import exec out of the builtins module
from builtins import exec

exec("print('escaped')")
