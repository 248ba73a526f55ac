# tests/cli/cases_verdict.py: one memory verdict in every command (issue 22, "One verdict
# everywhere"). Every command that takes a plan reports the verdict `gpuplan fit` gives (`fits`
# and `per_gpu_bytes` in --json, a "memory:" line in the text) and exits 1 with --require-fit
# when it does not fit; a serving plan fits only if its KV cache holds the batch it was asked for.
# Exec'd in cli_tests.py's namespace (case, run, ok, ok_json, bad, check, near, ...).

# Llama 3.1 70B trained on one DGX H100 without sharding: ~1184 GiB per GPU of ~80 (fit's own
# figure, the weights, gradients and AdamW states of 70.6B parameters at 16+ bytes each on 8 GPUs
# at tp 1 and no ZeRO), a plan `train` timed at ~40 h without a word.
TRAIN_70B = ["--model", "Llama-3.1-70B", "--gpus", "8"]


@case("verdict.train_unfit")
def _():
    f = ok_json("fit", *TRAIN_70B)
    check(f["fits"] is False, "fit: the 70B on 8 GPUs does not fit")
    t = ok_json("train", *TRAIN_70B, "--tokens", "1B")
    check(t["fits"] is False, f"train --json: fits false (got {t.get('fits')!r})")
    # the same library verdict: the same bytes, to the byte
    check(t["per_gpu_bytes"] == f["per_gpu"]["total_bytes"],
          f"train per_gpu_bytes {t.get('per_gpu_bytes')} == fit's {f['per_gpu']['total_bytes']}")
    check(f["per_gpu_bytes"] == f["per_gpu"]["total_bytes"], "fit --json has per_gpu_bytes too")
    check(t["per_gpu_bytes"] > t["capacity_bytes"], "more than the GPU holds")
    text = ok("train", *TRAIN_70B, "--tokens", "1B").out
    m = re.search(r"^memory: ([\d.]+) GiB per GPU of ([\d.]+) GiB: does NOT fit", text, re.M)
    check(m, f"one 'memory: ... does NOT fit' line in the text: {text!r}")
    near(float(m.group(1)), f["per_gpu"]["total_bytes"] / GiB, 0.05, "the line's GiB")
    check(text.count("memory: ") == 1, "one memory line")


@case("verdict.train_require_fit")
def _():
    r = run("train", *TRAIN_70B, "--tokens", "1B", "--require-fit")
    check(r.rc == 1, f"train --require-fit on a plan that does not fit: exit 1 (got {r.rc})")
    check("does NOT fit" in r.out, "the report is still printed, with its verdict")
    r = run("train", *TRAIN_70B, "--tokens", "1B", "--require-fit", "--json")
    check(r.rc == 1 and r.json()["fits"] is False, "--json --require-fit: JSON and exit 1")


@case("verdict.cost_require_fit")
def _():
    args = ["cost", *TRAIN_70B, "--tokens", "1B"]
    j = ok_json(*args)
    f = ok_json("fit", *TRAIN_70B)
    check(j["fits"] is False and j["per_gpu_bytes"] == f["per_gpu"]["total_bytes"],
          f"cost --json: fits false and fit's per-GPU bytes ({j.get('per_gpu_bytes')})")
    check("does NOT fit" in ok(*args).out, "cost's text says it")
    r = run(*args, "--require-fit")
    check(r.rc == 1, f"cost --require-fit on a plan that does not fit: exit 1 (got {r.rc})")
    r = run(*args, "--require-fit", "--json")
    check(r.rc == 1 and r.json()["fits"] is False, "cost --json --require-fit: exit 1")


@case("verdict.fitting_plan")
def _():
    # Llama 3.1 8B with ZeRO-3 over 8 GPUs fits (fit.does_not_fit's own fitting case)
    plan = ["--model", "Llama-3.1-8B", "--gpus", "8", "--zero", "3"]
    f = ok_json("fit", *plan)
    check(f["fits"] is True, "fit: fits")
    for cmd in (["train", *plan, "--tokens", "1B"], ["cost", *plan, "--tokens", "1B"]):
        r = run(*cmd, "--require-fit", "--json")
        check(r.rc == 0, f"{cmd[0]} --require-fit on a fitting plan: exit 0 (got {r.rc}, {r.err!r})")
        j = r.json()
        check(j["fits"] is True and j["per_gpu_bytes"] == f["per_gpu"]["total_bytes"],
              f"{cmd[0]}: fits true, fit's bytes")
        check(re.search(r"^memory: [\d.]+ GiB per GPU of [\d.]+ GiB: fits$",
                        ok(*cmd).out, re.M), f"{cmd[0]}: a 'memory: ... fits' line")


