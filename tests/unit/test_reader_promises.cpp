// The readers' promises (docs/reliability.md), one test each, and a regression test for every
// input the fuzzers (fuzz/) found breaking one. Bad input gets one clear io::error naming the file,
// the field and where it is: never a wrapped-around value, a NaN, a hang, or an exception of
// another type escaping (which the CLI reports as an internal error, exit status 3).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gpuplan/io/hf_config.hpp>
#include <gpuplan/io/json.hpp>
#include <gpuplan/io/monitoring.hpp>
#include <gpuplan/io/prices_json.hpp>
#include <gpuplan/models/training_memory.hpp>
#include <string>

#include "../catch.hpp"

using namespace gpuplan;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

/// The error reading `text` as a Hugging Face config.json gives, or "" when it reads.
std::string hf_error(const std::string& text) {
  try {
    (void)io::from_hf_config(io::parse_json(text, "config.json"), {"config.json", ""});
  } catch (const io::error& e) {
    return e.what();
  }
  return "";
}

/// A Llama config with `extra` appended to its keys (or replacing num_hidden_layers when that
/// is what `layers` says).
std::string llama(const std::string& layers, const std::string& extra = "") {
  return R"({"architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
             "num_attention_heads": 32, "intermediate_size": 14336, "vocab_size": 32000,
             "num_hidden_layers": )" +
         layers + extra + "}";
}

std::string parse_error(const std::string& text, io::json_limits limits = {}) {
  try {
    (void)io::parse_json(text, "t.json", limits);
  } catch (const io::error& e) {
    return e.what();
  }
  return "";
}

std::string layout_error(const std::string& text) {
  try {
    (void)io::layout_from_json(io::parse_json(text, "plan.json"), {"plan.json", ""});
  } catch (const io::error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// ---- absurdly large and wrapped-around values -------------------------------------------------

TEST_CASE("2^63 layers is 'too large' with the value as written, not a wrapped negative",
          "[promises][large]") {
  // Found as a new user would (issue 14): "must be positive (got -9223372036854775808)".
  const std::string e = hf_error(llama("9223372036854775808"));
  CHECK(e == "config.json: key 'num_hidden_layers' is too large (got 9223372036854775808)");
  CHECK(e.find('-') == std::string::npos);
  // 2^64 - 1, the largest value nlohmann reads as an integer, and 2^64, read as a double.
  CHECK(hf_error(llama("18446744073709551615")) ==
        "config.json: key 'num_hidden_layers' is too large (got 18446744073709551615)");
  CHECK(hf_error(llama("18446744073709551616")) ==
        "config.json: key 'num_hidden_layers' is too large (got 1.8446744073709552e+19)");
}

TEST_CASE("1e30 layers and -1e30 layers are refused by size, not as 'not an integer'",
          "[promises][large]") {
  CHECK(hf_error(llama("1e30")) == "config.json: key 'num_hidden_layers' is too large (got 1e+30)");
  CHECK(hf_error(llama("-1e30")) ==
        "config.json: key 'num_hidden_layers' is too small (got -1e+30)");
  // Within long long but past int: the count check names the value.
  CHECK(hf_error(llama("4294967296")) ==
        "config.json: key 'num_hidden_layers' is too large (got 4294967296)");
  // A whole number written as a float is still a count.
  CHECK(hf_error(llama("32.0")).empty());
  CHECK(hf_error(llama("32.5")) ==
        "config.json: key 'num_hidden_layers' must be an integer, "
        "not a number");
}

TEST_CASE("more layers than any model has is refused before the models loop over them",
          "[promises][large]") {
  // Regression: 2^31 - 1 layers passed the int check and fit() then visited every layer several
  // times (minutes under the sanitizers; the fuzzers' 10 s timeout caught it).
  CHECK(hf_error(llama("2147483647")) ==
        "config.json: key 'num_hidden_layers' is too large "
        "(got 2147483647; at most 100000 layers)");
  CHECK(hf_error(llama("100000")).empty());
  const std::string gpt2 = R"({"architectures": ["GPT2LMHeadModel"], "n_embd": 768, "n_head": 12,
                               "vocab_size": 50257, "n_positions": 1024, "n_layer": 100001})";
  CHECK(hf_error(gpt2) ==
        "config.json: key 'n_layer' is too large (got 100001; at most 100000 layers)");
  const nlohmann::json own = {{"name", "deep"}, {"layers", 1000000}, {"hidden", 64},
                              {"heads", 1},     {"ffn", 128},        {"vocab", 10}};
  CHECK_THROWS_WITH(io::transformer_from_json(own, {"m.json", ""}),
                    "m.json: key 'layers' is too large (got 1000000; at most 100000 layers)");
}

