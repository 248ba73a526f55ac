// tools/gpuplan/options.cpp: the field tables of the shared groups, the settings store (flags,
// plan files, names for messages) and the builders from settings to the library's inputs.
#include "options.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/io/json.hpp>
#include <gpuplan/io/node_json.hpp>
#include <gpuplan/models/power_limit.hpp>
#include <gpuplan/models/inference_memory.hpp>
#include <gpuplan/models/serving.hpp>
#include <gpuplan/specs/name.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuplan::cli {

namespace {

using ft = field_type;

// Each field of the library's configurations is a flag and a plan-file key, named as the
// framework it comes from names it (Megatron-LM, DeepSpeed, vLLM).
constexpr field model_table[] = {
    {"model", "--model", ft::spec, "model",
     "Catalog name, config.json path (or its folder), or params:N (e.g. params:7.5e9)"},
};
constexpr field gpu_table[] = {
    {"gpu", "--gpu", ft::spec, "gpu",
     "Catalog GPU (any case, aliases: h100, H100-SXM5-80GB), a GPU JSON file, or 'local' (probe "
     "this machine); default H100-SXM5-80GB"},
    {"gpus", "--gpus", ft::count, "gpu", "Number of GPUs (default: dp x tp x pp x cp)"},
};
constexpr field node_table[] = {
    {"node", "--node", ft::spec, "node",
     "Catalog node (DGX-H100, HGX-H200, ...) or a node JSON file (its GPU a catalog name or a GPU "
     "object; docs/json-schema.md): GPUs per node, NVLink/NVSwitch, NICs"},
    {"power_limit", "--power-limit", ft::number, "node",
     "GPU power limit in W (nvidia-smi -pl), at most the GPU's TDP: lower sustained clocks, so "
     "lower math rates, and draw at most this (docs/models/energy.md)"},
};
constexpr field layout_table[] = {
    {"zero", "--zero", ft::count0, "layout",
     "ZeRO stage 0|1|2|3 over the data-parallel ranks (FSDP full shard = 3)", field_use::train},
    {"dp", "--dp", ft::count, "layout", "Data-parallel degree (default: what --gpus leaves)"},
    {"tp", "--tp", ft::count, "layout", "Tensor-parallel degree"},
    {"pp", "--pp", ft::count, "layout", "Pipeline-parallel degree"},
    {"cp", "--cp", ft::count, "layout", "Context-parallel degree", field_use::train},
    {"ep", "--ep", ft::count, "layout", "Expert-parallel degree (MoE; carved out of dp x cp)"},
    {"sp", "--sp", ft::flag, "layout", "Megatron sequence parallelism (with --tp)", field_use::train},
    {"virtual_stages", "--virtual-stages", ft::count, "layout",
     "Interleaved 1F1B model chunks per pipeline rank", field_use::train},
    {"expert_tp", "--expert-tp", ft::count, "layout",
     "Tensor-parallel degree inside the experts (Megatron --expert-tensor-parallel-size; "
     "default: --tp)"},
    {"shard_group", "--shard-group", ft::count, "layout",
     "FSDP hybrid shard / ZeRO++ hpZ: shard over groups of this many dp ranks (default: all)", field_use::train},
    {"first_stage_layers", "--first-stage-layers", ft::count, "layout",
     "Transformer layers on the first pipeline stage (Megatron-LM "
     "--decoder-first-pipeline-num-layers; default: the even split)"},
    {"last_stage_layers", "--last-stage-layers", ft::count, "layout",
     "Transformer layers on the last pipeline stage (Megatron-LM "
     "--decoder-last-pipeline-num-layers; default: the even split)"},
};
constexpr field training_table[] = {
    {"framework", "--framework", ft::text, "train",
     "The stack that trains: transformers|megatron|torchtitan (FSDP2 --zero 3, --compile, "
     "--dtype fp8 = torchao float8, --async-tp, --ac-mode). Default: transformers (Hugging Face + PyTorch "
     "eager, what most fine-tuning runs use); megatron when the plan needs Megatron-LM (--tp, --pp, "
     "--cp, --ep > 1, --sp, --virtual-stages, --recompute selective, --offload, --dtype fp8, "
     "--dropout, --flash-attention=false, a mixture-of-experts model or params:N). See "
     "docs/models/framework-memory.md", field_use::train},
    {"amp", "--amp", ft::flag, "train",
     "transformers: automatic mixed precision as Trainer(bf16=True): fp32 parameters, gradients "
     "and AdamW states (16 B/param), compute under autocast(--dtype)", field_use::train},
    {"chunked_loss", "--chunked-loss", ft::flag, "train",
     "transformers: fused/chunked linear cross entropy (Liger) instead of b x s x vocab logits",
     field_use::train},
    {"compile", "--compile", ft::flag, "train",
     "transformers, torchtitan: torch.compile per transformer block (the elementwise ops fused; "
     "GEMMs, attention and the loss as before)", field_use::train},
    {"ac_mode", "--ac-mode", ft::text, "train",
     "torchtitan's activation checkpointing: none|full|selective-op (saves matmul outputs but "
     "every second, recomputes the rest)|every-K (full on every K-th layer); sets --recompute",
     field_use::train},
    {"dtype", "--dtype", ft::text, "train", with_values<"Training precision: ", training_dtypes, " (default bf16)">, field_use::train},
    {"grad_dtype", "--grad-dtype", ft::text, "train",
     with_values<"Gradient precision: ", gradient_dtypes,
                 " (default: --dtype; fp32 = Megatron's 18 B/param)">,
     field_use::train},
    {"optimizer", "--optimizer", ft::text, "train",
     with_names<"", optimizer_kind, " (default adamw)">, field_use::train},
    {"master_weights", "--master-weights", ft::flag, "train",
     "fp32 master copy of the weights in the optimizer (on by default; =false: off, and under "
     "transformers pure bf16/fp16: parameters, gradients and AdamW states, 8 B/param)", field_use::train},
    {"recompute", "--recompute", ft::text, "train",
     with_names<"Activation recomputation: ", recompute_mode,
                " (transformers: full = gradient_checkpointing_enable(); selective is "
                "Megatron's)">,
     field_use::train},
    {"micro_batch", "--micro-batch", ft::count, "train", "Sequences per micro-batch (default 1)", field_use::train},
    {"seq", "--seq", ft::count, "train", "Tokens per sequence (default 2048)", field_use::train},
    {"micro_batches", "--micro-batches", ft::count, "train",
     "Micro-batches per step per pipeline (gradient accumulation; default: enough to fill it)", field_use::train},
    {"global_batch", "--global-batch", ft::count, "train",
     "Sequences per optimizer step over all dp ranks (Megatron --global-batch-size)", field_use::train},
    {"flash_attention", "--flash-attention", ft::flag, "train",
     "Fused attention, no s x s scores stored (on by default; --flash-attention=false: off)", field_use::train},
    {"dropout", "--dropout", ft::flag, "train",
     "Dropout layers storing 1-byte masks (GPT-3 / Megatron's GPT; off by default, as in Llama)", field_use::train},
    {"lora", "--lora", ft::count, "train", "LoRA fine-tuning with this rank (frozen base)", field_use::train},
    {"qlora", "--qlora", ft::count, "train", "QLoRA fine-tuning with this rank (4-bit NF4 base)", field_use::train},
    {"double_quant", "--double-quant", ft::flag, "train",
     "QLoRA's double quantisation of the NF4 constants (bitsandbytes bnb_4bit_use_double_quant; "
     "on by default, as in the QLoRA paper; =false: off, 0.5 bits a weight of fp32 constants)",
     field_use::train},
    {"lora_targets", "--lora-targets", ft::text, "train",
     with_names<"Matrices with adapters: ", lora_target, " (default all_linear)">, field_use::train},
    {"offload", "--offload", ft::text, "train", with_values<"CPU offload: ", offload_choices>, field_use::train},
};
constexpr field serving_table[] = {
    {"weight_dtype", "--weight-dtype", ft::text, "serve",
     "Serving weights: bf16|fp16|fp8|int8|int4|fp4 (default: as the checkpoint ships them: its "
     "quantisation, e.g. DeepSeek-V3's fp8 blocks or gpt-oss's MXFP4 experts, else its 16-bit "
     "dtype)", field_use::serve},
    {"kv_dtype", "--kv-dtype", ft::text, "serve", with_values<"KV cache: ", kv_dtypes, " (default bf16)">, field_use::serve},
    {"batch", "--batch", ft::count, "serve", "Concurrent sequences (default 1)", field_use::serve},
    {"context", "--context", ft::count, "serve",
     "Tokens per sequence, prompt + output (default 4096)", field_use::serve},
    {"max_model_len", "--max-model-len", ft::count, "serve",
     "vLLM --max-model-len: the longest sequence the KV cache must hold for the plan to fit "
     "(vLLM refuses to start otherwise), and fit's concurrency figure (default: --context where "
     "the command takes it, else 4096 tokens, inference_config::context)", field_use::serve},
    {"gpu_memory_utilization", "--gpu-memory-utilization", ft::number, "serve",
     "Share of GPU memory the engine may use (default 0.9, vLLM's)", field_use::serve},
    {"block_size", "--block-size", ft::count, "serve",
     "KV-cache block in tokens (default 16, vLLM's)", field_use::serve},
    {"max_num_batched_tokens", "--max-num-batched-tokens", ft::count, "serve",
     "vLLM --max-num-batched-tokens: tokens of the largest forward pass, its activation peak "
     "(default 8192; old vLLM profiled max(max_model_len, 2048))", field_use::serve},
    {"max_num_seqs", "--max-num-seqs", ft::count, "serve",
     "vLLM --max-num-seqs: sequences sampled at once, rows of logits (default 256)", field_use::serve},
    {"quant_group_size", "--quant-group-size", ft::count, "serve",
     "Weights per scale for int8/int4 (GPTQ/AWQ group size, default 128)", field_use::serve},
    {"quant_scale_dtype", "--quant-scale-dtype", ft::text, "serve",
     with_values<"dtype of each group's scale: ", quant_scale_dtypes, " (default fp16)">,
     field_use::serve},
    {"quant_zero_point", "--quant-zero-point", ft::flag, "serve",
     "Asymmetric quantisation: a zero point per group (AWQ)", field_use::serve},
    {"engine", "--engine", ft::text, "serve",
     with_names<"Serving engine whose KV-cache rule applies: ", serving_engine,
                " (default vllm, today's; vllm-v0-mem-get-info: v0.2.5-v0.6.3, "
                "vllm-v0-torch-peak: <= v0.2.4, vllm-v0-record-stream: v0.2.5 with TP > 1)">,
     field_use::serve},
    {"mem_fraction_static", "--mem-fraction-static", ft::number, "serve",
     "SGLang --mem-fraction-static (default: SGLang's by tp size, 0.88 at tp 1)",
     field_use::serve},
    {"free_gpu_memory_fraction", "--free-gpu-memory-fraction", ft::number, "serve",
     "TensorRT-LLM free_gpu_memory_fraction: share of the memory free after the weights "
     "(default 0.9)",
     field_use::serve},
};

bool is_plan_meta(std::string_view k) {
  return k == "$schema" || k == "comment" || k == "description";
}

/// Refuses an empty value ("--wait-slo ''"), which CLI11 would read as 0 for a number or a count
/// (an SLO of 0 s, 0 g/kWh) and as "" for a text (gpuplan issue 22): no field means anything by
/// an empty value.
CLI::Validator non_empty(const char* what) {
  return CLI::Validator(
      [what](const std::string& v) -> std::string {
        // a value of spaces alone (or a newline) is as empty: ' ' read as a file name said
        // " : no such file"
        return v.find_first_not_of(" \t\r\n") == std::string::npos
                   ? fmt::format("empty value: give {}", what)
                   : std::string();
      },
      "");
}

constexpr field assumption_table[] = {
    {"assumptions", "--set", ft::assignments, "assumptions",
     "Any assumption of the models, NAME=VALUE, repeatable (--set step.tp_overlap=1 --set "
     "memory.cuda_context=300MiB; a unique tail such as tp_overlap will do). `gpuplan "
     "assumptions` lists every name with its default, unit and source"},
};

/// Megatron-LM's flags for what gpuplan holds as step assumptions: each sets one.
constexpr field step_assumption_table[] = {
    {"tp_comm_overlap", "--tp-comm-overlap", ft::flag, "train",
     "Tensor-parallel communication hidden behind the GEMMs, as Megatron-LM's --tp-comm-overlap "
     "(Transformer Engine userbuffers) does: step.tp_overlap = 1 (default off)",
     field_use::train},
    {"async_tp", "--async-tp", ft::flag, "train",
     "torchtitan's async tensor parallelism (needs --compile: Inductor's micro-pipelined TP "
     "overlaps the TP all-gathers and reduce-scatters with the GEMMs): step.async_tp = true",
     field_use::train},
    {"overlap_grad_reduce", "--overlap-grad-reduce", ft::flag, "train",
     "Gradient reduction overlapped with the backward pass (Megatron-LM --overlap-grad-reduce; "
     "default on, =false as DeepSpeed's pipeline engine and 2021 Megatron-LM)",
     field_use::train},
    {"overlap_param_gather", "--overlap-param-gather", ft::flag, "train",
     "Distributed-optimizer parameter all-gather overlapped with the next forward (Megatron-LM "
     "--overlap-param-gather; default on)",
     field_use::train},
    {"cross_entropy_loss_fusion", "--cross-entropy-loss-fusion", ft::flag, "train",
     "Megatron-LM's fused cross entropy (--cross-entropy-loss-fusion; NeMo's recipes set it): "
     "32 instead of 52 bytes moved per bf16 logit: step.cross_entropy_fusion = true (default "
     "off, as Megatron-LM)",
     field_use::train},
    {"overlap_p2p_comm", "--overlap-p2p-comm", ft::flag, "train",
     "Pipeline sends and receives hidden behind compute (Megatron-LM --overlap-p2p-comm with the "
     "interleaved schedule): step.p2p_overlap = 1 (default off)",
     field_use::train},
};

/// Which step assumption each flag of step_assumption_table sets, and to what when the flag is
/// on and off (a fraction hidden, or a boolean).
struct step_flag {
  std::string_view key;
  std::string_view assumption;
  std::string_view on, off;
};
constexpr step_flag step_flags[] = {
    {"tp_comm_overlap", "step.tp_overlap", "1", "0"},
    {"async_tp", "step.async_tp", "true", "false"},
    {"overlap_grad_reduce", "step.overlap_grad_reduce", "true", "false"},
    {"overlap_param_gather", "step.overlap_param_gather", "true", "false"},
    {"cross_entropy_loss_fusion", "step.cross_entropy_fusion", "true", "false"},
    {"overlap_p2p_comm", "step.p2p_overlap", "1", "0"},
};

/// A plan's "assumptions" object as NAME, VALUE pairs: nested objects joined with '.', values
/// as text (strings as they are, numbers and booleans as JSON writes them).
void flatten_assumptions(const nlohmann::json& j, const std::string& prefix,
                         const std::string& file,
                         std::vector<std::pair<std::string, std::string>>& out) {
  for (const auto& [k, v] : j.items()) {
    const std::string name = prefix.empty() ? k : prefix + "." + k;
    if (v.is_object())
      flatten_assumptions(v, name, file, out);
    else if (v.is_string())
      out.emplace_back(name, v.get<std::string>());
    else if (v.is_number() || v.is_boolean())
      out.emplace_back(name, v.dump());
    else
      throw io::error(fmt::format("{}: key 'assumptions': {} must be a string, a number or a "
                                  "boolean",
                                  file, name));
  }
}

}  // namespace

