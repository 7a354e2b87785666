#!/usr/bin/env python3
"""How much odrust:incremental selects when one class changes, for every main class of a module.

For each main class C of a compiled module (target/classes, target/test-classes), the saved state
is altered so that C alone counts as changed, and the engine's `incremental_select` is called
through the odrust-engine binary (`odrust-engine call incremental_select`). Prints, per engine
given: the mean share of test classes selected, how many selections were made only through shared
static fields (selectmore), the fields most often named, and the median time of one selection.
Give two engines (built from two commits) to compare them side by side.

    python3 integration-tests/bench/selectmore.py MODULE_DIR new=target/release/odrust-engine \
        [old=/path/to/an/older/odrust-engine] [--odrust-dir=DIR] [--own=PATH_PART]

Test classes are the *Test classes of target/test-classes (not nested), as a quick stand-in for
discovery, or with `--odrust-dir=DIR` (the output directory of an earlier odrust run of the
module, e.g. MODULE_DIR/target/odrust) the classes of its suite.json; the jars of the test
classpath are then those of its detect/classpath.jar, and jars whose path contains PATH_PART
(`--own=/org/apache/dubbo/`, repeatable) are the project's own, read class by class. Nothing is
run; the module is read only.
"""
import collections
import json
import pathlib
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zipfile


def classpath_of(odrust_dir):
    """The entries of an odrust run's detect/classpath.jar (its manifest's Class-Path)."""
    jar = odrust_dir / "detect" / "classpath.jar"
    manifest = zipfile.ZipFile(jar).read("META-INF/MANIFEST.MF").decode()
    joined = manifest.replace("\r\n", "\n").replace("\n ", "")
    line = next(l for l in joined.split("\n") if l.startswith("Class-Path:"))
    return [(jar.parent / urllib.parse.unquote(e)).resolve() for e in line.split()[1:]]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    module = pathlib.Path(sys.argv[1])
    flags = [a for a in sys.argv[2:] if a.startswith("--")]
    engines = dict(a.split("=", 1) for a in sys.argv[2:] if not a.startswith("--"))
    odrust_dir = next((pathlib.Path(f.split("=", 1)[1]) for f in flags
                       if f.startswith("--odrust-dir=")), None)
    own = [f.split("=", 1)[1] for f in flags if f.startswith("--own=")]
    main_dir, test_dir = module / "target/classes", module / "target/test-classes"
    tests = sorted(
        str(p.relative_to(test_dir)).replace("/", ".")[:-6]
        for p in test_dir.rglob("*Test.class")
        if "$" not in p.name
    )
    jars = []
    if odrust_dir:
        suite = json.loads((odrust_dir / "suite.json").read_text())
        tests = sorted({c["class"] for c in suite["classes"]})
        jars = [str(e) for e in classpath_of(odrust_dir) if e.suffix == ".jar"]
    own_jars = [j for j in jars if any(part in j for part in own)]
    with tempfile.TemporaryDirectory() as tmp:
        request_file = pathlib.Path(tmp) / "request.json"

        def select(engine, state):
            request = {"main_dirs": [str(main_dir)], "test_dirs": [str(test_dir)], "jars": jars,
                       "own_jars": own_jars, "test_classes": tests, "state": state,
                       "build_fingerprint": "b"}
            request_file.write_text(json.dumps(request))
            start = time.time()
            out = subprocess.run([engine, "call", "incremental_select", str(request_file)],
                                 capture_output=True, text=True)
            if out.returncode:
                sys.exit(out.stderr)
            return json.loads(out.stdout), time.time() - start

        print(f"{module.name}: {len(tests)} test classes, {len(jars)} jars "
              f"({len(own_jars)} the project's own)")
        for name, engine in engines.items():
            state = select(engine, None)[0]["state"]
            mains = sorted(c for c, v in state["classes"].items() if v["kind"] == "main")
            shares, only_shared, times = [], 0, []
            fields = collections.Counter()
            for c in mains:
                altered = json.loads(json.dumps(state))
                altered["classes"][c]["checksum"] = "0"
                result, took = select(engine, altered)
                times.append(took)
                shares.append(len(result["selected"]) / max(1, len(tests)))
                for t in result["selected"]:
                    shared = [r for r in t["reasons"] if "static field" in r]
                    if shared and len(shared) == len(t["reasons"]):
                        only_shared += 1
                    for r in shared:
                        # the field's name, from either engine's wording ("shares mutable static
                        # field C.f with ..." before, "uses static field C.f (...) ..." now)
                        words = r.split()
                        if "field" in words:  # not "and 5 more shared static fields"
                            fields[words[words.index("field") + 1]] += 1
            times.sort()
            print(f"  {name}: {len(mains)} main classes changed one at a time; mean selected "
                  f"{sum(shares) / max(1, len(shares)):.1%} of test classes; {only_shared} selections "
                  f"only through shared static fields; median selection {times[len(times) // 2]:.2f} s")
            for field, n in fields.most_common(5):
                print(f"      {n:5d}  {field}")


if __name__ == "__main__":
    main()
