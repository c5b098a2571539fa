# category: imports
# attack: glob.os.system("id")
# profile: filesystem
# verdict: error rejected
import glob
glob.os.system("id")