std::span<const field> assumption_fields() { return assumption_table; }
std::span<const field> step_assumption_fields() { return step_assumption_table; }

assumption_set assumptions_from(const settings& s) {
  assumption_set a;
  std::map<std::string, std::string, std::less<>> by_flag;  // assumption -> the step flag
  for (const step_flag& f : step_flags) {
    if (!s.has(f.key)) continue;
    // two flags setting one assumption: one of them
    if (const auto it = by_flag.find(f.assumption); it != by_flag.end())
      throw usage_error(fmt::format("{} and {} both set {}: give one", it->second, s.name(f.key),
                                    f.assumption));
    const std::string value(s.flag(f.key).value_or(false) ? f.on : f.off);
    try {
      io::set_assumption(a, f.assumption, value);
    } catch (const io::error& e) {
      throw usage_error(fmt::format("{}: {}", s.name(f.key), e.what()));
    }
    by_flag.emplace(f.assumption, s.name(f.key));
  }
  auto apply = [&](const std::string& name, const std::string& value, const std::string& who) {
    std::string full;
    try {
      full = io::assumption_name(name);
      if (const auto it = by_flag.find(full); it != by_flag.end())
        throw io::error(fmt::format("{} is also set by {}: give one", full, it->second));
      io::set_assumption(a, full, value);
    } catch (const io::error& e) {
      throw usage_error(fmt::format("{}: {}", who, e.what()));
    }
  };
  if (const nlohmann::json* p = s.plan_value("assumptions")) {
    std::vector<std::pair<std::string, std::string>> items;
    flatten_assumptions(*p, "", s.plan_file(), items);
    for (const auto& [name, value] : items)
      apply(name, value, fmt::format("{}: key 'assumptions'", s.plan_file()));
  }
  if (const nlohmann::json* f = s.flag_value("assumptions"))
    for (const nlohmann::json& item : *f) {
      const std::string text = item.get<std::string>();
      const auto eq = text.find('=');
      if (eq == std::string::npos || eq == 0)
        throw usage_error(fmt::format("--set '{}' must be NAME=VALUE (`gpuplan assumptions` lists "
                                      "the names)",
                                      text));
      apply(text.substr(0, eq), text.substr(eq + 1), "--set " + text);
    }
  return a;
}