@case("verdict.train_scaling_rows")
def _():
    # each row of the curve carries its own verdict: ZeRO-3 shards the model states over dp, so
    # the 70B (full recompute) fits at 64 GPUs and not at 8
    base = ["--model", "Llama-3.1-70B", "--zero", "3", "--recompute", "full"]
    j = ok_json("train", *base, "--gpus", "8", "--global-batch", "512", "--scaling", "8..64")
    pts = j["scaling"]["points"]
    check([p["gpus"] for p in pts] == [8, 16, 32, 64], "four rows")
    for p in pts:
        f = ok_json("fit", *base, "--dp", str(p["dp"]))
        check(p["fits"] == f["fits"] and p["per_gpu_bytes"] == f["per_gpu"]["total_bytes"],
              f"row {p['gpus']}: the fit's verdict ({p['per_gpu_bytes']} vs "
              f"{f['per_gpu']['total_bytes']})")
    check(not pts[0]["fits"] and pts[-1]["fits"], "8 GPUs do not fit, 64 do")
    check(pts[0]["per_gpu_bytes"] > pts[-1]["per_gpu_bytes"], "ZeRO-3 shards over more GPUs")
    text = ok("train", *base, "--gpus", "8", "--global-batch", "512", "--scaling", "8..64").out
    check(re.search(r"^\s+8\s+8\s+512 .*GiB \(no fit\)", text, re.M), "the 8-GPU row says no fit")
    check(re.search(r"^\s+64\s+64\s+512 .*\d GiB ", text, re.M) and
          not re.search(r"^\s+64\s+64 .*no fit", text, re.M), "the 64-GPU row fits")


@case("verdict.train_scaling_invalid_rows")
def _():
    # points whose batch does not divide (64 over dp 16..256) have no plan and no verdict: the
    # curve still prints, "-" in the memory column and no verdict keys in JSON
    args = ["train", "--model", "llama3.1-8b", "--gpu", "h100", "--gpus", "8",
            "--global-batch", "64", "--scaling", "8..256"]
    pts = ok_json(*args)["scaling"]["points"]
    check(pts[0]["valid"] and "fits" in pts[0] and "per_gpu_bytes" in pts[0], "8 GPUs: a verdict")
    bad_pts = [p for p in pts if not p["valid"]]
    check(bad_pts and all("fits" not in p and "per_gpu_bytes" not in p for p in bad_pts),
          "invalid points carry no verdict")
    text = ok(*args).out
    check(re.search(r"^\s+256\s+256\s+64\s+-(\s+-){7}\s+-\s", text, re.M), "the 256 row: '-' memory")


@case("verdict.train_deadline")
def _():
    j = ok_json("train", "--model", "Llama-3.1-8B", "--node", "dgx-h100", "--seq", "8192",
                "--global-batch", "512", "--tokens", "1T", "--deadline", "30")
    d = j["deadline"]
    check(isinstance(d["fits"], bool) and d["per_gpu_bytes"] > 0, "the size found has a verdict")
    f = ok_json("fit", "--model", "Llama-3.1-8B", "--seq", "8192", "--dp", str(d["dp"]))
    check(d["fits"] == f["fits"] and d["per_gpu_bytes"] == f["per_gpu"]["total_bytes"],
          "the deadline's size: fit's verdict")


@case("verdict.rampup_doc_example_fits")
def _():
    # docs/cli.md's --rampup-batch-size example must be a run that fits
    with open(os.path.join(os.path.dirname(DATA), "..", "tools", "gpuplan", "doc",
                           "cli.md.in")) as fh:
        doc = fh.read()
    m = re.search(r"<<<run: gpuplan (train [^>]*--rampup-batch-size[^>]*)>>>", doc)
    check(m, "the ramp example is in cli.md.in")
    import shlex
    args = shlex.split(m.group(1))
    r = run(*args, "--require-fit")
    check(r.rc == 0, f"the documented ramp example fits (exit {r.rc}): {r.out[-300:]!r}")


@case("verdict.infer_kv_zero")
def _():
    # SGLang with --mem-fraction-static 0.1 leaves its KV pool nothing after the weights: the
    # engine cannot start, whatever the total says
    args = ["fit", "--infer", "--model", "Llama-3.1-8B", "--gpu", "h100", "--engine", "sglang",
            "--mem-fraction-static", "0.1"]
    j = ok_json(*args)
    check(j["kv_cache"]["capacity_tokens"] == 0, "no KV tokens")
    check(j["fits"] is False, "0 KV-cache tokens: does not fit")
    check(j["kv_cache"]["fits"] is False, "the KV cache is the reason")
    r = run(*args)
    first = r.out.splitlines()[0]
    check(first.startswith("DOES NOT FIT") and "KV cache" in first,
          f"the verdict names the KV cache: {first!r}")
    check(run(*args, "--require-fit").rc == 1, "--require-fit: exit 1")