TEST_CASE("layouts whose degrees multiply past int are refused, not wrapped", "[promises][large]") {
  // Regression (fuzz/spec_json, by hand from its dictionary): dp = tp = 2^31 - 1 with "gpus"
  // computed dp x tp x pp x cp in int: signed overflow, undefined behaviour (UBSan).
  CHECK(layout_error(R"({"dp": 2147483647, "tp": 2147483647, "gpus": 1})") ==
        "plan.json: dp x tp x pp x cp is too large (got 4611686014132420609; at most 16777216)");
  CHECK(layout_error(R"({"ep": 2147483647, "tp": 2})") ==
        "plan.json: ep x expert_tp is too large (got 4294967294; at most 16777216)");
  CHECK(layout_error(R"({"pp": 4, "virtual_stages": 2147483647})") ==
        "plan.json: pp x virtual_stages is too large (got 8589934588; at most 16777216)");
  CHECK(layout_error(R"({"dp": 4096, "tp": 8, "pp": 8, "cp": 8, "gpus": 2097152})").empty());
}

TEST_CASE("a layout built in code with degrees past int's products is refused by validate()",
          "[promises][large]") {
  // The library's own checks, for a caller that builds the layout without a reader: the
  // products are computed in long long and bounded by parallel_layout::max_gpus (2^24).
  parallel_layout l;
  l.dp = 2147483647;
  l.tp = 2147483647;
  CHECK_THROWS_WITH(l.validate(),
                    "gpuplan: layout.dp x layout.tp must be at most 16777216 GPUs (got "
                    "4611686014132420609)");
  CHECK(std::string(l.check().message) == "layout.dp x layout.tp must be at most 16777216 GPUs");
  l = {};
  l.dp = 4096;
  l.tp = 8;
  l.pp = 8;
  l.cp = 2147483647;
  CHECK_THROWS_WITH(l.validate(), "gpuplan: layout.dp x layout.tp x layout.pp x layout.cp must "
                                  "be at most 16777216 GPUs (got 562949953159168)");
  l = {};
  l.dp = 65536;
  l.pp = 65536;
  CHECK_THROWS_WITH(l.validate(), Contains("layout.dp x layout.tp x layout.pp must be at most"));
  l = {};
  l.dp = 2;
  l.ep = 2;
  l.expert_tp = 2147483647;
  CHECK_THROWS_WITH(l.validate(),
                    "gpuplan: layout.ep x layout.expert_tp must be at most 16777216 GPUs (got "
                    "4294967294)");
  l = {};
  l.pp = 2;
  l.virtual_stages = 2147483647;
  CHECK_THROWS_WITH(l.validate(), "gpuplan: layout.pp x layout.virtual_stages must be at most "
                                  "16777216 pipeline chunks (got 4294967294)");
  // At the bound: valid, and gpus() exact.
  l = {};
  l.dp = 4096;
  l.tp = 8;
  l.pp = 8;
  l.cp = 64;
  CHECK_NOTHROW(l.validate());
  CHECK(l.gpus() == 16777216);
  // The same checks in a constant expression.
  constexpr auto square = [](int side) {
    parallel_layout sq;
    sq.dp = side;
    sq.tp = side;
    return sq;
  };
  STATIC_REQUIRE(square(1 << 12).check().ok());
  STATIC_REQUIRE(!square(1 << 13).check().ok());
}

TEST_CASE("a price book's gpus_per_instance past int is refused, not converted",
          "[promises][large]") {
  // Regression (fuzz/prices_json, 240 s run): 21474836488 GPUs per instance was cast to int
  // before the range check: undefined behaviour (UBSan float-cast-overflow).
  const std::string book = R"({"cloud": [{"provider": "aws", "instance": "p5", "gpu": "h100",
      "gpus_per_instance": 21474836488, "date": "2026-10-15", "source": "x"}]})";
  CHECK_THROWS_WITH(io::price_book_from_json(io::parse_json(book, "prices.json"), "prices.json"),
                    "prices.json: cloud[0] (aws p5): field 'gpus_per_instance' must be a whole "
                    "number from 1 to 1024");
}