std::string assumptions_text(const assumption_set& a) {
  std::string out;
  for (const io::changed_assumption& c : io::changed_assumptions(a))
    out += fmt::format("{}{} {} (default {})", out.empty() ? "assumptions: " : ", ", c.name,
                       c.display, c.default_value);
  return out;
}

nlohmann::json assumptions_json(const assumption_set& a) {
  nlohmann::json j = nlohmann::json::object();
  for (const io::changed_assumption& c : io::changed_assumptions(a)) j[c.name] = c.value;
  return j;
}

std::span<const field> model_fields() { return model_table; }
std::span<const field> gpu_fields() { return gpu_table; }
std::span<const field> node_fields() { return node_table; }
std::span<const field> layout_fields() { return layout_table; }
std::span<const field> training_fields() { return training_table; }
std::span<const field> serving_fields() { return serving_table; }

// ---- settings -----------------------------------------------------------------------------------

void settings::add(CLI::App* app, std::span<const field> fields) {
  for (const field& f : fields) {
    fields_.push_back(f);
    const std::string flag(f.flag), key(f.key), help(f.help);
    switch (f.type) {
      case ft::custom:
        break;
      case ft::flag:
        // --sp, --sp=true, --sp=false. The value is checked before CLI11 converts it: a word
        // it does not know (--sp=maybe) would otherwise escape as std::stoll's bare "stoll".
        app->add_flag_function(
               flag + "{true}", [this, key](std::int64_t v) { flags_[key] = v > 0; }, help)
            ->disable_flag_override(false)
            ->check(CLI::Validator(
                [](const std::string& v) -> std::string {
                  try {
                    (void)CLI::detail::to_flag_value(v);
                    return {};
                  } catch (const std::exception&) {
                    return fmt::format("'{}' is not true or false", v);
                  }
                },
                ""));
        break;
      case ft::count:
      case ft::count0:
        app->add_option_function<int>(
               flag, [this, key](const int& v) { flags_[key] = v; }, help)
            ->check(non_empty("a whole number"));
        break;
      case ft::number:
        app->add_option_function<double>(
               flag, [this, key](const double& v) { flags_[key] = v; }, help)
            ->check(non_empty("a number"));
        break;
      case ft::text:
      case ft::spec:
      case ft::list:
        app->add_option_function<std::string>(
               flag, [this, key](const std::string& v) { flags_[key] = v; }, help)
            ->check(non_empty("a value"));
        break;
      case ft::assignments:
        // one NAME=VALUE per flag, the flag repeated; kept in order, read by assumptions_from
        app->add_option_function<std::vector<std::string>>(
               flag,
               [this, key](const std::vector<std::string>& v) {
                 nlohmann::json& list = flags_[key];
                 for (const std::string& x : v) list.push_back(x);
               },
               help)
            ->allow_extra_args(false)
            ->check(non_empty("NAME=VALUE"));
        break;
    }
  }
}

void settings::add(CLI::App* app, std::initializer_list<std::span<const field>> groups) {
  for (const auto& g : groups) add(app, g);
}

void settings::add_plan_option(CLI::App* app) {
  app->add_option_function<std::string>(
      "--plan", [this](const std::string& v) { plan_option_ = v; },
      "JSON plan file with the same fields; flags beside it override it");
}

void settings::set_flag(std::string_view key, nlohmann::json value) {
  flags_[std::string(key)] = std::move(value);
}

void settings::forget_plan_value(std::string_view key) {
  if (const auto it = plan_.find(key); it != plan_.end()) plan_.erase(it);
}

void settings::refuse(CLI::App* app, std::string_view key, std::string why) {
  const field& f = info(key);
  CLI::Option* o = app->get_option_no_throw(std::string(f.flag));
  if (o == nullptr) throw std::logic_error("settings::refuse: no flag " + std::string(f.flag));
  o->group("");  // CLI11: an option of the empty group is parsed but not listed by --help
  refused_.emplace_back(std::string(key), std::move(why));
}

void settings::refuse(CLI::App* app, field_use use, const std::string& why) {
  std::vector<std::string> keys;
  for (const field& f : fields_)
    if (f.use == use && f.type != ft::custom) keys.emplace_back(f.key);
  for (const std::string& k : keys) refuse(app, k, why);
}

void settings::read_plan() {
  read_plan_file();
  for (const auto& [key, why] : refused_)
    if (has(key)) throw usage_error(fmt::format("{} {}", name(key), why));
}

void settings::use_plan_object(nlohmann::json plan, std::string label) {
  plan_object_ = std::move(plan);
  plan_object_label_ = std::move(label);
}

