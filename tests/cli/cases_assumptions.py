# tests/cli/cases_assumptions.py: --set NAME=VALUE, a plan's "assumptions" object and
# `gpuplan assumptions` (io/assumptions.hpp). Exec'd in cli_tests.py's namespace.

TRAIN8 = ("train", "--model", "llama-3.1-8b", "--gpu", "h100", "--gpus", "8", "--tp", "2")


@case("assumptions.list")
def _():
    """Every assumption listed, with a default and its documentation; the filter keeps names that
    contain it; JSON has the same."""
    j = ok_json("assumptions")
    names = [a["name"] for a in j]
    check(len(names) == len(set(names)) and len(names) > 100, f"{len(names)} names")
    for a in j:
        check(a["doc"] and a["kind"] and a["default"], f"incomplete: {a}")
    check("step.tp_overlap" in names and "memory.transformers.cuda_context" in names, "names")
    r = ok("assumptions", "zero3_per_tensor")
    check(r.out.count("\nstep.") + r.out.startswith("step.") == 1 and "DeepSpeed" in r.out, r.out)
    bad(r"no assumption's name contains 'nosuchthing'", "assumptions", "nosuchthing")


@case("assumptions.set_changes_and_echoes")
def _():
    """--set changes the answer the way the assumption says, and the report echoes it."""
    base = ok_json(*TRAIN8)
    slower = ok_json(*TRAIN8, "--set", "step.sustained_fraction=0.5")
    check(slower["step_time_s"] > base["step_time_s"], "a lower sustained GEMM rate is slower")
    check(base["assumptions"] == {}, f"nothing changed: {base['assumptions']}")
    check(slower["assumptions"] == {"step.sustained_fraction": "0.5"}, slower["assumptions"])
    text = ok(*TRAIN8, "--set", "sustained_fraction=0.5").out
    check("assumptions: step.sustained_fraction 0.5 (default 0.87)" in text, text)
    # memory assumptions reach the verdict; serving's reach serve
    more = ok_json(*TRAIN8, "--set", "memory.cuda_context=4GiB")
    check(more["per_gpu_bytes"] > base["per_gpu_bytes"], "a larger CUDA context takes memory")
    serve = ("serve", "--model", "llama-3.1-8b", "--gpu", "h100", "--concurrency", "8")
    s0 = ok_json(*serve)
    s1 = ok_json(*serve, "--set", "serving.step_overhead=5ms")
    check(s1["tpot_s"] > s0["tpot_s"], "a longer engine step overhead lengthens TPOT")
    check(s1["assumptions"] == {"serving.step_overhead": "0.005 s"}, s1["assumptions"])


@case("assumptions.plan_file")
def _():
    """A plan's "assumptions" object, flat or by group, says what --set says; --set overrides the
    same name."""
    flat = ok_json(*TRAIN8, "--plan", plan_file({"assumptions": {"step.sustained_fraction": 0.5}}))
    nested = ok_json(*TRAIN8, "--plan", plan_file({"assumptions": {"step": {"sustained_fraction": 0.5}}}))
    flag = ok_json(*TRAIN8, "--set", "step.sustained_fraction=0.5")
    check(flat["step_time_s"] == nested["step_time_s"] == flag["step_time_s"], "same answer")
    over = ok_json(*TRAIN8, "--plan", plan_file({"assumptions": {"step.sustained_fraction": 0.5}}),
                   "--set", "step.sustained_fraction=0.87")
    check(over["assumptions"] == {}, f"--set wins: {over['assumptions']}")


@case("assumptions.bad")
def _():
    bad(r"--set step\.tp_overlapp=1: unknown assumption 'step\.tp_overlapp' \(nearest: step\.tp_overlap",
        *TRAIN8, "--set", "step.tp_overlapp=1")
    bad(r"--set launch=2us: assumption 'launch' is ambiguous: give one of step\.collectives\.launch, "
        r"serving\.collectives\.launch", *TRAIN8, "--set", "launch=2us")
    bad(r"--set tp_overlap=2: assumption step\.tp_overlap = '2': step_assumptions\.tp_overlap must be in \[0, 1\]",
        *TRAIN8, "--set", "tp_overlap=2")
    bad(r"--set step\.eager_op_floor=3GiB: .* has unit 'GiB', which is not a unit of time", *TRAIN8,
        "--set", "step.eager_op_floor=3GiB")
    bad(r"--set 'tp_overlap' must be NAME=VALUE", *TRAIN8, "--set", "tp_overlap")
    bad(r"--set tp_overlap=1: step\.tp_overlap is also set by --tp-comm-overlap: give one", *TRAIN8,
        "--tp-comm-overlap", "--set", "tp_overlap=1")
    bad(r"key 'assumptions' must be an object", *TRAIN8, "--plan", plan_file({"assumptions": 3}))
    bad(r"key 'assumptions': step\.tp_overlap must be a string, a number or a boolean", *TRAIN8,
        "--plan", plan_file({"assumptions": {"step.tp_overlap": [1]}}))
    bad(r"--no-failures and the assumption reliability\.enabled both set it: give one", *TRAIN8,
        "--no-failures", "--set", "reliability.enabled=false")
    bad(r"--first-stage-layers 7 and --last-stage-layers must leave a whole number of layers", "train",
        "--model", "llama-3.1-8b", "--gpu", "h100", "--gpus", "8", "--pp", "4",
        "--first-stage-layers", "7")
