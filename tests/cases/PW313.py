from io import StringIO, BytesIO  # ok
from io import FileIO  # error
from io import StringIO, open  # error
