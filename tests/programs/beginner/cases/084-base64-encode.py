import base64

message = "Learning Python!"
encoded = base64.b64encode(message.encode("utf-8"))
print(encoded)
print(base64.b64decode(encoded).decode("utf-8"))
print(base64.b16encode(b"hi"))
