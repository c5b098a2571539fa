# attack: remove a directory tree without the filesystem profile
import shutil

shutil.rmtree("/tmp/does-not-exist-pyward", ignore_errors=True)
