// fuzz/spec_json.cpp: gpuplan's own JSON forms of a GPU, a model and a parallel layout
// (io::gpu_from_json, io::transformer_from_json, io::layout_from_json), as `--gpu FILE`,
// `--model FILE` and a plan file's inline objects read them. Every input goes to all three.
//
// Accepted outcomes: an io::error keeping the message promises (fuzz_support.hpp), or a value
// whose numbers are finite and not negative, that validate() accepts or rejects with
// gpuplan::invalid_input, and that reads back unchanged from what to_json writes.
#include <cstddef>
#include <cstdint>
#include <gpuplan/io/json.hpp>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "model_support.hpp"

namespace {

using namespace gpuplan;

/// `read` turns the parsed input into a value; `check` tests what came out.
template <class Read, class Check>
void one_reader(const nlohmann::json& j, std::string_view text, const std::string& source,
                Read read, Check check) {
  try {
    check(read(j, io::json_source{source, ""}));
  } catch (const io::error& e) {
    fuzz::check_message(e.what(), text, source);
  }
}

void check_gpu(const gpu_spec& g) {
  fuzz::check_finite(g.memory.value, "memory");
  if (!(g.memory.value > 0)) fuzz::fail("a GPU read has memory", "memory <= 0");
  fuzz::check_finite(g.memory_usable.value, "memory_usable");
  fuzz::check_finite(g.memory_bandwidth.value, "memory_bandwidth");
  fuzz::check_finite(g.peak.bf16_tensor.value, "peak.bf16_tensor");
  fuzz::check_finite(g.peak.sparsity_factor, "peak.sparsity_factor");
  fuzz::check_finite(g.tdp.value, "tdp");
  fuzz::check_finite(g.gpu_link.per_direction.value, "link.per_direction");
  fuzz::check_finite(g.boost_clock.value, "boost_clock");
  fuzz::check_finite(g.plannable_memory().value, "plannable_memory()");
  try {
    g.validate();
  } catch (const invalid_input& e) {
    fuzz::check_message(e.what(), "", "");
  }
  const nlohmann::json once = io::to_json(g);
  try {
    const gpu_spec back = io::gpu_from_json(once, io::json_source{"round-trip", ""});
    if (io::to_json(back) != once)
      fuzz::fail("a GPU's JSON form reads back unchanged",
                 once.dump() + " vs " + io::to_json(back).dump());
  } catch (const io::error& e) {
    fuzz::fail("a GPU's JSON form reads back", std::string(e.what()) + " in " + once.dump());
  }
}

void check_model(const transformer_spec& m) {
  try {
    m.validate();
  } catch (const invalid_input& e) {
    fuzz::check_message(e.what(), "", "");
    return;  // the models are not run on what validate() rejects
  }
  fuzz::check_model_outputs(m);
}

void check_layout(const parallel_layout& l) {
  try {
    l.validate();
  } catch (const invalid_input& e) {
    fuzz::check_message(e.what(), "", "");
    return;
  }
  if (l.gpus() <= 0) fuzz::fail("a valid layout has GPUs", std::to_string(l.gpus()));
  const nlohmann::json once = io::to_json(l);
  try {
    const parallel_layout back = io::layout_from_json(once, io::json_source{"round-trip", ""});
    if (io::to_json(back) != once)
      fuzz::fail("a layout's JSON form reads back unchanged",
                 once.dump() + " vs " + io::to_json(back).dump());
  } catch (const io::error& e) {
    fuzz::fail("a layout's JSON form reads back", std::string(e.what()) + " in " + once.dump());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string source = "fuzz/spec.json";
  nlohmann::json j;
  try {
    j = io::parse_json(text, source);
  } catch (const io::error& e) {
    fuzz::check_message(e.what(), text, source);
    return 0;
  }
  one_reader(j, text, source, io::gpu_from_json, check_gpu);
  one_reader(j, text, source, io::transformer_from_json, check_model);
  one_reader(j, text, source, io::layout_from_json, check_layout);
  return 0;
}
