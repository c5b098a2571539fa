# attack: print what a checker program prints to accept, hoping it reaches the judge as the checker's output
# expected-stdout: 42
# checker: program
# verdict: WA
print("AC")
