# attack: drop into the debugger (pdb gives full interpreter access)
breakpoint()
