# tests/cli/cases_numbers.py: hostile numbers (gpuplan issue 22). Each case is a value that
# crashed (SIGFPE), hung, wrapped a count negative, printed inf/null or was taken as sense, and is
# now refused with exit 2 and one line naming the flag the user typed. Exec'd in cli_tests.py's
# namespace (case, bad, ok_json, plan_file, data, check, ...).

CAPACITY = ("capacity", "--rate", "30", "--wait-slo", "2")
REPLICA = ("--replica-rate", "2", "--service-time", "4")
# A refusal comes at once: the hangs ran for minutes, so 10 s is far above a refusal's time and
# far below the loop's.
PROMPT_S = 10


def bad_quickly(pattern, *args):
    t0 = time.monotonic()
    bad(pattern, *args)
    took = time.monotonic() - t0
    check(took < PROMPT_S, f"gpuplan {' '.join(args)} took {took:.1f} s to refuse")


# ---- SIGFPE: rate x service past 2^31 slots wrapped int to 0, then divided by -----------------

@case("numbers.capacity_replica_rate_2pow31")
def _():
    bad_quickly(r"--replica-rate x --service-time: .*more than 65536 \(replica_capacity::max_slots",
                *CAPACITY, "--replica-rate", "2147483648", "--service-time", "4")


@case("numbers.capacity_service_time_2pow31")
def _():
    bad_quickly(r"--replica-rate x --service-time: .*max_slots", *CAPACITY, "--replica-rate", "2",
                "--service-time", "2147483648")


@case("numbers.capacity_compare_2pow31")
def _():
    bad_quickly(r"--compare 'GPU:2147483648:4': RATE x SERVICE .*max_slots", *CAPACITY, *REPLICA,
                "--compare", "GPU:2147483648:4")


# ---- hangs: the Erlang recursion ran over 4e8 (1e8 x 4) or 2e9 (2 x 1e9) servers ---------------

@case("numbers.capacity_replica_rate_1e8_refused_at_once")
def _():
    bad_quickly(r"--replica-rate x --service-time: 1e\+08 requests/s x 4 s", *CAPACITY,
                "--replica-rate", "1e8", "--service-time", "4")


@case("numbers.capacity_service_time_1e9_refused_at_once")
def _():
    bad_quickly(r"--replica-rate x --service-time: .*max_slots", *CAPACITY, "--replica-rate", "2",
                "--service-time", "1e9")


@case("numbers.capacity_fleet_beyond_search")
def _():
    """Slots within a replica's bound, but a demand (or its growth) that needs more servers than
    the plan searches: refused before the search, naming the flags."""
    bad_quickly(r"--rate, --replica-rate, --service-time: a peak of 1e\+07 requests/s keeps 4e\+07 requests in service at once, "
                r"more than the 1000000 .*max_fleet_slots", "capacity", "--rate", "1e7",
                "--wait-slo", "2", *REPLICA)
    bad_quickly(r"--rate, --growth, .* by month 120 .*max_fleet_slots", *CAPACITY, *REPLICA,
                "--growth", "10", "--months", "120")


# ---- an empty value is not 0 ----------------------------------------------------------------------

EMPTY = [
    ("--carbon-intensity", ("cost", "--gpu", "h100", "--gpu-hours", "1000")),
    ("--wait-slo", ("capacity", "--rate", "30", *REPLICA)),
    ("--rate", ("capacity", "--wait-slo", "2", *REPLICA)),
    ("--months", (*CAPACITY, *REPLICA)),
    ("--gpus", ("fit", "--model", "llama-3.1-8b")),
    ("--gpu-memory-utilization", ("fit", "--model", "llama-3.1-8b", "--infer")),
    ("--ttft-slo", ("serve", "--model", "llama-3.1-8b")),
    ("--tokens", ("train", "--model", "llama-3.1-8b", "--gpus", "8")),
    ("--model", ("fit", "--gpus", "8")),
    ("--failures-per-node-day", ("train", "--model", "llama-3.1-8b", "--gpus", "8", "--tokens",
                                 "1B")),
]


@case("numbers.empty_values_refused")
def _():
    for flag, args in EMPTY:
        bad(re.escape(flag) + r": empty value: give ", *args, flag, "")


