obj.view__roles__  # error
