# category: packages
# attack: a package of the set connects to the host's listener when imported (TCP, UDP, _socket)
# profile: basic redteam
# /// script
# dependencies = ["pw-rt-net"]
# ///
PW_RT = {"PORT": "@PORT@"}
import pw_rt_net
print("\n".join(pw_rt_net.done))
