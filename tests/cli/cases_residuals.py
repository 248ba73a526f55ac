# tests/cli/cases_residuals.py: issue 25's "known residuals" from the command line: tensor
# parallelism over a PCIe server timed by `search serve` as `serve` times it, with a reason for each
# configuration it cannot time; vLLM v0.2.5's KV blocks with TP > 1 (PR #2031's own log).
# Exec'd in cli_tests.py's namespace (case, run, ok, ok_json, bad, check, near, near_rel, ...).

L40S_SEARCH = ("search", "serve", "--model", "llama-3.1-8b", "--gpu", "l40s",
               "--price-per-gpu-hour", "2", "--input-len", "1024", "--output-len", "256",
               "--weight-dtype", "bf16")


@case("search.serve_pcie_tp")
def _():
    """search serve on an L40S server times TP 2-8 over PCIe (it marked every TP > 1 invalid with
    no reason) and names why each configuration it skips cannot run, in JSON and text."""
    j = ok_json(*L40S_SEARCH, "--tp", "1,2,3,8,16", "--top", "8")
    tps = sorted(x["tp"] for x in j["results"])
    check(tps == [1, 2, 8], f"TP 1, 2 and 8 timed on the L40S server: {tps}")
    check(j["pruned"]["invalid"] == 2, f"two invalid: {j['pruned']}")
    inv = {x["tp"]: x for x in j["invalid_configurations"]}
    check(sorted(inv) == [3, 16], f"the invalid ones listed: {j['invalid_configurations']}")
    check("layout.tp must divide model.heads" in inv[3]["reason"], inv[3]["reason"])
    check("(got 3, 32)" in inv[3]["reason"], inv[3]["reason"])
    check("tp x pp exceeds the GPUs of one node" in inv[16]["reason"] and
          "(got 16, 8)" in inv[16]["reason"], inv[16]["reason"])
    for x in j["invalid_configurations"]:
        check(x["gpu"] == "L40S-48GB" and x["pp"] == 1 and x["weight_dtype"] == "bf16", str(x))
    # the TP 8 row is the point gpuplan serve gives at that concurrency on the same server (search
    # serves each GPU in its catalog node: the two-socket PCIe-8xL40S, whose rings cross the
    # socket link; `serve --gpu l40s` alone builds a generic one-socket node)
    t8 = next(x for x in j["results"] if x["tp"] == 8)
    s = ok_json("serve", "--model", "llama-3.1-8b", "--node", "pcie-8xl40s", "--tp", "8",
                "--input-len", "1024", "--output-len", "256", "--concurrency",
                str(int(t8["concurrency"])))
    near_rel(t8["ttft_s"], s["ttft_s"], 1e-9, "TTFT as gpuplan serve times it")
    near_rel(t8["tpot_s"], s["tpot_s"], 1e-9, "TPOT as gpuplan serve times it")
    out = ok(*L40S_SEARCH, "--tp", "1,3,16").out
    check("invalid configurations:" in out and "invalid because" in out, out)
    check("layout.tp must divide model.heads (the attention heads) (got 3, 32)" in out, out)


@case("serve.vllm_v025_tp4_blocks")
def _():
    """vLLM v0.2.5 with TP 4 (vllm-project/vllm PR #2031): Llama 2 70B on four A100-80GB logged
    '# GPU blocks: 20865' (31615 under the earlier torch-peak rule). The v0.2.5 engine charges the
    profile run's all-reduce inputs, which that release held until the pass ended (PR #2151).
    Tolerance 5%, the unit test's. max_num_batched_tokens 4096: v0.2.x's max(max_model_len, 2048)."""
    base = ("fit", "--model", "llama2-70b", "--gpu", "a100-80gb", "--infer", "--tp", "4",
            "--context", "4096", "--max-num-batched-tokens", "4096")
    v025 = ok_json(*base, "--engine", "vllm-v0-record-stream")["kv_cache"]["blocks"]
    peak = ok_json(*base, "--engine", "vllm-v0-torch-peak")["kv_cache"]["blocks"]
    later = ok_json(*base, "--engine", "vllm-v0-mem-get-info")["kv_cache"]["blocks"]
    near_rel(v025, 20865, 0.05, "v0.2.5 blocks")
    near_rel(peak, 31615, 0.05, "torch-peak blocks")
    check(later > v025, f"v0.2.6+ freed the inputs: {later} > {v025}")
