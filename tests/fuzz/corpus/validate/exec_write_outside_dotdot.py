# expect: error
# args: --profile filesystem
# check: nofile
import pathlib
pathlib.Path("../../../../../../..@OUTSIDE@").write_text("pwned")
