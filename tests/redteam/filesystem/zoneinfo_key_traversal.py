# category: filesystem
# attack: zoneinfo keys and TZPATH pointed at the secret: ZoneInfo('../../..<secret>') and reset_tzpath to its directory
# profile: basic
import zoneinfo
try:
    zoneinfo.ZoneInfo("../../../../../../.." + "@SECRET_FILE@")
except ValueError as e:
    print(repr(e)[:60])
zoneinfo.reset_tzpath(["@SECRET_DIR@"])
print(zoneinfo.ZoneInfo("secret.txt"))
