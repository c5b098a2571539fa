raise RuntimeError("")
