"""Fail when two executions of one notebook differ in any output: a notebook
re-run top to bottom must give byte-identical tables, text and pictures.
Execution counts and metadata are not outputs and are ignored.

A cell tagged "live" reads a live process (attach): its numbers, its phases
and the notes its collection writes to stderr depend on timing, so for it
only the shape is compared: the displays and results it produces, in order,
with their MIME types (and any error's name). The Go tests check the values
(kernel TestAttachFindsPhases, live TestRun).

usage: same_outputs.py FIRST.ipynb SECOND.ipynb
"""

import json
import sys

KEYS = ("output_type", "name", "text", "data", "ename", "evalue")


def shape(o):
    """What must not vary in an output of a live cell."""
    return {"output_type": o["output_type"], "mime": sorted(o.get("data", {})), "ename": o.get("ename")}


def outputs(path):
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    cells = []
    for c in nb.get("cells", []):
        outs = c.get("outputs", [])
        if "live" in c.get("metadata", {}).get("tags", []):
            cells.append([shape(o) for o in outs if o["output_type"] != "stream"])
        else:
            cells.append([{k: o[k] for k in KEYS if k in o} for o in outs])
    return cells


def first_difference(a, b):
    """Where two output values first differ, as a short path and excerpts."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                return f"[{k!r}]" + first_difference(a.get(k), b.get(k))
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return f"[{i}]" + first_difference(x, y)
    if isinstance(a, list) and isinstance(b, list):
        a, b = "".join(map(str, a)), "".join(map(str, b))
    if isinstance(a, str) and isinstance(b, str):
        i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        return f" at char {i}: {a[max(0, i - 30):i + 30]!r} vs {b[max(0, i - 30):i + 30]!r}"
    return f": {str(a)[:60]!r} vs {str(b)[:60]!r}"


def main(first, second):
    a, b = outputs(first), outputs(second)
    if len(a) != len(b):
        print(f"{second}: {len(b)} cells, {first} has {len(a)}", file=sys.stderr)
        return 1
    bad = 0
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            bad += 1
            where = first_difference({"outputs": x}, {"outputs": y}) if len(x) == len(y) else ": output count"
            print(f"{second}: cell {i} differs from the first run{where}", file=sys.stderr)
    if bad:
        return 1
    print(f"{second}: identical to the first run ({len(a)} cells)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
