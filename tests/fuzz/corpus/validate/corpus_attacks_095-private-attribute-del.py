# attack: delete a private attribute
import collections

del collections._sys
