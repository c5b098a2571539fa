# /// script
# requires-python = ">=3.12"
# ///
print("hi")
