# category: filesystem
# attack: pathlib.Path("../../../../../../..@OUTSIDE@").write_text("pwned")
# profile: filesystem
# verdict: error rejected
import pathlib
pathlib.Path("../../../../../../..@OUTSIDE@").write_text("pwned")
