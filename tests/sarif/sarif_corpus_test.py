"""`kgate check --format sarif` over the whole corpus, validated against the official SARIF 2.1.0 schema.

Usage: sarif_corpus_test.py KGATE SCHEMA REPO_ROOT  (ctest runs it with the venv's Python)

Checks, in order:
  1. the validator is live: a document the schema must reject (a result without a message, a
     ruleIndex that is a string) is rejected, so a broken validator cannot pass step 2;
  2. the corpus report validates (jsonschema Draft4Validator: the schema is draft-04);
  3. what GitHub code scanning relies on beyond the schema: every rule has shortDescription,
     fullDescription and help (text and markdown); each result's ruleIndex points at its ruleId;
     every result has a relative URI, a region and partialFingerprints.primaryLocationLineHash;
  4. ids and paths are stable: `corpus`, `./corpus/` and `$PWD/corpus` give the same bytes, and a
     second run does too.
"""
import copy
import glob
import json
import os
import subprocess
import sys

import jsonschema


def run_sarif(kgate, root, target):
    proc = subprocess.run([kgate, "check", "--format", "sarif", "-j", "2", target], cwd=root,
                          capture_output=True, text=True, check=False)
    # The corpus holds cheats on purpose, so exit code 1 (findings) is the expected one.
    if proc.returncode != 1:
        sys.exit(f"kgate check {target} exited {proc.returncode}, expected 1\n{proc.stderr}")
    return proc.stdout


def errors_of(validator, document):
    return sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))


def main():
    kgate, schema_path, root = (os.path.abspath(arg) for arg in sys.argv[1:4])
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft4Validator.check_schema(schema)
    validator = jsonschema.Draft4Validator(schema)
    problems = []

    text = run_sarif(kgate, root, "corpus")
    sarif = json.loads(text)
    run = sarif["runs"][0]
    results = run["results"]
    rules = run["tool"]["driver"]["rules"]
    if not results:
        problems.append("the corpus report has no results (the corpus holds cheats: it must)")

    # 1. The validator rejects what it must.
    broken = copy.deepcopy(sarif)
    del broken["runs"][0]["results"][0]["message"]
    if not errors_of(validator, broken):
        problems.append("validator accepted a result without a message")
    broken = copy.deepcopy(sarif)
    broken["runs"][0]["results"][0]["ruleIndex"] = "0"
    if not errors_of(validator, broken):
        problems.append("validator accepted a string ruleIndex")

    # 2. The real report validates.
    for error in errors_of(validator, sarif)[:20]:
        where = "/".join(str(p) for p in error.absolute_path)
        problems.append(f"schema: {where}: {error.message}")

    # 3. Beyond the schema.
    if sarif.get("$schema") != schema["id"]:
        problems.append(f"$schema {sarif.get('$schema')!r} is not the kept schema's id {schema['id']!r}")
    ids = [r["id"] for r in rules]
    if len(ids) != len(set(ids)):
        problems.append("duplicate rule ids in tool.driver.rules")
    for rule in rules:
        for key in ("shortDescription", "fullDescription"):
            if not rule.get(key, {}).get("text"):
                problems.append(f"rule {rule['id']}: no {key}.text")
        help_ = rule.get("help", {})
        if not help_.get("text") or not help_.get("markdown"):
            problems.append(f"rule {rule['id']}: help needs text and markdown")
    for i, result in enumerate(results):
        index = result.get("ruleIndex")
        if index is None or index >= len(rules) or rules[index]["id"] != result["ruleId"]:
            problems.append(f"result {i}: ruleIndex {index} does not name {result['ruleId']}")
        location = result["locations"][0]["physicalLocation"]
        uri = location["artifactLocation"]["uri"]
        if not uri.startswith("corpus/") or "/./" in uri or "/../" in uri:
            problems.append(f"result {i}: uri {uri!r} is not relative to the invocation directory")
        if "startLine" not in location.get("region", {}):
            problems.append(f"result {i}: no region.startLine")
        if len(result.get("partialFingerprints", {}).get("primaryLocationLineHash", "")) != 16:
            problems.append(f"result {i}: no primaryLocationLineHash")

    # The maintainability metrics ride in each analysed file's artifact (run.artifacts[].properties).
    # Every file's artifact also carries its verdict and harness profile (unjudged files are shown apart).
    for a in run.get("artifacts", []):
        verdict = a.get("properties", {}).get("verdict")
        if verdict not in ("pass", "reject", "unjudged", "not-a-submission"):
            problems.append(f"artifact {a['location']['uri']}: properties.verdict is {verdict!r}")
    artifacts = {a["location"]["uri"]: a["properties"]["maintainability"] for a in run.get("artifacts", [])
                 if "maintainability" in a.get("properties", {})}
    analysed = {os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "corpus", "**", "*.py"), recursive=True)}
    for path in sorted(analysed - set(artifacts)):
        problems.append(f"{path}: no artifact with its maintainability metrics")
    for uri, metrics in artifacts.items():
        if not metrics or not isinstance(metrics.get("file", {}).get("mi_comments"), (int, float)):
            problems.append(f"artifact {uri}: no properties.maintainability.file.mi_comments")
    if not any(f["language"] in ("cuda", "cpp") for m in artifacts.values() if m for f in m["functions"]):
        problems.append("no C++/CUDA function metrics in the artifacts")

    # 4. Stable across spellings of the same path and across runs.
    for target in ("./corpus/", f"{root}/corpus", "corpus"):
        if run_sarif(kgate, root, target) != text:
            problems.append(f"kgate check --format sarif {target} differs from `corpus`")

    files = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    print(f"{len(results)} results in {len(files)} files, {len(rules)} rules")
    for problem in problems:
        print("FAIL:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
