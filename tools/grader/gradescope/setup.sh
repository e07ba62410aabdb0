#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Gradescope's setup.sh (written into the package by tools/grade --gradescope-package):
# run once, as root, in /autograder/source, when Gradescope builds the image
# (base image Ubuntu 22.04 or 24.04; run on Debian 12 only, by the test
# exercises.grade.gradescope). It
#   1. installs what grading needs from the distribution's packages (apt-get), and
#      CMake >= 3.25 from PyPI where the distribution's is older (Ubuntu 22.04: 3.22);
#   2. builds the grading kit (book/build/grade-kit: no GPU here, so no CUDA);
#   3. removes the solutions and the hidden tests' sources (the kit holds them
#      compiled) and lets root alone read the package's folder.
# Settings, for a test outside Gradescope:
#   AUTOGRADER_ROOT          the /autograder folder (default /autograder)
#   BOOK_GRADESCOPE_NO_APT=1 install nothing (the packages are there)
#   BOOK_GRADESCOPE_KIT=DIR  a kit built already (a configured book build): build none
#   BOOK_GRADESCOPE_KEEP_SOURCES=1  remove nothing (a test that reruns setup)
set -euo pipefail
root=${AUTOGRADER_ROOT:-/autograder}
src="$root/source"
book="$src/book"
say() { echo "setup.sh: $*"; }
[ -d "$book/tools/grader" ] || { say "no $book/tools/grader: unzip the package into $src"; exit 1; }

if [ "${BOOK_GRADESCOPE_NO_APT:-0}" != 1 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  pkgs="cmake g++ ninja-build python3 python3-pip bubblewrap python3-seccomp util-linux
        nlohmann-json3-dev libcli11-dev libfmt-dev"
  # The kit needs Catch2 version 2 (catch2/catch.hpp): Ubuntu 22.04's package; 24.04
  # packages version 3, and the kit then takes the header carried in carry/catch2/.
  if apt-cache policy catch2 | grep -q 'Candidate: 2\.'; then
    pkgs="$pkgs catch2"
  fi
  # shellcheck disable=SC2086
  apt-get install -y --no-install-recommends $pkgs
fi

need_cmake() {  # true when cmake is missing or older than 3.25
  local v
  v=$(cmake --version 2>/dev/null | sed -n 's/^cmake version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
  [ -z "$v" ] && return 0
  # shellcheck disable=SC2086  # two words: major, minor
  set -- $v
  [ "$1" -lt 3 ] || { [ "$1" -eq 3 ] && [ "$2" -lt 25 ]; }
}
if need_cmake; then
  [ "${BOOK_GRADESCOPE_NO_APT:-0}" != 1 ] || { say "cmake 3.25 or later is needed"; exit 1; }
  say "the distribution's CMake is older than 3.25 (the book's CMakeLists.txt and presets need it): installing CMake from PyPI"
  python3 -m pip install --no-cache-dir 'cmake>=3.25,<4'
  hash -r
  need_cmake && { say "cmake 3.25 or later could not be installed"; exit 1; }
fi
say "$(cmake --version | head -1)"

built_here=0
if [ -n "${BOOK_GRADESCOPE_KIT:-}" ]; then
  kit=$(cd "$BOOK_GRADESCOPE_KIT" && pwd)
  say "using the kit built in $kit (BOOK_GRADESCOPE_KIT): building none"
else
  kit="$book/build/grade-kit"
  carry=()
  [ -f "$src/carry/catch2/catch2/catch.hpp" ] && carry=("-DBOOK_HOST_INCLUDE=$src/carry")
  say "configuring the grading kit in $kit"
  (cd "$book" && cmake --preset book -B "$kit" -DBOOK_DOCS=OFF -DBOOK_GPU=OFF "${carry[@]}")
  say "building the grading kit (target exercise-kit; about 3 minutes on 2 cores)"
  cmake --build "$kit" --target exercise-kit
  built_here=1
fi
# run_autograder reads the kit's folder from here.
printf '%s\n' "$kit" > "$src/kit-path"

if [ "${BOOK_GRADESCOPE_KEEP_SOURCES:-0}" != 1 ]; then
  # The solutions and the hidden tests' sources are compiled into the kit; no
  # submission should find them in the image, sandbox or not.
  rm -rf "$book/solutions"
  find "$book/tests" -path '*/exercises/*' -name 'hidden*' -exec rm -rf {} +
  find "$book" -name SOLUTION.md -delete
  if [ "$built_here" = 1 ]; then
    # The build compiled the solutions too (the book's own tests of them); grading
    # uses none of those objects.
    find "$kit" -path '*/solutions/*' -type f -delete
  fi
  chmod -R go-rwx "$src"
  say "removed the solutions and the hidden tests' sources; $src is readable by root alone"
fi
# The kit is complete, and grades the CPU exercises that gradescope.json names.
PYTHONPATH="$src/book/tools" python3 - "$src" "$kit" <<'EOF'
import json, sys
from pathlib import Path
src, kit = Path(sys.argv[1]), Path(sys.argv[2])
from grader.kit import Kit, KitError
try:
    k = Kit(kit)
    k.check()
except KitError as e:
    sys.exit(f"setup.sh: {e}")
built = {e.id for e in k.exercises if e.built}
doc = json.loads((src / "gradescope.json").read_text())
missing = [e["id"] for e in doc["exercises"] if e["id"] not in built]
if missing:
    sys.exit(f"setup.sh: the kit lacks {', '.join(missing)}")
print(f"setup.sh: the kit grades {len(doc['exercises'])} CPU exercises, {doc['total']} points")
EOF
say "done"