@case("numbers.empty_plan_values_refused")
def _():
    for key, plan, cmd in [
        ("wait_slo", {"rate": 30, "wait_slo": "", "replica_rate": 2, "service_time": 4},
         "capacity"),
        ("model", {"model": "", "gpus": 8}, "fit"),
        ("chart", {"rate": 30, "wait_slo": 2, "replica_rate": 2, "service_time": 4, "chart": ""},
         "capacity"),
    ]:
        f = plan_file(plan)
        try:
            bad(rf"\.json: key '{key}' is empty: give a value", cmd, "--plan", f)
        finally:
            os.unlink(f)


# ---- counts that wrapped negative -------------------------------------------------------------------

@case("numbers.capacity_gpus_per_replica_bounded")
def _():
    # was "16 (-1179869184 GPUs)" with exit 0
    bad(r"--gpus-per-replica must be at most 16777216 \(got 1000000000; replica_capacity::max_gpus",
        *CAPACITY, *REPLICA, "--gpus-per-replica", "1000000000")
    # the largest accepted count multiplies out in long long
    j = ok_json(*CAPACITY, *REPLICA, "--gpus-per-replica", "16777216", "--months", "0")
    check(j["total_gpus"] == j["replicas"] * 16777216, f"total_gpus {j['total_gpus']}")


@case("numbers.train_nodes_bounded")
def _():
    # was "training_plan.nodes x node.gpus must hold layout.gpus() (got -8, 8)"
    bad(r"--nodes 2147483647 x 8 GPUs per node is more than 16777216 GPUs", "train", "--model",
        "llama-3.1-8b", "--gpus", "8", "--tokens", "1B", "--nodes", "2147483647")


@case("numbers.cost_gpus_bounded")
def _():
    # was "nodes must be positive": (gpus + 7) / 8 wrapped
    bad(r"--gpus must be at most 16777216 \(parallel_layout::max_gpus", "cost", "--gpu", "h100",
        "--gpu-hours", "1000", "--gpus", "2147483647")


# ---- values whose output was inf, nan or null -----------------------------------------------------

@case("numbers.gpu_memory_utilization_tiny")
def _():
    # printed the capacity's shares as "inf%"
    for flag in ("--gpu-memory-utilization", "--mem-fraction-static", "--free-gpu-memory-fraction"):
        bad(re.escape(flag) + r" must be at least 0\.01 \(min_memory_fraction", "fit", "--model",
            "llama-3.1-8b", "--infer", flag, "1e-308")


@case("numbers.checkpoint_interval_tiny")
def _():
    # printed "inf days" and wrote null where the schema promises a number
    for cmd in ("train", "cost"):
        bad(r"--checkpoint-interval-hours must be at least 0\.000278 \(a second", cmd, "--model",
            "llama-3.1-8b", "--gpus", "8", "--tokens", "1B", "--checkpoint-interval-hours",
            "1e-308")


@case("numbers.latency_slo_at_most_a_day")
def _():
    # --ttft-slo 1e308 printed "inf ms"
    bad(r"--ttft-slo must be at most 86400 seconds", "serve", "--model", "llama-3.1-8b",
        "--ttft-slo", "1e308")
    bad(r"--tpot-slo must be at most 86400 seconds", "capacity", "--rate", "20", "--wait-slo", "1",
        "--model", "llama-3.1-8b", "--ttft-slo", "1", "--tpot-slo", "1e308")
    bad(r"--ttft-slo must be at most 86400 seconds", "search", "serve", "--model", "llama-3.1-8b",
        "--gpu", "h100", "--ttft-slo", "1e308")
    bad(r"--wait-slo must be in \[0, 86400\] \(seconds; at most a day", "capacity", "--rate", "30",
        "--wait-slo", "1e308", *REPLICA)


@case("numbers.capacity_cv_bounded")
def _():
    # --arrival-cv 1e9 gave a mean wait of 1e14 s beside a p99 of 0
    for flag in ("--arrival-cv", "--service-cv"):
        bad(re.escape(flag) + r" must be in \[0, 10\] \(queue_model::max_cv", *CAPACITY, *REPLICA,
            flag, "1e9")
    j = ok_json(*CAPACITY, *REPLICA, "--arrival-cv", "10", "--months", "0")
    check(j["replicas"] >= ok_json(*CAPACITY, *REPLICA, "--months", "0")["replicas"],
          "burstier arrivals need no fewer replicas")


