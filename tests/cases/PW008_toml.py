# /// script
# dependencies = [
# ///
print("hi")
