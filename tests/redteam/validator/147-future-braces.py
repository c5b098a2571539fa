# attack: an unknown __future__ feature (a compile-stage error)
from __future__ import braces
