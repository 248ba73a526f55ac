# tests/cli/cases_wide_ep.py: mixtures of experts at scale (issue 24): data-parallel attention
# with wide expert parallelism in `gpuplan serve` and `fit --infer` (--dp-attention,
# --two-batch-overlap, --redundant-experts), and layout searches over GPU counts that are not
# powers of two (a 72-GPU NVL72 rack). Exec'd in cli_tests.py's namespace.

_DSV3_H200 = ("serve", "--model", "deepseek-v3", "--node", "hgx-h200", "--tp", "8", "--ep", "8",
              "--concurrency", "256")


@case("serve.dp_attention")
def _():
    """DP attention holds MLA's latent once per sequence (not on all 8 tensor-parallel ranks):
    more sequences per replica; echoed in the JSON and on the layout line."""
    tp = ok_json(*_DSV3_H200, "--moe-all-to-all")
    dp = ok_json(*_DSV3_H200, "--dp-attention")
    check(dp["dp_attention"] == {"ranks": 8, "two_batch_overlap": False, "experts": 256},
          f"echoed: {dp.get('dp_attention')!r}")
    check("dp_attention" not in tp, "absent without the flag")
    check(dp["kv_capacity_sequences"] > 2 * tp["kv_capacity_sequences"],
          f"KV capacity {dp['kv_capacity_sequences']} against {tp['kv_capacity_sequences']}")
    check(dp["step"]["attention_s"] < tp["step"]["attention_s"] / 2,
          "decode attention reads a rank's own sequences' latent cache, not all 256 (the "
          "step's prefill attention is the same FLOPs either way)")
    tbo = ok_json(*_DSV3_H200, "--dp-attention", "--two-batch-overlap")
    check(tbo["dp_attention"]["two_batch_overlap"] is True, "overlap echoed")
    check(tbo["tpot_s"] != dp["tpot_s"], "two micro-batches change the step")
    r = ok(*_DSV3_H200, "--dp-attention")
    check("attention data-parallel, experts: ep 8" in r.out, f"layout line: {r.out[:300]!r}")


@case("serve.dp_attention_72_h100")
def _():
    """SGLang's decode deployment: 72 H100 over 9 DGX nodes, 32 redundant experts (288 = 4 per
    GPU); without them EP 72 does not divide the 256 experts."""
    base = ("serve", "--model", "deepseek-v3", "--node", "dgx-h100", "--tp", "72", "--ep", "72",
            "--dp-attention", "--two-batch-overlap", "--input-len", "2000", "--output-len", "100")
    j = ok_json(*base, "--redundant-experts", "32")
    check(j["fits"] is True and j["dp_attention"]["experts"] == 288, f"{j.get('dp_attention')!r}")
    check(j["layout"]["gpus"] == 72, "one replica of 72 GPUs")
    bad(r"^gpuplan: error: --ep 72 must divide the moe experts of --model \(got 72, 256\)$", *base)


@case("serve.dp_attention_errors")
def _():
    bad(r"^gpuplan: error: --two-batch-overlap needs --dp-attention$", *_DSV3_H200,
        "--two-batch-overlap")
    bad(r"^gpuplan: error: --dp-attention needs --ep equal to --tp .*--pp 1$", "serve", "--model",
        "deepseek-v3", "--gpu", "h200", "--tp", "8", "--ep", "4", "--dp-attention")
    bad(r"^gpuplan: error: --redundant-experts needs a mixture-of-experts model$", "serve",
        "--model", "llama-3.1-8b", "--redundant-experts", "8")
    bad(r"^gpuplan: error: --redundant-experts must be at most the model's 256 experts \(got 300\)$",
        "serve", "--model", "deepseek-v3", "--gpu", "h200", "--tp", "8", "--redundant-experts",
        "300")
    bad(r"^gpuplan: error: --dp-attention is an inference option: add --infer$", "fit", "--model",
        "deepseek-v3", "--gpu", "h100", "--tp", "8", "--ep", "8", "--dp-attention")


