"""Check the `top` tables of an executed notebook against values computed
independently: every table's JSON rows (flat, cum) and total against
`go tool pprof -top` run on the same file(s) with the same value type and
filters, and the displayed text against the JSON (flat%, sum% and cum%
recomputed here, sum% never above 100%, but for a difference). A notebook
compared only with a second run of itself would keep a wrong table forever.
The top of a difference made by `diff BASE NEW as D` names BASE's file in
"diff_base" and is checked against `go tool pprof -top -diff_base=BASE NEW`;
other differences (of phases, normalized) have a "diff:" source and no
oracle.

usage: check_tables.py EXECUTED.ipynb NOTEBOOK_DIR
  NOTEBOOK_DIR is where the notebook ran (profiles' sources are relative
  to it). The go command is $GO, else go.
"""

import glob
import json
import os
import re
import subprocess
import sys

GO = os.environ.get("GO", "go")
# go tool pprof's -unit for raw integers in a value type's unit.
UNITS = {"nanoseconds": "ns", "microseconds": "us", "milliseconds": "ms", "seconds": "s", "bytes": "B"}
TOTAL_RE = re.compile(r"of (-?[0-9.]+)[A-Za-z]* total")
ROW_RE = re.compile(r"^\s*(-?[0-9.]+)[A-Za-z]*\s+\S+\s+\S+\s+(-?[0-9.]+)[A-Za-z]*\s+\S+\s+(.*)$")


def top_tables(nb):
    """Yields (cell index, source, bundle) for every top table."""
    for i, cell in enumerate(nb.get("cells", [])):
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            js = data.get("application/json")
            if isinstance(js, dict) and {"rows", "total", "by", "filters", "source"} <= js.keys():
                yield i, "".join(cell.get("source", "")), data


def pprof_top(files, table, nbdir):
    """Runs go tool pprof -top as the table was made; returns the total, the
    (flat, cum) per function and the functions in pprof's order."""
    args = [GO, "tool", "pprof", "-top", "-nodecount=1000000000", "-nodefraction=0", "-edgefraction=0",
            "-symbolize=none", "-sample_index=" + table["value"]]
    if table["unit"] in UNITS:
        args.append("-unit=" + UNITS[table["unit"]])
    if table["by"] == "cum":
        args.append("-cum")
    if table.get("diff_base"):
        args.append("-diff_base=" + os.path.join(nbdir, table["diff_base"]))
    for f in table["filters"]:
        args += ["-%s=%s" % (k, v) for k, v in sorted(f.items())]
    env = dict(os.environ, PPROF_BINARY_PATH="/nonexistent", TZ="UTC")
    out = subprocess.run(args + files, capture_output=True, text=True, env=env, check=True).stdout
    total, rows, order, in_rows = None, {}, [], False
    for line in out.splitlines():
        m = TOTAL_RE.search(line)
        if m and not in_rows:
            total = int(m.group(1))
        elif line.strip().startswith("flat"):
            in_rows = True
        elif in_rows:
            m = ROW_RE.match(line)
            name = re.sub(r" \((partial-)?inline\)$", "", m.group(3))
            rows[name] = (int(m.group(1)), int(m.group(2)))
            order.append(name)
    return total, rows, order


def is_diff(table):
    """A difference's percentages are of its baseline: its sum% may pass 100%."""
    return bool(table.get("diff_base")) or table["source"].startswith("diff:")


def percent(part, whole):
    return "-" if whole == 0 else "%.1f%%" % (100 * part / whole)


def shows(shown, name):
    """The table shows a row's name as views do: a native frame with its
    library before a backtick (proflens`gcWriteBarrier), the JSON as pprof
    names the row (gcWriteBarrier)."""
    return shown == name or (shown.endswith("`" + name) and "`" not in name)


def check_text(table, text):
    """The displayed rows must show the JSON's values: flat%, sum% and cum%
    recomputed from the raw integers; sum% never above 100%."""
    problems = []
    lines = text.splitlines()[1:1 + len(table["rows"])]
    total, running = table["total"], 0
    for row, line in zip(table["rows"], lines):
        cells = line.split(None, 5)
        running += row["flat"]
        want = [percent(row["flat"], total), percent(running, total), percent(row["cum"], total)]
        got = [cells[1], cells[2], cells[4]] if len(cells) == 6 else cells
        if got != want or not shows(cells[-1], row["name"]):
            problems.append("row %s shows %s, want flat%%, sum%%, cum%% %s" % (row["name"], got, want))
        if total and 100 * running / abs(total) > 100.05 and not is_diff(table):
            problems.append("sum%% reaches %s at %s" % (percent(running, total), row["name"]))
        if abs(row["flat"]) > abs(row["cum"]):
            problems.append("%s: flat %d above cum %d" % (row["name"], row["flat"], row["cum"]))
    return problems


def check_oracle(table, files, nbdir):
    total, rows, order = pprof_top(files, table, nbdir)
    problems = []
    if total != table["total"]:
        problems.append("total %d, go tool pprof %s" % (table["total"], total))
    for i, row in enumerate(table["rows"]):
        want = rows.get(row["name"])
        if want != (row["flat"], row["cum"]):
            problems.append("%s flat/cum %d/%d, go tool pprof %s" % (row["name"], row["flat"], row["cum"], want))
        elif i < len(order) and order[i] != row["name"]:
            problems.append("row %d is %s, go tool pprof has %s there" % (i, row["name"], order[i]))
    return problems


def main(path, nbdir):
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    bad = checked = oracle = 0
    for i, source, data in top_tables(nb):
        table = data["application/json"]
        checked += 1
        text = data.get("text/plain", "")
        problems = check_text(table, "".join(text) if isinstance(text, list) else text)
        files = sorted(glob.glob(os.path.join(nbdir, table["source"])))
        if table["source"].startswith(("demo:", "diff:")) or len(table["filters"]) > 1:
            pass  # pprof reads no demo nor a difference of phases, and takes one focus, ignore and hide
        elif "://" in table["source"]:
            pass  # a store's merge: store/pyroscope_test.go checks it against pprof's merge of what was written
        elif not files:
            problems.append("source %s not found in %s" % (table["source"], nbdir))
        else:
            oracle += 1
            problems += check_oracle(table, files, nbdir)
        for p in problems:
            bad += 1
            print("%s: cell %d (%s): top of %s: %s" % (path, i, source.splitlines()[0], table["profile"], p), file=sys.stderr)
    tops = sum(len(re.findall(r"(?m)^\s*top\b", "".join(c.get("source", ""))))
               for c in nb.get("cells", []) if c.get("cell_type") == "code")
    if checked < tops:
        bad += 1
        print("%s: %d top commands but %d top tables found" % (path, tops, checked), file=sys.stderr)
    if bad:
        return 1
    print("%s: %d top tables checked, %d against go tool pprof" % (path, checked, oracle))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
