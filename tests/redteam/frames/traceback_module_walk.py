# category: frames
# attack: traceback.walk_stack(None) to list every frame
# profile: basic
import traceback
for f, _ in traceback.walk_stack(None):
    print(f.f_globals.get("os"))
