// io/node_json.hpp: a node file round-trips, reads a catalog GPU by name or a GPU object, and
// names the key on every error.
#include "../catch.hpp"

#include <gpuplan/catalog.hpp>
#include <gpuplan/io/node_json.hpp>

using namespace gpuplan;
namespace cat = gpuplan::catalog;

TEST_CASE("every catalog node round-trips through its node JSON") {
  for (const node_spec& n : cat::all_nodes) {
    INFO(n.name.view());
    nlohmann::json j = io::to_json(n);
    const node_spec back = io::node_from_json(nlohmann::json::parse(j.dump()), {"n.json", ""});
    nlohmann::json again = io::to_json(back);
    // a kernel efficiency's source is not read back (it becomes the file's: io/json.hpp)
    CHECK(back.gpu.kernels.matmul_16bit.fraction == n.gpu.kernels.matmul_16bit.fraction);
    CHECK(back.gpu.kernels.hbm.fraction == n.gpu.kernels.hbm.fraction);
    j["gpu"].erase("kernel_efficiency");
    again["gpu"].erase("kernel_efficiency");
    CHECK(again == j);
    CHECK(back.gpus == n.gpus);
    CHECK(back.fabric == n.fabric);
    CHECK(back.nic_per_gpu().value == Approx(n.nic_per_gpu().value));
    CHECK(back.gpu.peak.bf16_tensor.value == n.gpu.peak.bf16_tensor.value);
    CHECK(back.max_power.value == n.max_power.value);
    CHECK(back.pcie_islands == n.pcie_islands);
  }
}

TEST_CASE("a node file says how many CPU sockets its PCIe GPUs are split over") {
  const io::json_source src{"box.json", ""};
  const nlohmann::json box = {{"name", "pcie-box"}, {"gpu", "l40s"}, {"gpus", 8},
                              {"fabric", "pcie"}};
  CHECK(io::node_from_json(box, src).pcie_islands == 1);  // default: one island
  nlohmann::json two = box;
  two["pcie_islands"] = 2;
  CHECK(io::node_from_json(two, src).pcie_islands == 2);
  two["pcie_islands"] = 3;
  CHECK_THROWS_WITH(io::node_from_json(two, src),
                    Catch::StartsWith("box.json: key 'pcie_islands' must divide gpus (8)"));
  two["pcie_islands"] = 0;
  CHECK_THROWS_WITH(io::node_from_json(two, src),
                    Catch::StartsWith("box.json: key 'pcie_islands' must be positive"));
  two["pcie_islands"] = "two";
  CHECK_THROWS_WITH(io::node_from_json(two, src), Catch::StartsWith("box.json: key 'pcie_islands'"));
}

TEST_CASE("a node file may name a catalog GPU and leave the rest to defaults") {
  const node_spec n = io::node_from_json(
      {{"name", "my-box"}, {"gpu", "h100"}, {"gpus", 4}}, {"box.json", ""});
  CHECK(n.gpu.name == cat::h100_sxm.name);
  CHECK(n.fabric == intra_node_fabric::nvswitch);
  CHECK(n.scale_up_per_gpu.value == cat::h100_sxm.gpu_link.per_direction.value);
  CHECK(n.nics.count == 0);
  const node_spec p = io::node_from_json(
      {{"name", "pcie-box"}, {"gpu", "l40s"}, {"gpus", 8}, {"fabric", "pcie"}}, {"box.json", ""});
  CHECK(p.scale_up_per_gpu.value == cat::find_gpu("l40s")->pcie.per_direction().value);
}

TEST_CASE("node file errors name the key") {
  const io::json_source src{"box.json", ""};
  CHECK_THROWS_WITH(io::node_from_json({{"name", "b"}, {"gpus", 8}}, src),
                    "box.json: key 'gpu' is missing");
  CHECK_THROWS_WITH(io::node_from_json({{"name", "b"}, {"gpu", "h1000"}, {"gpus", 8}}, src),
                    Catch::StartsWith("box.json: key 'gpu': unknown GPU 'h1000'"));
  CHECK_THROWS_WITH(io::node_from_json({{"name", "b"}, {"gpu", "h100"}, {"gpus", 0}}, src),
                    Catch::StartsWith("box.json: key 'gpus' must be positive"));
  CHECK_THROWS_WITH(
      io::node_from_json({{"name", "b"}, {"gpu", "h100"}, {"gpus", 8}, {"fabric", "nvlnk"}}, src),
      Catch::StartsWith("box.json: key 'fabric': unknown value 'nvlnk'"));
  CHECK_THROWS_WITH(io::node_from_json({{"name", "b"},
                                        {"gpu", "h100"},
                                        {"gpus", 8},
                                        {"nics", {{"count", 8}}}},
                                       src),
                    Catch::StartsWith("box.json: key 'nics.per_nic_bits_per_s'"));
  CHECK_THROWS_WITH(io::node_from_json({{"name", "b"},
                                        {"gpu", {{"name", "g"}, {"memory_bytes", -1}}},
                                        {"gpus", 8}},
                                       src),
                    Catch::StartsWith("box.json: key 'gpu.memory_bytes'"));
  CHECK_THROWS_WITH(io::node_from_json({{"name", "b"}, {"gpu", "h100"}, {"gpus", 8},
                                        {"max_power_watts", -5}}, src),
                    Catch::StartsWith("box.json: key 'max_power_watts' must not be negative"));
}