TEST_CASE("monitoring sample times outside 1970-9999 are refused, naming the row",
          "[promises][large]") {
  // Regression (fuzz/monitoring_csv and fuzz/monitoring_prometheus): a CSV row in the year 1511
  // and a Prometheus sample at time -2147483649 were read as negative Unix times; times near
  // double's range made the analysis's interval sums infinite.
  const std::string csv = "timestamp,gpu,utilization\n1511-11-20T14:00:00Z,a,30\n";
  CHECK_THROWS_WITH(io::read_monitoring(csv, "util.csv"),
                    StartsWith("util.csv:2: field 'timestamp': cannot read "
                               "'1511-11-20T14:00:00Z' as a time from 1970 to 9999"));
  CHECK_THROWS_WITH(io::read_monitoring("timestamp,gpu,utilization\n1e300,a,30\n", "util.csv"),
                    StartsWith("util.csv:2: field 'timestamp': cannot read '1e300'"));
  CHECK(io::read_monitoring("timestamp,gpu,utilization\n9999-12-31T23:59:59Z,a,30\n", "u.csv")
            .samples.size() == 1);
  const auto prom = [](const std::string& t) {
    return R"({"status": "success", "data": {"resultType": "matrix", "result": [{"metric":
        {"__name__": "DCGM_FI_DEV_GPU_UTIL", "gpu": "0"}, "values": [[)" +
           t + R"(, "50"]]}]}})";
  };
  CHECK_THROWS_WITH(io::read_monitoring(prom("-2147483649"), "dcgm.json"),
                    "dcgm.json: data.result[0].values[0]: time -2147483649 is not a Unix time "
                    "from 1970 to 9999 (seconds)");
  CHECK_THROWS_WITH(io::read_monitoring(prom("1e300"), "dcgm.json"),
                    Contains("time 1e+300 is not a Unix time"));
  CHECK(io::read_monitoring(prom("1795442400"), "dcgm.json").samples.size() == 1);
}

TEST_CASE("a price book's messages stay one line when a key or a name holds a newline",
          "[promises][lines]") {
  // Regression (fuzz/prices_json): the key "o\n_demand_usd_per_gpu_hour" was quoted as read,
  // so "is not a known field" spanned two lines.
  const std::string book = R"({"cloud": [{"provider": "lab", "instance": "4x\nA100",
      "gpu": "a100", "gpus_per_instance": 4, "o\n_demand_usd_per_gpu_hour": 1.0,
      "date": "2026-09-01", "source": "x"}]})";
  CHECK_THROWS_WITH(io::price_book_from_json(io::parse_json(book, "prices.json"), "prices.json"),
                    StartsWith("prices.json: cloud[0] (lab 4x A100): field 'o _demand_usd_per_gpu_"
                               "hour' is not a known field"));
}

TEST_CASE("monitoring memory and power readings past 1 PiB and 1 MW are refused",
          "[promises][large]") {
  // Regression (fuzz/monitoring_csv): "1e308 GiB" read as an infinite number of bytes, and the
  // analysis's mean memory became infinite; sums of readings near double's range overflow too.
  const std::string head = "timestamp,gpu,utilization,memory_used,power\n";
  CHECK_THROWS_WITH(
      io::read_monitoring(head + "2026-11-20T14:00:00Z,a,30,1e308 GiB,250\n", "util.csv"),
      "util.csv:2: field 'memory_used': 1e308 GiB is too large (more than 1 PiB)");
  CHECK_THROWS_WITH(
      io::read_monitoring(head + "2026-11-20T14:00:00Z,a,30,10 GiB,2000 kW\n", "util.csv"),
      "util.csv:2: field 'power': 2000 kW is too large (more than 1 MW)");
  CHECK(io::read_monitoring(head + "2026-11-20T14:00:00Z,a,30,1048576 GiB,1000 kW\n", "u.csv")
            .samples.size() == 1);
  const std::string prom = R"({"data": {"resultType": "matrix", "result": [{"metric":
      {"__name__": "DCGM_FI_DEV_FB_USED", "gpu": "0"}, "values": [[1795442400, "1e303"]]}]}})";
  CHECK_THROWS_WITH(io::read_monitoring(prom, "dcgm.json"),
                    "dcgm.json: data.result[0].values[0] (DCGM_FI_DEV_FB_USED): 1e303 MiB is too "
                    "large (more than 1 PiB)");
}

// ---- not finite --------------------------------------------------------------------------------

TEST_CASE("a number past double's range is malformed JSON with its place, not an escape",
          "[promises][finite]") {
  // Regression (fuzz/hf_config, 1e309 from the dictionary): nlohmann threw out_of_range 406,
  // which parse_json did not catch, so the CLI reported an internal error (exit status 3).
  CHECK(parse_error("{\n  \"hidden_size\": 1e309\n}") ==
        "t.json:2:22: malformed JSON: number out of range: '1e309'");
  CHECK_THAT(parse_error("[-1e400]"),
             StartsWith("t.json:1:7: malformed JSON: number out of range"));
}

