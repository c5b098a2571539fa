def main():
    values = [3, 1, 4, 1, 5, 9, 2, 6]
    print("sorted:", sorted(values))
    print("unique:", sorted(set(values)))
    print("max:", max(values))


if __name__ == "__main__":
    main()
