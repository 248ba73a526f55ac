# tests/cli/cases_readers.py: the readers of the files users hand in (issue 22, "hostile input"):
# monitoring exports (bounds, directory, empty, NUL, 1e400, BOM, CRLF, duplicates, NaN), price
# books (a 0 price, which book a price came from), GPU files (the minimal form), `probe` without a
# GPU, and `search serve` on a GPU without a catalog node. Exec'd in cli_tests.py's namespace.
import resource


def bounded_run(limit_s, *args, env=None):
    """Runs gpuplan like run(), failing the case if it takes more than limit_s seconds."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    start = time.monotonic()
    try:
        p = subprocess.run([BIN, *args], capture_output=True, text=True, env=full_env,
                           timeout=limit_s)
    except subprocess.TimeoutExpired:
        raise Failure(f"gpuplan {' '.join(args)} ran past {limit_s} s (an unbounded read)")
    return Run(args, p.returncode, p.stdout, p.stderr), time.monotonic() - start


def one_error_line(r, pattern, status=2):
    check(r.rc == status, f"gpuplan {' '.join(r.args)}: exit {r.rc}, stderr {r.err[:300]!r}")
    lines = r.err.splitlines()
    check(len(lines) == 1 and lines[0].startswith("gpuplan: error: "), f"stderr {r.err[:300]!r}")
    check(re.search(pattern, lines[0]), f"stderr {lines[0]!r} does not match /{pattern}/")
    check(r.out == "", f"stdout {r.out[:200]!r}")


# ---- monitoring readers --------------------------------------------------------------------------

@case("readers.utilization_dev_zero")
def _():
    """/dev/zero grew to gigabytes and exited 3 (an internal error); now the reader streams and
    refuses the first NUL byte at once, in bounded memory."""
    if not os.path.exists("/dev/zero"):
        print("skipped: no /dev/zero")
        return
    r, took = bounded_run(10, "utilization", "/dev/zero")
    one_error_line(r, r"^gpuplan: error: /dev/zero:1: a NUL byte")
    check(took < 5, f"{took:.1f} s to refuse /dev/zero")
    # The child's peak memory (ru_maxrss, KiB on Linux): far below the gigabytes it took.
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    check(peak_mib < 512, f"peak memory {peak_mib:.0f} MiB reading /dev/zero")


@case("readers.utilization_unbounded_line_and_rows")
def _():
    """A stream with no line end is refused at the line-length bound, one of empty lines at the
    row bound (monitoring_limits), each naming the file and the bound, within seconds."""
    with tempfile.TemporaryDirectory() as d:
        long_line = os.path.join(d, "one-line.csv")
        with open(long_line, "w") as f:
            f.write("timestamp,gpu,utilization," + "x" * (1 << 17) + "\n")
        r, _ = bounded_run(20, "utilization", long_line)
        one_error_line(r, r"one-line\.csv:1: a line longer than 65536 bytes, the limit for a "
                          r"monitoring CSV \(monitoring_limits::max_line_bytes\)")
        blank = os.path.join(d, "blank.csv")
        with open(blank, "w") as f:
            f.write("\n" * 5_000_001)
        r, _ = bounded_run(60, "utilization", blank)
        one_error_line(r, r"blank\.csv: more than 5000000 rows, the limit for a monitoring "
                          r"export \(monitoring_limits::max_rows\)")


@case("readers.utilization_directory_empty_nul_1e400")
def _():
    """Each a clear exit 2 naming the file (and the line)."""
    bad(r"monitoring/bad: is a directory, not a monitoring export", "utilization",
        data("monitoring/bad"))
    bad(r"bad/empty\.csv: empty file \(no header, no data\)", "utilization",
        data("monitoring/bad/empty.csv"))
    bad(r"bad/nul\.csv:2: a NUL byte: binary data", "utilization", data("monitoring/bad/nul.csv"))
    bad(r"bad/huge-value\.csv:2: field 'utilization': cannot read '1e400' as a percentage",
        "utilization", data("monitoring/bad/huge-value.csv"))


@case("readers.utilization_bom_crlf")
def _():
    """Excel's CSV export (a UTF-8 byte-order mark, CRLF line ends) reads as the plain CSV: 30%
    for 10 s, then 90% for 10 s and 10 s (the last sample holds one median interval): 70%."""
    for f in ["monitoring/excel-bom-crlf.csv", "monitoring/crlf.csv"]:
        j = ok_json("utilization", data(f))
        g = j["gpus"][0]
        check(g["id"] == "0" and g["samples"] == 3, f"{f}: {g['id']!r}, {g['samples']} samples")
        near(g["mean"], 0.7, 1e-12, f"{f}: time-weighted mean")
    g = ok_json("utilization", data("monitoring/excel-bom-crlf.csv"))["gpus"][0]
    near(g["memory_peak_bytes"], 2048 * 2**20, 0, "memory 2048 MiB read through the CR")
    near(g["power_mean_watts"], (200 + 400 + 400) / 3, 1e-9, "power read through the CR")


@case("readers.utilization_duplicates")
def _():
    """Two readings of one GPU at one time (10% and 100%, three times): counted in
    duplicate_readings and averaged (55%), where the later row silently won (100%)."""
    j = ok_json("utilization", data("monitoring/duplicates.csv"))
    check(j["duplicate_readings"] == 3, f"duplicate_readings {j.get('duplicate_readings')}")
    g = j["gpus"][0]
    check(g["samples"] == 3, f"{g['samples']} samples after merging")
    near(g["mean"], 0.55, 1e-12, "the mean of each pair")
    t = ok("utilization", data("monitoring/duplicates.csv")).out
    check("3 duplicate readings (a GPU at a time it already had a reading for) averaged in" in t,
          "the text says so")


@case("readers.utilization_prometheus_nan")
def _():
    """dcgm-nan.json: GPU 0 has two "NaN" utilisation samples (missing readings, now counted);
    GPU 1 is scraped by two exporters (20% and 40% at each of 4 times: 4 duplicates, 30%)."""
    j = ok_json("utilization", data("monitoring/dcgm-nan.json"))
    check(j["missing_readings"] == 2, f"missing_readings {j['missing_readings']}")
    check(j["duplicate_readings"] == 4, f"duplicate_readings {j['duplicate_readings']}")
    by_id = {g["id"]: g for g in j["gpus"]}
    near(by_id["node-a:0"]["mean"], 0.5, 1e-12, "40% then 60%, NaN left out")
    near(by_id["node-a:1"]["mean"], 0.3, 1e-12, "two exporters' 20% and 40% averaged")
    check("2 utilisation readings were missing" in ok("utilization",
                                                      data("monitoring/dcgm-nan.json")).out,
          "the text counts the NaN readings")


# ---- price books ---------------------------------------------------------------------------------

@case("readers.prices_zero_price")
def _():
    """A price of 0 in the user's book was silently ignored (0 meant "not offered"): refused,
    naming the file, the entry and the key."""
    bad(r"prices/zero_price\.json: cloud\[0\] \(examplecloud 8x H100\): field "
        r"'spot_usd_per_gpu_hour' is 0: a price must be positive \(leave the key out",
        "cost", "--gpu", "h100", "--gpu-hours", "10", "--prices", data("prices/zero_price.json"))


@case("readers.prices_provenance")
def _():
    """With --prices, a price the file does not have comes from the default book, and says so
    (it was credited to the file); one the file has names the file."""
    book = data("prices/book.json")
    j = ok_json("cost", "--gpu", "a100", "--gpu-hours", "10", "--prices", book)
    check(j["price"]["book"] == "gpuplan default book", f"book {j['price']['book']!r}")
    t = ok("cost", "--gpu", "a100", "--gpu-hours", "10", "--prices", book).out
    price_line = [line for line in t.splitlines() if line.strip().startswith("price")][0]
    check("(gpuplan default book," in price_line and book not in price_line, price_line)
    j = ok_json("cost", "--gpu", "h100", "--gpu-hours", "10", "--prices", book, "--term",
                "commit_3yr")
    check(j["price"]["book"] == book and j["price"]["usd_per_gpu_hour"] == 2.8,
          f"the file's own entry: {j['price']}")
    # no price in either book: both are named, not the file alone
    t = ok("cost", "--gpu", "mi300x", "--gpu-hours", "10", "--term", "commit_1yr", "--prices",
           book).out
    check(f"cost    unknown: neither {book} nor the gpuplan default book has a commit_1yr price "
          "for MI300X-192GB" in t, t)


# ---- probe ---------------------------------------------------------------------------------------

@case("readers.probe_no_gpu_json")
def _():
    """No GPU here: exit 4 (not 2, the bad-input code), and with --json a JSON object with
    "devices": [] and the reason; the text says the library's name once."""
    env = {"LD_LIBRARY_PATH": ""}
    r = run("probe", "--json", env=env)
    if r.rc == 0:
        print("skipped: this machine has a driver")
        return
    check(r.rc == 4, f"exit {r.rc}, stderr {r.err!r}")
    j = r.json()
    check(j["devices"] == [] and j["error"] == "driver_not_found", f"{j}")
    check(j["reason"].startswith("no NVIDIA driver: ") and "libcuda.so.1" in j["reason"], j["reason"])
    check(r.err == "", f"stderr {r.err!r}")
    t = run("probe", env=env)
    one_error_line(t, r"^gpuplan: error: probe: no NVIDIA driver: ", status=4)
    check(t.err.count("libcuda.so.1") == 1, f"said once: {t.err!r}")
    fake = os.environ.get("GPUPLAN_FAKE_DRIVER_DIR", "")
    if fake and os.path.exists(os.path.join(fake, "libcuda.so.1")):
        z = run("probe", "--json", env={"LD_LIBRARY_PATH": fake, "GPUPLAN_FAKE_GPU": "zero"})
        check(z.rc == 4, f"a driver with 0 devices: exit {z.rc}")
        check(z.json() == {"devices": [], "error": "no_devices", "reason": "0 CUDA devices",
                           "warnings": []}, z.out)


