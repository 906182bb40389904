# Imports the shared helper module from an --import-dir.
import tensorop_helper

print(tensorop_helper.greet("sandbox"))