@case("verdict.infer_kv_batch")
def _():
    # a batch of 32 x 8192 tokens needs 262,144 KV tokens; SGLang with --mem-fraction-static
    # 0.25 keeps 0.25 x 80 GiB for weights and KV pool, ~4 sequences' worth after the 8B's 16 GB
    # of weights: the memory total (49 GiB) is within capacity (71 GiB), the KV cache is not
    args = ["fit", "--infer", "--model", "Llama-3.1-8B", "--gpu", "h100", "--engine", "sglang",
            "--mem-fraction-static", "0.25", "--batch", "32", "--context", "8192"]
    j = ok_json(*args)
    held = j["kv_cache"]["capacity_tokens"]
    check(held < 32 * 8192, f"the cache holds fewer than the batch's tokens ({held})")
    check(j["fits"] is False, "does not fit")
    check(1 <= j["kv_cache"]["holds_batch"] < 32, "fewer than 32 sequences, at least one")
    check(j["per_gpu"]["total_bytes"] <= j["per_gpu"]["capacity_bytes"],
          "the memory total alone would have said FITS")
    first = run(*args).out.splitlines()[0]
    check(first.startswith("DOES NOT FIT") and "KV cache" in first, f"says why: {first!r}")
    # the batch the cache holds fits
    n = j["kv_cache"]["holds_batch"]
    k = ok_json(*args[:-4], "--batch", str(n), "--context", "8192")
    check(k["fits"] is True, f"a batch of {n} fits")
    check(any(a["change"] == f"batch {n} at context 8192" and a["fits"] for a in j["advice"]),
          "the advice offers the batch that fits")


@case("verdict.max_model_len_above_positions")
def _():
    # Llama 3.1's max_position_embeddings is 131072: vLLM refuses a longer --max-model-len
    bad(r"--max-model-len 200000 .*max_position_embeddings", "fit", "--infer", "--model",
        "Llama-3.1-8B", "--max-model-len", "200000")
    ok("fit", "--infer", "--model", "Llama-3.1-8B", "--max-model-len", "131072")


@case("verdict.serve_and_capacity")
def _():
    serve = ["--model", "Llama-3.1-8B", "--gpu", "h100", "--input-len", "1000",
             "--output-len", "200"]
    j = ok_json("serve", *serve)
    f = ok_json("fit", "--infer", "--model", "Llama-3.1-8B", "--gpu", "h100", "--context", "1200")
    check(j["fits"] is True and j["per_gpu_bytes"] == f["per_gpu"]["total_bytes"],
          "serve --json: fit --infer's verdict for one sequence of the longest request")
    check("memory: " in ok("serve", *serve).out, "serve's text has the memory line")
    check(run("serve", *serve, "--require-fit").rc == 0, "serve --require-fit, fits: exit 0")
    # the 70B in bf16 on one H100: no room for its weights
    unfit = ["--model", "Llama-3.1-70B", "--gpu", "h100", "--input-len", "1000",
             "--output-len", "200"]
    r = run("serve", *unfit, "--require-fit", "--json")
    check(r.rc == 1 and r.json()["fits"] is False, f"serve --require-fit: exit 1 ({r.rc})")
    cap = ["capacity", "--rate", "2", "--wait-slo", "2", "--ttft-slo", "2", "--tpot-slo", "0.1"]
    k = ok_json(*cap, *serve)
    check(k["fits"] is True and k["per_gpu_bytes"] == j["per_gpu_bytes"],
          "capacity --json: the serving plan's verdict")
    r = run(*cap, *unfit, "--require-fit")
    check(r.rc == 1 and "does NOT fit" in r.out, f"capacity --require-fit: exit 1 ({r.rc})")
    r = run("cost", *unfit, "--concurrency", "4", "--require-fit")
    check(r.rc == 1, f"cost of a serving plan that does not fit, --require-fit: exit 1 ({r.rc})")


@case("verdict.capacity_compare_gpus_fit")
def _():
    # --compare-gpus judges each GPU by serve's one verdict (serving_fit): an 8B at
    # --max-model-len 131072 does not fit an A10 or an L4 (serve --require-fit exits 1), so
    # neither is ranked as an option
    plan = ["--model", "llama3.1-8b", "--max-model-len", "131072", "--ttft-slo", "2"]
    for g in ("a10", "l4"):
        r = run("serve", "--model", "llama3.1-8b", "--gpu", g, "--max-model-len", "131072",
                "--require-fit")
        check(r.rc == 1, f"serve on {g}: does not fit (rc {r.rc})")
    j = ok_json("capacity", "--rate", "10", "--months", "0", "--wait-slo", "1", *plan,
                "--gpu", "h100", "--compare-gpus", "a10,l4")
    names = [o["name"] for o in j.get("options", [])]
    check(not any(n.startswith(("A10", "L4")) for n in names), f"no A10/L4 option ({names})")
    notes = j["option_notes"]
    check(all(any(n.startswith(g) for n in notes) for g in ("A10", "L4")), f"both noted ({notes})")
