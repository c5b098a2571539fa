# faithful: full
import mathh
