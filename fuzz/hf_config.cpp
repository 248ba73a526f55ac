// fuzz/hf_config.cpp: a Hugging Face config.json, as `gpuplan fit --model DIR` reads it
// (io::parse_json, then io::from_hf_config).
//
// Accepted outcomes: an io::error keeping the message promises (fuzz_support.hpp), or a
// transformer_spec that the library's own validate() accepts, whose parameter count and KV bytes
// per token are finite and positive, and that survives gpuplan's JSON form unchanged
// (to_json -> transformer_from_json -> to_json).
#include <cstddef>
#include <cstdint>
#include <gpuplan/io/hf_config.hpp>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "model_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpuplan;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string source = "fuzz/config.json";
  transformer_spec m;
  try {
    const nlohmann::json cfg = io::parse_json(text, source);
    m = io::from_hf_config(cfg, io::json_source{source, ""});
  } catch (const io::error& e) {
    fuzz::check_message(e.what(), text, source);
    return 0;
  }
  try {
    m.validate();
  } catch (const invalid_input& e) {
    fuzz::fail("what the config.json reader accepts, the library's validate() accepts", e.what());
  }
  if (!(m.parameters() > 0)) fuzz::fail("a model read has parameters", "parameters() <= 0");
  fuzz::check_model_outputs(m);
  return 0;
}
