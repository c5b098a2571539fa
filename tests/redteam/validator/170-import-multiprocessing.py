# attack: fork worker processes
import multiprocessing

print(multiprocessing.cpu_count())