@case("fit.infer_dp_attention")
def _():
    """fit --infer --dp-attention: each GPU's memory under data-parallel attention."""
    args = ("fit", "--infer", "--model", "deepseek-v3", "--gpu", "h100", "--tp", "72", "--ep",
            "72", "--dp-attention", "--redundant-experts", "32")
    j = ok_json(*args)
    check(j["layout"]["tp"] == 1 and j["layout"]["dp"] == 72 and j["layout"]["ep"] == 72,
          f"the memory layout: {j['layout']!r}")
    check(j["fits"] is True, "fits on 80 GB H100s")
    check("dp 72 x tp 1 x pp 1, ep 72" in ok(*args).out, "the layout line")


_DSV3_RACK = ("search", "--model", "deepseek-v3", "--gpu", "gb200", "--gpus", "72", "--tokens",
              "1e12", "--global-batch", "4608", "--seq", "4096")


@case("search.nvl72_divisor_degrees")
def _():
    """72 GPUs (one GB200 NVL72 rack): the default degrees are the divisors of 72 that suit the
    model (TP dividing the 128 heads, PP up to the 61 layers, EP dividing the 256 experts), and
    the search returns valid 72-GPU layouts using expert parallelism."""
    j = ok_json(*_DSV3_RACK)
    sp = j["space"]
    check(sp["tp"] == [1, 2, 4, 8] and sp["ep"] == [1, 2, 4, 8], f"tp/ep {sp['tp']} {sp['ep']}")
    check(sp["pp"] == [1, 2, 3, 4, 6, 8, 9, 12, 18, 24, 36], f"pp {sp['pp']}")
    top = j["top"]
    check(top and all(r["gpus"] == 72 and r["node"] == "GB200-NVL72" for r in top),
          "every layout on the rack's 72 GPUs")
    check(top[0]["layout"]["ep"] > 1, f"the best uses expert parallelism: {top[0]['layout']!r}")
    # lists given by hand are searched as given
    g = ok_json(*_DSV3_RACK, "--pp", "1,2", "--ep", "8")
    check(g["space"]["pp"] == [1, 2] and g["space"]["ep"] == [8], "given lists kept")
    # 144 GPUs (two racks): EP 16 divides both 144 and the 256 experts
    two = ok_json(*_DSV3_RACK[:6], "144", *_DSV3_RACK[7:])
    check(two["space"]["ep"] == [1, 2, 4, 8, 16], f"ep {two['space']['ep']}")


@case("search_serve.dp_attention")
def _():
    """search serve --dp-attention: each tp is a replica of that many DP-attention ranks with the
    experts over all of them; a pipeline is refused as an invalid configuration."""
    base = ("search", "serve", "--model", "deepseek-v3", "--gpu", "gb200", "--dp-attention",
            "--redundant-experts", "32", "--input-len", "2000", "--output-len", "1000",
            "--objective", "tokens_per_gpu")
    j = ok_json(*base, "--tp", "8,72")
    check(j["results"] and {r["tp"] for r in j["results"]} == {8, 72},
          f"both replica sizes timed: {[r['tp'] for r in j['results']]!r}")
    # the same sequences per GPU (max_num_seqs on each rank), and a wider replica reads fewer
    # expert weights per GPU a step: more tokens per GPU
    best = {r["tp"]: r for r in j["results"] if r["weight_dtype"] == "fp8"}
    check(best[72]["concurrency"] / 72 == best[8]["concurrency"] / 8, "sequences per GPU")
    check(best[72]["output_tokens_per_s_per_gpu"] > best[8]["output_tokens_per_s_per_gpu"],
          "EP 72 reads 4 experts per GPU a step, EP 8 36")
    p = ok_json(*base, "--tp", "8", "--pp", "2")
    check(p["pruned"]["invalid"] == 2 and not p["results"], f"pp 2 is invalid: {p['pruned']!r}")
    check(all("pipeline stage" in x["reason"] for x in p["invalid_configurations"]),
          f"why: {p['invalid_configurations']!r}")


