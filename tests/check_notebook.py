"""Fail when an executed notebook holds an error output.

usage: check_notebook.py NOTEBOOK.ipynb
"""

import json
import sys


def main(path):
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    bad = 0
    for i, cell in enumerate(nb.get("cells", [])):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                bad += 1
                print(f"{path}: cell {i}: {out.get('ename')}: {out.get('evalue')}", file=sys.stderr)
    if bad:
        return 1
    print(f"{path}: {sum(1 for c in nb.get('cells', []) if c.get('cell_type') == 'code')} code cells, no errors")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
