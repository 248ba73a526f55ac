# tests/cli/cases_lora.py: LoRA and QLoRA step time from the command line (gpuplan issue 25).
# Exec'd in cli_tests.py's namespace (case, ok, ok_json, bad, check, near, ...).

# Measured by the project on one H100 SXM 80GB (PyTorch 2.11, transformers 5.17, PEFT, SDPA flash
# attention, fused AdamW; median of 3 steps after 2 warm-ups): Llama 3.2 1B with a bf16 base and
# PEFT LoRA rank 16 (alpha 32, no dropout) on q, k, v, o, gate, up and down, fp32 adapters under
# autocast bf16, micro-batch 8 x 2048 tokens, no checkpointing: 0.395 s per step. The library test
# of the same runs (tests/unit/test_training_step.cpp) holds each within 20% and their median
# within 15%; this row reads within 15%.
LORA_1B = ("train", "--model", "llama-3.2-1b", "--gpu", "h100", "--gpus", "1",
           "--framework", "transformers", "--micro-batch", "8", "--seq", "2048",
           "--global-batch", "8")
LORA_1B_MEASURED_S = 0.395


@case("train.lora_measured_h100")
def _():
    j = ok_json(*LORA_1B, "--lora", "16")
    err = j["step_time_s"] / LORA_1B_MEASURED_S - 1.0
    check(abs(err) < 0.15, f"--lora 16 step {j['step_time_s']} s, measured "
                           f"{LORA_1B_MEASURED_S} s: error {100 * err:.1f}% (tolerance 15%)")
    # QLoRA dequantises every NF4 base weight before each GEMM, forward and backward: slower
    q = ok_json(*LORA_1B, "--qlora", "16")
    check(q["step_time_s"] > j["step_time_s"],
          f"--qlora step {q['step_time_s']} not above --lora's {j['step_time_s']}")
    # the text prints a step time too
    t = ok(*LORA_1B, "--lora", "16").out
    check(re.search(r"total\s+[\d.]+ m?s", t) is not None, t)
    check("LoRA rank 16 on all_linear (frozen 16-bit base" in t, t)
    check("QLoRA rank 16 on all_linear (frozen NF4 base" in ok(*LORA_1B, "--qlora", "16").out,
          "--qlora named in the text")
    # fewer adapted matrices, fewer adapter kernels
    qv = ok_json(*LORA_1B, "--lora", "16", "--lora-targets", "attention_qv")
    check(qv["step_time_s"] < j["step_time_s"], "--lora-targets attention_qv is faster")


@case("search.lora")
def _():
    # search and cost time LoRA and QLoRA runs instead of refusing them
    base = ("search", "--model", "llama-3.1-8b", "--gpu", "h100", "--gpus", "8", "--seq", "2048",
            "--global-batch", "64", "--tokens", "1B", "--threads", "2",
            "--framework", "transformers", "--top", "2")
    for adapter in ("--lora", "--qlora"):
        j = ok_json(*base, adapter, "16")
        check(len(j["top"]) >= 1 and all(e["step_time_s"] > 0 for e in j["top"]),
              f"a {adapter} search has timed results")
    c = ok_json("cost", "--model", "llama-3.1-8b", "--gpu", "h100", "--gpus", "8", "--dp", "8",
                "--framework", "transformers", "--global-batch", "64", "--tokens", "1B",
                "--lora", "16")
    check(c["training"]["step_time_s"] > 0, "cost times a LoRA run")


@case("train.lora_flag_replaces_plan_adapter")
def _():
    """LoRA and QLoRA are one choice: an adapter on the command line replaces the plan file's (as
    `gpuplan fit` always did); both in the plan, or both as flags, conflict."""
    plan = plan_file({"lora": 16})
    q = ok_json(*LORA_1B, "--qlora", "16")
    replaced = ok_json(*LORA_1B, "--plan", plan, "--qlora", "16")
    check(replaced["step_time_s"] == q["step_time_s"], "the flag's QLoRA, not the plan's LoRA")
    bad(r"--lora and --qlora conflict", *LORA_1B, "--lora", "16", "--qlora", "16")
    bad(r"keys 'lora' and 'qlora' conflict", *LORA_1B, "--plan", plan_file({"lora": 16, "qlora": 16}))


@case("train.qlora_double_quant")
def _():
    # One setting for memory and step (it was two assumptions, step.nf4_double_quant and
    # memory.nf4_double_quant, that --set could set apart): off, the NF4 constants are fp32, 0.5
    # bits a weight instead of 0.127 (QLoRA sec. 3), and the two absmax kernels are gone.
    on = ok_json(*LORA_1B, "--qlora", "16")
    off = ok_json(*LORA_1B, "--qlora", "16", "--double-quant=false")
    check(off["per_gpu_bytes"] > on["per_gpu_bytes"], "fp32 constants take more memory")
    check(off["step_time_s"] < on["step_time_s"], "two fewer kernels per dequantisation")
    fit_on = ok_json("fit", "--model", "llama-3.1-8b", "--gpu", "h100", "--qlora", "16")
    fit_off = ok_json("fit", "--model", "llama-3.1-8b", "--gpu", "h100", "--qlora", "16",
                      "--double-quant=false")
    check(fit_on["config"]["double_quant"] is True and fit_off["config"]["double_quant"] is False,
          "the config echoes it")
    # 8B's decoder linears, (0.5 - 0.127) bits more each: 0.33 GB
    extra = fit_off["per_gpu_bytes"] - fit_on["per_gpu_bytes"]
    check(0.30e9 < extra < 0.36e9, f"the constants' difference: {extra / 1e9:.3f} GB")
    bad(r"--double-quant is QLoRA's: give --qlora RANK", "fit", "--model", "llama-3.1-8b",
        "--double-quant=false")
    bad(r"unknown assumption|no assumption", "train", *LORA_1B[1:], "--qlora", "16", "--set",
        "step.nf4_double_quant=false")