void settings::read_plan_file() {
  if (!plan_option_ && !plan_object_) return;
  if (plan_option_ && plan_object_)  // a bug of the caller, not the user's input
    throw std::logic_error("settings: a --plan file and a plan object both given");
  const std::string file = plan_option_ ? *plan_option_ : plan_object_label_;
  if (plan_option_ && std::all_of(file.begin(), file.end(), [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }))
    throw usage_error("--plan needs a file name (got an empty one)");
  plan_file_ = file;
  plan_.clear();  // a plan object is read again for each run of a command parsed once (api.cpp)
  const nlohmann::json j = plan_option_ ? io::read_json_file(file) : *plan_object_;
  if (!j.is_object()) throw io::error(file + ": a plan must be a JSON object");
  const io::json_source src{file, ""};
  // A plan object has no folder: a relative path in it names a file from the working directory.
  const std::filesystem::path dir =
      plan_option_ ? std::filesystem::path(file).parent_path() : std::filesystem::path();
  for (const auto& [raw_key, v] : j.items()) {
    std::string k = raw_key;
    std::replace(k.begin(), k.end(), '-', '_');
    if (is_plan_meta(k)) continue;
    const auto f = std::find_if(fields_.begin(), fields_.end(),
                                [&](const field& x) { return x.key == k; });
    if (f == fields_.end()) {
      std::string_view best;
      int best_d = 1 << 30;
      for (const field& x : fields_)
        if (const int d = edit_distance(k, x.key); d < best_d) {
          best_d = d;
          best = x.key;
        }
      throw io::error(file + ": unknown key '" + raw_key + "'" +
                      (best_d <= 3 ? "; did you mean '" + std::string(best) + "'?" : ""));
    }
    if (plan_.count(k) != 0) throw io::error(file + ": key '" + k + "' given twice");
    const nlohmann::json one = {{k, v}};
    if (v.is_string() && v.get_ref<const std::string&>().empty())
      throw io::error(file + ": key '" + raw_key + "' is empty: give a value");
    switch (f->type) {
      case ft::count: plan_[k] = io::get_count(one, k, src); break;
      case ft::count0: plan_[k] = io::get_count(one, k, src, true); break;
      case ft::number: plan_[k] = io::get_number(one, k, src); break;
      case ft::flag: plan_[k] = io::get_bool_or(one, k, src, false); break;
      case ft::text:
      case ft::custom:
        // A number where the flag reads text ("tokens": 1e12, the flag's "1e12" or "1T"): its
        // JSON spelling, read as the flag's text is.
        if (v.is_number() && f->type == ft::text)
          plan_[k] = v.dump();
        else
          plan_[k] = io::get_string(one, k, src);
        break;
      case ft::list: {
        auto scalar = [](const nlohmann::json& x) {
          return x.is_string() || x.is_number() || x.is_boolean();
        };
        if (!scalar(v) && !(v.is_array() && !v.empty() && std::all_of(v.begin(), v.end(), scalar)))
          throw io::error(file + ": key '" + k +
                          "' must be a string, a number, a boolean or a non-empty array of them");
        plan_[k] = v;
        break;
      }
      case ft::assignments:
        if (!v.is_object())
          throw io::error(file + ": key '" + k + "' must be an object of NAME: VALUE");
        plan_[k] = v;
        break;
      case ft::spec:
        if (v.is_object()) {
          plan_[k] = v;
        } else {
          std::string text = io::get_string(one, k, src);
          // A relative path names a file beside the plan, when one is there.
          std::error_code ec;
          const std::filesystem::path beside = dir / text;
          if (text.rfind("params:", 0) != 0 && !dir.empty() &&
              std::filesystem::path(text).is_relative() && std::filesystem::exists(beside, ec) &&
              !std::filesystem::exists(text, ec))
            text = beside.string();
          plan_[k] = text;
        }
        break;
    }
  }
}

const nlohmann::json* settings::value(std::string_view key) const {
  if (const auto it = flags_.find(key); it != flags_.end()) return &it->second;
  if (const auto it = plan_.find(key); it != plan_.end()) return &it->second;
  return nullptr;
}

const nlohmann::json* settings::flag_value(std::string_view key) const {
  const auto it = flags_.find(key);
  return it == flags_.end() ? nullptr : &it->second;
}
const nlohmann::json* settings::plan_value(std::string_view key) const {
  const auto it = plan_.find(key);
  return it == plan_.end() ? nullptr : &it->second;
}

bool settings::has(std::string_view key) const { return value(key) != nullptr; }
bool settings::from_flags(std::string_view key) const { return flags_.find(key) != flags_.end(); }
bool settings::from_plan(std::string_view key) const { return plan_.find(key) != plan_.end(); }

std::vector<const field*> settings::given() const {
  std::vector<const field*> out;
  for (const field& f : fields_)
    if (has(f.key)) out.push_back(&f);
  return out;
}

bool settings::refused(std::string_view key) const {
  return std::any_of(refused_.begin(), refused_.end(), [&](const auto& r) { return r.first == key; });
}

const field& settings::info(std::string_view key) const {
  for (const field& f : fields_)
    if (f.key == key) return f;
  throw std::logic_error("gpuplan: no field '" + std::string(key) + "'");
}

std::string settings::name(std::string_view key) const {
  if (plan_file_.empty() || from_flags(key)) return std::string(info(key).flag);
  return plan_file_ + ": key '" + std::string(key) + "'";
}

// ---- the library's names in the user's terms -----------------------------------------------------

namespace {

/// The library's structs whose fields are a command's settings of the same name
/// ("training_config.global_batch" is --global-batch): gpuplan's plan keys are the library's field
/// names (options.hpp), so one list of structs is the table, and library_names below holds only
/// the names that differ.
constexpr std::string_view setting_structs[] = {
    "training_config", "layout", "parallel_layout", "inference_config", "training_search_space",
    "serving_search_space", "serving_plan", "training_plan", "cluster_spec", "capacity_request",
    "demand_profile", "queue_model", "replica_capacity", "run_cost_inputs", "run_usage",
    "site_spec", "reliability_assumptions", "wait_slo",
};

/// A library name that is not "<struct>.<plan key>", and the setting it is. `text`, when given,
/// replaces the whole of `name`, with "{}" where the setting's name goes (for a library function's
/// message that names none of the user's settings, as min_servers's).
struct library_name {
  std::string_view name;
  std::string_view key;
  std::string_view text = {};
};
constexpr library_name library_names[] = {
    {"training_config.lora_rank", "lora"},
    {"training_config.qlora_rank", "qlora"},
    {"training_config.qlora_double_quant", "double_quant"},
    {"training_config.rampup_start", "rampup_batch_size"},
    {"training_config.rampup_increment", "rampup_batch_size"},
    {"training_config.rampup_samples", "rampup_batch_size"},
    {"layout.sequence_parallel", "sp"},
    {"serving_plan.compute_dtype", "dtype"},
    {"training_search_space.precision_regimes", "amp"},
    {"training_search_space.sequence_parallel", "sp"},
    {"wait_slo.max_wait", "wait_slo"},
    {"wait_slo.percentile", "wait_percentile"},
    {"demand_profile.mean", "rate"},
    {"queue_model.arrival_rate", "rate", "the arrival rate (from {}, --peak-factor, --growth)"},
    {"queue_model.mean_service", "service_time"},
    {"replica_capacity.mean_service", "service_time"},
    {"capacity_request.monthly_growth", "growth"},
    {"capacity_request.replica_price", "price"},
    {"run_usage.gpu_time", "gpu_hours"},
    {"site_spec.electricity", "electricity_price"},
    {"site_spec.grid", "carbon_intensity"},
    {"site_spec.rack_budget", "rack_budget_kw"},
    {"reliability_assumptions.checkpoint_interval", "checkpoint_interval_hours"},
    {"reliability_assumptions.checkpoint_write", "checkpoint_write_seconds"},
    {"reliability_assumptions.restart", "restart_minutes"},
    // capacity: no replica count meets the wait SLO at the demand (queueing.hpp's min_servers)
    {"min_servers: no server count up to max_servers meets the wait SLO", "rate",
     "{}: no replica count up to the search's limit meets the wait SLO at the peak demand "
     "(--peak-factor, --growth)"},
};

/// The library's specs that are one setting of a command, given by a name or a file: their
/// fields are named as "<setting>: <field>" ("--gpu my.json: memory_bandwidth").
constexpr library_name spec_structs[] = {
    {"gpu_spec", "gpu"},   {"transformer_spec", "model"}, {"model", "model"},
    {"generic_workload", "model"}, {"node_spec", "node"}, {"cloud_price", "prices"},
    {"onprem_costs", "prices"},
};
/// What follows a dot in a file's name, not a spec's field ("model.json").
constexpr std::string_view file_extensions[] = {"json", "csv", "svg", "png", "gp", "dat", "txt",
                                                "yaml", "yml"};

/// The most characters of a value the user gave that a message repeats.
constexpr std::size_t max_echoed_value = 80;

bool identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::string echoed(const nlohmann::json& v) {
  std::string text = v.is_string()           ? v.get<std::string>()
                     : v.is_number_float() ? fmt::format("{}", v.get<double>())
                                           : v.dump();
  if (text.size() > max_echoed_value) text = text.substr(0, max_echoed_value - 3) + "...";
  return text;
}

}  // namespace

