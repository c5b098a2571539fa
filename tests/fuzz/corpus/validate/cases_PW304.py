agen.ag_frame  # error
agen.ag_code  # error
