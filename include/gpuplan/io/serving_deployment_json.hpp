// gpuplan/io/serving_deployment_json.hpp: the serving-deployment report
// (plan/serving_deployment.hpp) as JSON, the `gpuplan serve --json` contract
// (docs/json-schema.md). The operating point, curve and SLO objects are io/serve_json.hpp's;
// keys may be added, never renamed. The command adds "warnings" (the estimate notes as
// sentences, the same for every command) and "chart" (the file it drew).
#pragma once

#include <gpuplan/io/fit_json.hpp>
#include <gpuplan/io/json.hpp>
#include <gpuplan/io/serve_json.hpp>
#include <gpuplan/plan/serving_deployment.hpp>

#include <string>

namespace gpuplan::io {

/// The whole report (`gpuplan serve --json` less "warnings" and "chart"). A report that was not
/// timed (time_only_if_fits on a deployment that does not fit) has the model, the GPU and the
/// memory verdict alone.
inline nlohmann::json to_json(const serving_deployment_report& r) {
  const serving_plan& p = r.plan;
  if (!r.timed) {
    nlohmann::json j{{"model", std::string(p.model.name.view())},
                     {"gpu", std::string(p.node.gpu.name.view())}};
    add_memory_verdict(j, r.memory);
    return j;
  }
  nlohmann::json j = to_json(r.point);
  j["model"] = std::string(p.model.name.view());
  j["gpu"] = std::string(p.node.gpu.name.view());
  j["node"] = std::string(p.node.name.view());
  j["layout"] = to_json(p.layout);
  j["engine"] = std::string(gpuplan::to_string(p.config.engine));
  j["batching"] = std::string(gpuplan::to_string(p.batching));
  j["chunked_prefill"] = r.chunked_prefill();
  j["decode_attention"] = std::string(gpuplan::to_string(p.assumptions.decode_attention));
  j["moe_all_to_all"] = r.moe_all_to_all();
  if (p.dp_attention)
    j["dp_attention"] = {{"ranks", p.layout.tp},
                         {"two_batch_overlap", p.two_batch_overlap},
                         {"experts", p.model.moe.experts}};
  if (r.plan.speculation.on())
    j["speculation"] = {{"draft_tokens", r.plan.speculation.draft_tokens},
                        {"acceptance", number(r.plan.speculation.acceptance)},
                        {"tokens_per_step", number(r.plan.speculation.tokens_per_step())}};
  j["dtype"] = std::string(gpuplan::to_string(p.compute_dtype));
  j["weight_dtype"] = std::string(gpuplan::to_string(p.config.weight_dtype));
  j["kv_dtype"] = std::string(gpuplan::to_string(p.config.kv_dtype));
  j["input_len"] = rounded_mean_input(p.mix);
  j["output_len"] = rounded_mean_output(p.mix);
  if (p.mix.size() > 1) j["mix"] = to_json(p.mix);
  j["ridge_batch"] = r.ridge_batch;
  add_memory_verdict(j, r.memory);
  if (r.best) {
    j["slo"] = to_json(r.slo);
    j["best"] = to_json(*r.best)["best"];
    j["slo_met"] = r.best->found;
  }
  if (r.curve) j["curve"] = to_json(*r.curve);
  return j;
}

}  // namespace gpuplan::io