// Over 100 lines, on purpose: the lambdas share the state of one message ("subject": only the
// first setting named carries its value; "file_named": a plan file is named once), which pieces
// split apart would have to pass back and forth; the two passes are the loop below.
std::string settings::in_user_terms(std::string_view message) const {
  const auto known = [&](std::string_view key) {
    return std::any_of(fields_.begin(), fields_.end(), [&](const field& f) { return f.key == key; });
  };
  bool subject = true;       // the first setting named carries its value ("--global-batch 7")
  bool file_named = false;   // a plan file named once: its other keys as "key 'x'"
  const auto named = [&](std::string_view key) {
    std::string out;
    if (from_flags(key) || plan_file_.empty() || !from_plan(key)) {
      out = std::string(info(key).flag);
    } else {
      out = file_named ? "key '" + std::string(key) + "'" : name(key);
      file_named = true;
    }
    if (subject && from_flags(key)) {
      if (const nlohmann::json* v = value(key); v != nullptr && !v->is_object()) out += " " + echoed(*v);
    }
    subject = false;
    return out;
  };
  // A struct's field: the setting of that name (or the row's), or the spec's field.
  // A token inside a value the user typed is theirs, not a field ("--model model.v2" names a
  // directory, "--gpu gpu_spec.conf" a file): it is left as they wrote it.
  const auto typed = [&](std::string_view token) {
    const auto in = [&](const auto& values) {
      return std::any_of(values.begin(), values.end(), [&](const auto& kv) {
        return kv.second.is_string() &&
               kv.second.template get_ref<const std::string&>().find(token) != std::string::npos;
      });
    };
    return in(flags_) || in(plan_);
  };
  const auto setting_of = [&](std::string_view token) -> std::optional<std::string> {
    if (typed(token)) return std::nullopt;
    for (const library_name& r : library_names)
      if (r.text.empty() && r.name == token) {
        if (known(r.key)) return named(r.key);
        return std::nullopt;
      }
    const std::size_t dot = token.find('.');
    if (dot == std::string_view::npos) return std::nullopt;
    const std::string_view owner = token.substr(0, dot), member = token.substr(dot + 1);
    const bool file = std::find(std::begin(file_extensions), std::end(file_extensions), member) !=
                      std::end(file_extensions);
    for (const library_name& r : spec_structs)
      if (r.name == owner && known(r.key) && !file) {
        std::string words(member);  // "moe.experts": "moe experts"
        std::replace(words.begin(), words.end(), '.', ' ');
        if (subject) {
          std::string out = named(r.key);
          return out + ": " + words;
        }
        return "the " + words + " of " + named(r.key);
      }
    if (std::find(std::begin(setting_structs), std::end(setting_structs), owner) !=
            std::end(setting_structs) &&
        known(member))
      return named(member);
    return std::nullopt;
  };

  std::string out;
  bool translated = false;  // bare field names ("micro_batch") only in a message that named one
  std::size_t i = 0;
  // The bare names are translated in a second pass, once it is known the message is the
  // library's; the first pass keeps them and remembers that it did.
  for (int pass = 0; pass < 2; ++pass) {
    const std::string_view in = pass == 0 ? message : std::string_view(out);
    std::string next;
    i = 0;
    while (i < in.size()) {
      bool row = false;
      if (pass == 0)
        for (const library_name& r : library_names)
          if (!r.text.empty() && in.substr(i, r.name.size()) == r.name && known(r.key)) {
            std::string text(r.text);
            text.replace(text.find("{}"), 2, named(r.key));
            next += text;
            i += r.name.size();
            translated = row = true;
            break;
          }
      if (row) continue;
      const bool boundary = i == 0 || (!identifier_char(in[i - 1]) && in[i - 1] != '.' &&
                                       in[i - 1] != '-' && in[i - 1] != '/' && in[i - 1] != '\'');
      if (!boundary || !(in[i] >= 'a' && in[i] <= 'z')) {
        next += in[i++];
        continue;
      }
      std::size_t j = i;
      while (j < in.size() && (identifier_char(in[j]) || in[j] == '.')) ++j;
      while (j > i && in[j - 1] == '.') --j;  // a sentence's full stop
      const std::string_view token = in.substr(i, j - i);
      std::optional<std::string> user;
      if (pass == 0) {
        user = setting_of(token);
        translated = translated || user.has_value();
      } else if (translated && token.find('_') != std::string_view::npos &&
                 token.find('.') == std::string_view::npos && known(token) &&
                 (j >= in.size() || in[j] != '\'')) {
        user = named(token);
      }
      next += user ? *user : std::string(token);
      i = j;
    }
    out = std::move(next);
    if (!translated) break;
  }
  return out;
}

std::optional<int> settings::count(std::string_view key) const {
  const nlohmann::json* v = value(key);
  if (v == nullptr) return std::nullopt;
  const int n = v->get<int>();
  if (n <= 0)
    throw usage_error(fmt::format("{} must be a positive integer (got {})", name(key), n));
  return n;
}
std::optional<int> settings::count0(std::string_view key) const {
  const nlohmann::json* v = value(key);
  if (v == nullptr) return std::nullopt;
  return v->get<int>();
}
std::optional<double> settings::number(std::string_view key) const {
  const nlohmann::json* v = value(key);
  return v == nullptr ? std::nullopt : std::optional<double>(v->get<double>());
}
std::optional<std::string> settings::text(std::string_view key) const {
  const nlohmann::json* v = value(key);
  return v == nullptr || !v->is_string() ? std::nullopt
                                          : std::optional<std::string>(v->get<std::string>());
}
std::optional<bool> settings::flag(std::string_view key) const {
  const nlohmann::json* v = value(key);
  return v == nullptr ? std::nullopt : std::optional<bool>(v->get<bool>());
}

// ---- builders -----------------------------------------------------------------------------------

model_choice model_from(const settings& s, std::string_view command) {
  const nlohmann::json* v = s.value("model");
  if (v == nullptr)
    throw usage_error(fmt::format(
        "{} needs a model: --model NAME|PATH|params:N (gpuplan models lists them)", command));
  model_choice m = v->is_object() ? model_from_json(*v, s.plan_file() + ": key 'model'")
                                   : resolve_model(v->get<std::string>());
  with_redundant_experts(s, m);
  return m;
}

void with_redundant_experts(const settings& s, model_choice& m) {
  const std::optional<int> r = s.count("redundant_experts");
  if (!r) return;
  if (!m.transformer || !m.transformer->is_moe())
    throw usage_error(fmt::format("{} needs a mixture-of-experts model", s.name("redundant_experts")));
  transformer_spec& t = *m.transformer;
  if (*r > t.moe.experts)
    throw usage_error(fmt::format("{} must be at most the model's {} experts (got {})",
                                  s.name("redundant_experts"), t.moe.experts, *r));
  t.moe.experts += *r;  // replicas of busy experts: more physical experts, each a share of tokens
}