TEST_CASE("NaN and Infinity are not JSON: malformed, with their place", "[promises][finite]") {
  CHECK_THAT(parse_error("{\"memory_bytes\": NaN}"), StartsWith("t.json:1:18: malformed JSON:"));
  CHECK_THAT(parse_error("{\"memory_bytes\": Infinity}"),
             StartsWith("t.json:1:18: malformed JSON:"));
  // A non-finite number built in code (not from text) is refused by name.
  const nlohmann::json j = {{"tdp_watts", std::nan("")}, {"n", INFINITY}};
  CHECK_THROWS_WITH(io::get_number(j, "tdp_watts", {"g.json", ""}),
                    "g.json: key 'tdp_watts' must be finite");
  CHECK_THROWS_WITH(io::get_count(j, "n", {"g.json", ""}), "g.json: key 'n' must be finite");
}

// ---- negative where it cannot be, wrong types ---------------------------------------------------

TEST_CASE("negative and zero counts and sizes name the field and the value", "[promises][sign]") {
  CHECK(hf_error(llama("-4")) == "config.json: key 'num_hidden_layers' must be positive (got -4)");
  CHECK(hf_error(llama("0")) == "config.json: key 'num_hidden_layers' must be positive (got 0)");
  const nlohmann::json g = {{"name", "X"}, {"memory_bytes", 8e10}, {"tdp_watts", -700}};
  CHECK_THROWS_WITH(io::gpu_from_json(g, {"g.json", ""}),
                    "g.json: key 'tdp_watts' must not be negative");
  const nlohmann::json g0 = {{"name", "X"}, {"memory_bytes", 0}};
  CHECK_THROWS_WITH(io::gpu_from_json(g0, {"g.json", ""}),
                    "g.json: key 'memory_bytes' must be positive");
}

TEST_CASE("a value of the wrong type names the field and both types", "[promises][type]") {
  CHECK(hf_error(llama("\"32\"")) ==
        "config.json: key 'num_hidden_layers' must be an integer, not a string");
  CHECK(hf_error(llama("[32]")) ==
        "config.json: key 'num_hidden_layers' must be an integer, not an array");
  CHECK(hf_error(llama("32", R"(, "tie_word_embeddings": "yes")")) ==
        "config.json: key 'tie_word_embeddings' must be true or false, not a string");
  CHECK(hf_error("[1, 2]") == "config.json: a config.json must hold a JSON object");
}

// ---- keys, names, nulls -------------------------------------------------------------------------

TEST_CASE("a key given twice is refused, naming it and the object it is in", "[promises][dup]") {
  CHECK(hf_error(llama("32", R"(, "num_hidden_layers": 40)")) ==
        "config.json: key 'num_hidden_layers' appears twice in one object");
  CHECK(parse_error(R"({"moe": {"experts": 8, "experts": 16}})") ==
        "t.json: key 'moe.experts' appears twice in one object");
  CHECK(parse_error(R"({"aliases": [{"a": 1, "a": 2}]})") ==
        "t.json: key 'aliases[0].a' appears twice in one object");
  // The same key in different objects is fine.
  CHECK(parse_error(R"({"a": {"x": 1}, "b": {"x": 1}, "x": [1, {"x": 2}]})").empty());
}

TEST_CASE("'architectures': null falls back to model_type without an internal error",
          "[promises][null]") {
  // Regression (fuzz/hf_config): the name fallback indexed a null `architectures`, which threw
  // nlohmann's type_error 305 (exit status 3 in the CLI, for a plan's inline model).
  const std::string cfg = R"({"architectures": null, "model_type": "llama", "hidden_size": 64,
      "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100,
      "num_hidden_layers": 2})";
  const transformer_spec m = io::from_hf_config(io::parse_json(cfg, "c.json"), {"c.json", ""});
  CHECK(m.name == std::string_view("llama"));
  CHECK(m.layers == 2);
}

TEST_CASE("a NUL inside a name is refused or cut, never an empty name", "[promises][names]") {
  // Regression (fuzz/hf_config): "_name_or_path": "\u0000x" gave a model whose name read as ""
  // (names end at the first NUL), which the library's own validate() then refused.
  const std::string cfg = llama("2", R"(, "_name_or_path": "\u0000x")");
  const transformer_spec m = io::from_hf_config(io::parse_json(cfg, "c.json"), {"c.json", ""});
  CHECK(m.name == std::string_view("LlamaForCausalLM"));
  CHECK_NOTHROW(m.validate());
  const nlohmann::json own = {{"name", std::string("a\0b", 3)},
                              {"layers", 2},
                              {"hidden", 64},
                              {"heads", 1},
                              {"ffn", 128},
                              {"vocab", 10}};
  CHECK_THROWS_WITH(io::transformer_from_json(own, {"m.json", ""}),
                    "m.json: key 'name' must not contain a NUL character (\\u0000)");
}

