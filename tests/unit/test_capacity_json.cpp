// capacity --json and the Kubernetes resource requests of a replica plan.
#include "../catch.hpp"

#include <gpuplan/io/capacity_json.hpp>
#include <gpuplan/io/kubernetes_yaml.hpp>

using namespace gpuplan;

TEST_CASE("Capacity plan as JSON carries the CLI contract", "[capacity][json]") {
  const capacity_request q{
      .demand = {.mean = 30 * units::request / units::s, .peak_factor = 1.6},
      .replica = {.rate = 2 * units::request / units::s, .mean_service = 4 * units::s,
                  .service_cv = 0.8, .gpus = 2},
      .slo = {.max_wait = 2 * units::s, .percentile = 0.99},
      .monthly_growth = 0.1,
      .months = 3,
      .current_replicas = 30};
  const capacity_plan p = plan_capacity(q);
  const nlohmann::json j = io::to_json(p, q);
  CHECK(j["replicas"] == 25);
  CHECK(j["utilization"].get<double>() == Approx(0.6));
  CHECK(j["p_wait"].get<double>() == Approx(p.at_peak.p_wait));
  CHECK(j["wait_p99_s"].get<double>() == Approx(p.at_peak.wait_percentile(0.99).in(units::s)));
  CHECK(j["peak_band"] == "overload");
  CHECK(j["growth"].size() == 4);
  CHECK(j["fleet_runs_out_month"] == 3);
  CHECK(j["fleet_leaves_band_month"] == 2);
  CHECK_FALSE(j.contains("hours"));
  CHECK_FALSE(j.contains("cost_per_hour_usd"));
  // An unstable queue at the mean would print null, never inf.
  CHECK(j.dump().find("inf") == std::string::npos);
}

TEST_CASE("Kubernetes resource requests for a replica plan", "[capacity][kubernetes]") {
  const std::string whole = io::kubernetes_resources("llama-serve", 25, 2);
  CHECK_THAT(whole, Catch::Contains("kind: Deployment"));
  CHECK_THAT(whole, Catch::Contains("  replicas: 25\n"));
  CHECK_THAT(whole, Catch::Contains("              nvidia.com/gpu: 2\n"));
  CHECK_THAT(whole, Catch::Contains("      app: llama-serve\n"));
  const mig_profile* slice = catalog::find_mig_profile(catalog::h100_sxm, "3g.40gb");
  REQUIRE(slice != nullptr);
  const std::string mig = io::kubernetes_resources("small", 7, 1, *slice, "vllm/vllm-openai:v0.6.5");
  CHECK_THAT(mig, Catch::Contains("nvidia.com/mig-3g.40gb: 1\n"));
  CHECK_THAT(mig, Catch::Contains("image: \"vllm/vllm-openai:v0.6.5\"\n"));
  CHECK_THROWS_AS(io::kubernetes_resources("Bad_Name", 1, 1), io::error);
  CHECK_THROWS_AS(io::kubernetes_resources("ok", 1, 0), io::error);
  // The image is the user's text: one quoted scalar, whatever it holds (issue 22: a newline in it
  // added `securityContext: {privileged: true}` to the pod).
  const std::string evil = io::kubernetes_resources(
      "ok", 1, 1, std::nullopt, "x\n          securityContext: {privileged: true}");
  CHECK_THAT(evil, Catch::Contains(
                       "          image: \"x\\n          securityContext: {privileged: true}\"\n"));
  CHECK(evil.find("\n          securityContext") == std::string::npos);
}

TEST_CASE("YAML double-quoted scalars escape everything but printable ASCII", "[kubernetes]") {
  CHECK(io::yaml_quoted("plain:tag") == "\"plain:tag\"");
  CHECK(io::yaml_quoted("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(io::yaml_quoted(std::string("\n\t\r\x01\x7f", 5)) == "\"\\n\\t\\r\\x01\\x7F\"");
  CHECK(io::yaml_quoted("\xc3\xa9") == "\"\\u00E9\"");                     // é
  CHECK(io::yaml_quoted("\xe2\x80\xa8") == "\"\\u2028\"");                 // line separator
  CHECK(io::yaml_quoted("\xf0\x9f\x98\x80") == "\"\\U0001F600\"");        // an emoji
  CHECK(io::yaml_quoted(std::string("\0", 1)) == "\"\\x00\"");
  CHECK_THROWS_AS(io::yaml_quoted("\xff"), io::error);                 // never UTF-8
  CHECK_THROWS_AS(io::yaml_quoted("\xc0\xaf"), io::error);             // overlong '/'
  CHECK_THROWS_AS(io::yaml_quoted("\xed\xa0\x80"), io::error);         // a surrogate
  CHECK_THROWS_AS(io::yaml_quoted("\xe2\x80"), io::error);             // cut short
  CHECK_THROWS_AS(io::yaml_quoted("\xf4\x90\x80\x80"), io::error);     // past U+10FFFF
}
