#!/usr/bin/env python3
"""fetch-real-logs.py - fetches the real training logs that
bench/real-logs.tsv lists (third-party files, not kept in tprof's tree)
into DIR (default tests/data/real, where tests/test_live.c and
bench/coverage-real.py look for them):

    python3 bench/fetch-real-logs.py [DIR] [--raw-dir RAW]

Each row names a GitHub repository, a path and a commit; the file is
https://raw.githubusercontent.com/REPO/COMMIT/PATH (or RAW/REPO/COMMIT/PATH
with --raw-dir, for a copy fetched another way). The 'lines' column says
what is kept: 'all', 'A-B' (those lines), 'tail-N' (the last N lines),
'ipynb-streams' (a notebook's stream outputs, stdout and stderr as stored,
concatenated in cell order: what the run printed). Rows whose lines were
picked by hand ('pick') or whose source is not resolved ('-') are
reported and skipped, and so is a log already in DIR (the answer set's
logs are kept there). The result must have the 'sha256' of the row when it
gives one; a mismatch is an error and nothing is written.
"""
import hashlib
import json
import os
import sys
import urllib.request

RAW = "https://raw.githubusercontent.com"


def keep(data, spec):
    """The bytes of the log from the file's bytes, by the 'lines' column."""
    if spec == "all":
        return data
    if spec == "ipynb-streams":
        nb = json.loads(data.decode("utf-8"))
        out = []
        for cell in nb.get("cells", []):
            for o in cell.get("outputs", []):
                if o.get("output_type") == "stream":
                    t = o.get("text", "")
                    out.append("".join(t) if isinstance(t, list) else t)
        return "".join(out).encode("utf-8")
    lines = data.splitlines(keepends=True)
    if spec.startswith("tail-"):
        return b"".join(lines[-int(spec[5:]):])
    a, _, b = spec.partition("-")
    if a.isdigit() and b.isdigit():
        return b"".join(lines[int(a) - 1:int(b)])
    raise ValueError(f"lines '{spec}' cannot be cut automatically")


def fetch(row, raw_dir):
    if raw_dir:
        with open(os.path.join(raw_dir, row["repo"], row["commit"], row["path"]), "rb") as f:
            return f.read()
    url = f"{RAW}/{row['repo']}/{row['commit']}/{row['path']}"
    with urllib.request.urlopen(url, timeout=60) as r:
        return r.read()


def main():
    args = sys.argv[1:]
    raw_dir = None
    if "--raw-dir" in args:
        i = args.index("--raw-dir")
        raw_dir = args[i + 1]
        del args[i:i + 2]
    out_dir = args[0] if args else "tests/data/real"
    os.makedirs(out_dir, exist_ok=True)
    status = 0
    with open("bench/real-logs.tsv", encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(head, l.rstrip("\n").split("\t"))) for l in f if l.strip() and not l.startswith("#")]
    for row in rows:
        name = row["file"]
        if "-" in (row["repo"], row["path"], row["commit"]) or row["lines"] == "pick":
            print(f"{name}: skipped (lines picked by hand or source not resolved; see its note)")
            continue
        if os.path.exists(os.path.join(out_dir, name)):
            print(f"{name}: there already")
            continue
        try:
            data = keep(fetch(row, raw_dir), row["lines"])
        except Exception as e:  # a network or format error: report it, go on
            print(f"{name}: not fetched: {e}")
            status = 1
            continue
        want = row.get("sha256", "-")
        got = hashlib.sha256(data).hexdigest()
        if want not in ("-", "", got):
            print(f"{name}: sha256 {got}, the list says {want}: not written")
            status = 1
            continue
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(data)
        print(f"{name}: {len(data)} bytes")
    return status


if __name__ == "__main__":
    sys.exit(main())
