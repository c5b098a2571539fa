# attack: construct a code object and function by hand
import types

print(types.CodeType, types.FunctionType)
