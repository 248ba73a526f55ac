// fuzz/model_support.hpp: what every target that reads a transformer model checks of it (the
// config.json reader and gpuplan's own JSON form): finite counts, and a JSON form that reads back
// unchanged.
#pragma once

#include <gpuplan/io/json.hpp>

#include <string>

#include "fuzz_support.hpp"

namespace gpuplan::fuzz {

/// A model that validate() accepted: its parameter and KV counts are finite, and io::to_json
/// reads back through io::transformer_from_json to the same JSON.
inline void check_model_outputs(const transformer_spec& m) {
  check_finite(m.parameters(), "parameters()");
  check_finite(m.active_parameters(), "active_parameters()");
  check_finite(m.kv_bytes_per_token(precision::bf16).value, "kv_bytes_per_token");
  const nlohmann::json once = io::to_json(m);
  try {
    const transformer_spec back =
        io::transformer_from_json(once, io::json_source{"round-trip", ""});
    if (io::to_json(back) != once)
      fail("a model's JSON form reads back unchanged",
           once.dump() + " vs " + io::to_json(back).dump());
  } catch (const io::error& e) {
    fail("a model's JSON form reads back", std::string(e.what()) + " in " + once.dump());
  }
}

}  // namespace gpuplan::fuzz
