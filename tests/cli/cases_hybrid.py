# tests/cli/cases_hybrid.py: hybrid models (linear-attention and state-space layers beside
# attention) from their published config.json files: fit --infer counts their recurrent state per
# sequence beside the attention layers' KV, serve times them, training is refused in one line.
# Exec'd in cli_tests.py's namespace (case, ok, ok_json, bad, data, check, near, ...).


@case("hybrid.fit_infer_nemotron_h")
def _():
    """Nemotron-H-8B: 24 Mamba-2 layers hold a state each (vLLM's mamba2_state_shape: (3 x 10,240
    + 128 x 64 x 128) x 2 B = 2,158,592 B), the 4 attention layers KV; vLLM's unified page grows
    the attention block to 528 tokens."""
    cfg = data("hf/nemotron-h-8b-base-8k/config.json")
    j = ok_json("fit", "--model", cfg, "--infer", "--gpu", "h100", "--batch", "32",
                "--context", "8192")
    check(j["model"]["parameters"] == 8100852736, "Nemotron-H-8B-Base-8K: 8,100,852,736")
    kv = j["kv_cache"]
    check(kv["state_layers"] == 24, f"state layers {kv['state_layers']}")
    check(kv["state_bytes_per_sequence"] == 24 * 2158592, f"state {kv['state_bytes_per_sequence']}")
    check(kv["block_size"] == 528, f"block {kv['block_size']}")
    check(kv["bytes_per_token"] == 16384, "KV on the 4 attention layers only")
    check(j["fits"], "fits on one H100")
    text = ok("fit", "--model", cfg, "--infer", "--gpu", "h100", "--batch", "32", "--context", "8192").out
    check("recurrent state: 49.4 MiB per sequence on this GPU (24 linear-mixer layers" in text, text)


@case("hybrid.serve_qwen3_next")
def _():
    """Qwen3-Next-80B-A3B on H200, SGLang, 1,000 in / 2,000 out at concurrency 8 (sgl-project/sglang
    PR #10404: 937.94 tok/s at tp 2 with the tuned MoE config): within 15%."""
    j = ok_json("serve", "--model", data("hf/qwen3-next-80b-a3b-instruct"), "--gpu", "h200",
                "--tp", "2", "--engine", "sglang", "--input-len", "1000", "--output-len", "2000",
                "--concurrency", "8")
    near_rel(j["output_tokens_per_s"], 937.94, 0.15, "SGLang PR #10404, H200 tp 2")
    check(j["fits"], "fits on two H200")


@case("hybrid.serve_jamba")
def _():
    """Jamba 1.5 Mini (103 GB of bf16 weights) on two H100: it fits, serves, and its Mamba layers'
    state keeps the capacity far above a transformer's at long context."""
    j = ok_json("serve", "--model", data("hf/jamba-1.5-mini"), "--gpu", "h100", "--tp", "2",
                "--input-len", "100000", "--output-len", "1000", "--concurrency", "4")
    check(j["fits"] and j["output_tokens_per_s"] > 0, "serves")
    f = ok_json("fit", "--model", data("hf/jamba-1.5-mini"), "--infer", "--gpu", "h100", "--tp", "2",
                "--context", "262144")
    # 4 attention layers x 2 x 4 KV heads (of 8, over tp 2) x 128 x 2 B = 8,192 B per token
    check(f["kv_cache"]["bytes_per_token"] == 8192, f"{f['kv_cache']['bytes_per_token']}")
    check(f["kv_cache"]["max_concurrency"] > 1, "a 256K-token sequence fits (AI21: 140K on one 80 GB)")


@case("hybrid.training_refused")
def _():
    """The transformers memory profile refuses a hybrid in one line that says what models it;
    the step time refuses what it does not model of a hybrid (other frameworks' kernels)."""
    msg = (r"training: hybrid models \(linear-attention / state-space layers beside attention\) "
           r"are not modelled by the transformers memory profile")
    bad(msg, "fit", "--model", data("hf/nemotron-h-8b-base-8k"))  # a dense model: transformers
    bad(r"the step time models Megatron-LM's kernels only \(--framework megatron\)", "train",
        "--model", data("hf/nemotron-h-8b-base-8k"), "--gpu", "h100", "--gpus", "8",
        "--framework", "torchtitan", "--zero", "3", "--tokens", "1e11")


