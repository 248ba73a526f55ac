// capacity --json and the Kubernetes resource requests of a replica plan.
#include "../catch.hpp"

#include <gpuplan/io/capacity_json.hpp>
#include <gpuplan/io/kubernetes_yaml.hpp>
#include <gpuplan/catalog.hpp>

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

TEST_CASE("Capacity report as JSON: the serving plan, its price, the ranked alternatives",
          "[capacity][json][report]") {
  // the report of `gpuplan capacity --rate 40 --peak-factor 1.5 --wait-slo 1 --months 0
  // --model Llama-3.1-8B --gpu h100 --ttft-slo 2 --tpot-slo 0.05 --compare-gpus h200 --json`
  capacity_question q{};
  q.request.demand = {.mean = 40 * units::request / units::s, .peak_factor = 1.5};
  q.request.slo = {.max_wait = 1 * units::s, .percentile = 0.99};
  q.request.months = 0;
  q.serving = serving_replica(
      serving_plan{.model = catalog::llama31_8b, .node = single_gpu_node(catalog::h100_sxm)},
      {.ttft = 2 * units::s, .tpot = 0.05 * units::s});
  q.compare_gpus = {catalog::h200_sxm};
  const nlohmann::json j = io::to_json(plan_capacity_report(q));
  CHECK(j["replicas"] == 3);
  CHECK(j["gpus_per_replica"] == 1);
  CHECK(j["total_gpus"] == 3);
  CHECK(j["serving"]["gpu"] == "H100-SXM5-80GB");
  CHECK(j["serving"]["engine"] == "vllm");
  CHECK(j["serving"]["layout"]["tp"] == 1);
  CHECK(j["serving"]["slo"]["tpot_s"].get<double>() == Approx(0.05));
  CHECK(j["serving"]["concurrency"].get<double>() == Approx(256));
  CHECK(j["price_entry"]["term"] == "on_demand");
  CHECK(j["price_entry"]["usd_per_replica_hour"].get<double>() == Approx(2.79));
  REQUIRE(j["options"].size() == 2);
  CHECK(j["options"][0]["name"] == "this replica");
  CHECK(j["options"][0]["cost_per_hour_usd"].get<double>() == Approx(8.37));
  CHECK(j["options"][1]["name"] == "H200-SXM-141GB x1");
  // (3 H200 replicas at the peak: "low" until serving's GEMMs took the sustained-load factor, 0.87
  // of the GPU's MAMF as in the step model; the replica is slower now and busier: models/kernels.hpp)
  CHECK(j["options"][1]["peak_band"] == "healthy");
  CHECK_FALSE(j.contains("option_notes"));
  CHECK_FALSE(j.contains("hybrid"));
  CHECK_FALSE(j.contains("mig_profile"));

  // MIG replicas given by their capacity: the profile and the physical GPUs; no serving keys
  capacity_question m{};
  m.request.demand = {.mean = 3 * units::request / units::s};
  m.request.replica = {.rate = 0.5 * units::request / units::s, .mean_service = 4 * units::s};
  m.request.slo = {.max_wait = 1 * units::s, .percentile = 0.99};
  m.request.months = 0;
  m.mig = *catalog::find_mig_profile(catalog::h100_sxm, "3g.40gb");
  const nlohmann::json k = io::to_json(plan_capacity_report(m));
  CHECK(k["mig_profile"] == "3g.40gb");
  CHECK(k["replicas_per_gpu"] == 2);
  CHECK(k["replicas"] == 10);  // as `capacity --rate 3 --wait-slo 1 --replica-rate 0.5 ...`
  CHECK(k["physical_gpus"] == 5);
  CHECK_FALSE(k.contains("serving"));
  CHECK_FALSE(k.contains("price_entry"));
  CHECK_FALSE(k.contains("options"));
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

TEST_CASE("A serving plan's Kubernetes manifest runs the engine as planned", "[capacity][kubernetes]") {
  io::kubernetes_plan p{};
  p.name = "llama-70b";
  p.replicas = 6;
  p.min_replicas = 3;
  p.max_replicas = 6;
  p.waiting_target = 2.5;
  p.gpus_per_replica = 8;
  p.args = {.engine = serving_engine::vllm, .model = "meta-llama/Llama-3.1-70B-Instruct", .tp = 4,
            .pp = 2, .max_model_len = 8192, .memory_fraction = 0.92, .max_num_seqs = 48};
  const std::string v = io::kubernetes_manifest(p);
  // three documents: Deployment, Service, HPA
  CHECK_THAT(v, Catch::Contains("kind: Deployment\n"));
  CHECK_THAT(v, Catch::Contains("\n---\napiVersion: v1\nkind: Service\n"));
  CHECK_THAT(v, Catch::Contains("apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"));
  CHECK_THAT(v, Catch::Contains("            - \"vllm\"\n            - \"serve\"\n          args:\n"
                                "            - \"meta-llama/Llama-3.1-70B-Instruct\"\n"));
  for (const char* flag :
       {"\"--tensor-parallel-size\"\n            - \"4\"\n",
        "\"--pipeline-parallel-size\"\n            - \"2\"\n",
        "\"--max-model-len\"\n            - \"8192\"\n",
        "\"--gpu-memory-utilization\"\n            - \"0.92\"\n",
        "\"--max-num-seqs\"\n            - \"48\"\n"})
    CHECK_THAT(v, Catch::Contains(flag));
  CHECK_THAT(v, Catch::Contains("  replicas: 6\n"));
  CHECK_THAT(v, Catch::Contains("  minReplicas: 3\n  maxReplicas: 6\n"));
  CHECK_THAT(v, Catch::Contains("          name: \"vllm:num_requests_waiting\"\n"));
  CHECK_THAT(v, Catch::Contains("          averageValue: \"2500m\"\n"));
  CHECK_THAT(v, Catch::Contains("              nvidia.com/gpu: 8\n"));
  CHECK_THAT(v, Catch::Contains("            medium: Memory\n            sizeLimit: 16Gi\n"));
  CHECK_THAT(v, Catch::Contains("              path: /health\n              port: 8000\n"));
  CHECK_THAT(v, Catch::Contains("image: \"vllm/vllm-openai:latest\"\n"));

  p.args.engine = serving_engine::sglang;
  p.args.pp = 1;
  p.args.tp = 8;
  const std::string sg = io::kubernetes_manifest(p);
  for (const char* flag :
       {"\"--model-path\"\n            - \"meta-llama/Llama-3.1-70B-Instruct\"\n",
        "\"--tp-size\"\n            - \"8\"\n", "\"--context-length\"\n            - \"8192\"\n",
        "\"--mem-fraction-static\"\n            - \"0.92\"\n",
        "\"--max-running-requests\"\n            - \"48\"\n", "\"--enable-metrics\"\n"})
    CHECK_THAT(sg, Catch::Contains(flag));
  CHECK(sg.find("--pp-size") == std::string::npos);
  CHECK_THAT(sg, Catch::Contains("              port: 30000\n"));
  CHECK_THAT(sg, Catch::Contains("\"sglang:num_queue_reqs\""));

  p.args.engine = serving_engine::trtllm;
  p.args.tp = 4;
  p.args.pp = 2;
  const std::string tr = io::kubernetes_manifest(p);
  for (const char* flag :
       {"\"--tp_size\"\n            - \"4\"\n", "\"--pp_size\"\n            - \"2\"\n",
        "\"--max_seq_len\"\n            - \"8192\"\n", "\"--max_batch_size\"\n            - \"48\"\n",
        "\"--kv_cache_free_gpu_memory_fraction\"\n            - \"0.92\"\n"})
    CHECK_THAT(tr, Catch::Contains(flag));
  CHECK_THAT(tr, Catch::Contains("\"trtllm_num_requests_waiting\""));
  CHECK_THAT(tr, Catch::Contains("prometheus.io/path: \"/prometheus/metrics\""));

  // a MIG slice keeps its resource name; one device's host resources and /dev/shm
  const mig_profile* slice = catalog::find_mig_profile(catalog::h100_sxm, "3g.40gb");
  REQUIRE(slice != nullptr);
  p.mig = *slice;
  p.gpus_per_replica = 1;
  p.args.tp = 1;
  p.args.pp = 1;
  const std::string mig = io::kubernetes_manifest(p);
  CHECK_THAT(mig, Catch::Contains("              nvidia.com/mig-3g.40gb: 1\n"));
  CHECK(mig.find("nvidia.com/gpu") == std::string::npos);
  CHECK_THAT(mig, Catch::Contains("sizeLimit: 2Gi\n"));

  // the model id and the image are the user's text: one quoted scalar each
  p.args.model = "x\n  evil: true";
  p.image = "img\"\n";
  const std::string q = io::kubernetes_manifest(p);
  CHECK_THAT(q, Catch::Contains("            - \"x\\n  evil: true\"\n"));
  CHECK_THAT(q, Catch::Contains("image: \"img\\\"\\n\"\n"));
  CHECK(q.find("\n  evil: true") == std::string::npos);

  // a waiting target below one request is held at one (0 would pin the fleet at maxReplicas)
  p.waiting_target = 0.2;
  CHECK_THAT(io::kubernetes_manifest(p), Catch::Contains("averageValue: \"1000m\""));

  // bad plans: io::error naming the field
  auto refused = [](const io::kubernetes_plan& plan, const char* what) {
    CHECK_THROWS_WITH(io::kubernetes_manifest(plan), Catch::Contains(what));
  };
  io::kubernetes_plan b = p;
  b.min_replicas = 7;
  refused(b, "min_replicas");
  b = p;
  b.name = "Bad_Name";
  refused(b, "RFC 1123");
  b = p;
  b.args.tp = 2;
  refused(b, "tp x pp");
  b = p;
  b.args.memory_fraction = 0;
  refused(b, "memory fraction");
  b = p;
  b.args.model.clear();
  refused(b, "model id");
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
