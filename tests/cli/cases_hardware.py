# tests/cli/cases_hardware.py: hardware from files everywhere and power limits (issue 25): a node
# JSON (--node FILE, "node": {...} in a plan) that plans multi-GPU runs of a GPU no catalog server
# carries, and --power-limit (models/power_limit.hpp). Exec'd in cli_tests.py's namespace.

# The Grand Teton hosts of torchtitan's June 2025 benchmarks (pytorch/torchtitan,
# benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md): 8 H100s "fully connected with NVLink",
# each "96GB HBM2e with 2.4 TB/sec peak memory bandwidth", "400 Gb/s per GPU" RDMA, run at "the
# default 500W power limit" of the 700 W TDP. The rates are the H100 SXM5's (gpus --json).
def h100_96gb_gpu():
    g = next(x for x in ok_json("gpus") if x["name"] == "H100-SXM5-80GB")
    g.update({"name": "H100-96GB-HBM2e", "aliases": [], "memory_bytes": 96e9,
              "memory_usable_bytes": 0, "memory_type": "HBM2e",
              "memory_bandwidth_bytes_per_s": 2.4e12, "tdp_watts": 700})
    return g


def grand_teton_node():
    return {"name": "Grand-Teton-H100-96GB", "gpu": h100_96gb_gpu(), "gpus": 8,
            "fabric": "nvswitch", "nics": {"count": 8, "per_nic_bits_per_s": 400e9}}


TRAIN_8B_16 = ("train", "--model", "Llama-3.1-8B", "--gpus", "16", "--zero", "3", "--seq", "8192",
               "--global-batch", "64", "--framework", "megatron")


@case("hardware.node_file_trains_16_gpus_at_500w")
def _():
    """A 96 GB, 500 W H100 no catalog server carries plans a 16-GPU run from a node file; the
    500 W limit makes it slower than the same host at 700 W."""
    node = plan_file(grand_teton_node())
    j500 = ok_json(*TRAIN_8B_16, "--node", node, "--power-limit", "500")
    j700 = ok_json(*TRAIN_8B_16, "--node", node)
    check(j500["gpus"] == 16 and j500["nodes"] == 2, f"16 GPUs on 2 hosts: {j500['gpus']}, "
                                                      f"{j500['nodes']}")
    check(j500["node"] == "Grand-Teton-H100-96GB", f"node {j500['node']!r}")
    check(j500["gpu"] == "H100-96GB-HBM2e", f"gpu {j500['gpu']!r}")
    check(0 < j500["tokens_per_s"] < j700["tokens_per_s"],
          f"500 W {j500['tokens_per_s']} tokens/s vs 700 W {j700['tokens_per_s']}")
    # the same node inline in a plan file, with the limit as a plan key
    plan = plan_file({"model": "Llama-3.1-8B", "gpus": 16, "zero": 3, "seq": 8192,
                      "global_batch": 64, "framework": "megatron", "node": grand_teton_node(),
                      "power_limit": 500})
    jp = ok_json("train", "--plan", plan)
    near(jp["tokens_per_s"], j500["tokens_per_s"], 1e-9 * j500["tokens_per_s"],
         "the plan's inline node = the node file")


@case("hardware.node_file_serves_tp2")
def _():
    """The same host serves a 70B model over TP 2 from the node file; at 500 W prefill (compute-
    bound) is slower, decode (HBM-bound, 2.4 TB/s whole at 500 W) moves less."""
    node = plan_file(grand_teton_node())
    args = ("serve", "--model", "Llama-3.1-70B", "--node", node, "--tp", "2", "--weight-dtype",
            "fp8", "--dtype", "fp8", "--input-len", "2048", "--output-len", "256",
            "--concurrency", "16")
    j500 = ok_json(*args, "--power-limit", "500")
    j700 = ok_json(*args)
    check(j500["ttft_s"] > j700["ttft_s"], f"TTFT {j500['ttft_s']} vs {j700['ttft_s']}")
    check(j500["tpot_s"] / j700["tpot_s"] < j500["ttft_s"] / j700["ttft_s"],
          "TPOT moves less than TTFT")


def l40s_server(islands):
    """An 8-GPU L40S server on PCIe whose GPUs are split over `islands` CPU sockets."""
    return {"name": f"L40S-{islands}-socket", "gpu": "l40s", "gpus": 8, "fabric": "pcie",
            "pcie_islands": islands}


