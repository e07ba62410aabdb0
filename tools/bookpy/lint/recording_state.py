#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""No sentence of a chapter tells whether its runs are recorded yet.

    python -m bookpy.lint.recording_state [--counts] CHAPTER...   (files, or folders of ch*.md)

Whether a run has been recorded on a GPU is the build's to say: a pending run's
output block, figure and plot say that they wait (recordings/pending.json), and
stop saying it the day the run is recorded. A sentence that says it in prose ("at
the time of writing none of the runs has been recorded", "its output waits for a
GPU") stays in the text and is false from that day on. This lint finds such
sentences (STATE) and fails naming the file and line, unless the sentence is on
the short list ALLOWED with its reason: one that states the mechanism itself, true
whichever runs are recorded. An ALLOWED entry that matches nothing is an error too.
Exit status 1 on any finding; with --counts, the counts per chapter are printed.
"""
import os
import re
import sys

from bookpy.chapters import key_of
from bookpy.lint.claims_checked import arguments, sentences

#: Phrases that state whether runs are recorded now.
STATE = re.compile(r"(?<![\w-])(?:" + "|".join([
    r"at the time of writing", r"as of (?:this )?writing",
    r"not yet (?:been )?(?:run|recorded|measured)", r"not (?:been )?(?:run|recorded|measured) yet",
    r"(?:has|have|had) not (?:yet )?been (?:run|recorded|measured)",
    r"no (?:GPU )?recordings? (?:yet|so far)", r"(?:waits?|waiting|awaits?) (?:for )?a GPU",
    r"no GPU could be had", r"once (?:it is |they are |the runs are )?recorded",
    r"(?:is|are) (?:still )?pending",
]) + r")(?![\w-])", re.I)

#: (chapter key, a piece of the sentence, why it may say so).
ALLOWED = [
    ("ch04-latency", "Where a GPU has not yet run this version of a program",
     "states the mechanism (a pending run's block says it waits), true whichever runs are recorded"),
    ("ch04-latency", "a GPU that has not yet recorded a run shows that it waits",
     "states the mechanism (a pending run's figure says it waits), true whichever runs are recorded"),
]


def findings(paths):
    """(path, line, sentence, phrase) of each sentence that states the recordings'
    state; and the ALLOWED entries that matched nothing."""
    used, out = set(), []
    for path in paths:
        key = key_of(path) or os.path.basename(path)[:-3]
        for line, sentence in sentences(path):
            m = STATE.search(sentence)
            if not m:
                continue
            ok = [i for i, (k, piece, _) in enumerate(ALLOWED) if k == key and piece in sentence]
            if ok:
                used.update(ok)
                continue
            out.append((path, line, sentence, m.group(0)))
    keys = {key_of(p) or os.path.basename(p)[:-3] for p in paths}
    unused = [a for i, a in enumerate(ALLOWED) if i not in used and a[0] in keys]
    return out, unused


def main(argv=None) -> int:
    args, paths = arguments(__doc__, argv)
    found, unused = findings(paths)
    for path, line, sentence, phrase in found:
        print(f"{path}:{line}: a sentence says whether runs are recorded ({phrase}): {sentence[:160]}: "
              "the build shows that on each waiting output, figure and plot; say what the runs show, "
              "or, for a sentence about the mechanism itself, add it to ALLOWED with its reason")
    for key, piece, _ in unused:
        print(f"bookpy.lint.recording_state: ALLOWED ({key}, '{piece}') matches no sentence: remove it")
    if args.counts:
        print(f"{'chapter':28s} {'stated':>7s}")
        for key in sorted({key_of(p) or os.path.basename(p)[:-3] for p in paths}):
            print(f"{key:28s} {sum(1 for f in found if (key_of(f[0]) or os.path.basename(f[0])[:-3]) == key):7d}")
    return 1 if found or unused else 0


if __name__ == "__main__":
    sys.exit(main())
