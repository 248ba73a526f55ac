# tests/cli/cases_tool.py: the tool as a program (issue 23): its version is the project's, and every
# command it has (one table, tools/gpuplan/commands.cpp) is documented in docs/cli.md.
# Exec'd in cli_tests.py's namespace (case, run, ok, ok_json, bad, check, near, ...).

def _repo_file(*parts):
    # DATA is <checkout>/tests/data
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(DATA))), *parts)


def _listed_commands():
    """The commands `gpuplan --help` lists, in its order (CLI11's Subcommands section: its title is
    upper case in later CLI11 releases)."""
    out = ok("--help").out
    parts = re.split(r"^subcommands:$", out, maxsplit=1, flags=re.M | re.I)
    check(len(parts) == 2, f"--help has a Subcommands section: {out[:400]!r}")
    names = []
    for line in parts[1].splitlines():
        m = re.match(r"^  (\w+)\s", line)
        if m:
            names.append(m.group(1))
    return names


@case("tool.version")
def _():
    with open(_repo_file("CMakeLists.txt")) as fh:
        m = re.search(r"project\(\s*gpuplan\s+VERSION\s+([0-9]+\.[0-9]+\.[0-9]+)", fh.read())
    check(m, "CMakeLists.txt declares project(gpuplan VERSION x.y.z)")
    out = ok("--version").out
    check(out == f"gpuplan {m.group(1)}\n", f"--version prints the project's version: {out!r}")


@case("tool.doc_lists_every_command")
def _():
    names = _listed_commands()
    # The table's commands, every one of them (a lost row would drop a command silently).
    check(names == ["demo", "gpus", "models", "fit", "probe", "train", "serve", "capacity",
                    "utilization", "cost", "search", "assumptions"], f"--help lists the table's commands: {names}")
    for doc in (_repo_file("tools", "gpuplan", "doc", "cli.md.in"), _repo_file("docs", "cli.md")):
        with open(doc) as fh:
            text = fh.read()
        sections = re.findall(r"^## gpuplan (\w+)$", text, re.M)
        for n in names:
            check(n in sections, f"{os.path.basename(doc)} has a section '## gpuplan {n}'")
        for s in sections:
            check(s in names, f"{os.path.basename(doc)}: '## gpuplan {s}' is not a command")
