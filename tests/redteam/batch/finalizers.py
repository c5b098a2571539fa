# attack: leave suspended generators whose finally blocks print (one kept in a global, one in a cycle, one dropped in a cycle) for them to run during the next test and land in its output
k = int(input())
print("clean")


def loud(tag):
    try:
        yield tag
    finally:
        print("LEAK: a finally block of test", k, tag)


kept = loud("kept")
next(kept)
box = [loud("cycle")]
box.append(box)
next(box[0])
lost = [loud("lost")]
lost.append(lost)
next(lost[0])
del lost
