# tests/cli/cases_search_serve.py: `gpuplan search serve` (issue 26, "Searches and sizing"): a GPU
# without a price is noted and skipped, never an abort; --rate sizes each configuration; input
# and output tokens are priced apart. Exec'd in cli_tests.py's namespace.

_SERVE_8B = ["search", "serve", "--model", "llama-3.1-8b", "--input-len", "1024",
             "--output-len", "256"]


@case("search_serve.unpriced_gpu_noted")
def _():
    # the L40S has no on-demand price in the default book: it aborted the search over four GPUs
    args = [*_SERVE_8B, "--gpu", "h100,h200,a100,l40s"]
    text = ok(*args).out
    check(re.search(r"^note: no price for L40S-48GB .*left out of the cost ranking", text, re.M),
          f"a note names the unpriced GPU: {text[:600]!r}")
    j = ok_json(*args)
    check(j["unpriced_gpus"] == ["L40S-48GB"], f"unpriced_gpus {j['unpriced_gpus']!r}")
    check(j["unpriced_skipped"] > 0, "its configurations that met the SLO are counted")
    check(j["results"] and all(r["gpu"] != "L40S-48GB" and r["priced"] for r in j["results"]),
          "the cost ranking holds priced GPUs only")
    # ranked by throughput, the L40S is in, its costs unknown (null), never a fake 0
    t = ok_json(*args, "--objective", "tokens_per_gpu", "--top", "32")
    l40s = [r for r in t["results"] if r["gpu"] == "L40S-48GB"]
    check(l40s, "the L40S ranked by throughput")
    for r in l40s:
        check(r["priced"] is False and r["cost_per_million_tokens"] is None
              and r["cost_per_million_input_tokens_usd"] is None, f"unknown costs: {r!r}")


@case("search_serve.input_output_prices_and_rate")
def _():
    j = ok_json(*_SERVE_8B, "--gpu", "h100,h200", "--rate", "50")
    check(j["rate_req_per_s"] == 50, "the rate echoed")
    check(j["results"], "results")
    for r in j["results"]:
        f = r["prefill_fraction"]
        check(0 < f < 1, f"prefill share {f}")
        # the split adds up to the whole GPU-time charged to output tokens (contract figure)
        near(r["cost_per_million_input_tokens_usd"] * 1024 / 256 + r["cost_per_million_output_tokens_usd"],
             r["cost_per_million_tokens"], 1e-9 * r["cost_per_million_tokens"], "in + out = all")
        near(r["cost_per_million_output_tokens_usd"], r["cost_per_million_tokens"] * (1 - f),
             1e-9 * r["cost_per_million_tokens"], "decode share on output tokens")
        # replicas: ceil(rate / one replica's requests/s); requests/s = output tokens/s / 256
        per_replica = r["output_tokens_per_s_per_gpu"] * r["gpus_per_replica"] / 256
        z = r["sizing"]
        check(z["replicas"] == math.ceil(50 / per_replica - 1e-9),
              f"{z['replicas']} replicas for 50 req/s at {per_replica:.2f} req/s each")
        check(z["gpus"] == z["replicas"] * r["gpus_per_replica"], "GPUs = replicas x per replica")
        near(z["cost_per_hour_usd"], z["gpus"] * r["price_per_gpu_hour"], 1e-9 * z["gpus"] * 100,
             "$/hour of the GPUs")
    text = ok(*_SERVE_8B, "--gpu", "h100", "--rate", "50").out
    check("$/M in" in text and "$/M out" in text and "replicas" in text, "the table's columns")
    check("$/M tokens: USD per million output tokens with the whole GPU-time" in text,
          "the header says which price is which")
    check(ok_json(*_SERVE_8B, "--gpu", "h100")["rate_req_per_s"] is None, "no rate: null")
    bad(r"--rate must be positive", *_SERVE_8B, "--rate", "0")


@case("serve.latency_percentiles_vllm_layout")
def _():
    # `serve` prints its latencies as vLLM's benchmark_serving does (Mean/Median/P99 of TTFT,
    # TPOT, ITL, E2EL), from the model's own figures and the JSON's keys.
    args = ["serve", "--model", "llama-3.1-8b", "--gpu", "h100", "--concurrency", "64"]
    text = ok(*args).out
    p = ok_json(*args)  # the point's keys at the top level

    def value(label):
        m = re.search(r"^  " + re.escape(label) + r"\s+([\d.]+)$", text, re.M)
        check(m, f"a line '{label}' with a number: {text[:1500]!r}")
        return float(m.group(1))

    for label, key in [("Mean TTFT (ms):", "ttft_s"), ("Median TTFT (ms):", "ttft_p50_s"),
                       ("P99 TTFT (ms):", "ttft_p99_s"), ("Mean TPOT (ms):", "tpot_s"),
                       ("Median TPOT (ms):", "tpot_p50_s"), ("P99 TPOT (ms):", "tpot_p99_s"),
                       ("Mean ITL (ms):", "itl_s"), ("Median ITL (ms):", "itl_p50_s"),
                       ("P99 ITL (ms):", "itl_p99_s"), ("Mean E2EL (ms):", "e2e_s"),
                       ("Median E2EL (ms):", "e2e_p50_s"), ("P99 E2EL (ms):", "e2e_p99_s")]:
        near(value(label), p[key] * 1e3, 0.006, f"{label} = JSON {key}")
    check(p["ttft_p99_s"] > p["ttft_p50_s"], "TTFT has a modelled spread (the prefill queue)")
    # the steps that also prefill a new prompt spread the gaps: P99 ITL is such a step
    check(p["itl_p99_s"] > p["itl_s"] > p["itl_p50_s"], "ITL has a modelled spread")
    check(p["itl_p50_s"] <= p["tpot_p50_s"] <= p["tpot_p99_s"] <= p["itl_p99_s"],
          "a request's TPOT lies within its gaps")
