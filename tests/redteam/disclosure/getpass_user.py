# category: disclosure
# attack: getpass.getuser and pwd
# profile: basic
import getpass
print(getpass.getuser())
