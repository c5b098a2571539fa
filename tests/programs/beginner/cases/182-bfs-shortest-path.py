from collections import deque

maze = [
    "S.#.....",
    ".##.###.",
    "....#...",
    ".##...#E",
]


def shortest(maze):
    rows, cols = len(maze), len(maze[0])
    start = (0, 0)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        if maze[r][c] == "E":
            return dist[(r, c)]
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and maze[nr][nc] != "#" and (nr, nc) not in dist:
                dist[(nr, nc)] = dist[(r, c)] + 1
                queue.append((nr, nc))
    return -1


print("Shortest path length:", shortest(maze))
