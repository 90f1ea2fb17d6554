#!/usr/bin/env python3
"""report.html rendered by headless Chromium shows the counts of the JSONL it was made from.

Usage: html_render_test.py KGATE CORPUS WORKDIR CHROMIUM

Audits a copy of the corpus plus one hostile submission (markup in its name and source), adds
synthetic runtime fields (speedup, roofline) to some JSONL lines, restarts the audit so that the
report is rendered from those lines, then loads report.html in Chromium (--dump-dom, --screenshot),
opened at the hostile file's details (#file-N). Every count is computed here from the JSONL and the
rule catalogue (`kgate rules --format json`), independently of the report code, and must appear in the
rendered DOM: the verdicts per folder and per harness profile, the rules and techniques. The page's
script must have run (it sorts the file table, unpacks the opened file's details and marks
<body data-ready>), and nothing from the input may become markup.
"""
import collections
import html.parser
import json
import os
import shutil
import subprocess
import sys

HOSTILE_NAME = "x<b>'\"&amp;.py"
HOSTILE_SOURCE = """import torch


class ModelNew(torch.nn.Module):
    def forward(self, x):
        # </pre><script>document.title = "pwned"</script>
        return torch.matmul(x, x)  # <img src=x onerror="document.title='pwned'">
"""
SPEEDUPS = [0.5, 0.8, 1.25, 2.0, 3.5, 10.0]


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(cmd, **kwargs):
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)
    if done.returncode != 0:
        fail(f"{cmd[0]} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


class Dom(html.parser.HTMLParser):
    """The few things the test reads from the rendered page."""

    def __init__(self):
        super().__init__()
        self.ids = {}                  # id -> text (count-* elements)
        self.rules = collections.defaultdict(dict)       # rule -> {data-count: int}
        self.techniques = collections.defaultdict(dict)  # technique -> {data-count: int}
        self.groups = {"folders": collections.defaultdict(dict), "harnesses": collections.defaultdict(dict)}
        self.file_rows = []            # [[cell texts]] of #files, in DOM order
        self.tags = collections.Counter()
        self.classes = collections.Counter()
        self.body = {}
        self.title = ""
        self.excerpt_text = ""
        self._stack = []  # (tag, attrs) of open elements
        self._in_files = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags[tag] += 1
        for c in (attrs.get("class") or "").split():
            self.classes[(tag, c)] += 1
        if tag == "body":
            self.body = attrs
        if tag == "table" and attrs.get("id") == "files":
            self._in_files = True
        if tag == "tr" and self._in_files and self._inside("tbody"):
            self.file_rows.append([])
        if tag == "td" and self._in_files and self._inside("tbody"):
            self.file_rows[-1].append("")
        self._stack.append((tag, attrs))

    def handle_endtag(self, tag):
        if tag == "table":
            self._in_files = False
        while self._stack:
            if self._stack.pop()[0] == tag:
                break

    def _inside(self, tag):
        return any(t == tag for t, _ in self._stack)

    def _table(self):
        for t, a in reversed(self._stack):
            if t == "table":
                return a.get("id")
        return None

    def _row(self, key):
        for t, a in reversed(self._stack):
            if t == "tr" and key in a:
                return a[key]
        return None

    def handle_data(self, data):
        if not self._stack:
            return
        tag, attrs = self._stack[-1]
        if tag == "title" and self._inside("head"):
            self.title += data
        if "id" in attrs:
            self.ids[attrs["id"]] = self.ids.get(attrs["id"], "") + data
        if any(t == "pre" and "excerpt" in (a.get("class") or "") for t, a in self._stack):
            self.excerpt_text += data
        if tag == "td" and "data-count" in attrs:
            rule, technique = self._row("data-rule"), self._row("data-technique")
            if rule is not None:
                self.rules[rule][attrs["data-count"]] = int(data)
            if technique is not None:
                self.techniques[technique][attrs["data-count"]] = int(data)
            group, table = self._row("data-group"), self._table()
            if group is not None and table in self.groups:
                self.groups[table][group][attrs["data-count"]] = int(data)
        if self._in_files and self.file_rows and any(t == "td" for t, _ in self._stack) and self.file_rows[-1]:
            self.file_rows[-1][-1] += data


def numeric_leaves(metrics, prefix=""):
    """Dotted names of the numbers in a metrics object, nested objects included, lists not."""
    for key, value in metrics.items():
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            yield prefix + key
        elif isinstance(value, dict):
            yield from numeric_leaves(value, prefix + key + ".")


def expected_counts(records, techniques_of):
    expect = {"files": len(records), "passed": 0, "rejected": 0, "unjudged": 0, "not-a-submission": 0, "findings": 0,
              "errors": 0, "warnings": 0, "notes": 0, "suppressed": 0}
    rules = collections.defaultdict(lambda: {"findings": 0, "files": set()})
    techniques = collections.defaultdict(lambda: {"findings": 0, "files": set()})
    for r in records:
        expect["passed"] += r["verdict"] == "pass"
        expect["rejected"] += r["verdict"] == "reject"
        expect["unjudged"] += r["verdict"] == "unjudged"
        expect["not-a-submission"] += r["verdict"] == "not-a-submission"
        expect["suppressed"] += r.get("suppressed", 0)
        for f in r["findings"]:
            expect["findings"] += 1
            expect[{"error": "errors", "warning": "warnings", "note": "notes"}[f["severity"]]] += 1
            rules[f["rule"]]["findings"] += 1
            rules[f["rule"]]["files"].add(r["path"])
            for t in techniques_of.get(f["rule"], []):
                techniques[t]["findings"] += 1
                techniques[t]["files"].add(r["path"])
    return expect, rules, techniques


def expected_groups(records):
    """Verdicts per folder (the first folder below the directory every path shares) and per harness."""
    dirs = [os.path.dirname(r["path"]) + "/" for r in records]
    common = os.path.commonprefix(dirs)
    common = common[: common.rfind("/") + 1]
    groups = {"folders": collections.defaultdict(collections.Counter), "harnesses": collections.defaultdict(collections.Counter)}
    for r in records:
        rest = r["path"][len(common):]
        keys = {"folders": rest.split("/")[0] if "/" in rest else ".", "harnesses": r.get("harness") or "(none)"}
        for table, key in keys.items():
            groups[table][key]["files"] += 1
            groups[table][key][r["verdict"]] += 1
    return {table: {key: {k: c[k] for k in ("files", "pass", "reject", "unjudged", "not-a-submission")}
                    for key, c in by.items()} for table, by in groups.items()}


def main():
    kgate, corpus, work, chromium = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    src, out = os.path.join(work, "src"), os.path.join(work, "out")
    shutil.copytree(corpus, os.path.join(src, "corpus"))
    with open(os.path.join(src, HOSTILE_NAME), "w") as f:
        f.write(HOSTILE_SOURCE)
    run([kgate, "audit", src, "--out", out, "-j", "2"])

    # Synthetic runtime results on the first lines: the report must read them from the JSONL.
    log = os.path.join(out, "results.jsonl")
    with open(log) as f:
        records = [json.loads(line) for line in f]
    for i, speedup in enumerate(SPEEDUPS):
        records[i]["runtime"] = {"speedup": speedup}
        if i < 5:
            records[i]["runtime"]["roofline"] = {"arithmetic_intensity": 0.5 * 4 ** i, "achieved_gflops": 200.0 * 3 ** i,
                                                 "peak_gflops": 60000.0, "peak_gbps": 3300.0}
    with open(log, "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in records)
    restart = run([kgate, "audit", src, "--out", out, "-j", "2"])
    if "(0 analysed" not in restart:
        fail("the restart re-analysed files instead of rendering the logged records:\n" + restart)

    techniques_of = {r["id"]: r["techniques"] for r in json.loads(run([kgate, "rules", "--format", "json"]))}
    expect, rules, techniques = expected_counts(records, techniques_of)
    if not any(r["path"].endswith(HOSTILE_NAME) and r["findings"] for r in records):
        fail("the hostile submission got no finding, so its excerpt is not in the report")

    # The page lists files sorted by path (bytewise, as UTF-8 sorts by code point); #file-N opens one.
    hostile_index = sorted(r["path"] for r in records).index(next(r["path"] for r in records if r["path"].endswith(HOSTILE_NAME)))
    page = "file://" + os.path.abspath(os.path.join(out, "report.html")) + f"#file-{hostile_index}"
    # The details unpack asynchronously (DecompressionStream): virtual time lets them finish before the dump.
    base = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
            "--virtual-time-budget=10000", "--user-data-dir=" + os.path.join(work, "profile")]
    dom_text = run(base + ["--dump-dom", page], timeout=120)
    screenshot = os.path.join(work, "report.png")
    run(base + ["--window-size=1400,2600", "--screenshot=" + screenshot, page], timeout=120)

    dom = Dom()
    dom.feed(dom_text)
    problems = []
    if dom.body.get("data-ready") != "1":
        problems.append("the page's script did not run to the end (<body data-ready> missing)")
    for key, value in expect.items():
        shown = dom.ids.get("count-" + key)
        if shown is None or int(shown) != value:
            problems.append(f"count-{key}: expected {value}, the page shows {shown}")
    for rule, tally in rules.items():
        shown = dom.rules.get(rule)
        if shown != {"findings": tally["findings"], "files": len(tally["files"])}:
            problems.append(f"rule {rule}: expected {tally['findings']} findings in {len(tally['files'])} files, the page shows {shown}")
    if set(dom.rules) != set(rules):
        problems.append(f"rules on the page but not in the JSONL: {sorted(set(dom.rules) - set(rules))}")
    for technique, tally in techniques.items():
        shown = dom.techniques.get(technique)
        if shown != {"findings": tally["findings"], "files": len(tally["files"])}:
            problems.append(f"technique {technique}: expected {tally['findings']} findings in {len(tally['files'])} files, page: {shown}")
    if set(dom.techniques) != set(techniques):
        problems.append(f"techniques differ: page {sorted(dom.techniques)}, JSONL {sorted(techniques)}")
    for table, by in expected_groups(records).items():
        if dict(dom.groups[table]) != by:
            problems.append(f"verdicts per {table[:-1]}: expected {by}, the page shows {dict(dom.groups[table])}")
    if len(dom.file_rows) != expect["files"]:
        problems.append(f"the file table has {len(dom.file_rows)} rows, expected {expect['files']}")
    shown_findings = [int(row[2]) for row in dom.file_rows]
    if shown_findings != sorted(shown_findings, reverse=True):
        problems.append("the file table is not sorted by findings (the script's sort did not run)")
    if dom.ids.get("count-speedups") != str(len(SPEEDUPS)) or dom.ids.get("count-faster") != str(sum(s > 1 for s in SPEEDUPS)):
        problems.append(f"runtime counts: page shows {dom.ids.get('count-speedups')} / {dom.ids.get('count-faster')}")
    if dom.classes[("circle", "dot")] != 5 or dom.classes[("polyline", "roof")] != 1:
        problems.append(f"roofline: {dom.classes[('circle', 'dot')]} dots and {dom.classes[('polyline', 'roof')]} roofs, expected 5 and 1")
    metric_names = {name for r in records for name in numeric_leaves(r["metrics"])}
    if dom.classes[("svg", "plot")] != len(metric_names) + 2:
        problems.append(f"{dom.classes[('svg', 'plot')]} plots, expected one per metric ({len(metric_names)}) plus speedup and roofline")
    # Hostile input stays text: one script (the report's), no image, the title untouched.
    if dom.tags["script"] != 1 or dom.tags["img"] != 0 or "pwned" in dom.title:
        problems.append(f"markup from the input became live: {dom.tags['script']} scripts, {dom.tags['img']} images, title {dom.title!r}")
    if '</pre><script>document.title = "pwned"</script>' not in dom.excerpt_text:
        problems.append("the hostile source line is not shown as text in its excerpt")
    if not any(HOSTILE_NAME in row[0] for row in dom.file_rows):
        problems.append("the hostile file name is not shown as text in the file table")
    with open(screenshot, "rb") as f:
        png = f.read()
    if not png.startswith(b"\x89PNG\r\n\x1a\n") or len(png) < 20000:
        problems.append(f"the screenshot is not a real PNG ({len(png)} bytes)")
    if problems:
        fail("\n  ".join([f"{len(problems)} problem(s) in {page}:"] + problems))
    print(f"PASS: {expect['files']} files, {expect['rejected']} rejected, {expect['findings']} findings, {len(rules)} rules and "
          f"{len(techniques)} techniques as counted from the JSONL; screenshot {screenshot}")


if __name__ == "__main__":
    main()