# torchtune's published README tables (sources beside each row). torchtune runs eager PyTorch
# blocks, each compiled (training.compile_model), with its own LoRALinear (bf16 adapters, no
# autocast: `--set step.lora_adapters_fp32=false`), bf16 parameters and AdamW states with no fp32
# master copy (`--master-weights=false`) and activation checkpointing on every layer (`--recompute
# full`); its QLoRA base is torchao's NF4Tensor, whose dequantisation (pointwise work and a
# 16-entry table lookup, NF4Tensor.get_original_weight, torchao/dtypes/nf4tensor.py v0.5.0 and
# v0.6.1 alike) Inductor fuses into one kernel per matrix inside the compiled block (`--set
# step.nf4_dequant_fused=true`; torchao stores double quantisation's layout). tokens/s = batch["tokens"].numel() over the step's wall time (recipes/
# lora_finetune_single_device.py, tokens_per_second_per_gpu), packed data: every token counts.
TORCHTUNE = ("train", "--gpus", "1", "--framework", "transformers", "--compile",
             "--master-weights=false", "--recompute", "full", "--micro-batch", "2",
             "--set", "step.lora_adapters_fp32=false", "--set", "step.nf4_dequant_fused=true",
             "--global-batch", "2")


def torchtune_error(published, *args):
    j = ok_json(*TORCHTUNE, *args)
    return j["tokens_per_s"] / published - 1.0


@case("train.torchtune_a100_published")
def _():
    """torchtune README "Optimization flags" (pytorch/torchtune 1814feb17, 2024-11-18): Llama 3.2
    3B on one A100 80GB, batch 2 x 4096 packed, compile, chunked cross entropy, activation
    checkpointing. Full fine-tune (AdamW) 7210 tokens/s; LoRA 8210 and QLoRA 8035 (rank 64, alpha
    128, q, v, output_proj and the MLP: --lora-targets all_linear adds k_proj's adapter). gpuplan
    -5.3%, -8.2%, -7.2%; each within 10% (as the library test holds them)."""
    a100 = ("--model", "llama-3.2-3b", "--gpu", "a100", "--seq", "4096")
    for name, flags, published in (("full", (), 7210.0), ("LoRA", ("--lora", "64"), 8210.0),
                                   ("QLoRA", ("--qlora", "64"), 8035.0)):
        err = torchtune_error(published, *a100, *flags)
        check(abs(err) < 0.10, f"{name}: error {100 * err:.1f}% against {published} tokens/s "
                               "(tolerance 10%)")


@case("train.torchtune_4090_published")
def _():
    """torchtune README "Memory and training speed" (pytorch/torchtune 30b8519e8, 2024-09-24):
    Llama 3.1 8B on one RTX 4090, batch 2 x 2048 packed, compile; configs llama3_1/8B_*_single_device
    at that commit (activation checkpointing on). Full fine-tune (PagedAdamW8bit, optimizer in
    backward) 1650 tokens/s: gpuplan 1586, -3.9%, held within 10%. LoRA (rank 8 on q and v) 3083
    and QLoRA (rank 8 on q, k, v, output_proj and the MLP) 2413: gpuplan 2181 (-29.3%) and 1881
    (-22.1%), a known residual held in a bracket, cause not located: the LoRA row implies 145
    TFLOP/s of the frozen base's 6N FLOPs per token (88% of the 4090's 165.2 TFLOPS datasheet bf16
    rate, beyond the 0.807 matmul fraction gpuplan estimates for a GPU with no MAMF measurement),
    while the full row of the same table implies 104 TFLOP/s and reads -3.9%; the same recipes on
    the A100 read -8% (train.torchtune_a100_published)."""
    r4090 = ("--model", "llama-3.1-8b", "--gpu", "rtx-4090", "--seq", "2048")
    err = torchtune_error(1650.0, *r4090, "--optimizer", "adamw8bit")
    check(abs(err) < 0.10, f"full fine-tune: error {100 * err:.1f}% (tolerance 10%)")
    for name, flags, published in (
            ("LoRA", ("--lora", "8", "--lora-targets", "attention_qv"), 3083.0),
            ("QLoRA", ("--qlora", "8"), 2413.0)):
        err = torchtune_error(published, *r4090, *flags)
        check(-0.35 < err < -0.15, f"{name}: error {100 * err:.1f}%, outside the known residual's "
                                   "bracket -35% .. -15% (cause not located: see the docstring)")
