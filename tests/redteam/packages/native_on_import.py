# category: packages
# attack: an extension module of the set calls libc directly (no audit event): creates files outside, over the secret and in the set, reads init's and the victim's environment, connects to the host's listener, forks
# profile: basic redteam
# /// script
# dependencies = ["pw-rt-native"]
# ///
PW_RT = {"TARGETS": ["@OUTSIDE@", "/tmp/@TOKEN@-native", "@SECRET_FILE@",
                     "@OUTSIDE_DIR@/../state/packages/redteam/pw_rt_new"],
         "PIDS": ["@TESTPID@"], "PORT": "@PORT@", "MARK": "@LEAK@"}
import pw_rt_native
lines = pw_rt_native.go(PW_RT)
del PW_RT
print("\n".join(lines))
