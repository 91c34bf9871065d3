"""Shared helpers of the depreduce Python tests (run by CTest as python_tests,
or by hand: PYTHONPATH=build/python /usr/bin/python3 -m pytest python/tests)."""
import json
import os
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

# Hypothesis's own files (its unicode tables) outside the source tree.
set_hypothesis_home_dir(os.environ.get("DEPREDUCE_HYPOTHESIS_DIR",
                                       os.path.join(tempfile.gettempdir(), "depreduce-hypothesis")))
# No example database either; the tests' examples are derandomized
# (reproducible: the same cases every run).
settings.register_profile("depreduce", database=None, derandomize=True)
settings.load_profile("depreduce")

ROOT = Path(os.environ.get("DEPREDUCE_SOURCE_DIR", Path(__file__).resolve().parents[2]))
CLI = os.environ.get("DEPREDUCE_CLI", str(ROOT / "build" / "cli" / "depreduce"))


def cli(*args, check=True):
    """Runs the depreduce CLI; returns (exit code, stdout, stderr)."""
    p = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError("depreduce %s: exit %d: %s" % (" ".join(map(str, args)), p.returncode, p.stderr))
    return p.returncode, p.stdout, p.stderr


def cli_removed(path, *extra):
    """The CLI's removed edges of a file: {(src name, dst name): demoted}."""
    _, out, _ = cli("reduce", path, "--json", "-q", *extra)
    return {(r["src"], r["dst"]): r["demoted_to_retain"] for r in json.loads(out)["removed"]}


def dot_id(x):
    return '"' + str(x).replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_dot(G, path, name_of=str):
    """G as DOT text, every attribute written as str(value) (lists joined by '|')."""
    def val(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (list, tuple, set, frozenset)):
            return "|".join(map(str, v))
        return str(v)

    def attrs(d):
        if not d:
            return ""
        return " [" + ", ".join("%s=%s" % (k, dot_id(val(v))) for k, v in d.items()) + "]"

    lines = ["digraph G {"]
    for k, v in G.graph.items():
        lines.append("  graph [%s=%s];" % (k, dot_id(val(v))))
    for n, d in G.nodes(data=True):
        lines.append("  %s%s;" % (dot_id(name_of(n)), attrs(d)))
    for u, v, d in G.edges(data=True):
        lines.append("  %s -> %s%s;" % (dot_id(name_of(u)), dot_id(name_of(v)), attrs(d)))
    lines.append("}")
    Path(path).write_text("\n".join(lines) + "\n")


@pytest.fixture(scope="session")
def cli_path():
    if not Path(CLI).exists():
        pytest.skip("the depreduce CLI is not built (%s)" % CLI)
    return CLI