# ---- GPU files -----------------------------------------------------------------------------------

@case("readers.gpu_file_minimal")
def _():
    """The minimal GPU file (name, memory_bytes) plans memory with fit; the commands that time
    work name the file and the keys they need (it said "gpu_spec.memory_bandwidth must be
    positive")."""
    g = data("gpus/minimal.json")
    j = ok_json("fit", "--model", "Llama-3.1-8B", "--gpu", g)
    check(j["gpu"]["name"] == "my-accelerator" and j["gpu"]["source"] == "file", f"{j['gpu']}")
    check(j["gpu"]["memory_bytes"] == 85899345920, "the file's memory")
    i = ok_json("fit", "--model", "Llama-3.1-8B", "--gpu", g, "--infer")
    check(i["fits"], "an 8B model serves in 80 GiB")
    need = (r"gpus/minimal\.json: keys 'memory_bandwidth_bytes_per_s' and 'peak_flops_per_s' are "
            r"missing or 0: this command times the work .* fit needs only 'name' and "
            r"'memory_bytes'")
    bad(need, "serve", "--model", "Llama-3.1-8B", "--gpu", g)
    bad(need, "train", "--model", "Llama-3.1-8B", "--gpu", g, "--gpus", "1", "--tokens", "1B")
    bad(r"gpus/minimal\.json: key 'tdp_watts' is missing or 0: cost needs the GPU's board power "
        r"for its energy \(or give --power-per-gpu\)",
        "cost", "--gpu", g, "--gpu-hours", "10", "--price-per-gpu-hour", "2")
    c = ok_json("cost", "--gpu", g, "--gpu-hours", "10", "--price-per-gpu-hour", "2",
                "--power-per-gpu", "500")
    near(c["cost_usd"], 20, 1e-9, "cost of 10 GPU-hours at $2")
    # The same GPU as an object in a plan file: the keys are named under 'gpu.'.
    plan = plan_file({"model": "Llama-3.1-8B",
                      "gpu": {"name": "my-accelerator", "memory_bytes": 85899345920}})
    try:
        bad(r": keys 'gpu\.memory_bandwidth_bytes_per_s' and 'gpu\.peak_flops_per_s' are missing",
            "serve", "--plan", plan)
        check(ok_json("fit", "--plan", plan)["gpu"]["name"] == "my-accelerator", "fit --plan")
    finally:
        os.unlink(plan)
    # Other invalid fields name the file's keys, not the library's.
    wrong = plan_file({"name": "x", "memory_bytes": 8e10, "memory_usable_bytes": 9e10})
    try:
        bad(r"\.json: key 'memory_usable_bytes' must not exceed key 'memory_bytes'", "fit",
            "--model", "Llama-3.1-8B", "--gpu", wrong)
    finally:
        os.unlink(wrong)


