"""python-unittests.test's check (Emitters/ and GPU/): each test_<m>.py of
the Python unit tests in argv[1] has python-<m>.test in the lit directory
argv[2]."""
import os
import sys

modules = sorted(f[len("test_"):-len(".py")] for f in os.listdir(sys.argv[1])
                 if f.startswith("test_") and f.endswith(".py"))
missing = [m for m in modules
           if not os.path.exists(os.path.join(sys.argv[2], "python-%s.test" % m))]
if missing:
    sys.exit("no lit test for: " + ", ".join("test_%s.py" % m for m in missing))
print("%d modules, each with its lit test" % len(modules))
