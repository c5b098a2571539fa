# attack: run a module by name
import runpy

runpy.run_module("this")
