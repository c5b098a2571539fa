# /// script
# requires-python = "~=3.10"
# ///
print("hi")
