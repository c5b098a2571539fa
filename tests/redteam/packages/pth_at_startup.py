# category: packages
# attack: a package of the set ships a .pth file whose line would mark the interpreter and touch a file if a run's start-up processed it
# profile: basic redteam
# stdout: False
# /// script
# dependencies = ["pw-rt-pth"]
# ///
import pw_rt_pth
print(pw_rt_pth.ran())
