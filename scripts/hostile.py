#!/usr/bin/env python3
"""Hostile input for the gpuplan command-line tool: every flag of every command, and every file it
reads, given values an attacker or a careless user would give, each in a command that otherwise
works. The promise checked (docs/validation.md, "Hostile input"; gpuplan issue 22):

  * no crash (a signal, or exit 3 "internal error"), no hang (--timeout), no exit status other
    than 0, 2, or 1 with --require-fit;
  * no inf, nan or null where a number belongs (whole tokens of stdout; in --json output a null
    where the working command printed a number);
  * no command run: a value that would run `touch CANARY` through a shell leaves no CANARY file;
  * a refusal is exactly one stderr line "gpuplan: error: ...", at most --max-line characters,
    naming the flag (as typed, or as its plan key) or the file;
  * exit 0 never prints a negative count ("-1179869184 GPUs").

    hostile.py BINARY [--sample N --seed S | --full] [--jobs J] [--json] [--only CMD]

--sample N runs N cases drawn with --seed from the full set (what CTest runs: label `hostile`);
--full runs every case. Exit status 1 when anything is found, 0 otherwise, 2 on a usage error.
The last line of the text report holds the counts of each class.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

# ---- what is tried ------------------------------------------------------------------------------

CANARY = "CANARY"
# Values for every flag (the list of issue 22, plus a few of the same kind). A value is tried in
# place of the flag's value in a working command, or appended with the flag when the command does
# not give it.
VALUES = [
    "0", "-1", "nan", "inf", "-inf", "1e308", "1e-308", "1e400",
    str(2**31), str(2**63), str(-(2**63)), "", " ", "abc", "1,2",
    ",".join(["1"] * 1000),          # a list of 1000 values
    "9" * 102400,                    # a 100 kB value
    "../../etc/passwd",
    f"|touch {CANARY} #.svg",        # gnuplot's `set output '|cmd'`
    f"$(touch {CANARY})", f"`touch {CANARY}`",
    "\n", "\x1b[31m",                # a newline; a control character (no NUL: argv cannot hold one)
    "\u00fcnic\u00f8de \u2713",      # unicode
    "0x10", "1e3", "0.5",
]
# The names the values go by in reports (the long ones shortened).
def value_label(v):
    return repr(v) if len(v) <= 40 else f"{v[:20]!r}...({len(v)} chars)"


# Flags that are not inputs: the tool prints its help or version and exits 0.
NOT_INPUTS = {"-h", "--help", "--version"}

# A working command for each command (the value of a flag under test replaces the one here, or
# the flag is appended). {DATA} is the tests/data folder.
BASES = {
    "gpus": ["gpus"],
    "models": ["models"],
    "demo": ["demo"],
    "probe": ["probe"],
    "fit": ["fit", "--model", "Llama-3.1-8B", "--gpus", "1"],
    "train": ["train", "--model", "Llama-3.1-8B", "--gpus", "8", "--tokens", "1B"],
    "serve": ["serve", "--model", "Llama-3.1-8B", "--gpu", "h100", "--input-len", "512",
              "--output-len", "128", "--ttft-slo", "1", "--tpot-slo", "0.05"],
    "capacity": ["capacity", "--rate", "20", "--wait-slo", "1", "--replica-rate", "2",
                 "--service-time", "1", "--months", "3"],
    "utilization": ["utilization", "{DATA}/monitoring/plain.csv"],
    "cost": ["cost", "--gpu", "h100", "--gpu-hours", "1000"],
    "search": ["search", "--model", "Llama-3.1-8B", "--gpus", "8", "--tokens", "1B",
               "--global-batch", "64"],
    "search serve": ["search", "serve", "--model", "Llama-3.1-8B", "--gpu", "h100",
                     "--input-len", "512", "--output-len", "128", "--ttft-slo", "1",
                     "--tpot-slo", "0.05"],
}

# ---- the files the tool reads -------------------------------------------------------------------

def json_variants(valid):
    """Hostile variants of a working JSON file's text `valid` (a JSON object)."""
    obj = json.loads(valid)
    key = next(iter(obj)) if obj else "x"
    first = json.dumps({key: obj[key]})[1:-1] if obj else '"x": 1'
    # 1e400 where the first number is (or as a new value of the first key)
    with_huge = re.sub(r'(?<=[:\[,\s])-?\d+(\.\d+)?([eE][-+]?\d+)?(?=\s*[,}\]])', "1e400", valid,
                       count=1)
    if with_huge == valid:
        with_huge = "{" + json.dumps(key) + ": 1e400}"
    return {
        "valid": valid.encode(),
        "bom": b"\xef\xbb\xbf" + valid.encode(),
        "crlf": valid.replace("\n", "\r\n").encode() + b"\r\n",
        "nul": valid.encode()[:1] + b"\0" + valid.encode()[1:],
        "1e400": with_huge.encode(),
        "duplicate": ("{" + first + ", " + first + valid.strip()[len("{"):]).encode()
                     if obj else b'{"x": 1, "x": 1}',
        "deep": ("{" + json.dumps(key) + ": " + "[" * 100000 + "]" * 100000 + "}").encode(),
        "truncated": valid.encode()[: max(1, len(valid) // 2)],
    }


def csv_variants(valid):
    lines = valid.splitlines()
    return {
        "valid": valid.encode(),
        "bom": b"\xef\xbb\xbf" + valid.encode(),
        "crlf": "\r\n".join(lines).encode() + b"\r\n",
        "nul": valid.encode().replace(b",", b",\0", 1),
        "1e400": "\n".join([lines[0]] + [re.sub(r",(\d+),", ",1e400,", l, count=1)
                                         for l in lines[1:]]).encode() + b"\n",
        "duplicate": "\n".join(lines + lines[1:]).encode() + b"\n",
        "deep": ("\n".join([lines[0]] + [lines[1]] * 200000)).encode() + b"\n",
        "long_line": (lines[0] + "\n" + "9" * (8 << 20) + "\n").encode(),
    }


COMMON_FILES = {
    "empty": b"",
    "directory": None,   # a folder of that name
    "dev_zero": "/dev/zero",
    "missing": "",       # a name that does not exist
}

# ---- running ------------------------------------------------------------------------------------

def limits(mem_gib):
    def apply():
        if mem_gib > 0:
            cap = int(mem_gib * 2**30)
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        os.setsid()
    return apply


def run_argv(binary, argv, cwd, timeout, mem_gib):
    env = dict(os.environ)
    env["TMPDIR"] = cwd
    t = time.monotonic()
    p = subprocess.Popen([binary, *argv], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=limits(mem_gib))
    try:
        out, err = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, 9)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        rc = None
    return rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.monotonic() - t


# ---- classifying --------------------------------------------------------------------------------

CLASSES = ["crash", "hang", "bad_exit", "non_finite", "command_run", "not_one_line",
           "unnamed", "internal_name", "long_line", "negative_count"]
# Whole tokens: "info", "financial" and "ZeRO-Infinity" are words.
NON_FINITE = re.compile(r"(?<![A-Za-z0-9_])(?<![A-Za-z0-9]-)(-?inf(inity)?|nan)(?![A-Za-z0-9_])",
                        re.I)
# The library's names of its own fields ("training_config.global_batch", "layout.dp") and functions
# ("min_servers: ..."), which a refusal should translate into the flag the user typed.
FILE_EXTENSIONS = {"json", "csv", "svg", "png", "gp", "dat", "txt", "yaml", "yml", "md", "so", "py",
                   "sh", "cpp", "hpp", "gz", "xml", "html",
                   # and the top-level domains of providers' names the price book lists (vast.ai)
                   "ai", "com", "io", "net", "org"}
# nvidia-smi's column names ("utilization.gpu [%]"), which the monitoring readers quote.
NVIDIA_SMI_FIELDS = {"utilization", "memory", "power", "clocks", "temperature", "pci", "fan",
                     "enforced"}
INTERNAL_DOTTED = re.compile(r"(?<![\w./\\-])([a-z][a-z0-9]*(?:_[a-z0-9]+)*)\.([a-z][a-z0-9_]+)")
INTERNAL_FUNCTION = re.compile(r"^gpuplan: error: ([a-z][a-z0-9]*(?:_[a-z0-9]+)+):")
COUNT_WORDS = r"(GPUs?|replicas?|nodes?|servers?|instances?|steps?|sequences?|tokens?|racks?)"
NEGATIVE_COUNT = re.compile(r"(?<![\w.\-])-\d[\d,]*\s+" + COUNT_WORDS + r"\b")
COUNT_KEY = re.compile(r"(^|_)(gpus|replicas|nodes|servers|instances|count|steps|racks)$")


def numbers_at(j, path=()):
    """{path: value} of every scalar of a JSON document (lists indexed)."""
    out = {}
    if isinstance(j, dict):
        for k, v in j.items():
            out.update(numbers_at(v, path + (k,)))
    elif isinstance(j, list):
        for i, v in enumerate(j):
            out.update(numbers_at(v, path + (i,)))
    else:
        out[path] = j
    return out


def canary_under(*dirs):
    for d in dirs:
        for root, _, files in os.walk(d):
            if CANARY in files or any(f.startswith(CANARY) for f in files):
                return os.path.join(root, CANARY)
    return None


def classify(case, rc, out, err, cwd, base_json, max_line):
    """The findings of one run: [(class, detail)]."""
    found = []
    argv, names, text_value = case["argv"], case["names"], case.get("value")
    if rc is None:
        return [("hang", "timed out")]
    if rc < 0 or rc == 3:
        found.append(("crash", f"exit {rc}: {err.strip()[:200]!r}"))
    elif rc not in (0, 2) and not (rc == 1 and any(a.startswith("--require-fit") for a in argv)) \
            and \
            not (case["command"] == "probe" and rc == case.get("base_rc")):
        found.append(("bad_exit", f"exit {rc}"))
    where = canary_under(cwd, os.getcwd())
    if where:
        found.append(("command_run", f"{where} exists"))
    # Non-finite numbers in stdout (the value itself, when a text flag echoes it, is not one).
    scan = out
    if text_value and case.get("text_flag"):
        scan = scan.replace(text_value, "")
    try:
        j = json.loads(out) if out.lstrip().startswith(("{", "[")) else None
    except ValueError:
        j = None
    if j is not None and base_json is not None:
        base = numbers_at(base_json)
        for path, v in numbers_at(j).items():
            if v is None and isinstance(base.get(path), (int, float)) \
                    and not isinstance(base.get(path), bool):
                found.append(("non_finite", f"null at {'/'.join(map(str, path))}"))
                break
    for m in NON_FINITE.finditer(scan):
        found.append(("non_finite", f"{m.group(0)!r} in ...{scan[max(0, m.start() - 60):m.end() + 20]!r}"))
        break
    if rc == 0:
        m = NEGATIVE_COUNT.search(scan)
        if m:
            found.append(("negative_count", repr(m.group(0))))
        if j is not None:
            for path, v in numbers_at(j).items():
                if isinstance(v, int) and not isinstance(v, bool) and v < -1 and path and \
                        isinstance(path[-1], str) and COUNT_KEY.search(path[-1]):
                    found.append(("negative_count", f"{'/'.join(map(str, path))} = {v}"))
                    break
    verdict = rc == 1 and any(a.startswith("--require-fit") for a in argv)  # "does not fit"
    # probe's exit 4, "no usable GPU here", is an answer (with --json, a JSON object on stdout),
    # not a refusal of the input
    no_gpu = case["command"] == "probe" and rc == 4
    if rc != 0 and not verdict and not no_gpu and not found:
        lines = err.splitlines()
        if len(lines) != 1 or not lines[0].startswith("gpuplan: error: "):
            found.append(("not_one_line", f"{err[:200]!r}"))
        else:
            line = lines[0]
            if len(line) > max_line:
                found.append(("long_line", f"{len(line)} chars: {line[:120]!r}..."))
            if case.get("check_name", True) and not names_any(line, names, case["texts"]):
                found.append(("unnamed", repr(line[:200])))
            internal = internal_names(line, case["texts"] + [text_value or ""])
            if internal:
                found.append(("internal_name", f"{internal!r} in {line[:200]!r}"))
    return found


def names_any(line, names, texts):
    """Whether the line names a flag or a plan key (a whole token, any case, not the field of a
    library struct: "training_config.global_batch" does not name --global-batch), or holds one of
    texts (a file's name, as typed)."""
    body = line[len("gpuplan: error: "):]
    if any(t and t in body for t in texts):
        return True
    return any(n and re.search(r"(?<![\w.-])" + re.escape(n) + r"(?![\w-])", body, re.I)
               for n in names)


def internal_names(line, texts):
    """The library's own names in a refusal (what the user typed aside)."""
    body = line
    for t in texts:
        if t:
            body = body.replace(t, " ")
    found = [m.group(0) for m in INTERNAL_DOTTED.finditer(body)
             if m.group(2) not in FILE_EXTENSIONS and not m.group(2).startswith("so")
             and m.group(1) not in NVIDIA_SMI_FIELDS]
    m = INTERNAL_FUNCTION.match(body)
    if m:
        found.append(m.group(1) + ":")
    return found


# ---- the cases ----------------------------------------------------------------------------------

HELP_OPTION = re.compile(r"^\s{2}(?:-\w,)?(--[A-Za-z0-9][\w-]*)(\{[^}]*\})?(?:\s(\S+))?")


def discover(binary, command):
    """{flag: kind} of a command, from its --help: kind is 'flag' (no value or an optional
    true/false), 'text', 'number' or 'int'; the positionals' names; the flags that name a file
    (their help says FILE, file or path: the value is then a name the error may use)."""
    r = subprocess.run([binary, *command.split(), "--help"], capture_output=True, text=True,
                       timeout=60)
    flags, positionals, file_flags, section = {}, [], set(), ""
    for line in r.stdout.splitlines():
        if re.match(r"^[A-Z][A-Za-z ]*:\s*$", line):
            section = line.strip()
            continue
        if section.startswith("Positionals"):
            m = re.match(r"^\s{2}(\w+)\s", line)
            if m:
                positionals.append(m.group(1))
            continue
        if section.startswith("Subcommands"):
            continue
        m = HELP_OPTION.match(line)
        if not m or m.group(1) in NOT_INPUTS:
            continue
        flag, default, typ = m.group(1), m.group(2), (m.group(3) or "")
        types = {"TEXT": "text", "FLOAT": "number", "INT": "int", "UINT": "int"}
        kind = "flag" if default is not None or typ not in types else types[typ]
        flags[flag] = kind
        if re.search(r"\b(file|FILE|path|JSON)\b", line[m.end():]):
            file_flags.add(flag)
    return flags, positionals, file_flags


def with_value(base, flag, kind, value):
    """base with flag's value replaced by value (or flag appended)."""
    argv = list(base)
    as_one = kind == "flag" or value.startswith("-")
    if flag in argv:
        i = argv.index(flag)
        nxt_is_value = kind != "flag" and i + 1 < len(argv)
        del argv[i:i + (2 if nxt_is_value else 1)]
        argv[i:i] = [f"{flag}={value}"] if as_one else [flag, value]
    else:
        argv += [f"{flag}={value}"] if as_one else [flag, value]
    return argv


def key_of(flag):
    return flag.lstrip("-").replace("-", "_")


def build_cases(binary, data, only):
    cases = []
    flag_counts = {}
    valid_files = valid_file_texts(binary, data)
    for command, base_t in BASES.items():
        if only and command not in only:
            continue
        base = [a.replace("{DATA}", data) for a in base_t]
        flags, positionals, file_flags = discover(binary, command)
        flag_counts[command] = len(flags)
        for flag, kind in flags.items():
            for v in VALUES:
                texts = [v[:40]] if flag in file_flags and v.strip() else []
                cases.append({
                    "command": command, "argv": with_value(base, flag, kind, v),
                    "names": [flag, key_of(flag)], "texts": texts, "value": v,
                    "text_flag": kind == "text", "what": f"{flag} {value_label(v)}"})
        # Files: every reader x every hostile content.
        readers = []
        if "--plan" in flags:
            readers.append(("--plan", "plan", plan_text(base, flags)))
        for flag, fmt_ in (("--model", "model"), ("--gpu", "gpu"), ("--prices", "prices")):
            if flag in flags:
                readers.append((flag, fmt_, valid_files[fmt_]))
        if "files" in positionals:
            readers.append((None, "csv", valid_files["csv"]))
        for flag, fmt_, valid in readers:
            variants = csv_variants(valid) if fmt_ == "csv" else json_variants(valid)
            variants.update(COMMON_FILES)
            for vname, content in variants.items():
                cases.append({"command": command, "flag": flag, "fmt": fmt_, "content": content,
                              "variant": vname, "base": base, "flags": flags,
                              "what": f"{flag or 'FILE'} <{fmt_} file: {vname}>"})
    return cases, flag_counts


def plan_text(base, flags):
    """A plan holding the base command's last flag with a value (it is taken off the argv)."""
    for i in range(len(base) - 2, 0, -1):
        if base[i].startswith("--") and base[i] in flags and flags[base[i]] != "flag":
            v = base[i + 1]
            try:
                val = int(v)
            except ValueError:
                try:
                    val = float(v)
                except ValueError:
                    val = v
            return json.dumps({key_of(base[i]): val}, indent=2) + "\n"
    return "{}\n"


def valid_file_texts(binary, data):
    with open(os.path.join(data, "hf", "llama-3.2-1b", "config.json")) as f:
        model = f.read()
    with open(os.path.join(data, "prices", "book.json")) as f:
        prices = f.read()
    with open(os.path.join(data, "monitoring", "plain.csv")) as f:
        csv = f.read()
    r = subprocess.run([binary, "gpus", "--json"], capture_output=True, text=True, timeout=60)
    try:
        gpus = json.loads(r.stdout)
        gpus = gpus["gpus"] if isinstance(gpus, dict) else gpus
        gpu = json.dumps(next(g for g in gpus if g["name"] == "H100-SXM5-80GB"), indent=2) + "\n"
    except (ValueError, KeyError, IndexError, TypeError, StopIteration):
        gpu = json.dumps({"name": "MyGPU-48GB", "memory_bytes": 48 * 2**30,
                          "memory_bandwidth_bytes_per_s": 1e12}) + "\n"
    return {"model": model, "gpu": gpu, "prices": prices, "csv": csv}


def materialise(case, cwd):
    """Writes a file case's file into cwd and returns its argv and the names it may be called."""
    if "content" not in case:
        return case["argv"], case["names"], case["texts"]
    content, vname = case["content"], case["variant"]
    ext = ".csv" if case["fmt"] == "csv" else ".json"
    path = os.path.join(cwd, f"hostile-{vname}{ext}")
    if vname == "directory":
        os.mkdir(path)
    elif vname == "dev_zero":
        path = "/dev/zero"
    elif vname == "missing":
        path = os.path.join(cwd, "no-such-file" + ext)
    else:
        with open(path, "wb") as f:
            f.write(content)
    base, flag = list(case["base"]), case["flag"]
    if flag is None:  # utilization's positional: replace the data file
        argv = [a for a in base if not a.endswith(".csv")] + [path]
    elif flag == "--plan":
        # the plan's key leaves the command line (the plan gives it)
        key = None
        if vname not in COMMON_FILES:
            try:
                key = next(iter(json.loads(case["fmt"] and plan_text(base, case["flags"]))))
            except (StopIteration, ValueError):
                key = None
        argv = base
        if key:
            fl = "--" + key.replace("_", "-")
            if fl in argv:
                i = argv.index(fl)
                argv = argv[:i] + argv[i + 2:]
        argv = argv + ["--plan", path]
    else:
        argv = with_value(base, flag, "text", path)
    texts = [path, os.path.basename(path), os.path.relpath(path, cwd)]
    return argv, [flag, key_of(flag)] if flag else [], texts


def run_case(binary, case, timeout, mem_gib, max_line, base_info):
    top = tempfile.mkdtemp(prefix="gpuplan-hostile-")
    # Three levels down, so that "../../x" stays inside the temporary folder.
    cwd = os.path.join(top, "a", "b", "c")
    os.makedirs(cwd)
    try:
        argv, names, texts = materialise(case, cwd)
        c = dict(case, argv=argv, names=names, texts=texts, base_rc=base_info[case["command"]][0])
        if base_info[case["command"]][0] != 0:
            c["check_name"] = False  # the working command does not work here (probe: no GPU)
        rc, out, err, secs = run_argv(binary, argv, cwd, timeout, mem_gib)
        found = classify(c, rc, out, err, top, base_info[case["command"]][1], max_line)
        return {"what": f"{case['command']} {case['what']}", "argv": argv, "rc": rc,
                "seconds": round(secs, 2), "findings": found,
                "stderr": err[:300]}
    finally:
        shutil.rmtree(top, ignore_errors=True)


def base_runs(binary, data, timeout, commands):
    """{command: (exit status, its --json output or None)} of the working commands."""
    info = {}
    for command in commands:
        base = [a.replace("{DATA}", data) for a in BASES[command]]
        cwd = tempfile.mkdtemp(prefix="gpuplan-hostile-base-")
        try:
            rc, out, err, _ = run_argv(binary, base, cwd, timeout * 3, 0)
            rcj, outj, _, _ = run_argv(binary, base + ["--json"], cwd, timeout * 3, 0)
        finally:
            shutil.rmtree(cwd, ignore_errors=True)
        try:
            j = json.loads(outj) if rcj == 0 else None
        except ValueError:
            j = None
        info[command] = (rc, j, err)
    return info


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--data", default=os.path.join(here, "..", "tests", "data"),
                    help="tests/data (model, price and monitoring files to start from)")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--sample", type=int, help="run this many cases, drawn with --seed")
    g.add_argument("--full", action="store_true", help="run every case (the default)")
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds a run may take")
    ap.add_argument("--mem-gib", type=float, default=4.0,
                    help="address-space limit of each run, GiB (0: none, e.g. under ASan)")
    ap.add_argument("--max-line", type=int, default=300, help="longest acceptable error line")
    ap.add_argument("--only", action="append", help="only this command (repeatable)")
    ap.add_argument("--show", type=int, default=5, help="findings printed per class")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("--list", action="store_true", help="print the cases and exit")
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    data = os.path.abspath(a.data)
    if not os.access(binary, os.X_OK):
        ap.error(f"{binary}: not an executable")

    cases, flag_counts = build_cases(binary, data, a.only)
    total = len(cases)
    if a.sample is not None:
        rng = random.Random(a.seed)
        cases = rng.sample(cases, min(a.sample, len(cases)))
    if a.list:
        for c in cases:
            print(f"{c['command']} {c['what']}")
        return 0

    if a.mem_gib > 0:
        # A sanitized binary reserves terabytes of address space: no limit then.
        cwd = tempfile.mkdtemp(prefix="gpuplan-hostile-")
        try:
            limited = run_argv(binary, ["--version"], cwd, a.timeout, a.mem_gib)[0]
            free = run_argv(binary, ["--version"], cwd, a.timeout, 0)[0]
        finally:
            shutil.rmtree(cwd, ignore_errors=True)
        if limited != 0 and free == 0:
            print(f"hostile.py: {binary} does not start under a {a.mem_gib:g} GiB address-space "
                  "limit (a sanitizer?): running without one", file=sys.stderr)
            a.mem_gib = 0
    commands = sorted({c["command"] for c in cases})
    base_info = base_runs(binary, data, a.timeout, commands)
    for command in commands:
        rc, _, err = base_info[command]
        if rc != 0 and command != "probe":
            print(f"hostile.py: the working command for '{command}' fails (exit {rc}): "
                  f"{err.strip()[:300]}", file=sys.stderr)
            return 2
    started = time.monotonic()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for r in pool.map(lambda c: run_case(binary, c, a.timeout, a.mem_gib, a.max_line,
                                             base_info), cases):
            results.append(r)
    elapsed = time.monotonic() - started

    counts = {k: 0 for k in CLASSES}
    examples = {k: [] for k in CLASSES}
    for r in results:
        for cls in sorted({f[0] for f in r["findings"]}):
            counts[cls] += 1
            detail = next(d for c, d in r["findings"] if c == cls)
            examples[cls].append({"case": r["what"], "detail": detail, "exit": r["rc"],
                                  "argv": [x if len(x) <= 100 else x[:40] + f"...({len(x)} chars)"
                                           for x in r["argv"]]})
    failed = sum(1 for r in results if r["findings"])
    summary = {"cases": len(results), "of": total, "seconds": round(elapsed, 1),
               "flags": flag_counts, "failed_cases": failed, "counts": counts,
               "examples": {k: v[:a.show] for k, v in examples.items() if v}}
    if a.json:
        print(json.dumps(summary, indent=2))
    else:
        for cls in CLASSES:
            for e in examples[cls][:a.show]:
                print(f"{cls}: {e['case']}: {e['detail']}")
                print(f"    $ gpuplan {' '.join(map(shlex_quote, e['argv']))}  (exit {e['exit']})")
        print(f"hostile: {len(results)} of {total} cases in {elapsed:.0f} s, {failed} with findings: "
              + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return 1 if failed else 0


def shlex_quote(s):
    """s for a bash command line, control characters as $'\\n' (one line per finding)."""
    import shlex
    if any(ord(c) < 32 or ord(c) == 127 for c in s):
        body = "".join(c if 32 <= ord(c) < 127 and c not in "'\\" else
                       ("\\" + c if c in "'\\" else f"\\x{ord(c):02x}") for c in s)
        return f"$'{body}'"
    return shlex.quote(s)


if __name__ == "__main__":
    sys.exit(main())
