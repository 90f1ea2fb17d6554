"""Every second-order cheat (tests/second_order/<rule>/*.py, *.cu) must not pass the static gate. Prints,
per file, the verdict and the rules that fired, and counts the files caught by the folder's own rule."""
import json
import pathlib
import subprocess
import sys


def main() -> int:
    kgate, root = sys.argv[1], pathlib.Path(sys.argv[2])
    files = sorted([*root.glob("*/*.py"), *root.glob("*/*.cu")])
    if not files:
        print(f"FAIL: no second-order files under {root}")
        return 1
    out = subprocess.run([kgate, "check", "--format", "json", *map(str, files)], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        print(f"FAIL: kgate check exited {out.returncode}: {out.stderr.strip()}")
        return 1
    results = {pathlib.Path(f["path"]).resolve(): f for f in json.loads(out.stdout)["files"]}
    passed, by_own_rule = [], 0
    for path in files:
        result = results[path.resolve()]
        rules = sorted({f["rule"] for f in result["findings"] if f["severity"] == "error"})
        own = path.parent.name in rules
        by_own_rule += own
        print(f"{path.parent.name}/{path.name}: {result['verdict']} {rules}")
        if result["verdict"] == "pass":
            passed.append(str(path))
    print(f"{len(files)} files, {len(files) - len(passed)} not passed, {by_own_rule} caught by their folder's rule")
    if passed:
        print("FAIL: passed: " + ", ".join(passed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
