// examples/gpuplan/cmd_fit.cpp: `gpuplan fit`, does a model fit on these GPUs?
//
// The options are a contract (scripts depend on their names): see docs/cli.md. A plan file
// (--plan FILE) holds the same fields in JSON, snake_case ("micro_batch") or as the flags spell
// them ("micro-batch"); flags given beside it override it.
#include "cli.hpp"
#include "fit_output.hpp"

#include <gpuplan/io/json.hpp>
#include <gpuplan/plan/fit.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>

namespace gpuplan::cli {

namespace {

/// Every fit setting, as given; absent means "not given here".
struct fit_request {
  std::optional<std::string> model;
  std::optional<model_choice> model_inline;  ///< a plan's "model": {...}
  std::optional<std::string> gpu;
  std::optional<gpu_spec> gpu_inline;  ///< a plan's "gpu": {...}
  std::optional<int> gpus;
  std::optional<bool> infer;
  // training
  std::optional<std::string> dtype, grad_dtype, optimizer, recompute, offload;
  std::optional<int> zero, dp, tp, pp, cp, ep, virtual_stages, micro_batch, seq, lora, qlora;
  std::optional<bool> sp, flash_attention;
  // inference
  std::optional<std::string> weight_dtype, kv_dtype;
  std::optional<int> batch, context, max_model_len, block_size;
  std::optional<double> gpu_memory_utilization;
  // output
  bool json = false;
  bool require_fit = false;
  std::optional<std::string> plan;
};

/// How the fields are named on the command line and in plan files, and which mode they belong to.
enum class mode_of : unsigned char { both, train, infer };
struct field_info {
  const char* key;   ///< plan-file key (snake_case)
  const char* flag;  ///< command-line flag
  mode_of mode;
};
constexpr field_info fields[] = {
    {"model", "--model", mode_of::both},
    {"gpu", "--gpu", mode_of::both},
    {"gpus", "--gpus", mode_of::both},
    {"mode", "--train/--infer", mode_of::both},
    {"dtype", "--dtype", mode_of::train},
    {"grad_dtype", "--grad-dtype", mode_of::train},
    {"optimizer", "--optimizer", mode_of::train},
    {"zero", "--zero", mode_of::train},
    {"dp", "--dp", mode_of::both},
    {"tp", "--tp", mode_of::both},
    {"pp", "--pp", mode_of::both},
    {"cp", "--cp", mode_of::train},
    {"ep", "--ep", mode_of::both},
    {"sp", "--sp", mode_of::train},
    {"virtual_stages", "--virtual-stages", mode_of::train},
    {"recompute", "--recompute", mode_of::train},
    {"micro_batch", "--micro-batch", mode_of::train},
    {"seq", "--seq", mode_of::train},
    {"flash_attention", "--flash-attention", mode_of::train},
    {"lora", "--lora", mode_of::train},
    {"qlora", "--qlora", mode_of::train},
    {"offload", "--offload", mode_of::train},
    {"weight_dtype", "--weight-dtype", mode_of::infer},
    {"kv_dtype", "--kv-dtype", mode_of::infer},
    {"batch", "--batch", mode_of::infer},
    {"context", "--context", mode_of::infer},
    {"max_model_len", "--max-model-len", mode_of::infer},
    {"gpu_memory_utilization", "--gpu-memory-utilization", mode_of::infer},
    {"block_size", "--block-size", mode_of::infer},
};

const field_info& info(std::string_view key) {
  for (const auto& f : fields)
    if (key == f.key) return f;
  return fields[0];
}

/// Which fields a request sets, by plan key.
std::vector<std::string_view> given(const fit_request& r) {
  std::vector<std::string_view> out;
  auto add = [&](bool present, const char* key) {
    if (present) out.emplace_back(key);
  };
  add(r.model || r.model_inline, "model");
  add(r.gpu || r.gpu_inline, "gpu");
  add(r.gpus.has_value(), "gpus");
  add(r.infer.has_value(), "mode");
  add(r.dtype.has_value(), "dtype");
  add(r.grad_dtype.has_value(), "grad_dtype");
  add(r.optimizer.has_value(), "optimizer");
  add(r.zero.has_value(), "zero");
  add(r.dp.has_value(), "dp");
  add(r.tp.has_value(), "tp");
  add(r.pp.has_value(), "pp");
  add(r.cp.has_value(), "cp");
  add(r.ep.has_value(), "ep");
  add(r.sp.has_value(), "sp");
  add(r.virtual_stages.has_value(), "virtual_stages");
  add(r.recompute.has_value(), "recompute");
  add(r.micro_batch.has_value(), "micro_batch");
  add(r.seq.has_value(), "seq");
  add(r.flash_attention.has_value(), "flash_attention");
  add(r.lora.has_value(), "lora");
  add(r.qlora.has_value(), "qlora");
  add(r.offload.has_value(), "offload");
  add(r.weight_dtype.has_value(), "weight_dtype");
  add(r.kv_dtype.has_value(), "kv_dtype");
  add(r.batch.has_value(), "batch");
  add(r.context.has_value(), "context");
  add(r.max_model_len.has_value(), "max_model_len");
  add(r.gpu_memory_utilization.has_value(), "gpu_memory_utilization");
  add(r.block_size.has_value(), "block_size");
  return out;
}

/// b's fields where given, else a's.
fit_request merge(const fit_request& a, const fit_request& b) {
  fit_request r = a;
  auto take = [](auto& into, const auto& from) {
    if (from) into = from;
  };
  if (b.model || b.model_inline) {
    r.model = b.model;
    r.model_inline = b.model_inline;
  }
  if (b.gpu || b.gpu_inline) {
    r.gpu = b.gpu;
    r.gpu_inline = b.gpu_inline;
  }
  take(r.gpus, b.gpus);
  take(r.infer, b.infer);
  take(r.dtype, b.dtype);
  take(r.grad_dtype, b.grad_dtype);
  take(r.optimizer, b.optimizer);
  take(r.recompute, b.recompute);
  take(r.offload, b.offload);
  take(r.zero, b.zero);
  take(r.dp, b.dp);
  take(r.tp, b.tp);
  take(r.pp, b.pp);
  take(r.cp, b.cp);
  take(r.ep, b.ep);
  take(r.virtual_stages, b.virtual_stages);
  take(r.micro_batch, b.micro_batch);
  take(r.seq, b.seq);
  take(r.sp, b.sp);
  take(r.flash_attention, b.flash_attention);
  // LoRA and QLoRA are one choice: an adapter given on the command line replaces the plan's.
  if (b.lora || b.qlora) {
    r.lora = b.lora;
    r.qlora = b.qlora;
  }
  take(r.weight_dtype, b.weight_dtype);
  take(r.kv_dtype, b.kv_dtype);
  take(r.batch, b.batch);
  take(r.context, b.context);
  take(r.max_model_len, b.max_model_len);
  take(r.block_size, b.block_size);
  take(r.gpu_memory_utilization, b.gpu_memory_utilization);
  return r;
}

// ---- plan files ---------------------------------------------------------------------------------

int levenshtein(std::string_view a, std::string_view b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] =
          std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

fit_request load_plan(const std::string& file) {
  const nlohmann::json j = io::read_json_file(file);
  if (!j.is_object()) throw io::error(file + ": a plan must be a JSON object");
  nlohmann::json p = nlohmann::json::object();
  for (const auto& [key, value] : j.items()) {
    std::string k = key;
    std::replace(k.begin(), k.end(), '-', '_');
    bool known = false;
    for (const auto& f : fields) known = known || k == f.key;
    if (k == "$schema" || k == "comment" || k == "description") continue;
    if (!known) {
      std::string best;
      int best_d = 1 << 30;
      for (const auto& f : fields) {
        const int d = levenshtein(k, f.key);
        if (d < best_d) {
          best_d = d;
          best = f.key;
        }
      }
      throw io::error(file + ": unknown key '" + key + "'" +
                      (best_d <= 3 ? "; did you mean '" + best + "'?" : ""));
    }
    if (p.contains(k)) throw io::error(file + ": key '" + k + "' given twice");
    p[k] = value;
  }
  const io::json_source src{file, ""};
  fit_request r;
  const std::filesystem::path dir = std::filesystem::path(file).parent_path();
  if (io::has(p, "model")) {
    const auto& m = p.at("model");
    if (m.is_object()) {
      r.model_inline = model_from_json(m, file + ": key 'model'");
    } else {
      std::string text = io::get_string(p, "model", src);
      // A relative path names a file beside the plan, when one is there.
      std::error_code ec;
      const std::filesystem::path beside = dir / text;
      if (text.rfind("params:", 0) != 0 && !dir.empty() &&
          std::filesystem::path(text).is_relative() && std::filesystem::exists(beside, ec) &&
          !std::filesystem::exists(text, ec))
        text = beside.string();
      r.model = text;
    }
  }
  if (io::has(p, "gpu")) {
    const auto& g = p.at("gpu");
    if (g.is_object())
      r.gpu_inline = io::gpu_from_json(g, {file, "gpu."});
    else
      r.gpu = io::get_string(p, "gpu", src);
  }
  auto count = [&](const char* key, std::optional<int>& into, bool zero_ok = false) {
    if (io::has(p, key)) into = io::get_count(p, key, src, zero_ok);
  };
  auto text = [&](const char* key, std::optional<std::string>& into) {
    if (io::has(p, key)) into = io::get_string(p, key, src);
  };
  auto flag = [&](const char* key, std::optional<bool>& into) {
    if (io::has(p, key)) into = io::get_bool_or(p, key, src, false);
  };
  count("gpus", r.gpus);
  if (io::has(p, "mode")) {
    const std::string m = io::get_string(p, "mode", src);
    if (m != "train" && m != "infer")
      throw io::error(src.where("mode") + " must be \"train\" or \"infer\" (got \"" + m + "\")");
    r.infer = m == "infer";
  }
  text("dtype", r.dtype);
  text("grad_dtype", r.grad_dtype);
  text("optimizer", r.optimizer);
  text("recompute", r.recompute);
  text("offload", r.offload);
  count("zero", r.zero, true);
  count("dp", r.dp);
  count("tp", r.tp);
  count("pp", r.pp);
  count("cp", r.cp);
  count("ep", r.ep);
  count("virtual_stages", r.virtual_stages);
  count("micro_batch", r.micro_batch);
  count("seq", r.seq);
  flag("sp", r.sp);
  flag("flash_attention", r.flash_attention);
  count("lora", r.lora);
  count("qlora", r.qlora);
  text("weight_dtype", r.weight_dtype);
  text("kv_dtype", r.kv_dtype);
  count("batch", r.batch);
  count("context", r.context);
  count("max_model_len", r.max_model_len);
  count("block_size", r.block_size);
  if (io::has(p, "gpu_memory_utilization"))
    r.gpu_memory_utilization = io::get_number(p, "gpu_memory_utilization", src);
  if (r.lora && r.qlora)
    throw io::error(file + ": keys 'lora' and 'qlora' conflict: give one adapter");
  return r;
}

// ---- from the request to the library's inputs ---------------------------------------------------

/// The library's inputs, checked, with where each came from for the report.
struct fit_setup {
  model_choice model;
  gpu_choice gpu;
  parallel_layout layout;
  bool infer = false;
  training_config train{};
  inference_config serve{};
};

/// "--zero" or "plan.json: key 'zero'": how the user gave a field, for messages.
struct namer {
  const fit_request& flags;
  std::string plan_file;
  [[nodiscard]] std::string operator()(std::string_view key) const {
    const auto g = given(flags);
    if (plan_file.empty() || std::find(g.begin(), g.end(), key) != g.end()) return info(key).flag;
    return plan_file + ": key '" + std::string(key) + "'";
  }
};

precision precision_named(const std::string& s, const std::string& who,
                          std::initializer_list<precision> allowed) {
  precision p{};
  std::string list;
  for (precision a : allowed) list += (list.empty() ? "" : "|") + std::string(to_string(a));
  if (!parse_precision(s, p) || std::find(allowed.begin(), allowed.end(), p) == allowed.end())
    throw usage_error(fmt::format("{} '{}' is not one of {}", who, s, list));
  return p;
}

template <class Enum>
Enum enum_named(const std::string& s, const std::string& who, std::initializer_list<Enum> all) {
  Enum e{};
  std::string list;
  for (Enum a : all) list += (list.empty() ? "" : "|") + std::string(to_string(a));
  if (!parse_enum(s, e)) throw usage_error(fmt::format("{} '{}' is not one of {}", who, s, list));
  return e;
}

fit_setup build(const fit_request& r, const fit_request& flags) {
  const namer name{flags, r.plan.value_or("")};
  fit_setup s;

  // Mode, and options that belong to the other one. An option given for the wrong mode is a
  // conflict, never silently ignored.
  const bool mode_explicit = r.infer.has_value();
  s.infer = r.infer.value_or(false);
  const auto flag_keys = given(flags);
  for (std::string_view key : given(r)) {
    const field_info& f = info(key);
    const bool from_flags = std::find(flag_keys.begin(), flag_keys.end(), key) != flag_keys.end();
    // A plan's keys for the other mode are ignored when the mode was switched on the command line.
    if (!from_flags && flags.infer.has_value()) continue;
    if (f.mode == mode_of::train && s.infer)
      throw usage_error(
          fmt::format("{} is a training option; it conflicts with --infer", name(key)));
    if (f.mode == mode_of::infer && !s.infer)
      throw usage_error(
          mode_explicit
              ? fmt::format("{} is an inference option; it conflicts with --train", name(key))
              : fmt::format("{} is an inference option: add --infer", name(key)));
  }

  // Model and GPU.
  if (r.model_inline)
    s.model = *r.model_inline;
  else if (r.model)
    s.model = resolve_model(*r.model);
  else
    throw usage_error("fit needs a model: --model NAME|PATH|params:N (gpuplan models lists them)");
  if (r.gpu_inline)
    s.gpu = {*r.gpu_inline, "file"};
  else
    s.gpu = resolve_gpu(r.gpu.value_or("H100-SXM5-80GB"));
  s.gpu.spec.validate();

  // Sizes: positive where given.
  auto positive = [&](const std::optional<int>& v, std::string_view key) {
    if (v && *v <= 0)
      throw usage_error(fmt::format("{} must be a positive integer (got {})", name(key), *v));
  };
  for (const auto& [v, key] : {std::pair{&r.gpus, "gpus"},
                               {&r.dp, "dp"},
                               {&r.tp, "tp"},
                               {&r.pp, "pp"},
                               {&r.cp, "cp"},
                               {&r.ep, "ep"},
                               {&r.virtual_stages, "virtual_stages"},
                               {&r.micro_batch, "micro_batch"},
                               {&r.seq, "seq"},
                               {&r.lora, "lora"},
                               {&r.qlora, "qlora"},
                               {&r.batch, "batch"},
                               {&r.context, "context"},
                               {&r.max_model_len, "max_model_len"},
                               {&r.block_size, "block_size"}})
    positive(*v, key);
  if (r.zero && (*r.zero < 0 || *r.zero > 3))
    throw usage_error(fmt::format("{} must be 0, 1, 2 or 3 (got {})", name("zero"), *r.zero));
  if (r.gpu_memory_utilization &&
      !(*r.gpu_memory_utilization > 0.0 && *r.gpu_memory_utilization <= 1.0))
    throw usage_error(fmt::format("{} must be in (0, 1] (got {})", name("gpu_memory_utilization"),
                                  *r.gpu_memory_utilization));
  if (r.lora && r.qlora) throw usage_error("--lora and --qlora conflict: give one adapter");

  // Layout: dp defaults to what the GPU count leaves.
  parallel_layout& l = s.layout;
  l.tp = r.tp.value_or(1);
  l.pp = r.pp.value_or(1);
  l.cp = r.cp.value_or(1);
  l.ep = r.ep.value_or(1);
  l.zero = r.zero.value_or(0);
  l.sequence_parallel = r.sp.value_or(false);
  l.virtual_stages = r.virtual_stages.value_or(1);
  // Degrees multiply: keep their product (and sequence x micro-batch) where int arithmetic in the
  // models stays exact. 2^24 GPUs and 2^30 tokens per micro-batch are far beyond any cluster.
  constexpr long long max_gpus = 1LL << 24, max_tokens = 1LL << 30;
  const long long product = 1LL * r.dp.value_or(1) * l.tp * l.pp * l.cp;
  if (product > max_gpus || r.gpus.value_or(1) > max_gpus)
    throw usage_error(fmt::format("the layout asks for more than {} GPUs", max_gpus));
  // ep x tp and pp x virtual stages are int products in the layout's checks: bound them too.
  if (1LL * l.ep * l.tp > max_gpus)
    throw usage_error(
        fmt::format("{} {} x tp {} is more than {} GPUs", name("ep"), l.ep, l.tp, max_gpus));
  if (1LL * l.pp * l.virtual_stages > max_gpus)
    throw usage_error(fmt::format("{} {} x pp {} is more than {} pipeline chunks",
                                  name("virtual_stages"), l.virtual_stages, l.pp, max_gpus));
  if (1LL * r.micro_batch.value_or(1) * r.seq.value_or(1) > max_tokens ||
      1LL * r.batch.value_or(1) * std::max(r.context.value_or(1), r.max_model_len.value_or(1)) >
          max_tokens)
    throw usage_error(
        fmt::format("more than {} tokens in one micro-batch or batch: check --micro-batch/--seq or "
                    "--batch/--context",
                    max_tokens));
  const int model_parallel = l.tp * l.pp * l.cp;
  if (r.dp) {
    l.dp = *r.dp;
    if (r.gpus && l.gpus() != *r.gpus)
      throw usage_error(fmt::format(
          "layout does not match the GPU count: dp {} x tp {} x pp {} x cp {} = {}, but {} is {}",
          l.dp, l.tp, l.pp, l.cp, l.gpus(), name("gpus"), *r.gpus));
  } else if (r.gpus) {
    if (*r.gpus % model_parallel != 0)
      throw usage_error(fmt::format(
          "{} {} is not divisible by tp {} x pp {} x cp {} = {}: the data-parallel degree would "
          "not be whole",
          name("gpus"), *r.gpus, l.tp, l.pp, l.cp, model_parallel));
    l.dp = *r.gpus / model_parallel;
  }
  if (s.model.transformer) {
    l.validate(*s.model.transformer);
  } else {
    l.validate();
    if (l.tp != 1 || l.pp != 1 || l.cp != 1 || l.ep != 1)
      throw usage_error(fmt::format(
          "model {} is known only by its parameter count: tp, pp, cp and ep need its shape (give "
          "a catalog name or a config.json)",
          s.model.name()));
  }

  if (s.infer) {
    inference_config& c = s.serve;
    const auto weights = {precision::bf16, precision::fp16, precision::fp32,
                          precision::fp8,  precision::int8, precision::int4};
    c.weight_dtype =
        r.weight_dtype
            ? precision_named(*r.weight_dtype, name("weight_dtype"), weights)
            : (s.model.transformer ? s.model.transformer->native_dtype : precision::bf16);
    if (c.weight_dtype == precision::fp32 && !r.weight_dtype) c.weight_dtype = precision::bf16;
    c.kv_dtype = r.kv_dtype ? precision_named(*r.kv_dtype, name("kv_dtype"),
                                              {precision::bf16, precision::fp16, precision::fp8})
                            : precision::bf16;
    c.batch = r.batch.value_or(c.batch);
    c.context = r.context.value_or(c.context);
    c.max_model_len = r.max_model_len.value_or(0);
    c.gpu_memory_utilization = r.gpu_memory_utilization.value_or(c.gpu_memory_utilization);
    c.block_size = r.block_size.value_or(c.block_size);
    c.validate();
  } else {
    training_config& c = s.train;
    const auto dtypes = {precision::bf16, precision::fp16, precision::fp32, precision::fp8};
    c.dtype = r.dtype ? precision_named(*r.dtype, name("dtype"), dtypes) : precision::bf16;
    c.grad_dtype = r.grad_dtype
                       ? precision_named(*r.grad_dtype, name("grad_dtype"),
                                         {precision::bf16, precision::fp16, precision::fp32})
                       : (c.dtype == precision::fp8 ? precision::bf16 : c.dtype);
    if (r.optimizer)
      c.optimizer = enum_named(*r.optimizer, name("optimizer"),
                               {optimizer_kind::adamw, optimizer_kind::adam, optimizer_kind::sgd,
                                optimizer_kind::adamw8bit, optimizer_kind::adafactor});
    if (r.recompute)
      c.recompute =
          enum_named(*r.recompute, name("recompute"),
                     {recompute_kind::none, recompute_kind::selective, recompute_kind::full});
    if (r.offload) {
      c.offload =
          enum_named(*r.offload, name("offload"), {offload_kind::optimizer, offload_kind::params});
      if (c.offload == offload_kind::none)
        throw usage_error(fmt::format("{} 'none': leave the option out instead", name("offload")));
    }
    c.micro_batch = r.micro_batch.value_or(c.micro_batch);
    c.seq = r.seq.value_or(c.seq);
    c.flash_attention = r.flash_attention.value_or(c.flash_attention);
    c.lora_rank = r.lora.value_or(0);
    c.qlora_rank = r.qlora.value_or(0);
    c.validate();
  }
  return s;
}

fit_report compute(const fit_setup& s) {
  if (s.infer) {
    if (s.model.transformer)
      return inference_fit(*s.model.transformer, s.gpu.spec, s.layout, s.serve);
    return inference_fit(*s.model.generic, s.gpu.spec, s.layout, s.serve);
  }
  if (s.model.transformer) return training_fit(*s.model.transformer, s.gpu.spec, s.layout, s.train);
  return training_fit(*s.model.generic, s.gpu.spec, s.layout, s.train);
}

/// Forgets a plan's settings that belong to the mode the command line did not choose: a training
/// plan run with --infer keeps its model, GPU and layout, not its ZeRO stage or sequence length.
void keep_mode(fit_request& p, bool infer) {
  if (infer) {
    p.dtype = p.grad_dtype = p.optimizer = p.recompute = p.offload = std::nullopt;
    p.zero = p.cp = p.virtual_stages = p.micro_batch = p.seq = p.lora = p.qlora = std::nullopt;
    p.sp = p.flash_attention = std::nullopt;
  } else {
    p.weight_dtype = p.kv_dtype = std::nullopt;
    p.batch = p.context = p.max_model_len = p.block_size = std::nullopt;
    p.gpu_memory_utilization = std::nullopt;
  }
}

int run_fit(const fit_request& flags) {
  fit_request r = flags;
  if (flags.plan) {
    fit_request plan = load_plan(*flags.plan);
    if (flags.infer) keep_mode(plan, *flags.infer);
    plan.plan = flags.plan;
    r = merge(plan, flags);
    r.plan = flags.plan;
  }
  const fit_setup s = build(r, flags);
  const fit_report rep = compute(s);
  const fit_description d{s.model, s.gpu, s.layout, s.infer, s.train, s.serve};
  if (flags.json)
    print_json(fit_json(d, rep));
  else
    fmt::print("{}", fit_text(d, rep));
  return (flags.require_fit && !rep.fits()) ? 1 : 0;
}

/// A CLI11 option bound to an optional: set only when given.
template <class T>
void opt(CLI::App* app, const std::string& name, std::optional<T>& into, const std::string& help) {
  app->add_option_function<T>(
      name, [&into](const T& v) { into = v; }, help);
}

}  // namespace

command add_fit_command(CLI::App& app) {
  auto r = std::make_shared<fit_request>();
  CLI::App* f = app.add_subcommand("fit", "Does a model fit? Per-GPU memory, verdict and advice");
  f->add_option_function<std::string>(
      "--model", [r](const std::string& v) { r->model = v; },
      "Catalog name, config.json path (or its folder), or "
      "params:N (e.g. params:7.5e9)");
  opt(f, "--gpu", r->gpu,
      "Catalog GPU (any case, aliases: h100, H100-SXM5-80GB), a GPU JSON "
      "file, or 'local' (probe this machine); default H100-SXM5-80GB");
  opt(f, "--gpus", r->gpus, "Number of GPUs (default: dp x tp x pp x cp)");
  auto* train = f->add_flag_callback(
      "--train", [r] { r->infer = false; }, "Training memory (the default)");
  auto* infer = f->add_flag_callback(
      "--infer", [r] { r->infer = true; }, "Serving memory: weights, KV cache, workspace");
  train->excludes(infer);
  // Training
  opt(f, "--dtype", r->dtype, "Training precision: bf16|fp16|fp32|fp8 (default bf16)");
  opt(f, "--grad-dtype", r->grad_dtype,
      "Gradient precision: bf16|fp16|fp32 (default: --dtype; fp32 = Megatron's 18 B/param)");
  opt(f, "--optimizer", r->optimizer, "adamw|adam|sgd|adamw8bit|adafactor (default adamw)");
  opt(f, "--zero", r->zero,
      "ZeRO stage 0|1|2|3 over the data-parallel ranks (FSDP full shard = 3)");
  opt(f, "--dp", r->dp, "Data-parallel degree (default: what --gpus leaves)");
  opt(f, "--tp", r->tp, "Tensor-parallel degree");
  opt(f, "--pp", r->pp, "Pipeline-parallel degree");
  opt(f, "--cp", r->cp, "Context-parallel degree");
  opt(f, "--ep", r->ep, "Expert-parallel degree (MoE; carved out of dp x cp)");
  f->add_flag_callback(
      "--sp", [r] { r->sp = true; }, "Megatron sequence parallelism (with --tp)");
  opt(f, "--virtual-stages", r->virtual_stages, "Interleaved 1F1B model chunks per pipeline rank");
  opt(f, "--recompute", r->recompute, "Activation recomputation: none|selective|full");
  opt(f, "--micro-batch", r->micro_batch, "Sequences per micro-batch (default 1)");
  opt(f, "--seq", r->seq, "Tokens per sequence (default 2048)");
  f->add_flag_function(
       "--flash-attention{true}", [r](std::int64_t v) { r->flash_attention = v > 0; },
       "Fused attention, no s x s scores stored (on by default; --flash-attention=false: off)")
      ->disable_flag_override(false);
  opt(f, "--lora", r->lora, "LoRA fine-tuning with this rank (frozen base)");
  opt(f, "--qlora", r->qlora, "QLoRA fine-tuning with this rank (4-bit NF4 base)");
  opt(f, "--offload", r->offload, "CPU offload: optimizer|params");
  // Inference
  opt(f, "--weight-dtype", r->weight_dtype,
      "Serving weights: bf16|fp16|fp8|int8|int4 (default: the model's own 16-bit dtype)");
  opt(f, "--kv-dtype", r->kv_dtype, "KV cache: bf16|fp16|fp8 (default bf16)");
  opt(f, "--batch", r->batch, "Concurrent sequences (default 1)");
  opt(f, "--context", r->context, "Tokens per sequence, prompt + output (default 4096)");
  opt(f, "--max-model-len", r->max_model_len,
      "vLLM --max-model-len for the concurrency figure (default: --context)");
  opt(f, "--gpu-memory-utilization", r->gpu_memory_utilization,
      "Share of GPU memory the engine may use (default 0.9, vLLM's)");
  opt(f, "--block-size", r->block_size, "KV-cache block in tokens (default 16, vLLM's)");
  // Input and output
  opt(f, "--plan", r->plan, "JSON plan file with the same fields; flags beside it override it");
  f->add_flag("--json", r->json, "Print the result as JSON (schema: docs/json-schema.md)");
  f->add_flag("--require-fit", r->require_fit, "Exit with status 1 when it does not fit");
  return {f, [r] { return run_fit(*r); }};
}

}  // namespace gpuplan::cli