@case("hybrid.train_megatron")
def _():
    """train times a hybrid under Megatron-LM: Nemotron-H (Mamba-2), Jamba (Mamba-1) and
    Qwen3-Next (Gated DeltaNet) each print a step time."""
    for rel in ["hf/nemotron-h-8b-base-8k", "hf/jamba-1.5-mini", "hf/qwen3-next-80b-a3b-instruct"]:
        j = ok_json("train", "--model", data(rel), "--gpu", "h100", "--gpus", "64", "--framework",
                    "megatron", "--tokens", "1e11")
        check(j["step_time_s"] > 0 and j["tokens_per_s"] > 0, f"{rel}: {j}")


@case("hybrid.fit_training_megatron")
def _():
    """fit for training under Megatron's accounting: the linear mixers' saved tensors, heads split
    over tp (Megatron-Core's MambaMixer); a tp that does not divide the mixer's groups is refused."""
    base = ["fit", "--model", data("hf/nemotron-h-8b-base-8k"), "--gpu", "h100", "--framework",
            "megatron", "--seq", "8192"]
    one = ok_json(*base)
    two = ok_json(*base, "--tp", "2")
    check(one["per_gpu"]["activations_bytes"] > two["per_gpu"]["activations_bytes"] > 0,
          f"{one['per_gpu']['activations_bytes']} {two['per_gpu']['activations_bytes']}")
    full = ok_json(*base, "--recompute", "full")
    check(full["per_gpu"]["activations_bytes"] < one["per_gpu"]["activations_bytes"], "full recompute")
    bad(r"--tp 16 must divide the linear mixer's heads and groups .*\(got 16, 128, 8\)", *base,
        "--tp", "16")
    q = ok_json("fit", "--model", data("hf/qwen3-next-80b-a3b-instruct"), "--gpu", "h200",
                "--tp", "2", "--dp", "8", "--ep", "8", "--pp", "4", "--seq", "4096")
    check(q["per_gpu"]["activations_bytes"] > 0, "Qwen3-Next trains under Megatron's accounting")


@case("hybrid.fit_infer_qwen3_next")
def _():
    """Qwen3-Next-80B-A3B over two H200: 36 Gated DeltaNet layers hold (3 x 8,192 + 32 x 128 x 128)
    / 2 elements each per rank (vLLM's gated_delta_net_state_shape at tp 2), 12 gated-attention
    layers one KV head per rank; the attention block grows to 16 x cdiv(548,864, 16 x 1,024) =
    544 tokens."""
    j = ok_json("fit", "--model", data("hf/qwen3-next-80b-a3b-instruct"), "--infer", "--gpu",
                "h200", "--tp", "2", "--batch", "16", "--context", "32768")
    check(j["model"]["parameters"] == 79674391296, "the 48 layers (81,324,862,720 with the MTP module)")
    kv = j["kv_cache"]
    check(kv["state_layers"] == 36 and kv["state_bytes_per_sequence"] == 36 * 548864, f"{kv}")
    check(kv["block_size"] == 544, f"block {kv['block_size']}")
    check(kv["bytes_per_token"] == 12 * 1024, "KV on the 12 attention layers")
    check(j["fits"], "fits on two H200")


@case("hybrid.serve_nemotron_h")
def _():
    """Nemotron-H-8B on one H100 at 8K context: serves, and its decode step does not grow with the
    context as a transformer's does (24 of its 28 mixers hold a state, not a KV cache)."""
    base = ("serve", "--model", data("hf/nemotron-h-8b-base-8k"), "--gpu", "h100", "--concurrency",
            "32", "--output-len", "256")
    short = ok_json(*base, "--input-len", "512")
    long = ok_json(*base, "--input-len", "7680")
    check(short["fits"] and long["fits"], "fits")
    llama = ("serve", "--model", "llama-3.1-8b", "--gpu", "h100", "--concurrency", "32",
             "--output-len", "256")
    grow_h = long["tpot_s"] / short["tpot_s"]
    grow_t = ok_json(*llama, "--input-len", "7680")["tpot_s"] / ok_json(*llama, "--input-len", "512")["tpot_s"]
    check(grow_h < grow_t, f"TPOT growth 512 -> 7680 tokens: hybrid {grow_h:.2f}x, Llama {grow_t:.2f}x")