gpu_choice gpu_from(const settings& s, gpu_use use) {
  const nlohmann::json* v = s.value("gpu");
  gpu_choice g = v == nullptr     ? resolve_gpu("H100-SXM5-80GB")
                 : v->is_object() ? gpu_choice{io::gpu_from_json(*v, {s.plan_file(), "gpu."}),
                                               "file", s.plan_file(), "gpu."}
                                  : resolve_gpu(v->get<std::string>());
  check_gpu(g, use);
  // the limit applies to the GPU that runs: --node's when a node is given and --gpu is not
  if (v != nullptr || !s.has("node")) g.spec = with_power_limit(s, g.spec);
  return g;
}

gpu_spec with_power_limit(const settings& s, const gpu_spec& g) {
  const std::optional<double> w = s.number("power_limit");
  if (!w) return g;
  if (!(*w > 0.0))
    throw usage_error(fmt::format("{} must be a positive number of watts (got {:g})",
                                  s.name("power_limit"), *w));
  // the library's own checks (power_limited), in the user's terms
  const power_limit_assumptions a = assumptions_from(s).power_limit;
  const double tdp = g.tdp.in(units::W);
  if (!(tdp > 0.0))
    throw usage_error(fmt::format("{} {:g} W: {} has no TDP (tdp_watts 0 or missing): a power "
                                  "limit is a share of it",
                                  s.name("power_limit"), *w, g.name.view()));
  if (*w > tdp)
    throw usage_error(fmt::format("{} {:g} W is above the TDP of {} ({:g} W): a limit can only "
                                  "lower the power; give at most {:g}",
                                  s.name("power_limit"), *w, g.name.view(), tdp, tdp));
  if (*w < a.min_limit_fraction * tdp)
    throw usage_error(fmt::format(
        "{} {:g} W is below the lowest limit the driver takes for {}: {:.0f} W ({:.3g} of its "
        "{:g} W TDP, nvidia-smi's minimum; power_limit_assumptions min_limit_fraction)",
        s.name("power_limit"), *w, g.name.view(), a.min_limit_fraction * tdp,
        a.min_limit_fraction, tdp));
  return power_limited(g, *w * units::W, a);
}

node_spec with_power_limit(const settings& s, const node_spec& n) {
  if (!s.has("power_limit")) return n;
  node_spec out = n;
  const gpu_spec capped = with_power_limit(s, n.gpu);
  // the GPU already under the limit (a limit equal to its TDP changes nothing) keeps the node
  if (capped.tdp.value < n.gpu.tdp.value) out = power_limited(n, capped.tdp);
  return out;
}

std::optional<node_spec> node_from(const settings& s) {
  const nlohmann::json* v = s.value("node");
  if (v == nullptr) return std::nullopt;
  node_spec n;
  std::string file;
  if (v->is_object()) {
    file = s.plan_file();
    n = io::node_from_json(*v, {file, "node."});
  } else {
    const std::string name = v->get<std::string>();
    if (const node_spec* found = catalog::find_node(name)) return with_power_limit(s, *found);
    std::error_code ec;
    const bool json_name = name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0;
    if (!json_name && !std::filesystem::is_regular_file(name, ec))
      throw usage_error(fmt::format(
          "unknown node '{}'{} (the catalog's nodes: docs/catalog.md; or a node JSON file: "
          "docs/json-schema.md)",
          name, did_you_mean(catalog::nearest_node_names(name))));
    file = name;
    n = io::node_from_json(io::read_json_file(file), {file, ""});
  }
  // a node times work: its GPU needs the rates, named by the file's keys
  check_gpu(gpu_choice{n.gpu, "file", file, v->is_object() ? "node.gpu." : "gpu."},
            gpu_use::rates);
  return with_power_limit(s, n);
}

parallel_layout layout_from(const settings& s, const model_choice& model,
                            bool expert_parallel_in_tp) {
  for (const char* key : {"gpus", "dp", "tp", "pp", "cp", "ep", "virtual_stages", "expert_tp",
                          "shard_group", "first_stage_layers", "last_stage_layers"})
    if (s.has(key)) (void)s.count(key);
  parallel_layout l;
  l.tp = s.count("tp").value_or(1);
  l.pp = s.count("pp").value_or(1);
  l.cp = s.count("cp").value_or(1);
  l.ep = s.count("ep").value_or(1);
  l.zero = s.count0("zero").value_or(0);
  if (l.zero < 0 || l.zero > 3)
    throw usage_error(fmt::format("{} must be 0, 1, 2 or 3 (got {})", s.name("zero"), l.zero));
  l.sequence_parallel = s.flag("sp").value_or(false);
  l.virtual_stages = s.count("virtual_stages").value_or(1);
  l.expert_tp = s.count("expert_tp").value_or(0);
  l.shard_group = s.count("shard_group").value_or(0);
  l.first_stage_layers = s.count("first_stage_layers").value_or(0);
  l.last_stage_layers = s.count("last_stage_layers").value_or(0);
  // Degrees multiply: keep their product where int arithmetic in the models stays exact
  // (parallel_layout::max_gpus, 2^24 GPUs, far beyond any cluster). The layout's own checks
  // refuse larger products too; these name the flags.
  constexpr long long max_gpus = parallel_layout::max_gpus;
  const std::optional<int> gpus = s.count("gpus"), dp = s.count("dp");
  if (1LL * dp.value_or(1) * l.tp * l.pp * l.cp > max_gpus || gpus.value_or(1) > max_gpus)
    throw usage_error(fmt::format("the layout asks for more than {} GPUs", max_gpus));
  // ep x expert tp, pp x virtual stages and shard_group x cp are int products in the layout's
  // own checks: bound them too (--virtual-stages 2147483647 wrapped; found by fuzzing).
  if (1LL * l.ep * (l.expert_tp > 0 ? l.expert_tp : l.tp) > max_gpus)
    throw usage_error(fmt::format("{} {} x {} {} is more than {} GPUs", s.name("ep"), l.ep,
                                  l.expert_tp > 0 ? "expert_tp" : "tp",
                                  l.expert_tp > 0 ? l.expert_tp : l.tp, max_gpus));
  if (1LL * l.pp * l.virtual_stages > max_gpus)
    throw usage_error(fmt::format("{} {} x pp {} is more than {} pipeline chunks",
                                  s.name("virtual_stages"), l.virtual_stages, l.pp, max_gpus));
  if (1LL * l.shard_group * l.cp > max_gpus)
    throw usage_error(fmt::format("{} {} x cp {} is more than {} GPUs", s.name("shard_group"),
                                  l.shard_group, l.cp, max_gpus));
  const int model_parallel = l.tp * l.pp * l.cp;
  if (dp) {
    l.dp = *dp;
    if (gpus && l.gpus() != *gpus)
      throw usage_error(fmt::format(
          "layout does not match the GPU count: dp {} x tp {} x pp {} x cp {} = {}, but {} is {}",
          l.dp, l.tp, l.pp, l.cp, l.gpus(), s.name("gpus"), *gpus));
  } else if (gpus) {
    if (*gpus % model_parallel != 0)
      throw usage_error(fmt::format(
          "{} {} is not divisible by tp {} x pp {} x cp {} = {}: the data-parallel degree would "
          "not be whole",
          s.name("gpus"), *gpus, l.tp, l.pp, l.cp, model_parallel));
    l.dp = *gpus / model_parallel;
  }
  if (model.transformer) {
    parallel_layout checked = l;
    if (s.flag("dp_attention").value_or(false)) {
      // attention data-parallel, the experts over every GPU: what each GPU holds
      if (l.ep != l.tp || l.pp != 1)
        throw usage_error(fmt::format("{} needs {} equal to {} (the experts over every GPU of "
                                      "the replica) and {} 1",
                                      s.name("dp_attention"), s.name("ep"), s.name("tp"),
                                      s.name("pp")));
      checked = dp_attention_layout(l);
    } else if (expert_parallel_in_tp) {  // serving_plan::validate checks ep against tp and the
      checked.ep = 1;                    // experts
      checked.expert_tp = 0;
    }
    checked.validate(*model.transformer);
  } else {
    l.validate();
    if (l.tp != 1 || l.pp != 1 || l.cp != 1 || l.ep != 1)
      throw usage_error(fmt::format(
          "model {} is known only by its parameter count: tp, pp, cp and ep need its shape (give "
          "a catalog name or a config.json)",
          model.name()));
  }
  return l;
}

