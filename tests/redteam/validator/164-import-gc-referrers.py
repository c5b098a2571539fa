# attack: reach arbitrary objects through the garbage collector
import gc

print(len(gc.get_objects()))
