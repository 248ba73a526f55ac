#!/usr/bin/env python3
"""Regenerates docs/cli.md from cli.md.in by running every command it shows.

    python3 tools/gpuplan/doc/make_cli_doc.py BUILD_DIR > docs/cli.md

In cli.md.in, `<<<run: CMD>>>` becomes a console block with CMD and its whole output,
`<<<first: CMD>>>` keeps the first line, `<<<linesN: CMD>>>` the first N lines, and `<<<rc: CMD>>>`
adds the exit status, and `<<<flags: CMD>>>` (CMD a command or a subcommand: `serve`,
`search serve`) becomes the table of every flag `gpuplan CMD --help` lists, so that the reference
names each flag a command takes and no other (the test cli.tool.doc_lists_every_flag checks
docs/cli.md against --help with help_flags() and flags_table() below). Commands run from the
repository root with BUILD_DIR/bin on the PATH; `plan.json` and `typo.json` are the files beside
this script, and `build/` stands for BUILD_DIR.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


# CLI11 prints an option's description from this column; a longer name puts it on the next line.
HELP_COLUMN = 30


def help_flags(text):
    """The flags of one command's --help, in its order: (flag, value, description), e.g.
    ("--gpu", "TEXT", "Catalog GPU ..."), ("--sp", "", "Megatron sequence parallelism ...").
    Only the Options section (not Positionals or Subcommands), without -h,--help."""
    flags, section = [], None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            section = line.rstrip(":").lower()
            continue
        if section != "options":
            continue
        if line.startswith("  -"):
            if len(line) > HELP_COLUMN and line[HELP_COLUMN - 1] == " " and line[HELP_COLUMN] != " ":
                name, desc = line[2:HELP_COLUMN].strip(), line[HELP_COLUMN:].strip()
            else:
                name, desc = line[2:].strip(), ""
            first, _, value = name.partition(" ")
            flag = [n for n in first.split(",") if n.startswith("--")][0].split("{")[0]
            if flag != "--help":
                flags.append([flag, value.strip(), desc])
        elif line.strip() and flags and line.startswith(" " * HELP_COLUMN):
            flags[-1][2] = (flags[-1][2] + " " + line.strip()).strip()
    return [tuple(f) for f in flags]


def flags_table(command, text):
    """The Markdown table of every flag of `gpuplan COMMAND`, from its --help text."""
    def cell(x):
        return x.replace("|", "\\|")
    rows = [f"| `{f}` | {cell(v)} | {cell(d)} |" for f, v, d in help_flags(text)]
    if not rows:
        return f"`gpuplan {command}` takes no flags but `--help`."
    return (f"Every flag of `gpuplan {command}`, as its `--help` lists them:\n\n"
            "| flag | value | meaning |\n|---|---|---|\n" + "\n".join(rows))


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
        if kind == "flags":
            p = subprocess.run(["gpuplan", *shown.split(), "--help"], capture_output=True,
                               text=True, env=env, cwd=ROOT, check=True)
            return flags_table(shown, p.stdout)
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
