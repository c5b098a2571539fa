# attack: frame inspection through the inspect module
import inspect

print(inspect.currentframe().f_back)
