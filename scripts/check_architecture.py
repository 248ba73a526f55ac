#!/usr/bin/env python3
"""docs/architecture.md must be true to the files: every header or source path it names exists.

    python3 scripts/check_architecture.py            exit 0 when true, 1 listing what is not

A path is any token ending in .hpp/.cpp/.cmake or naming a tools/ folder: `gpuplan/plan/fit.hpp`
and `plan/fit.hpp` are read under include/gpuplan, `tools/gpuplan/cmd_fit.cpp` and `cmake/x.cmake`
under the repository root; `models/*.hpp` and `cmd_<name>.cpp` patterns must match at least one
file. Each top-level folder of include/gpuplan must be named too, so a new layer is documented.
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "architecture.md")
PATH = re.compile(r"[A-Za-z0-9_./<>*-]+\.(?:hpp|cpp|cmake)\b")


def candidates(token):
    token = re.sub(r"<[a-z_]+>", "*", token)  # cmd_<name>.cpp -> cmd_*.cpp
    token = token.lstrip("<./")
    if token.startswith("gpuplan/"):
        yield os.path.join(ROOT, "include", token)
    yield os.path.join(ROOT, token)
    yield os.path.join(ROOT, "include", "gpuplan", token)
    yield os.path.join(ROOT, "tools", "gpuplan", token)


def exists(token):
    return any(glob.glob(c) for c in candidates(token))


def main():
    with open(DOC, encoding="utf-8") as fh:
        text = fh.read()
    missing = sorted({t for t in PATH.findall(text) if not exists(t)})
    layers = sorted(d for d in os.listdir(os.path.join(ROOT, "include", "gpuplan"))
                    if os.path.isdir(os.path.join(ROOT, "include", "gpuplan", d)))
    unnamed = [d for d in layers if not re.search(rf"\b{d}/", text)]
    for t in missing:
        print(f"docs/architecture.md names {t}, which does not exist")
    for d in unnamed:
        print(f"docs/architecture.md does not name the folder include/gpuplan/{d}/")
    named = len(set(PATH.findall(text)))
    if missing or unnamed:
        return 1
    print(f"docs/architecture.md: {named} paths named, all exist; {len(layers)} folders named")
    return 0


if __name__ == "__main__":
    sys.exit(main())
