# tests/cli/cases_models_2026.py: the models the config.json readers added for issue 24 (Llama 4,
# GLM-4.5, Kimi K2) through every command: fit --infer, serve, train and search, from the catalog
# name and from the published config.json. Exec'd in cli_tests.py's namespace.

SCOUT_CONFIG = "hf/llama-4-scout-17b-16e-instruct/config.json"


@case("models_2026.llama4_fit_infer")
def _():
    """Llama 4 Scout from its config.json and by name: the published count (HF safetensors.total
    108,641,793,536, vision tower included) and the same plan; the chunked layers' KV cache
    capped at a chunk."""
    args = ("--infer", "--gpu", "h100", "--tp", "4", "--context", "131072")
    a = ok_json("fit", "--model", data(SCOUT_CONFIG), *args)
    b = ok_json("fit", "--model", "meta-llama/Llama-4-Scout-17B-16E-Instruct", *args)
    check(a["model"]["parameters"] == 108641793536, f"parameters {a['model']['parameters']}")
    check(a["model"]["source"] == "hf-config" and b["model"]["name"] == "Llama-4-Scout-17B-16E",
          "sources")
    check(a["per_gpu"] == b["per_gpu"], "config.json and catalog agree")
    check(a["fits"], "109B in bf16 over 4 x 80 GiB fits")
    kv = a["kv_cache"]
    # Per GPU at tp 4: 48 layers x 2 KV heads x 128 x 2 (K, V) x 2 bytes = 49,152 B per token.
    check(kv["bytes_per_token"] == 49152, f"bytes per token {kv['bytes_per_token']}")
    check(kv["page_size_bytes"] == 2 * 16 * 2 * 128 * 2, "page size")
    # One 131,072-token sequence: 12 NoPE layers hold 8,192 blocks, 36 chunked layers the 512
    # of one 8,192-token chunk (vLLM's ChunkedLocalAttentionManager).
    check(a["per_gpu"]["kv_cache_bytes"] == (12 * 8192 + 36 * 512) * kv["page_size_bytes"],
          f"KV cache {a['per_gpu']['kv_cache_bytes']}")


@case("models_2026.llama4_serve")
def _():
    """serve: Llama 4 Scout on 4 x H100 from the catalog and from its config.json, the same
    numbers; a single sequence's decode reads the one routed expert of 16 it is sent to (and
    the shared one), so a step takes less than reading every weight at the HBM's peak."""
    base = ("--gpu", "h100", "--tp", "4", "--concurrency", "8")
    a = ok_json("serve", "--model", "llama4-scout", *base)
    b = ok_json("serve", "--model", data(SCOUT_CONFIG), *base)
    check(a["fits"] and a["model"] == "Llama-4-Scout-17B-16E", "fits, named")
    near(a["tpot_s"], b["tpot_s"], 1e-12, "catalog and config.json")
    check(a["kv_capacity_sequences"] >= 8, "the KV cache holds the batch")
    one = ok_json("serve", "--model", "llama4-scout", "--gpu", "h100", "--tp", "4")
    # Every bf16 weight of a GPU's quarter, read at the H100's 3.35 TB/s: 16.2 ms.
    full_read_s = 108641793536 * 2 / 4 / 3.35e12
    check(one["tpot_s"] < full_read_s, f"TPOT {one['tpot_s']} vs every weight {full_read_s}")


@case("models_2026.llama4_train")
def _():
    """train: Llama 4 Scout on 64 H100s with expert parallelism: Megatron (an MoE model), the
    expert all-to-all timed, MFU in (0, 1), and the FLOPs of the active parameters, not all."""
    j = ok_json("train", "--model", "llama4-scout", "--node", "dgx-h100", "--gpus", "64", "--tp",
                "4", "--ep", "8", "--zero", "1", "--tokens", "1e12")
    check(j["model"] == "Llama-4-Scout-17B-16E" and j["framework"] == "megatron", "MoE: megatron")
    check(j["breakdown"]["expert_parallel_s"] > 0, "EP 8 spends time in the all-to-all")
    check(0 < j["mfu"] < 1, f"MFU {j['mfu']}")
    tokens = j["global_batch"] * j["seq"]
    flops = j["flops_per_step"]
    # 6ND counts the active parameters (18.04B, the vision tower and the embedding included);
    # the model's FLOPs run neither (16.14B of matrices a token passes through) and add
    # attention: between the two, and far below 6 x tokens x all 108.6B.
    check(flops["six_nd"] == 6 * tokens * 18044827136, f"6ND {flops['six_nd']}")
    check(6 * tokens * 16.14e9 < flops["model"] < flops["six_nd"],
          f"model FLOPs per step {flops['model']:.4e} for {tokens} tokens")


@case("models_2026.llama4_search")
def _():
    """search and search serve with Llama 4 Scout: configurations timed, the best one fits."""
    j = ok_json("search", "--model", "llama4-scout", "--gpus", "64", "--tp", "1,2,4", "--pp",
                "1,2", "--tokens", "1e12", "--global-batch", "256")
    check(j["model"] == "Llama-4-Scout-17B-16E" and j["timed"] > 0, "timed some layouts")
    check(len(j["top"]) > 0 and len(j["front"]) > 0, "a best layout")
    s = ok_json("search", "serve", "--model", data(SCOUT_CONFIG), "--gpu", "h100,h200")
    check(s["model"] == "llama-4-scout-17b-16e-instruct", f"model {s['model']}")
    check(len(s["results"]) > 0, "a best serving configuration")


@case("models_2026.glm_kimi")
def _():
    """GLM-4.5-Air and Kimi K2 from their config.json files: the published counts, GLM's MTP
    layer usable for speculative decoding, Kimi K2's fp8 checkpoint too big for one 8 x H200
    node (moonshotai/Kimi-K2-Instruct docs/deploy_guidance.md: "The smallest deployment unit for
    Kimi-K2 FP8 weights with 128k seqlen on mainstream H200 or H20 platform is a cluster with 16
    GPUs")."""
    air = ok_json("fit", "--infer", "--model", data("hf/glm-4.5-air/config.json"), "--gpu", "h200",
                  "--tp", "2")
    check(air["model"]["parameters"] == 106852251264 and air["fits"], "GLM-4.5-Air")
    spec = ok_json("serve", "--model", "zai-org/GLM-4.5-Air", "--gpu", "h200", "--tp", "2",
                   "--speculative-tokens", "1", "--acceptance", "0.8")
    near(spec["speculation"]["tokens_per_step"], 1.8, 1e-9, "1 + a tokens a step")
    k2 = ok_json("fit", "--infer", "--model", data("hf/kimi-k2-instruct/config.json"), "--gpu",
                 "h200", "--tp", "8", "--context", "131072")
    check(k2["model"]["parameters"] == 1026408232448, f"Kimi K2 {k2['model']['parameters']}")
    check(k2["config"]["weight_dtype"] == "fp8", "the checkpoint's fp8 blocks")
    check(not k2["fits"], "1.03T in fp8 and a 128k sequence do not fit 8 x 141 GiB")
    for layout in (("--tp", "16"), ("--tp", "8", "--pp", "2")):
        check(ok_json("fit", "--infer", "--model", "kimi-k2", "--gpu", "h200", *layout,
                      "--context", "131072")["fits"], f"16 GPUs hold it ({' '.join(layout)})")
