# attack: import a dotted module whose first part is private
import __phello__.spam

print(__phello__.spam)
