# tests/cli/cases_security.py: what the tool writes is safe from the strings it is given (issue 22).
# Chart file names never reach a shell, strings in gnuplot scripts are never interpreted, side
# files never follow a symbolic link, the user's environment failing is exit 2 naming the path,
# a report that cannot be written is exit 2, and the Kubernetes manifest is exactly the objects
# meant whatever the image holds. Exec'd in cli_tests.py's namespace (case, run, ok, bad, ...).
#
# gnuplot is installed by ./scripts/check (ensure_debian_packages): the cases that need it fail,
# not skip, without it; the fallback (.dat and .gp) is tested with PATH emptied, on purpose.

import shutil
import stat

SEC_NO_GNUPLOT = {"PATH": "/nonexistent"}
SEC_TRAIN = ("train", "--model", "megatron-175b", "--node", "dgx-a100", "--tp", "8", "--pp", "12",
             "--dp", "4", "--dtype", "fp16", "--global-batch", "1536", "--scaling", "384..768")
SEC_SERVE = ("serve", "--model", "llama3.1-8b")
SEC_CAPACITY = ("capacity", "--rate", "30", "--wait-slo", "1", "--replica-rate", "2",
                "--service-time", "4", "--months", "0")


def sec_gnuplot():
    """The gnuplot the tool will find; a failure (not a skip) when it is not installed."""
    g = shutil.which("gnuplot")
    check(g is not None, "gnuplot is on PATH (./scripts/check installs gnuplot-nox)")
    return g