# ---- search serve --------------------------------------------------------------------------------

@case("readers.search_serve_gpu_without_node")
def _():
    """search serve has no --node: for a GPU no catalog node carries it says what works there
    (one GPU per replica, or GPUs with a node), and that advice runs."""
    r = bad(r"--gpu MI300X-192GB: no catalog node carries it, and gpuplan search serve takes each "
            r"GPU in its catalog node \(it has no --node\): search it on one GPU per replica "
            r"\(--tp 1 --pp 1\)", "search", "serve", "--model", "llama-3.1-8b", "--gpu", "mi300x")
    check("give --node" not in r.err, r.err)
    j = ok_json("search", "serve", "--model", "llama-3.1-8b", "--gpu", "mi300x", "--tp", "1",
                "--pp", "1", "--price-per-gpu-hour", "3")
    check(len(j["results"]) > 0 and all(x["gpu"] == "MI300X-192GB" for x in j["results"]),
          "the advice works: MI300X searched on one GPU per replica")


@case("readers.cost_unknown_provider")
def _():
    # A provider the book does not list left the price unknown (JSON null) with exit 0.
    bad(r"^gpuplan: error: --provider 'abc': gpuplan default book has no price from this provider "
        r"\(it has: .*aws", "cost", "--gpu", "h100", "--gpu-hours", "100", "--provider", "abc")
    # names fold case, as the book's lookup does
    j = ok_json("cost", "--gpu", "h100", "--gpu-hours", "100", "--provider", "AWS")
    check(j["price"]["usd_per_gpu_hour"] > 0, f"AWS's price: {j['price']}")


