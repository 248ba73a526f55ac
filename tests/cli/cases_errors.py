# tests/cli/cases_errors.py: errors in the user's terms (issue 22). The library names its own
# fields ("training_config.global_batch", "layout.dp", "min_servers"); the tool names the flag or
# the plan key the user gave (settings::in_user_terms, one table in tools/gpuplan/options.cpp),
# and repeats at most ~80 characters of a value. Exec'd in cli_tests.py's namespace.

TRAIN_8B = ["train", "--model", "Llama-3.1-8B", "--gpus", "8", "--tokens", "1B"]
# The library's own names, which no error of the tool may show.
INTERNAL = re.compile(r"\b(training_config|layout|inference_config|gpu_spec|transformer_spec|"
                      r"queue_model|model)\.[a-z_]+|\bmin_servers\b")


def no_internal_names(line):
    m = INTERNAL.search(line)
    check(m is None, f"the library's name {m and m.group(0)!r} in {line!r}")


@case("errors.global_batch_names_flags")
def _():
    # 7 sequences over dp 8 (micro-batch 1): the library's check, in the flags typed.
    r = bad(r"^gpuplan: error: --global-batch 7 must be a multiple of --micro-batch x --dp "
            r"\(got 7, 8\)$", *TRAIN_8B, "--global-batch", "7")
    no_internal_names(r.err)
    # The same with the micro-batch given: still the flags, the value of the first one named.
    r = bad(r"^gpuplan: error: --global-batch 12 must be a multiple of --micro-batch x --dp "
            r"\(got 12, 16\)$", *TRAIN_8B, "--global-batch", "12", "--micro-batch", "2")
    no_internal_names(r.err)


@case("errors.plan_value_named_by_key")
def _():
    # A value from a plan file is named as the file's key, the flags beside it as flags.
    plan = plan_file({"global_batch": 7})
    try:
        r = bad(r"^gpuplan: error: " + re.escape(plan) + r": key 'global_batch' must be a "
                r"multiple of --micro-batch x --dp \(got 7, 8\)$", *TRAIN_8B, "--plan", plan)
        no_internal_names(r.err)
    finally:
        os.unlink(plan)


@case("errors.min_servers_names_rate")
def _():
    # 999,900 requests in service at once (1 s each) fit under the search's 10^6 servers
    # (capacity_assumptions::max_fleet_slots), but a 1 ms wait at the 99th percentile needs more:
    # the queueing model's min_servers gives up, and the user reads which demand did it.
    r = bad(r"^gpuplan: error: --rate 999900: no replica count up to .* meets the wait SLO",
            "capacity", "--rate", "999900", "--wait-slo", "0.001", "--replica-rate", "2",
            "--service-time", "1", "--months", "0")
    no_internal_names(r.err)


@case("errors.model_fields_named")
def _():
    # The layout against the model's shape: --tp and the model's heads, not layout.tp/model.heads.
    r = bad(r"^gpuplan: error: --tp 3 must divide the heads of --model .*\(got 3, 32\)$", "fit",
            "--model", "Llama-3.1-8B", "--tp", "3")
    no_internal_names(r.err)


@case("errors.long_value_cut")
def _():
    # A 100 kB value is not repeated whole: one line, its start and end kept around "...".
    huge = "x" * 100000
    r = bad(r"^gpuplan: error: unknown model 'x{20,80}\.\.\.x{20,80}'", "fit", "--model", huge)
    check(len(r.err) < 300, f"{len(r.err)} characters of error")
    # The same for a number CLI11 cannot read, and for a list of 1000 values.
    for value in ["9" * 102400, ",".join(["1"] * 1000)]:
        r = bad(r"--gpus", "fit", "--model", "Llama-3.1-8B", "--gpus", value)
        check(len(r.err) < 300, f"{len(r.err)} characters of error")
    # A short value is kept whole.
    bad(r"unknown model 'no-such-model'", "fit", "--model", "no-such-model")


@case("errors.empty_plan_name")
def _():
    # An empty or blank --plan named neither the flag nor a file one could see (": no such file").
    for value in ["", " ", "\n"]:
        bad(r"^gpuplan: error: --plan needs a file name", "fit", "--model", "Llama-3.1-8B",
            "--plan", value)


@case("errors.typed_name_not_a_field")
def _():
    # A directory the user named "model.v2" (relative, as typed) is not the spec field model.v2
    # ("--model model.v2: v2/config.json"): the message repeats the name as typed.
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, "model.v2"))
        p = subprocess.run([os.path.abspath(BIN), "fit", "--model", "model.v2", "--gpu", "h100"],
                           capture_output=True, text=True, cwd=d, timeout=120)
        check(p.returncode == 2, f"exit {p.returncode}")
        check("model.v2/config.json" in p.stderr, p.stderr)
