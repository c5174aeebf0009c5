# Python's defaults for a double, one input (16 hex digits, the IEEE 754 bits) a line:
# repr(x) and json.dumps(x), tab-separated.
import json, struct, sys
for line in sys.stdin:
    x = struct.unpack(">d", bytes.fromhex(line.strip()))[0]
    print(repr(x) + "\t" + json.dumps(x))
