// tools/gpuplan/fit_output.cpp: the fit report as text and as JSON.
#include "fit_output.hpp"

#include "options.hpp"

#include <gpuplan/io/fit_json.hpp>
#include <gpuplan/models/estimates.hpp>
#include <gpuplan/specs/format.hpp>
#include <gpuplan/units/format.hpp>

#include <fmt/format.h>

namespace gpuplan::cli {

namespace {

/// fit's "layout" line: the GPU count and every degree, ZeRO for training, options spelled out
/// ("8 GPUs: dp 1 x tp 8 x pp 1 x cp 1, ZeRO-0"). Not layout_text() (cli.hpp), the compact
/// column of train and search, which leaves out degrees of 1: fit's report, its docs and tests
/// print this longer form.
std::string fit_layout_line(const parallel_layout& l, bool infer) {
  std::string s = fmt::format("{} GPU{}: dp {} x tp {} x pp {}", l.gpus(), l.gpus() == 1 ? "" : "s",
                              l.dp, l.tp, l.pp);
  if (!infer || l.cp > 1) s += fmt::format(" x cp {}", l.cp);
  if (l.ep > 1) s += fmt::format(", ep {}", l.ep);
  if (!infer) s += fmt::format(", ZeRO-{}", l.zero);
  if (l.sequence_parallel) s += ", sequence parallel";
  if (l.virtual_stages > 1) s += fmt::format(", {} virtual stages", l.virtual_stages);
  return s;
}

std::string config_text(const fit_description& d) {
  if (d.infer) {
    const inference_config& c = d.serve;
    std::string s = fmt::format(
        "{} weights, {} KV cache, batch {} x {} tokens, max-model-len {}, "
        "gpu-memory-utilization {}, block {}",
        c.weight_dtype, c.kv_dtype, c.batch, c.context, c.model_len(), c.gpu_memory_utilization,
        c.block_size);
    if (c.engine != serving_engine::vllm) s += fmt::format(", engine {}", to_string(c.engine));
    return s;
  }
  const training_config& c = d.train;
  std::string s = fmt::format("framework {}{}, ", to_string(c.framework), d.framework_note);
  if (c.amp)
    s += fmt::format("amp (fp32 weights, gradients and optimizer states, autocast {})", c.dtype);
  else if (c.framework == framework_kind::transformers && !c.master_weights)
    s += fmt::format("pure {} (weights, gradients and optimizer states)", c.dtype);
  else
    s += fmt::format("{} weights, {} gradients", c.dtype, c.grad_dtype);
  s += fmt::format(", {}, micro-batch {} x {} tokens, recompute {}", to_string(c.optimizer),
                   c.micro_batch, c.seq, to_string(c.recompute));
  if (c.framework == framework_kind::transformers && c.recompute == recompute_mode::full)
    s += " (gradient_checkpointing_enable)";
  if (c.chunked_loss) s += ", chunked cross entropy";
  if (c.framework == framework_kind::transformers)
    s += ", sdpa attention";
  else
    s += c.flash_attention ? ", flash attention" : ", no flash attention";
  if (c.lora_rank > 0) s += fmt::format(", LoRA rank {}", c.lora_rank);
  if (c.qlora_rank > 0) s += fmt::format(", QLoRA rank {}", c.qlora_rank);
  if (c.offload != offload_kind::none) s += fmt::format(", offload {}", to_string(c.offload));
  return s;
}

std::string gib(data_size d) { return fmt::format("{:.1GiB}", d); }
std::string gb(data_size d) { return fmt::format("{:.1GB}", d); }

}  // namespace

std::vector<memory_breakdown> stage_memory(const fit_description& d) {
  std::vector<memory_breakdown> out;
  if (!d.model.transformer) {
    out.push_back(d.infer ? inference_memory(*d.model.generic, d.gpu.spec, d.layout, d.serve,
                                             d.memory).per_gpu
                          : training_memory(*d.model.generic, d.layout, d.train, d.memory));
    return out;
  }
  if (!d.infer && d.train.framework == framework_kind::transformers) {
    out.push_back(framework_training_memory(*d.model.transformer, d.layout, d.train, d.memory));
    return out;
  }
  // each stage under the framework's profile (torchtitan's under PP), as the verdict's
  for (int k = 0; k < d.layout.pp; ++k)
    out.push_back(d.infer ? inference_memory_stage(*d.model.transformer, d.gpu.spec, d.layout,
                                                   d.serve, k, d.memory)
                                .per_gpu
                          : framework_training_memory_stage(*d.model.transformer, d.layout,
                                                            d.train, k, d.memory));
  return out;
}

std::string kv_shortfall(const fit_report& r) {
  if (r.kv_fits()) return "";
  const kv_demand& k = r.kv_needed;
  const std::string holds =
      fmt::format("its KV cache holds {:.0f} tokens", r.kv.capacity_tokens.in(units::token));
  if (r.kv.max_batch(k.model_len) < 1)
    return fmt::format("{}, less than one sequence of max-model-len {} (the engine refuses to "
                       "start)",
                       holds, k.model_len);
  return fmt::format("{} ({} sequences of {} tokens), fewer than the batch of {} x {} tokens",
                     holds, r.kv_batch(), k.context, k.batch, k.context);
}

namespace {

/// `why`: the reason beyond the memory total ("" for none); `ask`: how to ask `gpuplan fit` for
/// the breakdown and advice.
std::string verdict_line(data_size per_gpu, data_size capacity, bool fits, const std::string& why,
                         const std::string& ask) {
  return fmt::format("memory: {} per GPU of {}: {}", gib(per_gpu), gib(capacity),
                     fits ? std::string("fits")
                          : fmt::format("does NOT fit{} ({} gives the breakdown and advice)",
                                        why.empty() ? "" : ": " + why, ask));
}

}  // namespace

std::string memory_verdict_text(const training_memory_verdict& v) {
  return verdict_line(v.per_gpu.total(), v.capacity, v.fits(), "",
                      "`gpuplan fit` with the same flags");
}

std::string memory_verdict_text(const fit_report& r) {
  // the memory total first: a KV cache left nothing by weights over capacity says no more
  return verdict_line(r.per_gpu.total(), r.capacity, r.fits(),
                      r.memory_fits() ? kv_shortfall(r) : "",
                      fmt::format("`gpuplan fit --infer --batch {} --context {}{}` with the "
                                  "model, GPU and layout",
                                  r.kv_needed.batch, r.kv_needed.context,
                                  r.kv_needed.model_len != r.kv_needed.context
                                      ? fmt::format(" --max-model-len {}", r.kv_needed.model_len)
                                      : std::string()));
}

void add_memory_verdict(nlohmann::json& j, const training_memory_verdict& v) {
  io::add_memory_verdict(j, v);
}

void add_memory_verdict(nlohmann::json& j, const fit_report& r) { io::add_memory_verdict(j, r); }

void add_require_fit_flag(CLI::App* app, bool& require_fit) {
  app->add_flag("--require-fit", require_fit,
                "Exit with status 1 when the plan does not fit in GPU memory (the verdict of "
                "`gpuplan fit`)");
}

namespace {

/// The assumptions fit used (the memory model's: --set memory.NAME=VALUE), to echo those that
/// differ from the defaults.
assumption_set fit_assumptions(const fit_description& d) {
  assumption_set a;
  a.memory = d.memory;
  return a;
}

}  // namespace

nlohmann::json fit_json(const fit_description& d, const fit_report& r) {
  nlohmann::json j;
  j["mode"] = d.infer ? "infer" : "train";
  j["model"] = {{"name", d.model.name()},
                {"parameters", io::count_value(d.model.parameters())},
                {"source", d.model.source}};
  if (d.model.transformer)
    j["model"]["active_parameters"] = io::count_value(d.model.transformer->active_parameters());
  j["gpu"] = {{"name", std::string(d.gpu.spec.name.view())},
              {"memory_bytes", io::bytes_value(d.gpu.spec.memory)},
              {"plannable_memory_bytes", io::bytes_value(d.gpu.spec.plannable_memory())},
              {"source", d.gpu.source}};
  j["layout"] = io::to_json(d.layout);
  j["config"] = d.infer ? io::to_json(d.serve) : io::to_json(d.train);
  const nlohmann::json report = io::to_json(r);
  for (const auto& [k, v] : report.items()) j[k] = v;
  j["per_gpu_bytes"] = io::bytes_value(r.per_gpu.total());  // the key every command reports
  nlohmann::json stages = nlohmann::json::array();
  for (const memory_breakdown& m : d.stages) stages.push_back(io::to_json(m, r.capacity));
  j["stages"] = stages;
  j["assumptions"] = assumptions_json(fit_assumptions(d));
  add_warnings(j, memory_estimates(d.gpu.spec));
  return j;
}

namespace {

/// The verdict line and what the plan is: model, GPU, layout, configuration.
std::string fit_headline(const fit_description& d, const fit_report& r) {
  const memory_breakdown& m = r.per_gpu;
  const std::string what =
      fmt::format("{} {} on {} x {}", d.model.name(), d.infer ? "serving" : "training",
                  d.layout.gpus(), d.gpu.spec.name);
  std::string out;
  if (r.fits())
    out += fmt::format("FITS: {} uses {} of {} per GPU ({} headroom)\n", what, gib(m.total()),
                       gib(r.capacity), gib(r.headroom()));
  else if (r.memory_fits())
    out += fmt::format("DOES NOT FIT: {} uses {} of {} per GPU, but {}\n", what, gib(m.total()),
                       gib(r.capacity), kv_shortfall(r));
  else
    out += fmt::format("DOES NOT FIT: {} needs {} per GPU; {} available ({} short)\n", what,
                       gib(m.total()), gib(r.capacity), gib(-r.headroom()));
  out += "\n";
  out +=
      fmt::format("  model    {}, {} parameters", d.model.name(), show_count(d.model.parameters()));
  if (d.model.transformer && d.model.transformer->is_moe())
    out += fmt::format(" ({} active)", show_count(d.model.transformer->active_parameters()));
  out += fmt::format(" ({})\n", d.model.source);
  out += fmt::format("  gpu      {}, {} ({} plannable", d.gpu.spec.name, show(d.gpu.spec.memory),
                     show(d.gpu.spec.plannable_memory()));
  if (d.infer)
    out += fmt::format(", x {} utilization = {}", d.serve.gpu_memory_utilization, show(r.capacity));
  out += fmt::format(") ({})\n", d.gpu.source);
  out += fmt::format("  layout   {}\n", fit_layout_line(d.layout, d.infer));
  out += fmt::format("  {} {}\n\n", d.infer ? "serving " : "training", config_text(d));
  return out;
}

/// The most loaded GPU's memory, row by row, against its capacity.
std::string fit_memory_table(const fit_description& d, const fit_report& r) {
  const memory_breakdown& m = r.per_gpu;
  table t;
  t.header = {
      fmt::format("per GPU (most loaded{})",
                  d.layout.pp > 1 ? fmt::format(": pipeline stage {}", m.pipeline_stage) : ""),
      "GiB", "GB", "of capacity"};
  t.numeric = {false, true, true, true};
  auto row = [&](const char* label, data_size v, bool always = false) {
    if (!always && v.value == 0) return;
    const double pct = r.capacity.value > 0 ? 100.0 * v.value / r.capacity.value : 0.0;
    t.rows.push_back({label, fmt::format("{:.2f}", v.in(units::GiB)),
                      fmt::format("{:.2f}", v.in(units::GB)), fmt::format("{:.1f}%", pct)});
  };
  row("weights", m.weights, true);
  if (!d.infer) {
    row("gradients", m.gradients, true);
    row("optimizer state", m.optimizer, true);
    row("activations", m.activations, true);
  } else {
    row("KV cache", m.kv_cache, true);
  }
  row("workspace", m.workspace);
  if (m.phases.peak != training_phase::none) {
    row("allocator reserve (caching allocator, over allocated)", m.phases.allocator_reserve, true);
    row("CUDA context and libraries", m.phases.cuda_context, true);
    if (d.layout.gpus() > 1)
      row("NCCL buffers", m.overhead - m.phases.allocator_reserve - m.phases.cuda_context);
  } else {
    row("overhead (CUDA context, NCCL, fragmentation)", m.overhead, true);
  }
  row("total", m.total(), true);
  row(d.infer ? "capacity (x gpu-memory-utilization)" : "capacity", r.capacity, true);
  t.rows.push_back({r.memory_fits() ? "headroom" : "short by",
                    fmt::format("{:.2f}", std::abs(r.headroom().in(units::GiB))),
                    fmt::format("{:.2f}", std::abs(r.headroom().in(units::GB))), ""});
  return t.render("  ");
}

/// Host offload, the phases' peaks, the pipeline stages and the KV cache, where they apply.
std::string fit_details(const fit_description& d, const fit_report& r) {
  const memory_breakdown& m = r.per_gpu;
  std::string out;
  if (m.host.value > 0)
    out += fmt::format("  offloaded to host memory: {} ({})\n", gib(m.host), gb(m.host));
  if (m.phases.peak != training_phase::none) {
    const phase_peaks& p = m.phases;
    out += fmt::format(
        "\n  peaks by phase (tensors allocated): forward+loss {}, backward {}, optimizer step {};"
        "\n  the {} phase sets the peak (allocator peak {} + context {})\n",
        gib(p.forward_loss), gib(p.backward), gib(p.optimizer), to_string(p.peak),
        gib(p.reserved), gib(p.cuda_context));
  }
  if (d.stages.size() > 1) {
    table st;
    st.header = {"pipeline stage", "weights", d.infer ? "KV cache" : "activations", "total", ""};
    st.numeric = {true, true, true, true, false};
    for (const memory_breakdown& x : d.stages)
      st.rows.push_back({fmt::format("{}", x.pipeline_stage), gib(x.weights),
                         gib(d.infer ? x.kv_cache : x.activations), gib(x.total()),
                         x.total() <= r.capacity ? "" : "over capacity"});
    out += "\n" + st.render("  ");
  }

  if (d.infer && d.model.transformer) {
    const kv_cache_info& kv = r.kv;
    out += fmt::format(
        "\n  KV cache (paged, vLLM's formula): {} on this GPU, {} blocks of {} tokens = "
        "{} tokens; max concurrency {:.2f} at {} tokens per sequence\n",
        kv.bytes_per_token, fmt::format("{:.0f}", kv.blocks), kv.block_size,
        fmt::format("{:.0f}", kv.capacity_tokens.in(units::token)), kv.max_concurrency,
        d.serve.model_len());
    if (kv.state_layers > 0)
      out += fmt::format(
          "  recurrent state: {} per sequence on this GPU ({} linear-mixer layers, one page "
          "each; KV only on the {} attention layers)\n",
          kv.state_bytes, kv.state_layers, kv.layers - kv.state_layers);
  }

  return out;
}

/// The ranked changes that would make a plan that does not fit fit ("" when it fits).
std::string fit_advice(const fit_report& r) {
  std::string out;
  if (!r.fits()) {
    out += "\n  advice (ranked; per-GPU memory of the most loaded GPU after the change):\n";
    if (r.options.empty()) {
      out += "    none found: no change the model tried brings it within a catalog GPU\n";
    } else {
      table a;
      a.header = {"#", "change", "GPUs", "per GPU", "capacity", ""};
      a.numeric = {true, false, true, true, true, false};
      int i = 0;
      for (const advice& x : r.advice_list())
        a.rows.push_back({fmt::format("{}", ++i), std::string(x.change.view()),
                          fmt::format("{}", x.gpus), gib(x.total), gib(x.capacity),
                          x.fits ? "fits" : "does not fit"});
      out += a.render("    ");
    }
  }
  return out;
}

}  // namespace

std::string fit_text(const fit_description& d, const fit_report& r) {
  const std::string a = assumptions_text(fit_assumptions(d));
  return fit_headline(d, r) + fit_memory_table(d, r) + fit_details(d, r) +
         (a.empty() ? "" : "\n  " + a + "\n") + fit_advice(r);
}

}  // namespace gpuplan::cli
