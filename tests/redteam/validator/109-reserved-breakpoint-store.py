# attack: rebind breakpoint
breakpoint = None
