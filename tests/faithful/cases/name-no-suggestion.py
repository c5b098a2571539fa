print(zzqqxx)
