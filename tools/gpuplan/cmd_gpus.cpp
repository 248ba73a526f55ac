// tools/gpuplan/cmd_gpus.cpp: `gpuplan gpus`, the GPU catalog as a table or JSON.
#include "cli.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/io/json.hpp>
#include <gpuplan/specs/format.hpp>
#include <gpuplan/units/format.hpp>

#include <fmt/format.h>

#include <memory>

namespace gpuplan::cli {

namespace {

std::string rate_or_dash(compute_rate r) { return r.value > 0 ? show(r) : "-"; }

std::string link_text(const link_spec& l) {
  if (l.kind == link_kind::none || l.per_direction.value <= 0) return "-";
  return fmt::format("{} {} x{}", to_string(l.kind), show(l.bidirectional()), l.links);
}

int print_gpus(bool json) {
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const gpu_spec& g : catalog::all_gpus) out.push_back(io::to_json(g));
    print_json(out);
    return 0;
  }
  table t;
  t.header = {"GPU",       "arch",      "memory", "mem BW",           "BF16 dense", "FP8 dense",
              "FP4 dense", "TDP",       "GPU link (bidir)", "PCIe",   "aliases"};
  t.numeric = {false, false, true, true, true, true, true, true, false, false, false};
  for (const gpu_spec& g : catalog::all_gpus) {
    std::string aliases;
    for (const auto& a : g.aliases)
      if (!a.empty()) aliases += (aliases.empty() ? "" : ", ") + std::string(a.view());
    t.rows.push_back(
        {std::string(g.name.view()), std::string(g.architecture.view()), show(g.memory),
         show(g.memory_bandwidth), rate_or_dash(g.peak.bf16_tensor),
         rate_or_dash(g.peak.fp8_tensor), rate_or_dash(g.peak.fp4_tensor),
         g.tdp.value > 0 ? show(g.tdp) : "-",
         link_text(g.gpu_link),
         g.pcie.generation > 0 ? fmt::format("gen{} x{}", g.pcie.generation, g.pcie.lanes) : "-",
         aliases});
  }
  fmt::print("{}", t.render());
  fmt::print(
      "\nmemory: capacity in binary units (GiB = 2^30 B); peak rates dense (no 2:4 "
      "sparsity); link bandwidth bidirectional per GPU.\n");
  return 0;
}

}  // namespace

command add_gpus_command(CLI::App& app) {
  return add_listing_command(app, "Print the catalog as JSON (every field, base units)", print_gpus);
}

}  // namespace gpuplan::cli
