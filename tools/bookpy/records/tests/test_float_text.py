# SPDX-License-Identifier: MIT
"""The test unit.records.float-text: bookpy.records.jsonfloat writes every double
as the runner's JSON library does, so that a record's digest computed in Python
is bookrun's.

    python3 test_float_text.py FLOAT_TEXT   (PYTHONPATH=<repo>/tools)

FLOAT_TEXT is float_text.cpp built: it reads doubles as the hex of their bits
and writes each as nlohmann::json::dump() does. The doubles: 200,000 of random
bits (every exponent, subnormals, NaNs and infinities among them), 200,000
figures of the kind programs report (uniform in [0, 1000), log-normal), and the
edges (zeros, the extremes, the powers of ten around the switch to an exponent).
The test also counts the doubles whose Python repr() differs from the
library's text, to show that it covers the doubles where the two disagree.
"""
import random
import struct
import subprocess
import sys

from bookpy.records import jsonfloat


def bits_of(value: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def value_of(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def doubles() -> list:
    rng = random.Random(43)
    out = [rng.getrandbits(64) for _ in range(200_000)]
    out += [bits_of(rng.uniform(0, 1000)) for _ in range(100_000)]
    out += [bits_of(rng.lognormvariate(0, 10)) for _ in range(100_000)]
    edges = [0.0, -0.0, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 0.1, 1 / 3]
    edges += [s * 10.0 ** p for p in range(-6, 24) for s in (1, -1, 1.5, 9.999999999999999)]
    return out + [bits_of(v) for v in edges]


def main() -> int:
    program = sys.argv[1]
    bits = doubles()
    proc = subprocess.run([program], input="".join(f"{b:x}\n" for b in bits),
                          capture_output=True, text=True, check=True)
    expected = proc.stdout.split("\n")[:-1]
    if len(expected) != len(bits):
        print(f"{program} wrote {len(expected)} lines for {len(bits)} doubles")
        return 1
    wrong, repr_differs = [], 0
    for b, want in zip(bits, expected):
        value = value_of(b)
        got = jsonfloat.text(value)
        if got != want:
            wrong.append(f"  {b:016x}: the library writes {want}, jsonfloat {got}")
        if want != "null" and repr(value) != want:
            repr_differs += 1
    if wrong:
        print(f"{len(wrong)} of {len(bits)} doubles written otherwise than the runner writes them:")
        print("\n".join(wrong[:20]))
        return 1
    if repr_differs == 0:
        print("no double of the sample is one where repr() differs from the library: the sample "
              "no longer covers what the test is for")
        return 1
    print(f"float-text: {len(bits)} doubles written as the runner writes them "
          f"({repr_differs} of them differ from Python's repr())")
    return 0


if __name__ == "__main__":
    sys.exit(main())
