# SPDX-License-Identifier: MIT
"""The test book.kept-lines: bookpy.build.kept_lines on a small tree compiled
by the host compiler, where an #if 0 region, a group of a macro never defined
and a header no unit includes must be found, and the groups every unit compiles
must not.

    python3 test_kept_lines.py <scratch folder>   (PYTHONPATH=<repo>/tools)
"""
import json
import os
import shutil
import sys

from bookpy.build import kept_lines
from bookpy.tests.scaffold import Checklist

scratch = os.path.realpath(sys.argv[1])
shutil.rmtree(scratch, ignore_errors=True)
root = os.path.join(scratch, "repo")
os.makedirs(os.path.join(root, "code/ch90-a"))
os.makedirs(os.path.join(root, "exercises/ch90-a/ex01-b"))
FILES = {
    "code/ch90-a/main.cpp": """#include "util.hpp"
int main() {
#if 0
  return 1;
#else
  return twice(0);
#endif
}
#define LONG_DIRECTIVE \\
  1
#if LONG_DIRECTIVE && \\
    !defined(NEVER)
int kept_after_a_continued_directive = 0;
#endif
""",
    "code/ch90-a/util.hpp": """#pragma once
#ifdef NEVER_DEFINED
inline int twice(int x) { return x + x + 1; }
#elif defined(__cplusplus)
inline int twice(int x) { return x + x; }
#endif
""",
    "exercises/ch90-a/ex01-b/unused.hpp": "#if 1\nint not_included = 0;\n#endif\n",
}
for rel, text in FILES.items():
    with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
        f.write(text)
commands = os.path.join(scratch, "compile_commands.json")
with open(commands, "w", encoding="utf-8") as f:
    json.dump([{"directory": scratch, "file": os.path.join(root, "code/ch90-a/main.cpp"),
                "command": f"c++ -I{root}/code/ch90-a -O2 -c {root}/code/ch90-a/main.cpp -o main.o"}], f)
out = os.path.join(scratch, "kept-lines.json")

checks = Checklist("book.kept-lines")
expect = checks.expect


code = kept_lines.main(["--root", root, "--compile-commands", commands, "--out", out])
with open(out, encoding="utf-8") as f:
    data = json.load(f)
expect(code == 0, f"exit status {code}")
expect(data["dropped"] == {"code/ch90-a/main.cpp": [[4, 4]], "code/ch90-a/util.hpp": [[3, 3]]},
       f"dropped: {data['dropped']}")
expect(data["included"] == ["code/ch90-a/main.cpp", "code/ch90-a/util.hpp"], f"included: {data['included']}")

# The same again: nothing preprocessed, the same answer; an edit runs the unit again.
code = kept_lines.main(["--root", root, "--compile-commands", commands, "--out", out])
with open(out, encoding="utf-8") as f:
    expect(json.load(f) == data, "a second run gives another answer")
with open(os.path.join(root, "code/ch90-a/util.hpp"), "a", encoding="utf-8") as f:
    f.write("#if 0\nint gone = 0;\n#endif\n")
os.utime(os.path.join(root, "code/ch90-a/util.hpp"), ns=(1, 10**18))
code = kept_lines.main(["--root", root, "--compile-commands", commands, "--out", out])
with open(out, encoding="utf-8") as f:
    expect(json.load(f)["dropped"].get("code/ch90-a/util.hpp") == [[3, 3], [8, 8]],
           "an edited header was not read again")

# Bad input: named with its file.
with open(os.path.join(root, "code/ch90-a/util.hpp"), "a", encoding="utf-8") as f:
    f.write("#endif\n")
code = kept_lines.main(["--root", root, "--compile-commands", commands, "--out", out])
expect(code == 1, "an #endif without #if is refused")
with open(commands, "w", encoding="utf-8") as f:
    f.write("[")
code = kept_lines.main(["--root", root, "--compile-commands", commands, "--out", out])
expect(code == 1, "malformed compile commands are refused")

sys.exit(checks.verdict("the dropped groups and the header no unit includes found, the compiled groups not"))
