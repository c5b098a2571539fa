# category: imports
# attack: pathlib.os (filesystem profile) to reach os.system
# profile: basic filesystem
import pathlib
pathlib.os.system("touch @OUTSIDE@")