_SEARCH_DSV3 = ("search", "serve", "--model", "deepseek-v3", "--objective", "tokens_per_gpu",
                "--top", "32")


def _served(row, *extra):
    """`gpuplan serve` of a search row's layout at its concurrency (its GEMMs' precision: fp8
    weights run W8A8 in the search where the GPU has fp8 tensor cores)."""
    args = ["serve", "--model", "deepseek-v3", "--gpu", row["gpu"], "--tp", str(row["tp"]),
            "--pp", str(row["pp"]), "--ep", str(row["ep"]), "--weight-dtype", row["weight_dtype"],
            "--dtype", row["compute_dtype"], "--concurrency", str(round(row["concurrency"])),
            *extra]
    if row["dp_attention"]:
        args.append("--dp-attention")
    return ok_json(*args)


@case("search_serve.expert_parallelism")
def _():
    """Issue 24: search serve searches expert parallelism for a mixture of experts: each tp with
    tensor-parallel attention and every ep dividing it (1 + 2 + 3 + 4 on tp 1, 2, 4, 8), and
    data-parallel attention (ep = tp) at tp 2, 4, 8: 13 replica layouts x 2 weight dtypes on one
    H200 node (8 before). Each row is timed as `gpuplan serve` times its layout."""
    j = ok_json(*_SEARCH_DSV3, "--gpu", "h200")
    check(j["configurations_evaluated"] == 26, f"{j['configurations_evaluated']} configurations")
    rows = j["results"]
    tp_ep = [r for r in rows if not r["dp_attention"] and r["ep"] > 1]
    dp = [r for r in rows if r["dp_attention"]]
    check(tp_ep and dp, f"EP rows of both attentions: {[(r['tp'], r['ep']) for r in rows]!r}")
    check(all(r["tp"] % r["ep"] == 0 and r["moe_all_to_all"] == r["dp_attention"] for r in rows),
          "ep inside tp; all-to-all only under DP attention by default")
    for r in (tp_ep[0], dp[0]):
        s = _served(r)
        near(s["tpot_s"], r["tpot_s"], 1e-9 * r["tpot_s"], f"TPOT as served: {r!r}")
        near(s["ttft_s"], r["ttft_s"], 1e-9 * r["ttft_s"], f"TTFT as served: {r!r}")
    # --moe-all-to-all: the tensor-parallel-attention EP rows dispatch by all-to-all and are
    # timed as `serve --moe-all-to-all`; the DP-attention rows keep their times
    a = ok_json(*_SEARCH_DSV3, "--gpu", "h200", "--moe-all-to-all")
    before = {r["index"]: r for r in rows}
    moved = [r for r in a["results"] if not r["dp_attention"] and r["ep"] > 1]
    check(moved and all(r["moe_all_to_all"] for r in moved), "all-to-all rows flagged")
    changed = [r for r in moved if r["index"] in before and r["tpot_s"] != before[r["index"]]["tpot_s"]]
    check(changed, "the all-to-all changes the TP-attention EP rows' times")
    s = _served(moved[0], "--moe-all-to-all")
    near(s["tpot_s"], moved[0]["tpot_s"], 1e-9 * moved[0]["tpot_s"], "TPOT as served, all-to-all")
    for r in a["results"]:
        if r["dp_attention"] and r["index"] in before:
            check(r["tpot_s"] == before[r["index"]]["tpot_s"], "DP attention unchanged")
    # --ep restricts the tensor-parallel-attention rows; --dp-attention=false drops the DP ones
    e = ok_json(*_SEARCH_DSV3, "--gpu", "h200", "--ep", "8", "--dp-attention=false")
    check(e["configurations_evaluated"] == 2 and all(r["ep"] == 8 and r["tp"] == 8
                                                    for r in e["results"]), f"{e!r}"[:300])
    # a dense model: tp alone, as before
    d = ok_json("search", "serve", "--model", "llama-3.1-8b", "--gpu", "h100")
    check(d["configurations_evaluated"] == 8, f"dense: {d['configurations_evaluated']}")
    check(all(r["ep"] == 1 and not r["dp_attention"] and not r["moe_all_to_all"]
              for r in d["results"]), "dense rows have no expert parallelism")
    text = ok("search", "serve", "--model", "deepseek-v3", "--gpu", "h200", "--top", "5").out
    check(re.search(r"\bEP\b.*\battention\b", text), f"EP and attention columns: {text[:400]!r}")


