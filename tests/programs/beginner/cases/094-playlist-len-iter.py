class Playlist:
    def __init__(self, name):
        self.name = name
        self.songs = []

    def add(self, song):
        self.songs.append(song)

    def __len__(self):
        return len(self.songs)

    def __iter__(self):
        return iter(self.songs)

    def __contains__(self, song):
        return song in self.songs

    def __str__(self):
        return f"{self.name} ({len(self)} songs)"


p = Playlist("Road Trip")
for s in ["Hey Jude", "Africa", "Dancing Queen"]:
    p.add(s)
print(p)
for song in p:
    print("-", song)
print("Africa" in p, "Yesterday" in p)
