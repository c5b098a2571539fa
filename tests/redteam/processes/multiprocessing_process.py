# category: processes
# attack: multiprocessing.Process
# profile: basic
import multiprocessing
p = multiprocessing.Process(target=print)
p.start()
