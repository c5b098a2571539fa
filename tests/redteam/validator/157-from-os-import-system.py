# attack: import system out of os
from os import system

system("echo escaped")
