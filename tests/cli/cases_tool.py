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


# ---- issue 26 "Help tells the truth": each command lists only the flags it takes, refuses the
# ones it does not, and docs/cli.md lists every flag of every command, flag for flag with --help.

def _doc_generator():
    """tools/gpuplan/doc/make_cli_doc.py as a module: its help_flags() and flags_table() are what
    wrote docs/cli.md's flag tables, so the test reads --help the way the generator does."""
    import importlib.util
    path = _repo_file("tools", "gpuplan", "doc", "make_cli_doc.py")
    spec = importlib.util.spec_from_file_location("make_cli_doc", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _subcommands(help_text):
    parts = re.split(r"^subcommands:$", help_text, maxsplit=1, flags=re.M | re.I)
    return [m.group(1) for m in re.finditer(r"^  (\w+)\s", parts[1], re.M)] if len(parts) == 2 else []


def _help_flag_names(*command):
    return [f for f, _, _ in _doc_generator().help_flags(ok(*command, "--help").out)]


@case("tool.doc_lists_every_flag")
def _():
    gen = _doc_generator()
    commands = []
    for name in _listed_commands():
        commands.append(name)
        commands += [f"{name} {sub}" for sub in _subcommands(ok(name, "--help").out)]
    check("search serve" in commands, f"the subcommands are found: {commands}")
    with open(_repo_file("docs", "cli.md")) as fh:
        doc = fh.read()
    with open(_repo_file("tools", "gpuplan", "doc", "cli.md.in")) as fh:
        template = fh.read()
    for cmd in commands:
        check(f"<<<flags: {cmd}>>>" in template, f"cli.md.in has <<<flags: {cmd}>>>")
        help_text = ok(*cmd.split(), "--help").out
        flags = [f for f, _, _ in gen.help_flags(help_text)]
        check(len(flags) == len(re.findall(r"^  --?\w", help_text.split("Options:")[-1], re.M)) - 1,
              f"gpuplan {cmd} --help: every option line read ({flags})")
        # The command's section of docs/cli.md: from its heading to the next heading of its level.
        level = "###" if " " in cmd else "##"
        head = re.search(rf"^{level} gpuplan {cmd}$", doc, re.M)
        check(head, f"docs/cli.md has '{level} gpuplan {cmd}'")
        end = re.search(rf"^#{{2,{len(level)}}} ", doc[head.end():], re.M)
        section = doc[head.end():head.end() + end.start()] if end else doc[head.end():]
        m = re.search(rf"^Every flag of `gpuplan {cmd}`.*?\n\n((?:\|.*\n)+)", section, re.M)
        listed = re.findall(r"^\| `(--[\w-]+)` \|", m.group(1), re.M) if m else []
        if not flags:
            check(f"`gpuplan {cmd}` takes no flags" in section,
                  f"docs/cli.md '{cmd}' says it takes no flags")
            continue
        check(m, f"docs/cli.md's section of '{cmd}' has its flag table")
        missing = [f for f in flags if f not in listed]
        extra = [f for f in listed if f not in flags]
        check(not missing and not extra,
              f"docs/cli.md and `gpuplan {cmd} --help` disagree: the doc lacks {missing}, the "
              f"command lacks {extra} (regenerate: tools/gpuplan/doc/make_cli_doc.py)")
        check(gen.flags_table(cmd, help_text) in section,
              f"docs/cli.md's flag table of '{cmd}' is its --help's, word for word (regenerate "
              "it: python3 tools/gpuplan/doc/make_cli_doc.py BUILD > docs/cli.md)")


@case("tool.help_lists_only_taken_flags")
def _():
    # serve and capacity plan a serving deployment: fit's --batch/--context and training's layout
    # flags are not theirs (serve refused --batch after listing it; --virtual-stages was ignored).
    for f in ("--batch", "--context"):
        check(f not in _help_flag_names("cost"), f"gpuplan cost --help lists fit's {f}")
    for cmd in ("serve", "capacity"):
        flags = _help_flag_names(cmd)
        for f in ("--batch", "--context", "--zero", "--cp", "--sp", "--virtual-stages",
                  "--shard-group"):
            check(f not in flags, f"gpuplan {cmd} --help lists {f}, which it does not take")
        for f in ("--model", "--tp", "--pp", "--ep", "--kv-dtype", "--max-model-len",
                  "--first-stage-layers"):
            check(f in flags, f"gpuplan {cmd} --help lists {f}")
    check("--goodput" not in _help_flag_names("train"), "train --help lists the removed --goodput")
    check("--virtual-stages" in _help_flag_names("train"), "train --help lists --virtual-stages")
    check("--batch" in _help_flag_names("fit") and "--zero" in _help_flag_names("fit"),
          "fit --help lists both modes' flags")


@case("tool.help_ends_alike")
def _():
    # Every command's help ends in one blank line, as CLI11 writes it; the four commands with
    # refused (unlisted) flags ended in two (CLI11 spaced the empty group as if it were listed).
    commands = [[]]
    for name in _listed_commands():
        commands.append([name])
        commands += [[name, sub] for sub in _subcommands(ok(name, "--help").out)]
    for c in commands:
        out = ok(*c, "--help").out
        check(out.endswith("\n\n") and not out.endswith("\n\n\n"),
              f"gpuplan {' '.join(c)} --help ends in {len(out) - len(out.rstrip())} newlines, not 2")


@case("tool.unlisted_flags_refused")
def _():
    m = ["--model", "Llama-3.1-8B"]
    bad(r"^gpuplan: error: --batch is fit's; serve takes --concurrency", "serve", *m, "--batch", "4")
    bad(r"--context is fit's", "serve", *m, "--context", "8192")
    bad(r"--virtual-stages is a training setting; serve does not take it", "serve", *m,
        "--pp", "2", "--virtual-stages", "4")
    for f in (["--zero", "0"], ["--cp", "1"], ["--sp"], ["--shard-group", "1"]):
        bad(rf"{f[0]} is a training setting; serve does not take it", "serve", *m, *f)
    cap = ["capacity", "--rate", "3", "--wait-slo", "1", "--months", "0", *m, "--gpu", "h100",
           "--ttft-slo", "2", "--tpot-slo", "0.05"]
    bad(r"--virtual-stages is a training setting; capacity does not take it", *cap, "--pp", "2",
        "--virtual-stages", "2")
    bad(r"--context is fit's; capacity takes --rate", *cap, "--context", "100000")
    with tempfile.TemporaryDirectory() as d:
        plan = os.path.join(d, "plan.json")
        with open(plan, "w") as fh:
            json.dump({"model": "Llama-3.1-8B", "pp": 2, "virtual_stages": 2}, fh)
        bad(r"plan.json: key 'virtual_stages' is a training setting; serve does not take it",
            "serve", "--plan", plan)
    bad(r"--batch is fit's; cost of a serving deployment takes --concurrency", "cost", *m,
        "--gpu", "h100", "--concurrency", "64", "--batch", "7")
    bad(r"--goodput was removed", "train", *m, "--gpus", "8", "--tokens", "1B", "--goodput", "0.9")
    # what these commands take still works
    ok("serve", *m, "--pp", "4", "--first-stage-layers", "5")
    ok(*cap, "--pp", "2")


@case("plan.number_for_a_text_flag")
def _():
    """A plan's JSON number for a flag that reads text (--tokens 1e10, --tokens 10B) is read as the
    flag reads that number's text: {"tokens": 1e10} is --tokens 1e10 (the Python package's
    tokens=1e10 is the same plan object)."""
    args = ["--model", "llama-3.1-8b", "--gpus", "8", "--global-batch", "512", "--no-failures"]
    by_flag = ok_json("train", *args, "--tokens", "1e10")
    for tokens in (1e10, 10000000000):
        f = plan_file({"tokens": tokens})
        try:
            by_plan = ok_json("train", "--plan", f, *args)
        finally:
            os.unlink(f)
        check(by_plan == by_flag, f"plan tokens {tokens!r} = --tokens 1e10")
    f = plan_file({"tokens": True})
    try:
        bad("key 'tokens' must be a string", "train", "--plan", f, *args)
    finally:
        os.unlink(f)
