def winner(board):
    lines = []
    lines.extend(board)
    lines.extend([[board[r][c] for r in range(3)] for c in range(3)])
    lines.append([board[i][i] for i in range(3)])
    lines.append([board[i][2 - i] for i in range(3)])
    for line in lines:
        if line[0] != " " and line.count(line[0]) == 3:
            return line[0]
    return None


b1 = [["X", "O", "X"], ["O", "X", "O"], ["O", "X", "X"]]
b2 = [["O", "O", "O"], ["X", "X", " "], [" ", " ", "X"]]
b3 = [["X", "O", "X"], ["X", "O", "O"], ["O", "X", "X"]]
for b in (b1, b2, b3):
    for row in b:
        print("|".join(row))
    print("winner:", winner(b))