@case("hardware.node_file_pcie_islands_slow_tp8")
def _():
    """Issue 25: a node file whose eight PCIe GPUs sit behind two CPU sockets (4 + 4) slows
    `serve --tp 8`, whose rings cross the socket link, and leaves TP 4 (one socket) alone."""
    one, two = plan_file(l40s_server(1)), plan_file(l40s_server(2))
    args = ("serve", "--model", "Llama-3.1-70B", "--input-len", "1024", "--output-len", "128",
            "--concurrency", "8")
    j1 = ok_json(*args, "--node", one, "--tp", "8")
    j2 = ok_json(*args, "--node", two, "--tp", "8")
    check(j2["ttft_s"] > j1["ttft_s"], f"TTFT {j2['ttft_s']} on 2 sockets vs {j1['ttft_s']} on 1")
    check(j2["tpot_s"] >= j1["tpot_s"], f"TPOT {j2['tpot_s']} vs {j1['tpot_s']}")
    f1 = ok_json(*args, "--node", one, "--tp", "4")
    f2 = ok_json(*args, "--node", two, "--tp", "4")
    check(f1["ttft_s"] == f2["ttft_s"], f"TP 4 in one socket: {f1['ttft_s']} vs {f2['ttft_s']}")
    bad(r"key 'pcie_islands' must divide gpus \(8\)", "serve", "--model", "Llama-3.1-70B",
        "--node", plan_file(l40s_server(3)), "--tp", "8")


@case("hardware.node_file_pcie_islands_slow_ep8_all_to_all")
def _():
    """Issues 24/25: expert parallelism's all-to-all on eight PCIe L40S behind two CPU sockets
    (4 + 4): the 16 GPU pairs on different sockets share the socket link, so `serve --ep 8
    --moe-all-to-all` and `train --ep 8` slow more on 2 sockets than on 1; EP 4 (one socket)
    keeps its time."""
    one, two = plan_file(l40s_server(1)), plan_file(l40s_server(2))
    serve = ("serve", "--model", "mixtral-8x7b", "--tp", "8", "--ep", "8", "--input-len", "1024",
             "--output-len", "128", "--concurrency", "8")
    a1 = ok_json(*serve, "--moe-all-to-all", "--node", one)
    a2 = ok_json(*serve, "--moe-all-to-all", "--node", two)
    r1, r2 = ok_json(*serve, "--node", one), ok_json(*serve, "--node", two)
    check(a2["ttft_s"] > a1["ttft_s"], f"TTFT {a2['ttft_s']} on 2 sockets vs {a1['ttft_s']} on 1")
    check(a2["ttft_s"] / a1["ttft_s"] > r2["ttft_s"] / r1["ttft_s"],
          f"the all-to-all's own crossing: TTFT x{a2['ttft_s'] / a1['ttft_s']:.3f} with it, "
          f"x{r2['ttft_s'] / r1['ttft_s']:.3f} with the all-reduce alone")
    train = ("train", "--model", "mixtral-8x7b", "--gpus", "8", "--zero", "1", "--seq", "4096",
             "--global-batch", "64")
    t1 = ok_json(*train, "--ep", "8", "--node", one)["breakdown"]["expert_parallel_s"]
    t2 = ok_json(*train, "--ep", "8", "--node", two)["breakdown"]["expert_parallel_s"]
    check(t2 > 2 * t1, f"EP 8 all-to-all {t2} s a step on 2 sockets vs {t1} on 1")
    f1 = ok_json(*train, "--ep", "4", "--node", one)["breakdown"]["expert_parallel_s"]
    f2 = ok_json(*train, "--ep", "4", "--node", two)["breakdown"]["expert_parallel_s"]
    check(f1 == f2, f"EP 4 inside one socket: {f1} vs {f2}")
    # the search's EP layouts (--dp-attention: ep = tp) on the catalog's 2-socket L40S node are
    # timed through the same all-to-all, not refused
    s = ok_json("search", "serve", "--model", "mixtral-8x7b", "--gpu", "l40s", "--dp-attention",
                "--tp", "8", "--objective", "tokens_per_gpu")
    check(s["pruned"]["invalid"] == 0 and s["results"], f"search: {s['pruned']!r}")
    check(all(r["tp"] == 8 and r["ttft_s"] > 0 and r["tpot_s"] > 0 for r in s["results"]),
          f"timed rows: {s['results']!r}")


@case("hardware.custom_gpu_without_node_names_node")
def _():
    """A GPU file alone plans one GPU; 16 of them need a node, and the error says a node JSON
    describes it."""
    gpu = plan_file(h100_96gb_gpu())
    ok("train", "--model", "Llama-3.2-1B", "--gpu", gpu, "--gpus", "1")
    bad(r"no catalog node carries H100-96GB-HBM2e: give --node NODE\.json, a node JSON .*16 GPUs",
        "train", "--model", "Llama-3.1-8B", "--gpu", gpu, "--gpus", "16")