def sec_run(cwd, *args, env=None, stdout=subprocess.PIPE):
    """gpuplan ARGS in folder cwd (a command a pipe would run writes there)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    p = subprocess.run([os.path.abspath(BIN), *args], cwd=cwd, stdout=stdout,
                       stderr=subprocess.PIPE, text=True, env=full_env, timeout=120)
    return Run(args, p.returncode, p.stdout or "", p.stderr)


def sec_refused(r, pattern):
    """Exit 2, one line 'gpuplan: error: ...' matching pattern, no traceback."""
    lines = r.err.splitlines()
    check(r.rc == 2, f"gpuplan {' '.join(r.args)}: expected exit 2, got {r.rc}; stderr {r.err!r}")
    check(len(lines) == 1 and lines[0].startswith("gpuplan: error: "),
          f"one line 'gpuplan: error: ...': {r.err!r}")
    check(re.search(pattern, lines[0]), f"stderr {lines[0]!r} does not match /{pattern}/")


def sec_no_pipe(make_args, flag_pattern, envs=(None, SEC_NO_GNUPLOT)):
    """Each name gnuplot would read as a command is refused naming the flag, and nothing runs:
    with gnuplot on PATH and without it (whose .gp script would run it when drawn)."""
    for name in ["|touch X #.svg", "  |touch X #.svg", "<touch X #.svg", "a\nb.svg", "a\rb.png"]:
        for env in envs:
            with tempfile.TemporaryDirectory() as d:
                if env is None:
                    sec_gnuplot()
                r = sec_run(d, *make_args(d, name), env=env)
                check(not os.path.exists(os.path.join(d, "X")), f"{name!r} ran a command")
                check(os.listdir(d) == [] or all(f.endswith(".json") for f in os.listdir(d)),
                      f"{name!r}: nothing written: {os.listdir(d)}")
                sec_refused(r, flag_pattern + r".*(as a command to run|control character)")


@case("security.chart_pipe_train")
def _():
    sec_no_pipe(lambda d, name: [*SEC_TRAIN, "--chart", name], r"^gpuplan: error: --chart: ")


@case("security.chart_pipe_serve")
def _():
    sec_no_pipe(lambda d, name: [*SEC_SERVE, "--chart", name], r"^gpuplan: error: --chart: ")


@case("security.chart_pipe_utilization")
def _():
    csv = data("monitoring/serving.csv")
    sec_no_pipe(lambda d, name: ["utilization", csv, "--throughput-chart", name],
                r"^gpuplan: error: --throughput-chart: ")
    sec_no_pipe(lambda d, name: ["utilization", csv, "--chart", name], r"^gpuplan: error: --chart: ",
                envs=(None,))


@case("security.chart_pipe_plan_key")
def _():
    # A plan from someone else's repository must not run code as you: the "chart" key of
    # capacity, utilization, cost and search plans.
    def plan(d, obj):
        return plan_file(obj, directory=d)

    def capacity(d, name):
        return ["capacity", "--plan", plan(d, {"rate": 30, "wait_slo": 1, "replica_rate": 2,
                                               "service_time": 4, "chart": name})]

    def cost(d, name):
        return ["cost", "--gpu", "h100", "--gpus", "64", "--gpu-hours", "15360", "--compare",
                "onprem", "--plan", plan(d, {"chart": name})]

    def utilization(d, name):
        return ["utilization", data("monitoring/serving.csv"), "--plan", plan(d, {"chart": name})]

    def search(d, name):
        return [*SEARCH_8B, "--plan", plan(d, {"chart": name})]

    for make in (capacity, cost, utilization, search):
        sec_no_pipe(make, r"\.json: key 'chart': ", envs=(None,))
    sec_no_pipe(capacity, r"\.json: key 'chart': ", envs=(SEC_NO_GNUPLOT,))


@case("security.chart_strings_not_interpreted")
def _():
    # A series title from a file (a GPU id in a monitoring CSV) holding a backquoted command, a
    # $(...) and an @macro: drawn as text, never run (gnuplot runs `...` inside double quotes).
    sec_gnuplot()
    with tempfile.TemporaryDirectory() as d:
        gpu = f"a`touch {d}/BQ`$(touch {d}/DS)@b'q"
        csv = os.path.join(d, "u.csv")
        with open(csv, "w") as f:
            f.write("timestamp,gpu,utilization,power,tokens_per_s\n")
            for t in range(6):
                f.write(f"{1795442400 + 10 * t},{gpu},{50 + t},300,{1000 + t}\n")
        for env in (None, SEC_NO_GNUPLOT):
            svg = os.path.join(d, "u.svg")
            r = sec_run(d, "utilization", csv, "--chart", svg, "--throughput-chart",
                        os.path.join(d, "t.svg"), env=env)
            check(r.rc == 0, f"exit {r.rc}: {r.err!r}")
            check(not os.path.exists(os.path.join(d, "BQ")), "a backquoted command ran")
            check(not os.path.exists(os.path.join(d, "DS")), "a $(...) command ran")
        with open(svg) as f:
            text = f.read()
        # svg is the drawn one (the first run): the title is there as text, quote and all
        check(f"touch {d}/BQ" in text and "@b" in text, "the series title drawn literally")
        with open(os.path.join(d, "u.gp")) as f:
            script = f.read()
        check("title 'GPU a`touch" in script and "@b''q'" in script,
              "single-quoted, the quote doubled")
        # and drawing it, as the message says to, runs nothing either
        subprocess.run([sec_gnuplot(), os.path.join(d, "u.gp")], cwd=d, capture_output=True,
                       timeout=60, check=True)
        check(not os.path.exists(os.path.join(d, "BQ")) and
              not os.path.exists(os.path.join(d, "DS")), "drawing the .gp ran a command")


@case("security.side_file_symlink")
def _():
    # Without gnuplot, FILE.dat and FILE.gp were opened through an existing symbolic link and its
    # target overwritten: now a new file replaces the link, and the message says so.
    with tempfile.TemporaryDirectory() as d:
        victim = os.path.join(d, "victim.txt")
        with open(victim, "w") as f:
            f.write("keep me\n")
        os.symlink(victim, os.path.join(d, "plan.dat"))
        with open(os.path.join(d, "plan.gp"), "w") as f:
            f.write("old\n")
        r = ok(*SEC_CAPACITY, "--chart", os.path.join(d, "plan.svg"), env=SEC_NO_GNUPLOT)
        with open(victim) as f:
            check(f.read() == "keep me\n", "the link's target was overwritten")
        st = os.lstat(os.path.join(d, "plan.dat"))
        check(stat.S_ISREG(st.st_mode), "plan.dat is now a file of its own")
        check("replacing the symbolic link" in r.out and "replacing the existing" in r.out,
              f"the message says what was replaced: {r.out!r}")
        check(sorted(os.listdir(d)) == ["plan.dat", "plan.gp", "victim.txt"],
              f"no temporary file left: {os.listdir(d)}")
        # With gnuplot: a link at the chart's name to /dev/full was written through ("wrote", 0)
        sec_gnuplot()
        full = os.path.join(d, "full.svg")
        os.symlink("/dev/full", full)
        r = ok(*SEC_CAPACITY, "--chart", full)
        check(stat.S_ISCHR(os.stat("/dev/full").st_mode), "/dev/full is still a device")
        check(stat.S_ISREG(os.lstat(full).st_mode), "the link was replaced by the chart")
        with open(full) as f:
            check("<svg" in f.read(), "the chart was drawn")
        check("replacing the symbolic link" in r.out, r.out)


@case("security.chart_target_refused")
def _():
    # A directory or a device at the chart's (or a side file's) name is refused (renaming over
    # /dev/full as root would delete the device); an unwritable folder is exit 2 naming it.
    sec_gnuplot()
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, "plan.svg"))
        r = run(*SEC_CAPACITY, "--chart", os.path.join(d, "plan.svg"))
        sec_refused(r, r"--chart: '.*plan\.svg' is a directory, not a regular file")
        check(os.listdir(os.path.join(d, "plan.svg")) == [], "nothing written into it")
        os.mkdir(os.path.join(d, "side.dat"))
        r = run(*SEC_CAPACITY, "--chart", os.path.join(d, "side.svg"), env=SEC_NO_GNUPLOT)
        sec_refused(r, r"--chart: '.*side\.dat' is a directory")
        check(not os.path.exists(os.path.join(d, "side.gp")), "nothing written when refused")
        os.symlink("/dev/full", os.path.join(d, "dev.gp"))
        r = run(*SEC_CAPACITY, "--chart", os.path.join(d, "dev.svg"), env=SEC_NO_GNUPLOT)
        check(r.rc == 0, "a link to a device is replaced (the device is not)")
        check(stat.S_ISCHR(os.stat("/dev/full").st_mode), "/dev/full is still a device")
    # An unwritable folder: a read-only one (as root, which may write anywhere, sysfs refuses)
    with tempfile.TemporaryDirectory() as d:
        folder = "/sys" if os.geteuid() == 0 else os.path.join(d, "ro")
        if folder != "/sys":
            os.mkdir(folder)
            os.chmod(folder, 0o555)
        for env in (None, SEC_NO_GNUPLOT):
            r = run(*SEC_CAPACITY, "--chart", os.path.join(folder, "plan.svg"), env=env)
            sec_refused(r, r"--chart: cannot create a file in the folder '" + re.escape(folder) +
                        r"': (Permission denied|Read-only file system)")


@case("security.chart_tmpdir")
def _():
    # gnuplot's script and data went to a folder under TMPDIR: a missing one was exit 3
    # ("internal error"). Now nothing goes there: the chart is drawn whatever TMPDIR says.
    sec_gnuplot()
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "plan.svg")
        ok(*SEC_CAPACITY, "--chart", out, env={"TMPDIR": "/nonexistent-gpuplan-tmp"})
        with open(out) as f:
            check("<svg" in f.read(), "the chart")
        check(os.listdir(d) == ["plan.svg"], f"no temporary left: {os.listdir(d)}")
        check(stat.S_IMODE(os.stat(out).st_mode) & 0o044, "an ordinary file (not mkstemp's 0600)")


@case("security.report_to_full_disk")
def _():
    # A report that cannot be written is not a success: `> /dev/full` exited 0 (the buffer was
    # flushed after main) or 3 ("internal error").
    commands = {
        "gpus": ["gpus"],
        "gpus --json": ["gpus", "--json"],
        "fit": ["fit", "--model", "llama3.1-8b", "--gpu", "h100"],
        "demo": ["demo"],
        "train": ["train", "--model", "llama3.1-8b", "--gpus", "8", "--tokens", "1B"],
        "utilization": ["utilization", data("monitoring/serving.csv")],
    }
    for what, args in commands.items():
        with open("/dev/full", "w") as full:
            r = sec_run(None, *args, stdout=full)
        sec_refused(r, r"^gpuplan: error: cannot write the output: No space left on device$")


@case("security.kubernetes_image_yaml")
def _():
    import yaml  # python3-yaml: installed by ./scripts/check
    base = (*SEC_CAPACITY, "--gpus-per-replica", "2", "--kubernetes", "llama-serve")
    want = ok(*base).out
    # A newline would add a key to the pod (securityContext: privileged): refused, flag named.
    payload = "vllm:1\n          securityContext: {privileged: true}"
    bad(r"--image: the image name holds a control character", *base, "--image", payload)
    f = plan_file({"image": payload, "kubernetes": "llama-serve", "rate": 30, "wait_slo": 1,
                   "replica_rate": 2, "service_time": 4, "months": 0})
    try:
        bad(r"\.json: key 'image': the image name holds a control character", "capacity",
            "--plan", f)
    finally:
        os.unlink(f)
    # Without a control character, YAML's own syntax: one string, the objects as without it.
    expected = yaml.safe_load(want)
    for image in ['vllm/vllm-openai:v0.6.5', '{privileged: true}', 'a: b', 'x", "privileged": "1',
                  "x # comment", "[sh, -c]", "&a *a !!python/object", 'back\\slash', "é \u2028"]:
        y = ok(*base, "--image", image).out
        doc = yaml.safe_load(y)
        containers = doc["spec"]["template"]["spec"]["containers"]
        check(len(containers) == 1 and containers[0].get("image") == image,
              f"the image reads back as given: {image!r} -> {containers!r}")
        del containers[0]["image"]
        check(doc == expected, f"exactly the objects meant with --image {image!r}: {y!r}")
        check(len(list(yaml.safe_load_all(y))) == 1, "one document")


@case("security.long_chart_name_shows_its_end")
def _():
    # a long name was clipped to its first 80 characters, dropping the extension the error is about
    name = "nodir/" + "a" * 120 + "_end.txt"
    r = bad(r"\.txt.*extension must be \.svg or \.png", *SEC_SERVE, "--chart", name)
    check(len(r.err) < 400, r.err)
