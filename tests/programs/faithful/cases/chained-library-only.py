# known: library frames are not shown; the part raised and caught in library code keeps its "Traceback" line
from collections import ChainMap

settings = ChainMap({}, {"debug": True})
settings.pop("debug")
