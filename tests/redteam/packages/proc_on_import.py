# category: packages
# attack: a package of the set reads /proc when imported: init's, its own and the victim's environment and command line, the process list
# profile: basic redteam
# /// script
# dependencies = ["pw-rt-proc"]
# ///
PW_RT = {"PIDS": ["@TESTPID@"]}
import pw_rt_proc
print("\n".join(pw_rt_proc.done))
