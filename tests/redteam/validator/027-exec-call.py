# attack: run arbitrary source through exec
exec("import os\nos.system('echo escaped')")
