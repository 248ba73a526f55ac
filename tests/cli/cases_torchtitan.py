# tests/cli/cases_torchtitan.py: torchtitan's published throughput (the library's "torchtitan: ..."
# tests in tests/unit/test_training_step.cpp) typed as `gpuplan train --framework torchtitan`
# commands, with the same sources and tolerances; and the torchtitan flags' refusals. Exec'd in
# cli_tests.py's namespace (case, check, ok_json, bad, plan_file, grand_teton_node from
# cases_hardware.py, ...).


def titan_tps(gpus, *args, seq=8192):
    """TPS/GPU of a torchtitan run on Grand Teton hosts at their default 500 W (the benchmarks'
    hardware: cases_hardware.py grand_teton_node), sequences of `seq` tokens (8192: its llama3
    train configs' seq_len)."""
    node = plan_file(grand_teton_node())
    j = ok_json("train", "--framework", "torchtitan", "--gpus", str(gpus), "--zero", "3",
                "--seq", str(seq), "--node", node, "--power-limit", "500", "--no-failures", *args)
    return j["tokens_per_s"] / j["gpus"]


@case("published.torchtitan_llama3_8b_fsdp")
def _():
    """pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md Tables 1 and 3: Llama 3.1 8B,
    FSDP on 8 and 128 H100s, local batch 2, op-level selective AC; TPS/GPU for FSDP, + compile,
    + Float8; and the async-TP file's 8B FSDP 8 x TP 8 vanilla-TP rows. As the library test:
    every row in [0, +18%] (a known residual of 0.15-0.30 s per step,
    docs/models/training-time.md), compile's speed-up within 5%, float8's within 2%; the TP rows
    in [0, +25%]."""
    for gpus, published in ((8, (5762.0, 6667.0, 8532.0)), (128, (5605.0, 6514.0, 8380.0))):
        base = ("--model", "Llama-3.1-8B", "--micro-batch", "2", "--global-batch",
                str(2 * gpus), "--ac-mode", "selective-op")
        got = (titan_tps(gpus, *base), titan_tps(gpus, *base, "--compile"),
               titan_tps(gpus, *base, "--compile", "--dtype", "fp8"))
        for what, g, p in zip(("FSDP", "+ compile", "+ Float8"), got, published):
            print(f"8B {gpus} GPUs {what}: gpuplan {g:.0f}, published {p:g} ({100 * (g / p - 1):+.1f}%)")
            check(p <= g <= 1.18 * p, f"8B {gpus} GPUs {what}: {g:.0f} vs {p}")
        check(abs((got[1] / got[0]) / (published[1] / published[0]) - 1) <= 0.05,
              f"compile's speed-up {got[1] / got[0]:.3f} vs {published[1] / published[0]:.3f}")
        check(abs((got[2] / got[1]) / (published[2] / published[1]) - 1) <= 0.02,
              f"float8's speed-up {got[2] / got[1]:.3f} vs {published[2] / published[1]:.3f}")
    # benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md: 8B, FSDP 8 x TP 8, compile, per op
    # SAC, local batch 12, vanilla TP: bf16 4378, float8 tensorwise 5078.1 (the same residual)
    for dtype, p in (("bf16", 4378.0), ("fp8", 5078.1)):
        g = titan_tps(64, "--model", "Llama-3.1-8B", "--tp", "8", "--sp", "--micro-batch", "12",
                      "--global-batch", "96", "--ac-mode", "selective-op", "--compile",
                      "--dtype", dtype)
        print(f"8B FSDP 8 x TP 8 {dtype}: gpuplan {g:.0f}, published {p:g} ({100 * (g / p - 1):+.1f}%)")
        check(p <= g <= 1.25 * p, f"8B TP 8 {dtype}: {g:.0f} vs {p}")