@case("readers.gpu_file_fp32_only")
def _():
    # fp32 math runs on the vector units: a file with fp32_vector alone was refused as having
    # "no tensor rate" though --dtype fp32 reads exactly that rate
    f = data("gpus/fp32_only.json")
    j = ok_json("train", "--model", "llama3.1-8b", "--gpu", f, "--gpus", "1", "--dtype", "fp32",
                "--tokens", "1M", "--global-batch", "8")
    check(j["step_time_s"] > 0, f"timed: {j.get('step_time_s')}")


@case("readers.prices_replace_names_the_file")
def _():
    """A book with "replace_defaults": true drops the default book: a missing price is the file's
    alone (it named the default book too), and "an on_demand" reads as English ("a on_demand")."""
    replace = data("prices/replace.json")
    t = ok("cost", "--gpu", "h100", "--gpu-hours", "10", "--prices", replace, "--term",
           "commit_1yr").out
    check(f"cost    unknown: {replace} has no commit_1yr price for H100-SXM5-80GB" in t, t)
    check("default book" not in t, t)
    t = ok("cost", "--gpu", "t4", "--gpu-hours", "10", "--prices", data("prices/book.json")).out
    check("default book has an on_demand price for T4-16GB" in t, t)


@case("readers.prices_price_bounded")
def _():
    """A book's price past max_price_per_gpu_hour_usd is refused naming the file and the field
    (1e300 printed a 300-digit cost with exit 0; 1e308 overflowed naming neither)."""
    book = data("prices/huge_price.json")
    bad(re.escape(book) + r": cloud\[0\].*field 'on_demand_usd_per_gpu_hour' must be at most "
        r"10000 USD", "cost", "--gpu", "h100", "--gpu-hours", "10", "--prices", book)


@case("readers.progress_on_request")
def _():
    # A large export reads for seconds (docs/performance.md): a bar of kilobytes read, on a
    # terminal past one second. GPUPLAN_PROGRESS=always draws it here (stderr is a pipe), and the
    # report on stdout is the same with it, without it and with =never.
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "month.csv")
        with open(path, "w") as f:
            f.write("timestamp,gpu,utilization,memory_used,power\n")
            for i in range(8000):  # about 290 kB: several 64 KiB reads
                f.write(f"{1795442400 + 5 * (i // 8)},{i % 8},{(i * 37) % 101},{i % 80000},300\n")
        size_kb = os.path.getsize(path) // 1000
        plain = ok("utilization", path)
        check(plain.err == "", f"no bar where stderr is not a terminal: {plain.err[:200]!r}")
        shown = ok("utilization", path, env={"GPUPLAN_PROGRESS": "always"})
        check(shown.out == plain.out, "the bar leaves the report alone")
        check(f"/{size_kb} kB" in shown.err, f"the bar counts {size_kb} kB: {shown.err[:300]!r}")
        check(f"{size_kb}/{size_kb} kB" in shown.err, "the bar reaches the whole file")
        check("analysing 8000 readings..." in shown.err, "the analysis is said while it runs")
        never = ok("utilization", path, env={"GPUPLAN_PROGRESS": "never"})
        check(never.err == "" and never.out == plain.out, "GPUPLAN_PROGRESS=never draws nothing")
    s = ok("search", "--model", "Llama-3.1-8B", "--gpu", "h100", "--gpus", "8", "--global-batch",
           "64", "--tokens", "1B", env={"GPUPLAN_PROGRESS": "always"})
    check(re.search(r"\d+/\d+ configurations", s.err), f"search's bar: {s.err[:300]!r}")
    t = ok("train", "--model", "Llama-3.1-8B", "--gpu", "h100", "--gpus", "8", "--global-batch",
           "64", "--tokens", "1B", "--scaling", "8..64", env={"GPUPLAN_PROGRESS": "always"})
    check("4/4 configs" in t.err, f"the scaling sweep's bar: {t.err[:300]!r}")
