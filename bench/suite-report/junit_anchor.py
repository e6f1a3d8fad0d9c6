#!/usr/bin/env python3
"""The JUnit anchors: what a Python script does today to compare two JUnit reports, with
the streaming parsers people use, ElementTree's iterparse (the standard library) or lxml's
(the pip package). Reads both reports case by case (clearing each element once read), keys
each case `classname::name`, and prints how many tests the second report adds and removes.

  junit_anchor.py etree|lxml BASELINE.xml REPORT.xml
"""
import json
import sys


def case_ids(path: str, iterparse) -> set:
    ids = set()
    for _, elem in iterparse(path, events=("end",)):
        if elem.tag == "testcase":
            ids.add(f"{elem.get('classname', '')}::{elem.get('name', '')}")
            elem.clear()
    return ids


def main() -> int:
    kind, baseline, report = sys.argv[1:4]
    if kind == "lxml":
        from lxml.etree import iterparse
    else:
        from xml.etree.ElementTree import iterparse
    before, now = case_ids(baseline, iterparse), case_ids(report, iterparse)
    print(json.dumps({"added": len(now - before), "removed": len(before - now)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
