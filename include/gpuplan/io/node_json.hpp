// gpuplan/io/node_json.hpp: a server (node_spec) to JSON and back, for machines not in the catalog.
//
// The node file holds what the step-time and serving models read of a server: its GPU (a catalog
// name, or a GPU object in io/json.hpp's form), GPUs per node, the fabric between them (nvswitch:
// one NVLink domain of the whole node) and each GPU's scale-up bandwidth, the compute NICs (count
// and line rate of one, in bits per second as NICs are quoted), host memory, local storage and
// the published maximum power. Keys carry their unit (docs/json-schema.md, "Node").
//
// Part of the JSON edge (target gpuplan::json, needs nlohmann-json).
#pragma once

#include <gpuplan/catalog.hpp>
#include <gpuplan/io/error.hpp>
#include <gpuplan/io/json.hpp>
#include <gpuplan/io/readers.hpp>
#include <gpuplan/io/values.hpp>
#include <gpuplan/specs/error.hpp>
#include <gpuplan/specs/node.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace gpuplan::io {

/// A node in the form node_from_json reads: the GPU as an object (to_json(gpu_spec)).
inline nlohmann::json to_json(const node_spec& n) {
  nlohmann::json aliases = nlohmann::json::array();
  for (const auto& a : n.aliases)
    if (!a.empty()) aliases.push_back(std::string(a.view()));
  return {{"name", std::string(n.name.view())},
          {"aliases", aliases},
          {"gpu", to_json(n.gpu)},
          {"gpus", n.gpus},
          {"fabric", std::string(to_string(n.fabric))},
          {"scale_up_per_gpu_bytes_per_s", number(n.scale_up_per_gpu.in(units::Bps))},
          {"nics",
           {{"count", n.nics.count},
            {"per_nic_bits_per_s", number(n.nics.per_nic.in(units::bps))},
            {"model", std::string(n.nics.model.view())}}},
          {"host_memory_bytes", number(n.host_memory.in(units::B))},
          {"local_storage_bytes", number(n.local_storage.in(units::B))},
          {"max_power_watts", number(n.max_power.in(units::W))},
          {"pcie_islands", n.pcie_islands}};
}

/// A node from JSON. Required: name, gpu (a catalog GPU name or a GPU object), gpus. Optional:
/// fabric (default nvswitch), scale_up_per_gpu_bytes_per_s (default: the GPU's link per
/// direction, else its PCIe link), nics {count, per_nic_bits_per_s, model} (default none),
/// host_memory_bytes, local_storage_bytes, max_power_watts (0: unknown), pcie_islands (the CPU
/// sockets the GPUs are split over evenly, default 1; it must divide gpus). Errors name the key.
inline node_spec node_from_json(const nlohmann::json& j, const json_source& src) {
  if (!j.is_object()) throw error(src.file + ": a node must be a JSON object");
  node_spec n;
  n.name = detail::name_from(get_string(j, "name", src), "name", src);
  detail::read_aliases(j, src, n.aliases);
  const nlohmann::json& g = require_key(j, "gpu", src);
  if (g.is_string()) {
    const std::string name = g.get<std::string>();
    const gpu_spec* found = catalog::find_gpu(name);
    if (found == nullptr)
      throw error(src.where("gpu") + ": unknown GPU '" + name +
                  "' (a catalog name, or a GPU object as in docs/json-schema.md)");
    n.gpu = *found;
  } else if (g.is_object()) {
    n.gpu = gpu_from_json(g, {src.file, src.key_prefix + "gpu."});
  } else {
    throw error(src.where("gpu") + " must be a catalog GPU name or a GPU object, not " +
                detail::type_name(g));
  }
  n.gpus = get_count(j, "gpus", src);
  n.fabric = get_enum_or(j, "fabric", src, intra_node_fabric::nvswitch);
  if (has(j, "scale_up_per_gpu_bytes_per_s"))
    n.scale_up_per_gpu = detail::non_negative(j, "scale_up_per_gpu_bytes_per_s", src) * units::Bps;
  else if (n.fabric != intra_node_fabric::pcie && n.gpu.gpu_link.per_direction.value > 0.0)
    n.scale_up_per_gpu = n.gpu.gpu_link.per_direction;
  else
    n.scale_up_per_gpu = n.gpu.pcie.per_direction();
  if (n.gpus > 1 && !(n.scale_up_per_gpu.value > 0.0))
    throw error(src.where("scale_up_per_gpu_bytes_per_s") +
                " is missing or 0 and the GPU gives neither a link nor PCIe: with more than one "
                "GPU per node the models need it");
  if (has(j, "nics")) {
    const auto& k = j.at("nics");
    const json_source ks{src.file, src.key_prefix + "nics."};
    if (!k.is_object()) throw error(src.where("nics") + " must be an object");
    n.nics.count = get_count_or(k, "count", ks, 0, true);
    n.nics.per_nic = detail::non_negative(k, "per_nic_bits_per_s", ks) * units::bps;
    if (n.nics.count > 0 && !(n.nics.per_nic.value > 0.0))
      throw error(ks.where("per_nic_bits_per_s") + " must be positive when count > 0");
    if (const std::string m = get_string_or(k, "model", ks, ""); !m.empty())
      n.nics.model = detail::name_from(m, "model", ks);
  }
  n.host_memory = detail::non_negative(j, "host_memory_bytes", src) * units::B;
  n.local_storage = detail::non_negative(j, "local_storage_bytes", src) * units::B;
  n.max_power = detail::non_negative(j, "max_power_watts", src) * units::W;
  n.pcie_islands = get_count_or(j, "pcie_islands", src, 1);
  if (n.gpus % n.pcie_islands != 0)
    throw error(src.where("pcie_islands") + " must divide gpus (" + std::to_string(n.gpus) +
                "): the GPUs are split evenly over the CPU sockets");
  // the node's own fields are checked above, key by key; the GPU's rates are checked by whoever
  // times work on it (a memory plan needs only its memory)
  try {
    n.gpu.validate_memory();
  } catch (const invalid_input& e) {
    throw error(src.file + ": key '" + src.key_prefix + "gpu': " + e.what());
  }
  return n;
}

}  // namespace gpuplan::io