// ---- BOM, nesting, size
// --------------------------------------------------------------------------

TEST_CASE("a UTF-8 byte-order mark is skipped at the start, malformed elsewhere",
          "[promises][bom]") {
  CHECK(hf_error("\xEF\xBB\xBF" + llama("2")).empty());
  CHECK_THAT(parse_error("{\"a\": \xEF\xBB\xBF 1}"), StartsWith("t.json:1:7: malformed JSON:"));
  // Half a BOM is an error naming it.
  CHECK_THAT(parse_error("\xEF\xBB{}"), Contains("BOM"));
}

TEST_CASE("nesting deeper than the limit is refused at the first bracket past it",
          "[promises][depth]") {
  const std::string ok = std::string(64, '[') + std::string(64, ']');
  CHECK(parse_error(ok).empty());
  const std::string deep = std::string(65, '[') + std::string(65, ']');
  CHECK(parse_error(deep) == "t.json:1:65: nesting deeper than 64 levels of arrays and objects");
  // A bracket inside a string does not count; the place is found across lines.
  const std::string mixed = "{\"s\": \"[[[[\",\n \"a\": [[[1]]]}";
  CHECK(parse_error(mixed, io::json_limits{.max_depth = 3}) ==
        "t.json:2:9: nesting deeper than 3 levels of arrays and objects");
  // A million brackets: refused quickly, no stack overflow (the reader is iterative).
  const std::string million = std::string(1000000, '[');
  CHECK_THAT(parse_error(million), StartsWith("t.json:1:65: nesting deeper than 64 levels"));
}

TEST_CASE("a file past the size limit is refused before it is read", "[promises][size]") {
  const std::filesystem::path f =
      std::filesystem::temp_directory_path() / "gpuplan_test_reader_promises_big.json";
  {
    std::ofstream out(f, std::ios::binary);
    out << "{\"pad\": \"" << std::string(2000, 'x') << "\"}";
  }
  CHECK_THROWS_WITH(io::read_json_file(f, io::json_limits{.max_file_bytes = 1000}),
                    f.string() + ": the file is too large (2011 bytes; the limit is 1000)");
  CHECK_NOTHROW(io::read_json_file(f));
  std::filesystem::remove(f);
  // A device that never ends (a path typed by mistake) stops at the limit instead of filling the
  // memory: the default limit is 64 MiB; a small one keeps the test quick.
  if (std::filesystem::exists("/dev/zero")) {
    CHECK_THROWS_WITH(io::read_json_file("/dev/zero", io::json_limits{.max_file_bytes = 100000}),
                      "/dev/zero: the file is too large (more than 100000 bytes; the limit is "
                      "100000)");
  }
}

TEST_CASE("every error is one line naming the source", "[promises]") {
  for (const std::string& text :
       {std::string("{\n\"a\":\n"), llama("-1"), llama("1e30"), llama("32", ",\n\"x\": 1e999"),
        std::string(100, '{'), llama("32", R"(, "num_hidden_layers": 1)")}) {
    const std::string e = hf_error(text);
    INFO(text);
    CHECK(!e.empty());
    CHECK(e.find('\n') == std::string::npos);
    CHECK_THAT(e, StartsWith("config.json"));
  }
}

// ---- the models behind the readers
// ---------------------------------------------------------------

TEST_CASE("an MoE layer's experts are counted by multiplication, not one loop step each",
          "[promises][large]") {
  // Regression: stage_params looped once per expert per layer, so 2^28 experts read from a file
  // took minutes. The count must still be exact: experts x one expert's parameters.
  transformer_spec m;
  m.name = "many-experts";
  m.layers = 2;
  m.hidden = 64;
  m.heads = 4;
  m.kv_heads = 4;
  m.head_dim = 16;
  m.ffn = 128;
  m.vocab = 100;
  m.moe.experts = 1 << 28;
  m.moe.experts_per_token = 2;
  m.moe.expert_ffn = 32;
  m.moe.shared_experts = 1 << 20;
  const parallel_layout l{};
  const detail::rank_params p = detail::stage_params(m, l, 0);
  // gated FFN: 3 matrices of hidden x expert_ffn per expert, per layer.
  CHECK(p.expert == 2.0 * (1 << 28) * 3.0 * 64 * 32);
  CHECK(std::isfinite(p.dense));
  CHECK(p.dense > 2.0 * (1 << 20) * 3.0 * 64 * 32);  // the shared experts are dense parameters
}
