# attack: weakref callbacks run code at unexpected times
import weakref

print(weakref.finalize)
