# category: imports
# attack: dataclasses.inspect.getmembers to walk dunders
# profile: basic
import dataclasses
print(dataclasses.inspect.getmembers(()))
