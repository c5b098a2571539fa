# category: filesystem
# attack: shutil.copytree the workspace to outside
# profile: basic filesystem
import shutil, pathlib
pathlib.Path("a").mkdir()
shutil.copytree("a", "@OUTSIDE@")