@case("published.torchtitan_llama3_70b_2d")
def _():
    """Llama 3.1 70B on 256 H100s, FSDP 32 x TP 8, torch.compile, full AC, local batch 16:
    benchmarks/llama3_h100_202412_torchtitan.md Table 4 (float8: 2D 829, + AsyncTP 876) and
    benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md (bf16 597.3 / 652.4, float8 tensorwise
    809.8 / 942.4). Vanilla TP and --async-tp (step.async_tp: the decomposed collectives'
    GEMMs and copies: +7.8%, +12.0%, +0.2%) within 15%, its speed-up within 10%, as the library
    test."""
    base = ("--model", "Llama-3.1-70B", "--tp", "8", "--sp", "--micro-batch", "16",
            "--global-batch", "512", "--ac-mode", "full", "--compile")
    for fp8, vanilla, asynctp in ((True, 829.0, 876.0), (False, 597.3, 652.4),
                                  (True, 809.8, 942.4)):
        dtype = ("--dtype", "fp8") if fp8 else ()
        v = titan_tps(256, *base, *dtype)
        a = titan_tps(256, *base, *dtype, "--async-tp")
        print(f"70B {'float8' if fp8 else 'bf16'}: vanilla {v:.0f} vs {vanilla} "
              f"({100 * (v / vanilla - 1):+.1f}%), async {a:.0f} vs {asynctp} "
              f"({100 * (a / asynctp - 1):+.1f}%)")
        check(abs(v / vanilla - 1) <= 0.10, f"70B vanilla TP {v:.0f} vs {vanilla}")
        check(abs(a / asynctp - 1) <= 0.15, f"70B async TP {a:.0f} vs {asynctp}")
        check(abs((a / v) / (asynctp / vanilla) - 1) <= 0.10,
              f"70B async TP speed-up {a / v:.3f} vs {asynctp / vanilla:.3f}")


# benchmarks/llama3_h100_202412_torchtitan.md Tables 5 and 6: Llama 3.1 405B on 512 H100s, TP 8
# (--sp), PP 8, torch.compile, Float8 with train_configs/llama3_405b.toml's float8 all-gather,
# AsyncTP, full AC. torchtitan 9dec370 splits the batch into PP-degree micro-batches and the 126
# layers 15 / 16 x 6 / 15 over the ranks (generate_split_points; Interleaved1F1B's 16 stages
# leave ranks 0 and 7 with 7 + 8 layers too).
TITAN_405B = ("--model", "Llama-3.1-405B", "--tp", "8", "--sp", "--pp", "8", "--ac-mode", "full",
              "--compile", "--dtype", "fp8", "--async-tp", "--first-stage-layers", "15",
              "--last-stage-layers", "15", "--set", "fsdp_float8_all_gather=1")


@case("published.torchtitan_llama3_405b_3d")
def _():
    """Table 5: 405B, FSDP 8 x TP 8 x PP 8, local batch 32 (8 micro-batches of 4), global batch
    256: 1F1B 100, Interleaved 1F1B (--virtual-stages 2) 128 TPS/GPU. FSDP2 under PP gathers once
    a step and reduce-scatters after the last backward (the library's fsdp2_pipeline_exposed).
    As the library test: both within 15% (+11.1%, +13.2%: the 8B rows' known residual), the
    interleaved schedule's speed-up within 5%."""
    base = (*TITAN_405B, "--micro-batch", "4", "--global-batch", "256")
    one = titan_tps(512, *base)
    inter = titan_tps(512, *base, "--virtual-stages", "2")
    for what, g, p in (("1F1B", one, 100.0), ("interleaved 1F1B", inter, 128.0)):
        print(f"405B {what}: gpuplan {g:.1f}, published {p:g} ({100 * (g / p - 1):+.1f}%)")
        check(abs(g / p - 1) <= 0.15, f"405B {what}: {g:.1f} vs {p}")
    check(abs((inter / one) / 1.28 - 1) <= 0.05,
          f"interleaved speed-up {inter / one:.3f} vs 1.28")


