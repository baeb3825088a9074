"""bakeoff's pytest plugin: one JSON line per test, written to $BAKEOFF_PYTEST_REPORT.

Loaded with ``-p bakeoff_pytest_report`` (bakeoff puts this folder on PYTHONPATH). The file
holds, one JSON object a line:

    {"id": "<exact nodeid>", "status": "pass|fail|skip|error", "message": "<first line>"}
    {"session": "finished", "exitstatus": <int>}      # last line, from pytest_sessionfinish

A test's line is written once its teardown has been reported, with the worst status of its
phases: a failed setup or teardown is an error, a failed call is a failure, skip and xfail are
skips. A collector that fails (e.g. a test file that does not import) is one error line whose
id is the collector's nodeid (the file path). The session line is missing when the process
died before the session ended.
"""

import json
import os

# Read once and removed, so that code under test does not see where the report goes.
_REPORT_PATH = os.environ.pop("BAKEOFF_PYTEST_REPORT", None)
_SEVERITY = {"pass": 0, "skip": 1, "fail": 2, "error": 3}
_pending = {}


def _write(record):
    if _REPORT_PATH is None:
        return
    with open(_REPORT_PATH, "a", encoding="utf-8") as report_file:
        report_file.write(json.dumps(record, ensure_ascii=False) + "\n")


def _first_line(text):
    for line in str(text).splitlines():
        if line.strip():
            return line.strip()[:500]
    return None


def _message(report):
    longrepr = report.longrepr
    if longrepr is None:
        return None
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return _first_line(longrepr[2])  # a skip: (path, line, reason)
    if getattr(report, "wasxfail", None) is not None:
        return _first_line("xfail: " + (report.wasxfail or "expected to fail"))
    crash = getattr(longrepr, "reprcrash", None)
    if crash is not None:
        return _first_line(crash.message)
    # A collection error is plain text; its "E   " lines name the exception.
    text = str(longrepr)
    errors = [line[1:] for line in text.splitlines() if line.startswith("E ")]
    return _first_line(errors[-1] if errors else text)


def _phase_status(report):
    if report.passed:
        return "pass"  # also a non-strict XPASS: the test ran and passed
    if report.skipped:
        return "skip"  # skip marks, pytest.skip() and xfail
    return "fail" if report.when == "call" else "error"


def _record(nodeid, status, message):
    record = {"id": nodeid, "status": status}
    if message is not None and status != "pass":
        record["message"] = message
    return record


def pytest_runtest_logreport(report):
    status = _phase_status(report)
    current = _pending.get(report.nodeid)
    if current is None or _SEVERITY[status] > _SEVERITY[current["status"]]:
        _pending[report.nodeid] = _record(report.nodeid, status, _message(report))
    if report.when == "teardown":
        _write(_pending.pop(report.nodeid))


def pytest_collectreport(report):
    if report.failed:
        _write(_record(report.nodeid or ".", "error", _message(report)))
    elif report.skipped:
        _write(_record(report.nodeid or ".", "skip", _message(report)))


def pytest_sessionfinish(session, exitstatus):
    for record in _pending.values():
        _write(record)
    _pending.clear()
    _write({"session": "finished", "exitstatus": int(exitstatus)})
