# category: frames
# attack: inspect.currentframe().f_back
# profile: basic
import inspect
print(inspect.currentframe().f_back.f_globals)
