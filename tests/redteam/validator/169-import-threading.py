# attack: start threads that outlive the sandbox's checks
import threading

threading.Thread(target=print, args=("escaped",)).start()
