# attack: read the __roles__ attribute itself
class C:
    pass


print(C.__roles__)
