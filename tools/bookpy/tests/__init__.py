# SPDX-License-Identifier: MIT
"""What the package's test scripts share (scaffold.py); no step of the build imports it."""
