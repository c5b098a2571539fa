class Book:
    def __init__(self, title, author):
        self.title = title
        self.author = author
        self.borrowed = False

    def __str__(self):
        status = "out" if self.borrowed else "in"
        return f"{self.title} by {self.author} [{status}]"


class Library:
    def __init__(self):
        self.books = {}

    def add(self, book):
        self.books[book.title] = book

    def borrow(self, title):
        book = self.books.get(title)
        if book is None or book.borrowed:
            return False
        book.borrowed = True
        return True


lib = Library()
lib.add(Book("Dune", "Herbert"))
lib.add(Book("Emma", "Austen"))
print(lib.borrow("Dune"), lib.borrow("Dune"), lib.borrow("Ulysses"))
for b in lib.books.values():
    print(b)
