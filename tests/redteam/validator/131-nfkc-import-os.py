# attack: fullwidth module name normalising to os
import ｏｓ
