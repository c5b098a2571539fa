# category: disclosure
# attack: gc.get_objects to find the guard's state
# profile: basic
import gc
for o in gc.get_objects():
    if isinstance(o, dict) and "allowed" in o:
        print(o)
