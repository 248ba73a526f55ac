// fuzz/prices_json.cpp: a price book, as `gpuplan cost --prices FILE` and `capacity --prices`
// read it (io::parse_json, then io::price_book_from_json over the default book).
//
// Accepted outcomes: an io::error keeping the message promises (fuzz_support.hpp), or a book
// whose every cloud price is finite and not negative, validates, and reads back unchanged from
// io::to_json; whose on-prem costs and site price an owned DGX H100 fleet to a finite, positive
// cost per GPU-hour (a book must never make the cost model print inf or NaN); and whose
// cheapest cloud rate for each priced GPU is finite.
#include <cstddef>
#include <cstdint>
#include <gpuplan/catalog/nodes.hpp>
#include <gpuplan/io/prices_json.hpp>
#include <gpuplan/models/cost.hpp>
#include <span>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"

namespace {

using namespace gpuplan;

void check_cloud(const cloud_price& p) {
  try {
    p.validate();
  } catch (const invalid_input& e) {
    fuzz::fail("what the price book reader accepts, cloud_price::validate() accepts", e.what());
  }
  for (price_term t : {price_term::on_demand, price_term::commit_1yr, price_term::commit_3yr,
                       price_term::spot}) {
    fuzz::check_finite(p.price(t).value, "a cloud price per GPU-hour");
    fuzz::check_finite(p.instance_price(t).value, "a cloud price per instance-hour");
  }
  const nlohmann::json once = io::to_json(p);
  try {
    const cloud_price back = io::detail::cloud_price_from_json(once, {"round-trip", "cloud[0]"});
    if (io::to_json(back) != once)
      fuzz::fail("a cloud price's JSON form reads back unchanged",
                 once.dump() + " vs " + io::to_json(back).dump());
  } catch (const io::error& e) {
    fuzz::fail("a cloud price's JSON form reads back", std::string(e.what()) + " in " + once.dump());
  }
}

void check_onprem(const io::price_book& b) {
  onprem_fleet f;
  f.node = catalog::dgx_h100;
  f.gpus = 64;
  f.costs = b.onprem;
  f.site = b.site;
  try {
    for (double u : {1.0, 0.5, 0.01}) {
      const money_rate r = onprem_cost_per_gpu_hour(f, u);
      fuzz::check_finite(r.value, "onprem_cost_per_gpu_hour");
    }
    const onprem_month m = onprem_month_costs(f);
    fuzz::check_finite(m.total(1.0).value, "onprem_month.total(1)");
  } catch (const invalid_input& e) {
    fuzz::fail("on-prem costs and a site the reader accepts price a fleet", e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string source = "fuzz/prices.json";
  io::price_book b;
  try {
    b = io::price_book_from_json(io::parse_json(text, source), source);
  } catch (const io::error& e) {
    fuzz::check_message(e.what(), text, source);
    return 0;
  }
  for (const cloud_price& p : b.cloud) check_cloud(p);
  check_onprem(b);
  // The cheapest rate of every GPU the book prices (cost's --gpu lookup), through the model.
  for (const cloud_price& p : b.cloud) {
    gpu_spec g = catalog::dgx_h100.gpu;
    g.name = p.gpu;
    try {
      fuzz::check_finite(cloud_rate(std::span<const cloud_price>(b.cloud), g, price_term::on_demand)
                             .value,
                         "cloud_rate");
    } catch (const invalid_input& e) {
      fuzz::check_message(e.what(), "", "");  // no on-demand price for it: a clear message
    }
  }
  return 0;
}
