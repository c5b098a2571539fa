# category: disclosure
# attack: print(len(gc.get_objects()))
# profile: basic
# verdict: error rejected
import gc
print(len(gc.get_objects()))
