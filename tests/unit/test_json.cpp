// JSON in and out: parse errors with line and column, strict readers naming the key, and specs
// that survive a round trip.
#include "../catch.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/io/fit_json.hpp>
#include <gpuplan/io/json.hpp>

#include <limits>
#include <string>

using namespace gpuplan;
using namespace gpuplan::literals;

namespace {
std::string parse_error_of(std::string_view text) {
  try {
    (void)io::parse_json(text, "t.json");
  } catch (const io::error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("position_of counts lines and columns from 1", "[json]") {
  const std::string_view t = "ab\ncd\n\nef";
  CHECK(io::position_of(t, 0).line == 1);
  CHECK(io::position_of(t, 0).column == 1);
  CHECK(io::position_of(t, 1).column == 2);
  CHECK(io::position_of(t, 3).line == 2);
  CHECK(io::position_of(t, 3).column == 1);
  CHECK(io::position_of(t, 4).column == 2);
  CHECK(io::position_of(t, 7).line == 4);
  CHECK(io::position_of(t, 100).line == 4);  // past the end: just after the last character
  CHECK(io::position_of(t, 100).column == 3);
}

TEST_CASE("malformed JSON names line and column, on one line", "[json][errors]") {
  CHECK_THAT(parse_error_of("{\n  \"a\": 1,\n  \"b\": tru\n}"),
             Catch::Matchers::StartsWith("t.json:3:"));
  // The missing comma: the error is at the end of the next key, "b"'s closing quote (line 3,
  // column 5), the last character the parser read.
  CHECK_THAT(parse_error_of("{\n  \"a\": 1\n  \"b\": 2\n}"),
             Catch::Matchers::StartsWith("t.json:3:5: malformed JSON: "));
  // An unterminated object: the end of input, just after the last character.
  CHECK_THAT(parse_error_of("{\"a\": 1,\n"), Catch::Matchers::StartsWith("t.json:2:1:"));
  CHECK_THAT(parse_error_of(""), Catch::Matchers::StartsWith("t.json:1:1:"));
  const std::string e = parse_error_of("{\n\"a\": \"x\ny\"}");
  CHECK(e.find('\n') == std::string::npos);
}

TEST_CASE("strict readers name the key", "[json][errors]") {
  const nlohmann::json j = {{"n", 0}, {"m", -3}, {"s", "x"}, {"f", 2.5}, {"i", 4096.0}};
  const io::json_source src{"plan.json", ""};
  CHECK_THROWS_WITH(io::get_count(j, "n", src), "plan.json: key 'n' must be positive (got 0)");
  CHECK(io::get_count(j, "n", src, true) == 0);
  CHECK_THROWS_WITH(io::get_count(j, "m", src, true),
                    "plan.json: key 'm' must not be negative (got -3)");
  CHECK_THROWS_WITH(io::get_count(j, "s", src),
                    "plan.json: key 's' must be an integer, not a string");
  CHECK_THROWS_WITH(io::get_count(j, "f", src),
                    "plan.json: key 'f' must be an integer, not a number");
  CHECK(io::get_count(j, "i", src) == 4096);
  CHECK_THROWS_WITH(io::get_count(j, "absent", src), "plan.json: key 'absent' is missing");
  CHECK(io::get_count_or(j, "absent", src, 7) == 7);
  CHECK_THROWS_WITH(io::get_precision_or({{"dtype", "bf17"}}, "dtype", src, precision::bf16),
                    Catch::Matchers::Contains("unknown value 'bf17' (expected one of fp64, fp32"));
}

TEST_CASE("layouts round-trip and check their GPU count", "[json]") {
  parallel_layout l;
  l.dp = 4;
  l.tp = 8;
  l.pp = 2;
  l.zero = 1;
  l.sequence_parallel = true;
  const nlohmann::json j = io::to_json(l);
  CHECK(j["gpus"] == 64);
  CHECK(j["expert_tp"] == 0);
  const parallel_layout back = io::layout_from_json(j, {"x", ""});
  CHECK(back.dp == 4);
  CHECK(back.tp == 8);
  CHECK(back.pp == 2);
  CHECK(back.zero == 1);
  CHECK(back.sequence_parallel);
  nlohmann::json wrong = j;
  wrong["gpus"] = 63;
  CHECK_THROWS_WITH(io::layout_from_json(wrong, {"x", ""}),
                    "x: key 'gpus' is 63 but dp x tp x pp x cp = 64");
  CHECK_THROWS_WITH(io::layout_from_json({{"zero", 4}}, {"x", ""}),
                    "x: key 'zero' must be 0, 1, 2 or 3");
}

TEST_CASE("a transformer round-trips through JSON with its parameter count", "[json]") {
  // GPT-2 small's shape: 124,439,808 parameters (transformers' num_parameters()).
  transformer_spec m;
  m.name = "gpt2";
  m.aliases[0] = "openai-community/gpt2";
  m.layers = 12;
  m.hidden = 768;
  m.heads = 12;
  m.kv_heads = 12;
  m.head_dim = 64;
  m.ffn = 3072;
  m.ffn_type = ffn_kind::mlp;
  m.vocab = 50257;
  m.tied_embeddings = true;
  m.max_positions = 1024;
  m.positions = position_kind::learned;
  m.norm = norm_kind::layernorm;
  m.qkv_bias = m.out_bias = m.mlp_bias = true;
  const nlohmann::json j = io::to_json(m);
  CHECK(j["parameters"] == 124439808.0);
  CHECK(j["ffn_type"] == "mlp");
  const transformer_spec back = io::transformer_from_json(j, {"m.json", ""});
  CHECK(back.parameters() == m.parameters());
  CHECK(back.positions == position_kind::learned);
  CHECK(back.aliases[0] == std::string_view("openai-community/gpt2"));
  CHECK(back.aliases[1].empty());
  nlohmann::json bad = j;
  bad["norm"] = "batchnorm";
  CHECK_THROWS_WITH(io::transformer_from_json(bad, {"m.json", ""}),
                    "m.json: key 'norm': unknown value 'batchnorm' (expected one of rmsnorm, "
                    "layernorm)");
  bad = j;
  bad["moe"] = {{"experts", 8}};
  CHECK_THROWS_WITH(io::transformer_from_json(bad, {"m.json", ""}),
                    "m.json: key 'moe.experts_per_token' is missing");
}

TEST_CASE("a GPU round-trips through JSON in base units", "[json]") {
  gpu_spec g;
  g.name = "MyGPU-24GB";
  g.aliases[0] = "mygpu";
  g.memory = 24_GiB;
  g.memory_bandwidth = 1_TBps;
  g.peak.bf16_tensor = 200_TFLOPS;
  g.tdp = 300_W;
  g.gpu_link = link_spec::from_bidirectional(link_kind::nvlink, 4, 200_GBps, 2);
  g.pcie = {4, 16};
  g.compute_capability = {8, 9};
  const nlohmann::json j = io::to_json(g);
  CHECK(j["memory_bytes"] == 24.0 * 1073741824.0);
  CHECK(j["link"]["unidirectional_bytes_per_s"] == 100e9);
  CHECK(j["link"]["bidirectional_bytes_per_s"] == 200e9);
  const gpu_spec back = io::gpu_from_json(j, {"g.json", ""});
  CHECK(back.name == std::string_view("MyGPU-24GB"));
  CHECK(back.aliases[0] == std::string_view("mygpu"));
  CHECK(back.memory == g.memory);
  CHECK(back.peak.bf16_tensor == g.peak.bf16_tensor);
  CHECK(back.gpu_link.unidirectional() == g.gpu_link.unidirectional());
  CHECK(back.pcie.lanes == 16);
  CHECK(back.compute_capability == cuda_capability{8, 9});
  // a file without the compute capability (written before it existed) reads as unknown
  nlohmann::json old = j;
  old.erase("compute_capability_major");
  old.erase("compute_capability_minor");
  CHECK(!io::gpu_from_json(old, {"g.json", ""}).compute_capability.known());
  // and a minor above 9 is refused, naming the field
  nlohmann::json odd = j;
  odd["compute_capability_minor"] = 10;
  CHECK_THROWS_WITH(io::gpu_from_json(odd, {"g.json", ""}).validate(),
                    Catch::Matchers::Contains("gpu_spec.compute_capability"));
  CHECK_THROWS_WITH(io::gpu_from_json({{"name", "x"}, {"memory_bytes", -1}}, {"g.json", ""}),
                    "g.json: key 'memory_bytes' must be positive");
  CHECK_THROWS_WITH(io::gpu_from_json({{"name", "x"}}, {"g.json", ""}),
                    "g.json: key 'memory_bytes' is missing");
}

TEST_CASE("byte counts are JSON integers while exact, numbers beyond, never wrapped", "[json]") {
  using gpuplan::units::B;
  const nlohmann::json small = gpuplan::io::bytes_value(80.4 * gpuplan::units::GiB);
  CHECK(small.is_number_integer());
  CHECK(small.get<long long>() == 86328842650LL);  // 80.4 x 2^30 rounded to whole bytes
  // A 1e30-parameter model's optimizer state (1.6e31 bytes) exceeds every 64-bit integer: it was
  // once written as -9223372036854775808.
  const nlohmann::json huge = gpuplan::io::bytes_value(1.6e31 * B);
  CHECK(huge.is_number_float());
  CHECK(huge.get<double>() == 1.6e31);
  CHECK(gpuplan::io::bytes_value(gpuplan::data_size::from_base(std::numeric_limits<double>::infinity())).is_null());
}

TEST_CASE("every catalog model, the 2026 architectures included, round-trips through JSON",
          "[json][2026]") {
  // A gpuplan model JSON describes any transformer the catalog holds: MLA, windows with global
  // layers, Q/K norms, sinks, four norms, MoE phase and router bias, MTP, a vision tower and the
  // checkpoint's quantisation all survive the trip, with every count derived from them.
  for (const transformer_spec& m : catalog::all_models) {
    INFO(m.name.view());
    const transformer_spec back = io::transformer_from_json(io::to_json(m), {"m.json", ""});
    CHECK(back.parameters() == m.parameters());
    CHECK(back.active_parameters() == m.active_parameters());
    CHECK(back.checkpoint_parameters() == m.checkpoint_parameters());
    CHECK(back.kv_bytes(32768, precision::bf16) == m.kv_bytes(32768, precision::bf16));
    CHECK(back.head_dim == m.head_dim);
    CHECK(back.global_every == m.global_every);
    CHECK(back.quantization.method == m.quantization.method);
    CHECK(back.quantization.experts_only == m.quantization.experts_only);
  }
}
