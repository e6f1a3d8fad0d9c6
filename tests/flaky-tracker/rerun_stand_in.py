"""A stand-in for a rerun command (tests/flaky-tracker/test_rerun_keeps.py): writes the run's
report back as the rerun's, every test passing (its failures and the suites' failure counts
removed) or every test failing again (as it was).

  python3 rerun_stand_in.py RUN_REPORT pass|fail JUNIT [TEST...]
"""
import re
import sys

report, mode, junit = sys.argv[1], sys.argv[2], sys.argv[3]
with open(report, encoding="utf-8") as f:
    text = f.read()
if mode == "pass":
    text = re.sub(r"<failure\b[^>]*/>|<failure\b.*?</failure>", "", text, flags=re.S)
    text = re.sub(r"""\bfailures=(["'])\d+\1""", 'failures="0"', text)
with open(junit, "w", encoding="utf-8") as f:
    f.write(text)
