# /// script
# requires-python = ">=3.8, <3.11"
# ///
print("hi")
