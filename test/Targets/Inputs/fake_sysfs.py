#!/usr/bin/env python3
"""Writes a fake sysfs cache tree for target=host tests.

fake_sysfs.py ROOT INDEX:LEVEL:TYPE:SIZE:WAYS:LINE:CPUS [...]
creates ROOT/devices/system/cpu/cpu0/cache/indexINDEX/{level,type,size,
ways_of_associativity,coherency_line_size,shared_cpu_list}, each holding
the field as given (garbled values too: the reader is what is tested).
"""
import os
import sys

FIELDS = ["level", "type", "size", "ways_of_associativity",
          "coherency_line_size", "shared_cpu_list"]


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(sys.argv) > 1 else 2
    root = sys.argv[1]
    for spec in sys.argv[2:]:
        index, *values = spec.split(":")
        if len(values) != len(FIELDS):
            sys.exit("fake_sysfs.py: '%s' needs %d fields after the index"
                     % (spec, len(FIELDS)))
        d = os.path.join(root, "devices/system/cpu/cpu0/cache", "index" + index)
        os.makedirs(d, exist_ok=True)
        for name, value in zip(FIELDS, values):
            with open(os.path.join(d, name), "w") as f:
                f.write(value + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