namespace {

precision precision_of(const settings& s, std::string_view key, std::span<const precision> allowed,
                       precision fallback) {
  const std::optional<std::string> t = s.text(key);
  return t ? enum_named(*t, s.name(key), allowed) : fallback;
}

/// Tokens in one micro-batch or batch stay where int arithmetic in the models is exact: 2^30.
void check_tokens(long long tokens) {
  constexpr long long max_tokens = 1LL << 30;
  if (tokens > max_tokens)
    throw usage_error(
        fmt::format("more than {} tokens in one micro-batch or batch: check --micro-batch/--seq or "
                    "--batch/--context",
                    max_tokens));
}

}  // namespace

training_config training_from(const settings& s) {
  training_config c;
  c.dtype = precision_of(s, "dtype", training_dtypes, precision::bf16);
  c.grad_dtype = precision_of(s, "grad_dtype", gradient_dtypes,
                              c.dtype == precision::fp8 ? precision::bf16 : c.dtype);
  if (const auto t = s.text("optimizer")) c.optimizer = enum_named<optimizer_kind>(*t, s.name("optimizer"));
  c.master_weights = s.flag("master_weights").value_or(c.master_weights);
  if (const auto t = s.text("recompute")) c.recompute = enum_named<recompute_mode>(*t, s.name("recompute"));
  if (const auto t = s.text("offload")) {
    c.offload = enum_named<offload_kind>(*t, s.name("offload"), offload_choices);
  }
  if (const auto t = s.text("lora_targets"))
    c.lora_targets = enum_named<lora_target>(*t, s.name("lora_targets"));
  c.micro_batch = s.count("micro_batch").value_or(c.micro_batch);
  c.seq = s.count("seq").value_or(c.seq);
  check_tokens(1LL * c.micro_batch * c.seq);
  c.micro_batches = s.count("micro_batches").value_or(0);
  c.global_batch = s.count("global_batch").value_or(0);
  c.flash_attention = s.flag("flash_attention").value_or(c.flash_attention);
  c.dropout = s.flag("dropout").value_or(c.dropout);
  c.framework = framework_kind::transformers;  // settle_framework may choose megatron
  if (const auto t = s.text("framework")) c.framework = enum_named<framework_kind>(*t, s.name("framework"));
  c.amp = s.flag("amp").value_or(false);
  c.chunked_loss = s.flag("chunked_loss").value_or(false);
  c.compile = s.flag("compile").value_or(false);
  if (const auto t = s.text("ac_mode")) {
    // torchtitan's activation_checkpoint modes, as --recompute and recompute_every hold them
    if (s.has("recompute"))
      throw usage_error(fmt::format("{} and {} both set the recomputation: give one",
                                    s.name("ac_mode"), s.name("recompute")));
    const std::string& v = *t;
    if (v == "none") {
      c.recompute = recompute_mode::none;
    } else if (v == "full") {
      c.recompute = recompute_mode::full;
    } else if (v == "selective-op") {
      c.recompute = recompute_mode::selective;
    } else if (v.rfind("every-", 0) == 0 && v.size() > 6 && v.size() <= 13 &&
               v.find_first_not_of("0123456789", 6) == std::string::npos && v[6] != '0') {
      c.recompute = recompute_mode::full;
      c.recompute_every = std::stoi(v.substr(6));
    } else {
      throw usage_error(fmt::format("{} must be none, full, selective-op or every-K with K a "
                                    "positive integer (got '{}')",
                                    s.name("ac_mode"), v));
    }
  }
  if (c.framework != framework_kind::transformers && c.amp)
    throw usage_error(fmt::format("{} needs --framework transformers (Megatron's and torchtitan's "
                                  "mixed precision is --dtype bf16 with --master-weights)",
                                  s.name("amp")));
  if (c.framework != framework_kind::transformers && c.chunked_loss)
    throw usage_error(fmt::format("{} needs --framework transformers (Megatron's cross entropy is "
                                  "already fused; torchtitan's is F.cross_entropy)",
                                  s.name("chunked_loss")));
  if (c.framework == framework_kind::megatron && c.compile)
    throw usage_error(fmt::format("{} needs --framework transformers or torchtitan (Megatron's "
                                  "kernels are already fused)", s.name("compile")));
  c.lora_rank = s.count("lora").value_or(0);
  c.qlora_rank = s.count("qlora").value_or(0);
  c.qlora_double_quant = s.flag("double_quant").value_or(c.qlora_double_quant);
  if (c.lora_rank > 0 && c.qlora_rank > 0) {
    // LoRA and QLoRA are one choice: an adapter given on the command line replaces the plan's
    // (as every flag overrides the plan file); two on the same side conflict
    const bool lora_flag = s.from_flags("lora"), qlora_flag = s.from_flags("qlora");
    if (lora_flag && !qlora_flag)
      c.qlora_rank = 0;
    else if (qlora_flag && !lora_flag)
      c.lora_rank = 0;
    else if (lora_flag)
      throw usage_error("--lora and --qlora conflict: give one adapter");
    else
      throw io::error(s.plan_file() + ": keys 'lora' and 'qlora' conflict: give one adapter");
  }
  if (s.has("double_quant") && c.qlora_rank == 0)
    throw usage_error(fmt::format("{} is QLoRA's: give --qlora RANK", s.name("double_quant")));
  c.validate();
  return c;
}

