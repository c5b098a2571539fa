# category: resources
# attack: fill the disk through the jobe profile's open(): write chunks of 1 MiB to a workspace file until something stops it
# profile: basic jobe
# timeout: 20
chunk = "x" * (1 << 20)
with open("huge.bin", "w") as f:
    for _ in range(1 << 16):
        f.write(chunk)
