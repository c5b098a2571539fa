# category: imports
# attack: shutil.os and shutil.sys
# profile: basic filesystem
import shutil
print(shutil.os.environ, shutil.sys.modules)
