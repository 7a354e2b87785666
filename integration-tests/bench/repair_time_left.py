#!/usr/bin/env python3
"""The time left odrust:repair said against the time that was left, from its console log.

Usage: repair_time_left.py REPAIR_LOG [--min-left SECONDS]

Each progress line ("odrust repair: repair 24 of 25 (cause 2), ~76 experiments (~34.7 s) left")
is set against the sum of the own times ("(0.8 s)") of the repair experiments printed after it
("repair exp  7 ..."), up to the repair's end line: the time the line predicts. Diagnosis runs
between them are not counted (the repair's estimate does not predict them), nor odrust's own work
between experiments; builds compared are measured the same way. Prints one row per progress line and
the largest ratio max(said/left, left/said) over the lines with more than --min-left seconds
left (default 2).
"""

import argparse
import re
import sys

PROGRESS = re.compile(r"odrust repair: (repair \d+ of \d+(?: \([^)]*\))?), ~(\d+) experiments?(?: \(~([^)]*)\))? left")
RUN = re.compile(r"\((\d+(?:\.\d+)?) s\)")
END = re.compile(r"odrust repair: \d+ experiments? in ")


def seconds(text):
    """'4.1 s', '2.3 min', '12 min', '1.5 h' as seconds."""
    number, unit = text.split()
    value = float(number)
    return value * {"s": 1, "min": 60, "h": 3600, "days": 86400}[unit]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--min-left", type=float, default=2.0)
    args = parser.parse_args()
    lines = open(args.log, encoding="utf-8", errors="replace").read().splitlines()
    points = []  # (line number, what, experiments said, seconds said or None)
    runs = []  # (line number, seconds)
    end = len(lines)
    for i, line in enumerate(lines):
        if END.search(line):
            end = i
            break
        m = PROGRESS.search(line)
        if m:
            points.append((i + 1, m.group(1), int(m.group(2)), seconds(m.group(3)) if m.group(3) else None))
            continue
        if "repair exp " in line:
            times = RUN.findall(line)
            if times:
                runs.append((i + 1, float(times[-1])))
    if not points:
        sys.exit(f"{args.log}: no progress line of odrust:repair ('odrust repair: repair N of M, ~K experiments ... left')")
    print(f"{'line':>6}  {'what':<34} {'said':>9} {'left':>9}  ratio")
    worst = (1.0, None)
    for line_no, what, _, said in points:
        left = sum(s for n, s in runs if n > line_no and n <= end)
        ratio = None
        if said is not None and said > 0 and left > 0:
            ratio = max(said / left, left / said)
            if left > args.min_left and ratio > worst[0]:
                worst = (ratio, line_no)
        print(f"{line_no:>6}  {what:<34} {('%.1f s' % said) if said is not None else '-':>9} {left:>7.1f} s  "
              + (f"{ratio:.1f}x" if ratio else "-"))
    print(f"largest error with more than {args.min_left:g} s left: {worst[0]:.1f}x"
          + (f" (line {worst[1]})" if worst[1] else ""))


if __name__ == "__main__":
    main()
