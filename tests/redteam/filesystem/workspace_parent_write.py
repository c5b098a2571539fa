# category: filesystem
# attack: write next to the workspace: its landlock rule is on its parent in the view (a session copy mounts its own tmpfs over the workspace)
# profile: filesystem
# verdict: error rejected
# never: planted
import pathlib
parent = pathlib.Path.cwd().parent
print(sorted(p.name for p in parent.iterdir()))
(parent / "next-to-workspace.txt").write_text("x")
print("planted")