@case("published.torchtitan_context_parallel")
def _():
    """Tables 2 and 6: FSDP x CP = 8 with PyTorch's all-gather ring attention (torchtitan's
    context_parallel_rotate_method "allgather": --set cp_kind=all_gather). 8B on 8 GPUs, local
    batch 1, compile, Float8, full AC: 3890, 2540, 1071, 548 TPS/GPU at CP 1, 2, 4, 8 (seq 32k to
    256k); 405B 4D (1F1B, local batch 8 = 8 micro-batches of 1): 76, 47, 31, 16. As the library
    test: 8B CP 1 in [0, +18%], CP 2 in [-5%, +18%], the 405B rows within 15% (its CP groups cross
    hosts: PyTorch's ring-attention exchanges, exposed under compile, run over the NICs); the
    8B at CP 4 and 8 are a known residual (+32%, +37%, the mechanism not located: the library
    test's comment) held in [0, +40%]."""
    for cp, seq, published, residual in ((1, 32768, 3890.0, False), (2, 65536, 2540.0, False),
                                         (4, 131072, 1071.0, True), (8, 262144, 548.0, True)):
        g = titan_tps(8, "--model", "Llama-3.1-8B", "--cp", str(cp), "--micro-batch", "1",
                      "--global-batch", str(8 // cp), "--ac-mode", "full", "--compile",
                      "--dtype", "fp8", "--set", "cp_kind=all_gather", seq=seq)
        print(f"8B CP {cp}: gpuplan {g:.0f}, published {published:g} "
              f"({100 * (g / published - 1):+.1f}%)")
        low = 0.95 if cp == 2 else 1.0
        check(low * published <= g <= (1.40 if residual else 1.18) * published,
              f"8B CP {cp}: {g:.0f} vs {published}")
    for cp, seq, published in ((1, 32768, 76.0), (2, 65536, 47.0), (4, 131072, 31.0),
                               (8, 262144, 16.0)):
        g = titan_tps(512, *TITAN_405B, "--cp", str(cp), "--micro-batch", "1", "--global-batch",
                      str(8 * (8 // cp)), "--set", "cp_kind=all_gather", seq=seq)
        print(f"405B CP {cp}: gpuplan {g:.1f}, published {published:g} "
              f"({100 * (g / published - 1):+.1f}%)")
        check(abs(g / published - 1) <= 0.15, f"405B CP {cp}: {g:.1f} vs {published}")


@case("published.torchtitan_memory")
def _():
    """benchmarks/llama3_h100_202412_torchtitan.md Tables 1 and 3, the Memory(GiB) column
    (torch.cuda reserved_bytes.all.peak / 2^30, torchtitan/metrics.py at 9dec370): Llama 3.1 8B,
    FSDP on 8 and 128 H100s, local batch 2, op-level selective AC, torch.compile: 77.0 and
    62.0 GiB. `gpuplan fit --framework torchtitan` reports the caching allocator's peak as
    per_gpu.phases.reserved_bytes (models/torchtitan_memory.hpp); as the library test
    (tests/unit/test_torchtitan_memory.cpp), within 5% (model -0.9%, +0.4%); and Table 5's
    405B under PP (below)."""
    for gpus, published in ((8, 77.0), (128, 62.0)):
        j = ok_json("fit", "--model", "Llama-3.1-8B", "--gpu", "h100", "--gpus", str(gpus),
                    "--zero", "3", "--seq", "8192", "--micro-batch", "2", "--global-batch",
                    str(2 * gpus), "--framework", "torchtitan", "--ac-mode", "selective-op",
                    "--compile")
        ph = j["per_gpu"]["phases"]
        got = ph["reserved_bytes"] / GiB
        print(f"8B FSDP {gpus}: reserved {got:.2f} GiB, published {published} "
              f"({100 * (got / published - 1):+.1f}%)")
        near(got, published, 0.05 * published, f"8B FSDP {gpus} reserved peak")
        check(j["per_gpu"]["total_bytes"] > ph["reserved_bytes"] + ph["cuda_context_bytes"] - 1,
              "total = allocator peak + context (+ NCCL buffers)")
    # Table 5: Llama 3.1 405B, FSDP 8 x TP 8 x PP 8, local batch 32 as 8 micro-batches of 4,
    # full AC, compile, Float8: 1F1B 82.5, Interleaved 1F1B 72.7 GiB (the maximum over the PP
    # ranks). Under PP the profile holds the stage's parameters unsharded in bf16 and its fp32
    # gradient accumulators (FSDP2's reshard_after_forward = False, no gradient sync until the
    # last backward). As the library test: a known residual of ~16.7 GiB on both (model -20.2%,
    # -23.0%), held in [-25%, -15%]; the schedules' difference (the interleaved rank frees its
    # last chunk's accumulators before the other chunk's backward) within 10% of the 9.8 GiB.
    got = []
    for extra, published in (((), 82.5), (("--virtual-stages", "2"), 72.7)):
        j = ok_json("fit", "--model", "Llama-3.1-405B", "--gpu", "h100", "--gpus", "512",
                    "--zero", "3", "--tp", "8", "--sp", "--pp", "8", "--first-stage-layers",
                    "15", "--last-stage-layers", "15", "--seq", "8192", "--micro-batch", "4",
                    "--global-batch", "256", "--framework", "torchtitan", "--ac-mode", "full",
                    "--compile", "--dtype", "fp8", *extra)
        got.append(j["per_gpu"]["phases"]["reserved_bytes"] / GiB)
        # the stage table is the same profile's: its largest stage is the reported GPU
        check(max(st["total_bytes"] for st in j["stages"]) == j["per_gpu"]["total_bytes"],
              f"stages {[st['total_bytes'] for st in j['stages']]} vs {j['per_gpu']['total_bytes']}")
        print(f"405B PP 8 {extra}: reserved {got[-1]:.2f} GiB, published {published} "
              f"({100 * (got[-1] / published - 1):+.1f}%)")
        check(0.75 * published <= got[-1] <= 0.85 * published, f"405B {extra}: {got[-1]:.2f}")
    check(abs((got[0] - got[1]) / 9.8 - 1) <= 0.10, f"1F1B - interleaved {got[0] - got[1]:.2f}")


TITAN_8B_FIT = ("fit", "--model", "Llama-3.1-8B", "--gpu", "h100", "--gpus", "8", "--zero", "3",
                "--seq", "8192", "--micro-batch", "2", "--global-batch", "16", "--framework",
                "torchtitan", "--ac-mode", "selective-op", "--compile")


@case("assumptions.torchtitan_profile")
def _():
    """The torchtitan profile's switches (memory_assumptions::torchtitan,
    models/framework_profile.hpp) are assumptions like any other: `gpuplan assumptions` lists them,
    --set and a plan's "assumptions" reach `fit --framework torchtitan`, the report echoes them,
    and a bad value is refused naming the field. gradients_stay_reserved=false takes the fp32
    gradient shards out of the 8B FSDP 8 reserved peak: 4 B x 8,030,261,248 / 8 (the library
    test's bytes, tests/unit/test_torchtitan_memory.cpp, within its 0.1%)."""
    listed = {a["name"]: a for a in ok_json("assumptions", "torchtitan")}
    for field in ("gradients_stay_reserved", "stranded_logits_segment", "loss_parallel_backward"):
        a = listed.get("memory.torchtitan." + field)
        check(a is not None, f"memory.torchtitan.{field} listed: {sorted(listed)}")
        check(a["default"] == "true" and a["kind"] == "flag" and a["doc"], f"{field}: {a}")
    check("reduce-scatter stream" in listed["memory.torchtitan.gradients_stay_reserved"]["doc"],
          "the field's source is listed")
    base = ok_json(*TITAN_8B_FIT)
    off = ok_json(*TITAN_8B_FIT, "--set", "gradients_stay_reserved=false")
    drop = base["per_gpu"]["phases"]["reserved_bytes"] - off["per_gpu"]["phases"]["reserved_bytes"]
    grads = 4.0 * 8030261248 / 8
    print(f"gradients_stay_reserved=false: reserved peak -{drop / GiB:.3f} GiB "
          f"(fp32 gradient shards {grads / GiB:.3f} GiB)")
    near(drop, grads, 0.001 * grads, "the reserved peak drops by the gradient shards")
    check(base["assumptions"] == {}, f"nothing changed: {base['assumptions']}")
    check(off["assumptions"] == {"memory.torchtitan.gradients_stay_reserved": "false"},
          off["assumptions"])
    text = ok(*TITAN_8B_FIT, "--set", "memory.torchtitan.gradients_stay_reserved=false").out
    check("memory.torchtitan.gradients_stay_reserved false (default true)" in text, text)
    planned = ok_json(*TITAN_8B_FIT, "--plan", plan_file(
        {"assumptions": {"memory": {"torchtitan": {"gradients_stay_reserved": False}}}}))
    check(planned["per_gpu"]["phases"]["reserved_bytes"] ==
          off["per_gpu"]["phases"]["reserved_bytes"], "a plan's assumptions say what --set says")
    strand = ok_json(*TITAN_8B_FIT, "--set", "memory.torchtitan.stranded_logits_segment=false")
    logits = 16384.0 * 128256 * 2  # the bf16 logits' segment, as the library test
    near(base["per_gpu"]["phases"]["reserved_bytes"] - strand["per_gpu"]["phases"]["reserved_bytes"],
         logits, 1.0, "the stranded logits segment")
    bad(r"--set gradients_stay_reserved=maybe: assumption memory\.torchtitan\."
        r"gradients_stay_reserved = 'maybe' must be true or false", *TITAN_8B_FIT, "--set",
        "gradients_stay_reserved=maybe")
    bad(r"assumption 'stranded_logits_segment' is ambiguous: give one of "
        r"memory\.transformers\.stranded_logits_segment, memory\.torchtitan\.stranded_logits_segment",
        *TITAN_8B_FIT, "--set", "stranded_logits_segment=false")


@case("train.torchtitan_flags")
def _():
    """--ac-mode maps torchtitan's modes onto --recompute; what does not apply is refused naming
    the flag."""
    base = ("train", "--model", "Llama-3.1-8B", "--gpus", "8", "--zero", "3", "--seq", "4096",
            "--no-failures")
    j = ok_json("fit", "--model", "Llama-3.1-8B", "--gpu", "h100", "--gpus", "8", "--zero", "3",
                "--seq", "4096", "--framework", "torchtitan", "--ac-mode", "every-2", "--compile")
    check(j["config"]["recompute"] == "full" and j["config"]["recompute_every"] == 2,
          f"every-2: {j['config']['recompute']}, {j['config'].get('recompute_every')}")
    check(j["config"]["compile"] is True and j["config"]["framework"] == "torchtitan",
          "--compile under torchtitan")
    check(j["config"]["grad_dtype"] == "fp32", "torchtitan reduces gradients in fp32")
    sel = ok_json(*base, "--framework", "torchtitan", "--ac-mode", "selective-op")
    none = ok_json(*base, "--framework", "torchtitan", "--ac-mode", "none")
    full = ok_json(*base, "--framework", "torchtitan", "--ac-mode", "full")
    check(none["step_time_s"] < sel["step_time_s"] < full["step_time_s"],
          f"op SAC between none and full: {none['step_time_s']}, {sel['step_time_s']}, "
          f"{full['step_time_s']}")
    text = ok(*base, "--framework", "torchtitan", "--compile", "--ac-mode", "every-4").out
    check("framework torchtitan (FSDP2, torch.compile, full AC every 4 layers)" in text,
          f"the framework line: {text[:400]!r}")
    hf = ok_json(*base, "--framework", "transformers")
    hfc = ok_json(*base, "--framework", "transformers", "--compile")
    check(hfc["step_time_s"] < hf["step_time_s"], "transformers --compile fuses the elementwise ops")
    bad(r"--ac-mode selective-op is torchtitan's", *base, "--ac-mode", "selective-op")
    bad(r"--ac-mode must be none, full, selective-op or every-K", *base, "--framework",
        "torchtitan", "--ac-mode", "every-0")
    bad(r"--ac-mode and --recompute both set", *base, "--framework", "torchtitan", "--ac-mode",
        "full", "--recompute", "full")
    bad(r"--compile needs --framework transformers or torchtitan", *base, "--framework",
        "megatron", "--compile")
    bad(r"--async-tp needs --compile", *base, "--framework", "torchtitan", "--async-tp")
    bad(r"--async-tp is torchtitan's", *base, "--framework", "megatron", "--async-tp")
    # torchao's float8 all-gather needs its float8 linears
    bad(r"step_assumptions\.fsdp_float8_all_gather needs framework torchtitan and dtype fp8", *base,
        "--framework", "torchtitan", "--set", "fsdp_float8_all_gather=1")
    # --async-tp sets step.async_tp: the same assumption by --set is refused rather than the
    # later one winning silently
    bad(r"--set async_tp=1: step\.async_tp is also set by --async-tp: give one", *base,
        "--framework", "torchtitan", "--compile", "--async-tp=false", "--set", "async_tp=1")
    bad(r"torchtitan shards data parallelism with FSDP2: add --zero 3", "train", "--model",
        "Llama-3.1-8B", "--gpus", "8", "--framework", "torchtitan")
    bad(r"sequence-parallel.*add --sp", "train", "--model", "Llama-3.1-8B", "--gpus", "8",
        "--tp", "8", "--framework", "torchtitan")


@case("search.torchtitan_fsdp2")
def _():
    """search --framework torchtitan explores Megatron's space with ZeRO-3 only (FSDP2), and times
    each configuration under the torchtitan profile."""
    j = ok_json("search", "--model", "Llama-3.1-8B", "--gpu", "h100", "--gpus", "8",
                "--global-batch", "16", "--seq", "8192", "--tokens", "1B", "--framework",
                "torchtitan", "--compile")
    check(j["framework"] == "torchtitan", f"framework {j['framework']}")
    check(j["space"]["zero"] == [3], f"ZeRO stages searched: {j['space']['zero']}")
    check(len(j["top"]) > 0, "a configuration found")
