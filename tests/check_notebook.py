"""Fail when an executed notebook holds an error output. A cell that shows a
mistake on purpose carries nbclient's tag "raises-exception"; it must then
hold an error (so the lesson cannot silently stop demonstrating it).

usage: check_notebook.py NOTEBOOK.ipynb
"""

import json
import sys


def main(path):
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    bad = 0
    for i, cell in enumerate(nb.get("cells", [])):
        expected = "raises-exception" in cell.get("metadata", {}).get("tags", [])
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if errors and not expected:
            bad += 1
            for out in errors:
                print(f"{path}: cell {i}: {out.get('ename')}: {out.get('evalue')}", file=sys.stderr)
        if expected and not errors and cell.get("cell_type") == "code":
            bad += 1
            print(f"{path}: cell {i}: tagged raises-exception but raised nothing", file=sys.stderr)
    if bad:
        return 1
    print(f"{path}: {sum(1 for c in nb.get('cells', []) if c.get('cell_type') == 'code')} code cells, no errors")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
