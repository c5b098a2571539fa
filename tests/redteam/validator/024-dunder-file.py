# attack: learn the host path of the program through __file__
print(__file__)