# ---- tiny values taken as sense -----------------------------------------------------------------------

@case("numbers.params_and_tokens_at_least_one")
def _():
    bad(r"--model params:N must be at least 1 \(got 1e-308\)", "fit", "--model", "params:1e-308")
    bad(r"--tokens must be at least 1 \(got 1e-308\)", "train", "--model", "llama-3.1-8b", "--gpus",
        "8", "--tokens", "1e-308")


@case("numbers.max_position_embeddings_zero")
def _():
    with tempfile.TemporaryDirectory() as d:
        with open(data("hf/llama-3.2-1b/config.json")) as f:
            cfg = json.load(f)
        cfg["max_position_embeddings"] = 0
        path = os.path.join(d, "config.json")
        with open(path, "w") as f:
            json.dump(cfg, f)
        bad(r"config\.json.*max_position_embeddings.* must be positive \(got 0\)", "fit",
            "--model", path)
        own = {"name": "tiny", "layers": 2, "hidden": 64, "heads": 4, "ffn": 128, "vocab": 100,
               "max_positions": 0}
        mp = os.path.join(d, "model.json")
        with open(mp, "w") as f:
            json.dump(own, f)
        bad(r"model\.json.*max_positions.* must be positive \(got 0\)", "fit", "--model", mp)


@case("numbers.power_per_gpu_at_least_a_watt")
def _():
    # printed "inf tokens per joule"
    bad(r"--power-per-gpu must be at least 1 W \(min_power_per_gpu_w; got 1e-308\)", "cost",
        "--model", "llama-3.1-8b", "--gpu", "h100", "--concurrency", "64", "--power-per-gpu",
        "1e-308")


@case("numbers.utilization_growth_bounded")
def _():
    # 1e308 printed "demand grows -9223372036854775808% a month"
    bad(r"--growth must be at most 10 \(\+1000% a month, max_monthly_growth", "utilization",
        data("monitoring/nvidia-smi-units.csv"), "--growth", "1e308")


@case("numbers.capacity_peak_named_without_inf")
def _():
    # --peak-factor 1e308 made a peak of inf: the refusal named only --rate and printed "inf".
    base = ("capacity", "--rate", "20", "--replica-rate", "2", "--service-time", "4",
            "--wait-slo", "2")
    r = bad(r"--rate, --peak-factor.*over 1e308 requests/s", *base, "--peak-factor", "1e308")
    check(not re.search(r"\binf\b", r.err), f"inf in {r.err!r}")
    r = bad(r"--replica-rate.*over 1e308 requests in service", "capacity", "--rate", "20",
            "--replica-rate", "1e-308", "--service-time", "4", "--wait-slo", "2")
    check(not re.search(r"\binf\b", r.err), f"inf in {r.err!r}")


@case("numbers.cost_price_per_gpu_hour_bounded")
def _():
    # 1e308 USD per GPU-hour overflowed the run's cost, and the message named no flag.
    bad(r"^gpuplan: error: --price-per-gpu-hour must be at most 10000 USD", "cost", "--gpu", "h100",
        "--gpu-hours", "1000", "--price-per-gpu-hour", "1e308")
    ok("cost", "--gpu", "h100", "--gpu-hours", "1000", "--price-per-gpu-hour", "10000")


@case("numbers.blank_values_refused")
def _():
    # a value of spaces alone, or a newline, was read as a file name: " : no such file"
    for v in (" ", "\n"):
        bad(r"--prices.*empty value", "cost", "--gpu", "h100", "--gpu-hours", "100", "--prices", v)
    # search's prices are bounded as cost's are (1e308 overflowed the run's cost, unnamed)
    bad(r"--price-per-gpu-hour must be at most 10000 USD", "search", "--model", "llama-3.1-8b",
        "--gpu", "h100", "--gpus", "8", "--tokens", "1B", "--global-batch", "64",
        "--price-per-gpu-hour", "1e308")


@case("numbers.count_suffix_past_range")
def _():
    # 1e300 is finite, 1e300 x 10^12 is not: it read as "tokens must be finite and not negative"
    bad(r"^gpuplan: error: --tokens is too large \(got 1e300T\)$", "train", "--model",
        "llama3.1-8b", "--gpus", "8", "--tokens", "1e300T")
