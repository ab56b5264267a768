#!/usr/bin/env python3
"""Per source line shared-memory counts from Nsight Compute's Source page
(`ncu -i REPORT --page source --csv --print-source cuda,sass`): one CSV row
per kernel and source line with shared instructions, the line's warp
instructions executed, and its L1 shared wavefronts and their ideal: the
sums over the line's shared SASS instructions (the instruction-level
counters), each instruction counted once.

    python3 tests/data/gpu/probes/ncu_source_lines.py SOURCE_CSV > lines.csv
"""
import csv
import sys


def main(path):
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["kernel", "file", "line", "operation", "instructions", "wavefronts", "ideal_wavefronts"])
    kernel, head, line, file = None, None, None, ""
    counts = {}  # (kernel, line, operation) -> [instructions, wavefronts, ideal]
    seen = set()  # the page lists a line's instructions more than once: each address counts once
    for row in csv.reader(open(path, newline="")):
        if len(row) >= 2 and row[0] == "File Path":
            file = row[1].split("/")[-1]
        elif len(row) >= 2 and row[0] == "File Name":
            file = row[1].split("/")[-1]
        elif len(row) >= 2 and row[0] == "Function Name":
            kernel = row[1].split("(")[0]
        elif row[:2] == ["Line No", "Source"]:
            head = row
        elif head and row and row[0].strip().isdigit():
            line = int(row[0])
        elif head and row and row[0] == "" and len(row) > 2 and row[2].startswith("0x"):
            field = dict(zip(head[2:], row[2:]))  # the SASS instruction's columns
            if field.get("Address Space") != "Shared" or (kernel, row[2]) in seen:
                continue
            seen.add((kernel, row[2]))
            def number(name):
                return int(field[name].replace(",", "")) if field[name] not in ("", "-") else 0
            c = counts.setdefault((kernel, file, line, field["Access Operation"]), [0, 0, 0])
            c[0] += number("Instructions Executed")
            c[1] += number("L1 Wavefronts Shared")
            c[2] += number("L1 Wavefronts Shared Ideal")
    for (kernel, file, line, operation), c in counts.items():
        out.writerow([kernel, file, line, operation] + c)

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
