"""Runs pytest on the module's tests for CTest; exits 77 (CTest's skip) with
the reason when pytest, Hypothesis or NetworkX is missing (ci/setup installs
python3-pytest, python3-hypothesis, python3-networkx, python3-numpy)."""
import sys

missing = []
for name in ("pytest", "hypothesis", "networkx"):
    try:
        __import__(name)
    except ImportError:
        missing.append(name)
if missing:
    print("SKIP: %s not installed for %s (ci/setup installs python3-pytest python3-hypothesis "
          "python3-networkx)" % (", ".join(missing), sys.executable))
    sys.exit(77)

import pytest  # noqa: E402

sys.exit(pytest.main(sys.argv[1:]))
