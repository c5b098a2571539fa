# category: packages
# attack: a package of the set starts processes when imported (subprocess, os.system, posix_spawn)
# profile: basic redteam
# /// script
# dependencies = ["pw-rt-spawn"]
# ///
import pw_rt_spawn
print("\n".join(pw_rt_spawn.done))
