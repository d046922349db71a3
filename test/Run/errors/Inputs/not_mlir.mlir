print("this is Python, no MLIR here")
