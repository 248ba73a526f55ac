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
