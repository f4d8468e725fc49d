"""Lighthouse mobile on the home page: performance, accessibility, best practices, medians of N runs.

Lighthouse is a measuring tool, not a dependency of the project or its tests:
give its command in LIGHTHOUSE (e.g. `node_modules/.bin/lighthouse` after
`npm install lighthouse@12` somewhere), or have `lighthouse` on PATH; otherwise
`npx --yes lighthouse@12` is used. Chromium comes from CHROMIUM
(default /usr/bin/chromium). Mobile form factor, Lighthouse's simulated
throttling (slow 4G, 4x CPU), every run a fresh browser profile (a first
visit).

Several pages are measured interleaved, run by run, so that the load of a
shared machine spreads over all of them alike:

- `app`: this tree, built and served here;
- `--page NAME=URL`: a page served elsewhere (e.g. an older checkout);
- `--web NAME=DIR`: this tree's server with another web root (a variant of
  web/ to try something);
- `--config NAME=JSON`: this tree's server with other settings, e.g.
  `--config noidle='{"IDLE_COMPILE": false}'`.

    python -m bench.lighthouse [--runs 5] [--page base=http://127.0.0.1:8101/] [--web try=path/to/other/web]
"""

import argparse
import json
import logging
import os
import shutil
import subprocess
import tempfile
import time

from bench.common import chromium, median, program, require
from bench.start import ThreadedServer
from server import create_app

CHROME_FLAGS = ("--headless --no-sandbox --disable-gpu --disable-background-networking "
                "--disable-component-update --disable-sync")
CATEGORIES = ["performance", "accessibility", "best-practices"]
METRICS = [
    ("first-contentful-paint", "FCP", "ms"),
    ("largest-contentful-paint", "LCP", "ms"),
    ("total-blocking-time", "TBT", "ms"),
    ("interactive", "TTI", "ms"),
    ("speed-index", "SI", "ms"),
    ("cumulative-layout-shift", "CLS", ""),
    ("total-byte-weight", "KiB", "KiB"),
]
TARGETS = {"performance": 0.90, "accessibility": 1.0, "best-practices": 1.0}


def lighthouse_command():
    """Return the command that runs Lighthouse."""
    if os.environ.get("LIGHTHOUSE"):
        return [os.environ["LIGHTHOUSE"]]
    if shutil.which("lighthouse"):
        return [shutil.which("lighthouse")]
    return ["npx", "--yes", "lighthouse@12"]


def run_lighthouse(url, out_dir, index):
    """Run Lighthouse once on url; return its report (dict)."""
    path = os.path.join(out_dir, "report-%d.json" % index)
    env = dict(os.environ, CHROME_PATH=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    command = lighthouse_command() + [
        url, "--quiet", "--output=json", "--output-path=" + path, "--form-factor=mobile",
        "--only-categories=" + ",".join(CATEGORIES), "--chrome-flags=" + CHROME_FLAGS]
    completed = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    if completed.returncode != 0 or not os.path.exists(path):
        raise RuntimeError("lighthouse failed (%d): %s" % (completed.returncode, completed.stderr[-2000:]))
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def figures(report):
    """Return {name: value} of one report: category scores (0..1) and metric values."""
    out = {name: report["categories"][name]["score"] for name in CATEGORIES}
    for audit, label, unit in METRICS:
        value = report["audits"][audit]["numericValue"]
        out[label] = value / 1024 if unit == "KiB" else value
    out["long tasks"] = [(round(item["startTime"]), round(item["duration"]), item["url"].rsplit("/", 1)[-1])
                         for item in report["audits"]["long-tasks"]["details"]["items"]]
    return out


def show(value, label):
    if label in CATEGORIES:
        return "%.0f" % (value * 100)
    if label == "CLS":
        return "%.3f" % value
    if label == "KiB":
        return "%.0f" % value
    return "%.0f" % value


def prerequisites():
    """Return what a Lighthouse run needs: Chromium, and Lighthouse itself (or npx to fetch it)."""
    needs = [chromium()]
    if not os.environ.get("LIGHTHOUSE") and not shutil.which("lighthouse"):
        needs.append(program("npx", "install Node.js and npm, or give Lighthouse's command in LIGHTHOUSE"))
    return needs


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--page", action="append", default=[], metavar="NAME=URL")
    parser.add_argument("--web", action="append", default=[], metavar="NAME=DIR")
    parser.add_argument("--config", action="append", default=[], metavar="NAME=JSON")
    parser.add_argument("--no-app", action="store_true", help="leave out this tree's app")
    parser.add_argument("--tasks", action="store_true", help="print each run's long tasks")
    args = parser.parse_args(argv)
    require("bench.lighthouse", *prerequisites())
    logging.getLogger("werkzeug").setLevel(logging.ERROR)

    servers = []
    pages = []
    if not args.no_app:
        servers.append(ThreadedServer(create_app({"TESTING": True})))
        pages.append(("app", servers[-1].url + "/"))
    for spec in args.web:
        name, _, root = spec.partition("=")
        servers.append(ThreadedServer(create_app({"TESTING": True, "WEB_ROOT": root})))
        pages.append((name, servers[-1].url + "/"))
    for spec in args.config:
        name, _, config = spec.partition("=")
        servers.append(ThreadedServer(create_app(dict(json.loads(config), TESTING=True))))
        pages.append((name, servers[-1].url + "/"))
    for spec in args.page:
        name, _, url = spec.partition("=")
        pages.append((name, url))

    began = time.monotonic()
    load_at_start = os.getloadavg()[0]
    results = {name: [] for name, _ in pages}
    try:
        with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as out_dir:
            for run in range(args.runs):
                for name, url in pages:
                    report = run_lighthouse(url, out_dir, len(results[name]) + 100 * run)
                    results[name].append(figures(report))
                    row = results[name][-1]
                    print("run %d %-6s perf %s a11y %s bp %s  FCP %.0f LCP %.0f TBT %.0f TTI %.0f SI %.0f CLS %.3f  %.0f KiB" % (
                        run + 1, name, show(row["performance"], "performance"), show(row["accessibility"], "accessibility"),
                        show(row["best-practices"], "best-practices"), row["FCP"], row["LCP"], row["TBT"], row["TTI"],
                        row["SI"], row["CLS"], row["KiB"]), flush=True)
                    if args.tasks:
                        print("      long tasks (start, ms, file): %s" % row["long tasks"])
    finally:
        for server in servers:
            server.stop()

    print()
    print("Lighthouse mobile (simulated slow 4G, 4x CPU), median [min-max] of %d runs per page, interleaved" % args.runs)
    labels = CATEGORIES + [label for _, label, _ in METRICS]
    print("%-8s " % "page" + " ".join("%-17s" % label for label in labels))
    for name, _ in pages:
        cells = []
        for label in labels:
            values = [row[label] for row in results[name]]
            cells.append("%-17s" % ("%s [%s-%s]" % (show(median(values), label), show(min(values), label),
                                                     show(max(values), label))))
        print("%-8s " % name + " ".join(cells))
    print("Targets (medians): " + ", ".join("%s >= %.0f" % (k, v * 100) for k, v in TARGETS.items()))
    for name, _ in pages:
        verdicts = ["%s %s" % (k, "met" if median([row[k] for row in results[name]]) >= v else "MISSED")
                    for k, v in TARGETS.items()]
        print("  %-8s %s" % (name, ", ".join(verdicts)))
    print("Machine: %d CPUs, load average %.1f at the start, %.1f at the end; %.0f s" % (
        os.cpu_count(), load_at_start, os.getloadavg()[0], time.monotonic() - began))


if __name__ == "__main__":
    main()
