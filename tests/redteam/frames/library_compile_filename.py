# category: frames
# attack: a library's compile (sympy's parser, given the guard's compile) asked for a file name of its choosing: a str subclass whose startswith says yes makes code under a library module's path, which the audit hook would take for trusted library code, or the guard's own file name; the code made carries "<library>" whatever was asked
# profile: basic data_science
# verdict: error
# never: pwned_library_file
import sympy.parsing.sympy_parser as sp


class Liar(str):
    def startswith(self, *args):
        return True


for name in ["<pyward-guard>", Liar("<pyward-guard>")]:
    sp.eval_expr(sp.compile("1 + 1", name, "eval"), {}, {})
code = sp.compile("1 / 0", Liar("/usr/lib/python3/pwned_library_file.py"),
                  "eval")
sp.eval_expr(code, {}, {})
