#!/usr/bin/env python3
"""Regenerates docs/cli.md from cli.md.in by running every command it shows.

    python3 tools/gpuplan/doc/make_cli_doc.py BUILD_DIR > docs/cli.md

In cli.md.in, `<<<run: CMD>>>` becomes a console block with CMD and its whole output,
`<<<first: CMD>>>` keeps the first line, `<<<linesN: CMD>>>` the first N lines, and `<<<rc: CMD>>>`
adds the exit status. Commands run from the repository root with BUILD_DIR/bin on the PATH;
`plan.json` and `typo.json` are the files beside this script, and `build/` stands for BUILD_DIR.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    build = os.path.abspath(sys.argv[1])
    env = dict(os.environ)
    env["PATH"] = os.path.join(build, "bin") + os.pathsep + env.get("PATH", "")

    def block(m):
        kind, shown = m.group(1), m.group(2).strip()
        cmd = (shown.replace("plan.json", os.path.join(HERE, "plan.json"))
                    .replace("typo.json", os.path.join(HERE, "typo.json"))
                    .replace("LD_LIBRARY_PATH=build/", f"LD_LIBRARY_PATH={build}/"))
        p = subprocess.run(cmd, shell=True, capture_output=True, text=True, env=env, cwd=ROOT)
        out = (p.stdout + p.stderr).replace(HERE + os.sep, "")
        if kind == "first":
            out = out.splitlines()[0] + "\n"
        elif kind.startswith("lines"):
            out = "\n".join(out.splitlines()[:int(kind[5:])]) + "\n"
        elif kind == "rc":
            out += f"$ echo $?\n{p.returncode}\n"
        return "```console\n$ " + shown + "\n" + out.rstrip("\n") + "\n```"

    with open(os.path.join(HERE, "cli.md.in")) as f:
        sys.stdout.write(re.sub(r"<<<(\w+): (.*?)>>>", block, f.read()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
