# /// script
# dependencies = "numpy"
# requires-python = "three"
# ///
print("hi")
