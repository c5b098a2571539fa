# category: packages
# attack: a package of the set writes files when imported: outside the workspace, in /tmp, over the secret, next to its own module, and appends to itself
# profile: basic redteam
# /// script
# dependencies = ["pw-rt-write"]
# ///
PW_RT = {"TARGETS": ["@OUTSIDE@", "/tmp/@TOKEN@-pkg", "@SECRET_FILE@"],
         "MARK": "@LEAK@"}
import pw_rt_write
del PW_RT
print("\n".join(pw_rt_write.done))
