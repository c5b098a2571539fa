# attack: tamper with audit hooks
import sys

sys.addaudithook(lambda event, args: None)
