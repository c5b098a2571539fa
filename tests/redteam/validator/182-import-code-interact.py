# attack: an interactive interpreter through the code module
import code

code.InteractiveConsole().push("print('escaped')")
