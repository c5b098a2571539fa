# known: library frames are not shown
import json


def config(text):
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RuntimeError("the configuration is not JSON") from e


config("{")