@case("search_serve.expert_parallelism_refused")
def _():
    """A flag that would change no configuration is refused with one line naming it."""
    bad(r"^gpuplan: error: --moe-all-to-all: no configuration searched has tensor-parallel "
        r"attention with ep above 1", *_SEARCH_DSV3, "--gpu", "h200", "--dp-attention",
        "--moe-all-to-all")
    bad(r"^gpuplan: error: --moe-all-to-all: ", "search", "serve", "--model", "llama-3.1-8b",
        "--moe-all-to-all")
    bad(r"^gpuplan: error: --moe-all-to-all: ", *_SEARCH_DSV3, "--ep", "1", "--moe-all-to-all")
    bad(r"^gpuplan: error: --ep: Llama-3.1-8B is not a mixture of experts", "search", "serve",
        "--model", "llama-3.1-8b", "--ep", "2")
    bad(r"^gpuplan: error: --ep: with --dp-attention each replica's ep is its tp", *_SEARCH_DSV3,
        "--ep", "8", "--dp-attention")
    bad(r"^gpuplan: error: --ep: no degree divides a --tp value", *_SEARCH_DSV3, "--gpu", "h200",
        "--ep", "16")


@case("search_serve.expert_parallelism_nvl72")
def _():
    """On a GB200 NVL72 (one 72-GPU NVLink domain) a mixture of experts' replicas reach 72 GPUs:
    tp 1, 2, 4, ..., 64, 72 with every ep dividing each (ep up to 64 for 256 experts) and data-
    parallel attention at tp 2 ... 72 (40 replica layouts); with 32 redundant experts (288) the
    DP-attention replica of all 72 GPUs, ep 72, is timed."""
    j = ok_json(*_SEARCH_DSV3, "--gpu", "gb200", "--input-len", "2000", "--output-len", "1000")
    check(j["configurations_evaluated"] == 80, f"{j['configurations_evaluated']} configurations")
    eps = {r["ep"] for r in j["results"]}
    check(max(eps) >= 32, f"expert parallelism across the rack: ep {sorted(eps)}")
    check(any(r["ep"] == 16 and not r["dp_attention"] for r in j["results"]),
          "tensor-parallel attention with ep 16 over the NVLink domain")
    # with an 8-GPU H200 node beside it, each node walks the replicas it holds: 26 + 80, none
    # listed as wider than its node
    m = ok_json(*_SEARCH_DSV3, "--gpu", "h200,gb200")
    check(m["configurations_evaluated"] == 26 + 80, f"{m['configurations_evaluated']} configurations")
    check(not any("exceeds the GPUs of one node" in x["reason"]
                  for x in m["invalid_configurations"]), "no replica too wide for its node")
    r72 = ok_json(*_SEARCH_DSV3, "--gpu", "gb200", "--redundant-experts", "32", "--tp", "72",
                  "--input-len", "2000", "--output-len", "1000")
    check(any(r["ep"] == 72 and r["dp_attention"] for r in r72["results"]),
          f"EP 72 timed: {[(r['tp'], r['ep'], r['dp_attention']) for r in r72['results']]!r}")
