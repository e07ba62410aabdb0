# SPDX-License-Identifier: MIT
"""The end of each site check (check_site.py, check_pdf.py, check_downloads.py):
its problems, one a line, or its line of success; the exit status. Imported
from the check's own folder (a script's folder is on Python's path)."""


def finish(check: str, problems: list, passed: str) -> int:
    if problems:
        print(f"{check}: {len(problems)} problem{'s' if len(problems) != 1 else ''}:")
        for p in problems:
            print("  " + p)
        return 1
    print(f"{check}: {passed}")
    return 0