@case("hardware.node_file_errors_name_the_key")
def _():
    d = tempfile.mkdtemp()
    node = grand_teton_node()
    node["nics"] = {"count": 8}
    f = plan_file(node, d)
    bad(re.escape(f) + r": key 'nics\.per_nic_bits_per_s' must be positive when count > 0",
        "train", "--model", "Llama-3.1-8B", "--gpus", "16", "--node", f)
    node = grand_teton_node()
    node["gpu"] = "h1000"
    f = plan_file(node, d)
    bad(r": key 'gpu': unknown GPU 'h1000'", "train", "--model", "Llama-3.1-8B", "--node", f)
    node = grand_teton_node()
    del node["gpu"]["memory_bandwidth_bytes_per_s"]
    f = plan_file(node, d)
    bad(r"key 'gpu\.memory_bandwidth_bytes_per_s' is missing or 0", "train", "--model",
        "Llama-3.1-8B", "--node", f)
    bad(r"unknown node 'dgx-h1000'.*node JSON file", "train", "--model", "Llama-3.1-8B",
        "--node", "dgx-h1000")
    bad(r"nope\.json: no such file", "train", "--model", "Llama-3.1-8B", "--node",
        os.path.join(d, "nope.json"))
    # inline in a plan: the key under "node."
    node = grand_teton_node()
    node["gpus"] = "eight"
    bad(r": key 'node\.gpus' must be an integer, not a string", "train", "--plan",
        plan_file({"model": "Llama-3.1-8B", "node": node}, d))


@case("hardware.power_limit_h100_train_and_cost")
def _():
    """--power-limit 500 on an H100: fewer tokens/s, and less GPU energy for the same tokens
    (500 W for longer, less than 700 W for less time)."""
    args = ("--model", "Llama-3.1-8B", "--gpus", "8", "--seq", "4096", "--zero", "3")
    full = ok_json("train", *args)
    capped = ok_json("train", *args, "--power-limit", "500")
    check(capped["tokens_per_s"] < full["tokens_per_s"],
          f"tokens/s {capped['tokens_per_s']} vs {full['tokens_per_s']}")
    check(capped["tokens_per_s"] > 0.8 * full["tokens_per_s"],
          "no slower than the clock (0.83 at 500 of 700 W) and the unscaled parts allow")
    cost_full = ok_json("cost", *args, "--tokens", "1B")
    cost_cap = ok_json("cost", *args, "--tokens", "1B", "--power-limit", "500")
    e_full = cost_full["energy_lines_kwh"]["gpus"]
    e_cap = cost_cap["energy_lines_kwh"]["gpus"]
    check(e_cap < e_full, f"GPU energy {e_cap} kWh at 500 W vs {e_full} kWh")
    # a limit equal to the TDP changes nothing
    same = ok_json("train", *args, "--power-limit", "700")
    near(same["tokens_per_s"], full["tokens_per_s"], 1e-9 * full["tokens_per_s"], "700 W = none")


@case("hardware.power_limit_search_and_serve")
def _():
    s_full = ok_json("serve", "--model", "Llama-3.1-8B", "--input-len", "4096", "--output-len",
                     "128", "--concurrency", "8")
    s_cap = ok_json("serve", "--model", "Llama-3.1-8B", "--input-len", "4096", "--output-len",
                    "128", "--concurrency", "8", "--power-limit", "400")
    check(s_cap["ttft_s"] > s_full["ttft_s"], "prefill slower at 400 W")
    check(s_cap["output_tokens_per_s"] < s_full["output_tokens_per_s"], "fewer tokens/s")
    best = lambda j: max(c["tokens_per_s"] for c in j["top"])
    args = ("search", "--model", "Llama-3.1-8B", "--tokens", "1B", "--global-batch", "64",
            "--gpus", "8", "--tp", "1,2",
            "--pp", "1", "--zero", "3", "--micro-batch", "1")
    check(best(ok_json(*args, "--power-limit", "500")) < best(ok_json(*args)),
          "search: the best layout is slower at 500 W")


@case("hardware.power_limit_bad_values")
def _():
    base = ("train", "--model", "Llama-3.1-8B", "--gpus", "8")
    bad(r"--power-limit 800 W is above the TDP of H100-SXM5-80GB \(700 W\): a limit can only "
        r"lower the power; give at most 700", *base, "--power-limit", "800")
    bad(r"--power-limit 150 W is below the lowest limit the driver takes for H100-SXM5-80GB: "
        r"200 W \(0\.286 of its 700 W TDP", *base, "--power-limit", "150")
    bad(r"--power-limit must be a positive number of watts", *base, "--power-limit", "-5")
    bad(r"--power-limit", *base, "--power-limit", "lots")
    bad(r"--power-limit 800 W is above", "serve", "--model", "Llama-3.1-8B", "--power-limit", "800")
    bad(r"--power-limit 800 W is above", "cost", "--model", "Llama-3.1-8B", "--gpus", "8", "--tokens",
        "1B", "--power-limit", "800")
