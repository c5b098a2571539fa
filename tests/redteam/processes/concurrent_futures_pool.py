# category: processes
# attack: concurrent.futures.ProcessPoolExecutor
# profile: basic
import concurrent.futures
with concurrent.futures.ProcessPoolExecutor() as ex:
    print(ex.submit(pow, 2, 3).result())
