# attack: assign to __debug__ (a compile-stage error)
__debug__ = False
