# expect: error
# args: --profile filesystem
import glob
glob.os.system("id")
