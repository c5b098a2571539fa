# attack: open the tests file (its path is on the judge's command line) to copy the expected output
# expected-stdout: secret-answer-7f3a
# verdict: RE WA CE
print(open("@SUITE@").read())