std::string settle_framework(const settings& s, const model_choice& model,
                             const parallel_layout& l, training_config& c) {
  // What in the plan only the Megatron profile models, in words, first found.
  std::string needs;
  auto need = [&](bool cond, std::string what) {
    if (cond && needs.empty()) needs = std::move(what);
  };
  need(!model.transformer, "a params:N model");
  need(model.transformer && model.transformer->is_moe(), "a mixture-of-experts model");
  need(l.tp > 1, fmt::format("--tp {}", l.tp));
  need(l.pp > 1, fmt::format("--pp {}", l.pp));
  need(l.cp > 1, fmt::format("--cp {}", l.cp));
  need(l.ep > 1, fmt::format("--ep {}", l.ep));
  need(l.sequence_parallel, "--sp");
  need(l.virtual_stages > 1, "--virtual-stages");
  need(c.recompute == recompute_mode::selective, "--recompute selective");
  need(c.offload != offload_kind::none, "--offload");
  need(c.dtype == precision::fp8, "--dtype fp8");
  need(c.dropout, "--dropout");
  need(!c.flash_attention, "--flash-attention=false");
  const bool given = s.has("framework");
  if (c.framework == framework_kind::torchtitan) {
    // torchtitan models what Megatron's profile does but offload and a params:N model
    if (c.offload != offload_kind::none)
      throw usage_error(fmt::format("{} torchtitan has no CPU offload; --offload needs "
                                    "--framework megatron", s.name("framework")));
    if (!model.transformer)
      throw usage_error(fmt::format("{} torchtitan needs the model's shapes (a params:N model "
                                    "has none)", s.name("framework")));
    if (l.dp > 1 && l.zero != 3)
      throw usage_error(fmt::format("{} torchtitan shards data parallelism with FSDP2: add --zero 3 "
                                    "(got --zero {})", s.name("framework"), l.zero));
    if (l.tp > 1 && !l.sequence_parallel)
      throw usage_error(fmt::format("{} torchtitan's tensor parallelism is sequence-parallel "
                                    "(its norms run on Shard(1)): add --sp", s.name("framework")));
    // FSDP2's MixedPrecisionPolicy with torchtitan's mixed_precision_reduce = "float32": the
    // gradients are reduce-scattered and kept in fp32
    if (!s.has("grad_dtype")) c.grad_dtype = precision::fp32;
    if (s.has("async_tp") && s.flag("async_tp").value_or(false) && !c.compile)
      throw usage_error("--async-tp needs --compile (torchtitan: \"Async TP requires "
                        "--training.compile\"; Inductor's micro-pipeline TP pass does it)");
    c.validate();
    // what the run is, in torchtitan's words, for the framework line
    std::string what = l.dp > 1 ? "FSDP2" : "no data parallelism";
    if (c.compile) what += ", torch.compile";
    if (c.dtype == precision::fp8) what += ", torchao float8";
    if (s.flag("async_tp").value_or(false)) what += ", async TP";
    if (c.recompute == recompute_mode::selective) what += ", op-level selective AC";
    if (c.recompute == recompute_mode::full)
      what += c.recompute_every > 1 ? fmt::format(", full AC every {} layers", c.recompute_every)
                                    : std::string(", full AC");
    return " (" + what + ")";
  }
  if (s.has("ac_mode") && (c.recompute == recompute_mode::selective || c.recompute_every > 1))
    throw usage_error(fmt::format("{} {} is torchtitan's: it needs --framework torchtitan",
                                  s.name("ac_mode"), *s.text("ac_mode")));
  if (s.has("async_tp"))
    throw usage_error("--async-tp is torchtitan's (Megatron's is --tp-comm-overlap): it needs "
                      "--framework torchtitan");
  if (given && c.framework == framework_kind::transformers && !needs.empty())
    throw usage_error(fmt::format("{} transformers models one model with data parallelism (DDP, "
                                  "FSDP, ZeRO); {} needs --framework megatron",
                                  s.name("framework"), needs));
  std::string note = given ? "" : " (default)";
  if (!given && !needs.empty()) {
    c.framework = framework_kind::megatron;
    note = fmt::format(" ({} needs Megatron-LM)", needs);
  }
  if (c.framework == framework_kind::megatron) {
    if (c.amp)
      throw usage_error(fmt::format("{} needs --framework transformers{}", s.name("amp"),
                                    needs.empty() ? "" : " (and " + needs + " needs megatron)"));
    if (c.chunked_loss)
      throw usage_error(fmt::format("{} needs --framework transformers (Megatron's cross entropy "
                                    "is already fused){}",
                                    s.name("chunked_loss"),
                                    needs.empty() ? "" : "; " + needs + " needs megatron"));
    if (c.compile)
      throw usage_error(fmt::format("{} needs --framework transformers or torchtitan (Megatron's "
                                    "kernels are already fused){}",
                                    s.name("compile"),
                                    needs.empty() ? "" : "; " + needs + " needs megatron"));
  }
  c.validate();
  return note;
}

namespace {
/// Smallest share of GPU memory an engine may be given (--gpu-memory-utilization,
/// --mem-fraction-static, --free-gpu-memory-fraction): 1%. An 80 GB GPU's 1% (800 MB) is below
/// the CUDA context and any model's weights, so nothing fits below it, and 1e-308 printed the
/// weights as "inf%" of the capacity (gpuplan issue 22).
constexpr double min_memory_fraction = 0.01;

double memory_fraction(const settings& s, std::string_view key, double v) {
  if (!(v > 0.0 && v <= 1.0))
    throw usage_error(fmt::format("{} must be in (0, 1] (got {})", s.name(key), v));
  if (v < min_memory_fraction)
    throw usage_error(fmt::format("{} must be at least {:g} (min_memory_fraction: below it no "
                                  "model fits; got {:g})",
                                  s.name(key), min_memory_fraction, v));
  return v;
}
}  // namespace

inference_config serving_from(const settings& s, const model_choice& model) {
  inference_config c;
  const precision native = model.transformer ? model.transformer->native_dtype : precision::bf16;
  // fp32 is accepted, as before, though --weight-dtype's help does not list it
  constexpr precision weight_dtypes[] = {precision::bf16, precision::fp16, precision::fp32,
                                         precision::fp8,  precision::int8, precision::int4,
                                         precision::fp4};
  // Without --weight-dtype, the weights as the checkpoint ships them: its quantisation
  // (DeepSeek-V3's fp8 blocks, gpt-oss's MXFP4 experts), else its own 16-bit dtype. Given, the
  // flag quantises every linear layer alike.
  if (model.transformer && !s.text("weight_dtype"))
    c = checkpoint_weights(*model.transformer, c);
  if (c.weight_dtype == precision::bf16)
    c.weight_dtype = precision_of(s, "weight_dtype", weight_dtypes,
                                  native == precision::fp32 ? precision::bf16 : native);
  c.kv_dtype = precision_of(s, "kv_dtype", kv_dtypes, c.kv_dtype);
  c.batch = s.count("batch").value_or(c.batch);
  c.context = s.count("context").value_or(c.context);
  c.max_model_len = s.count("max_model_len").value_or(0);
  // vLLM refuses a --max-model-len beyond the model's max_position_embeddings (the library's
  // check_inference says the same in its own field names)
  if (model.transformer && model.transformer->max_positions > 0 &&
      c.max_model_len > model.transformer->max_positions)
    throw usage_error(fmt::format("{} {} exceeds {}'s max_position_embeddings ({})",
                                  s.name("max_model_len"), c.max_model_len, model.name(),
                                  model.transformer->max_positions));
  check_tokens(1LL * c.batch * std::max(c.context, c.max_model_len));
  if (const auto u = s.number("gpu_memory_utilization"))
    c.gpu_memory_utilization = memory_fraction(s, "gpu_memory_utilization", *u);
  c.block_size = s.count("block_size").value_or(c.block_size);
  c.max_num_batched_tokens = s.count("max_num_batched_tokens").value_or(c.max_num_batched_tokens);
  c.max_num_seqs = s.count("max_num_seqs").value_or(c.max_num_seqs);
  c.quant_group_size = s.count("quant_group_size").value_or(c.quant_group_size);
  c.quant_scale_dtype = precision_of(s, "quant_scale_dtype", quant_scale_dtypes, c.quant_scale_dtype);
  c.quant_zero_point = s.flag("quant_zero_point").value_or(c.quant_zero_point);
  if (const auto e = s.text("engine")) c.engine = enum_named<serving_engine>(*e, s.name("engine"));
  for (const char* key : {"mem_fraction_static", "free_gpu_memory_fraction"})
    if (const auto f = s.number(key)) (void)memory_fraction(s, key, *f);
  c.mem_fraction_static = s.number("mem_fraction_static").value_or(c.mem_fraction_static);
  c.free_gpu_memory_fraction =
      s.number("free_gpu_memory_fraction").value_or(c.free_gpu_memory_fraction);
  c.validate();
  return c;
}

std::vector<std::string> list_items(std::string_view text, std::string_view who) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (true) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    std::string_view item = text.substr(at, comma - at);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.empty()) throw usage_error(fmt::format("{} '{}': an empty item", who, text));
    out.emplace_back(item);
    if (comma == text.size()) return out;
    at = comma + 1;
  }
}

}  // namespace gpuplan::cli
