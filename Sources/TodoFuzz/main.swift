print("fuzzer not enabled")
