# attack: read build configuration and paths
import sysconfig

print(sysconfig.get_paths())
