// Price books in JSON: the user's book overrides or extends the default one; a bad entry gets
// one clear error naming the file, the entry and the field.
#include <gpuplan/gpuplan.hpp>
#include <gpuplan/io/prices_json.hpp>
#include <string>

#include "../catch.hpp"

using namespace gpuplan;
using Catch::Matchers::Contains;
namespace cat = gpuplan::catalog;

namespace {
std::string data(const char* name) {
  return std::string(GPUPLAN_TEST_DATA_DIR) + "/prices/" + name;
}

std::string error_of(const char* name) {
  try {
    (void)io::read_price_book(data(name));
  } catch (const io::error& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("A user book replaces matching entries and extends the rest", "[prices][json]") {
  const io::price_book b = io::read_price_book(data("book.json"));
  CHECK(b.date == calendar_date{2026, 11, 1});
  // aws p5.48xlarge us-east-1 replaced (same provider, instance, GPU, region); one entry added.
  CHECK(b.cloud.size() == cat::default_prices.size() + 1);
  // Its 3-year $2.80 is below the book's public AWS Reserved Instance rate ($2.97216), so the
  // cheapest 3-year H100 is the user's entry.
  const cloud_price* aws = cheapest_price(b.cloud, cat::h100_sxm, price_term::commit_3yr);
  REQUIRE(aws != nullptr);
  CHECK(aws->commit_3yr.in(units::usd_per_h) == Approx(2.8));
  CHECK(aws->date == calendar_date{2026, 10, 15});
  int p5 = 0;
  for (const cloud_price& p : b.cloud) p5 += p.instance == std::string_view("p5.48xlarge");
  CHECK(p5 == 1);
  // The new MI300X entry is found through the catalog GPU's alias.
  CHECK(cloud_rate(b.cloud, cat::mi300x, price_term::spot).in(units::usd_per_h) == Approx(1.2));
  // onprem and site override key by key; unset keys keep their defaults.
  CHECK(b.onprem.server_price.in(units::usd) == Approx(280000));
  CHECK(b.onprem.networking_share == onprem_costs{}.networking_share);
  CHECK(b.onprem.staff.in(units::usd / units::yr) == Approx(120000));
  CHECK(b.onprem.colocation.in(units::usd_per_kW_month) == Approx(150));
  CHECK(b.site.pue == 1.2);
  CHECK(b.site.cooling == cooling_kind::liquid);
  CHECK(b.site.rack_budget.in(units::kW) == Approx(45));
  CHECK(b.site.name == std::string_view("dc1"));
}

TEST_CASE("replace_defaults drops the default cloud book", "[prices][json]") {
  const io::price_book b = io::read_price_book(data("replace.json"));
  REQUIRE(b.cloud.size() == 1);
  CHECK(b.cloud[0].provider == std::string_view("lab"));
  CHECK(cheapest_price(b.cloud, cat::h100_sxm, price_term::on_demand) == nullptr);
}

TEST_CASE("Written entries read back the same", "[prices][json]") {
  nlohmann::json book;
  for (const cloud_price& p : cat::default_prices) book["cloud"].push_back(io::to_json(p));
  book["replace_defaults"] = true;
  const io::price_book b = io::price_book_from_json(book, "roundtrip");
  REQUIRE(b.cloud.size() == cat::default_prices.size());
  for (std::size_t i = 0; i < b.cloud.size(); ++i) {
    CHECK(b.cloud[i].on_demand.in(units::usd_per_h) ==
          Approx(cat::default_prices[i].on_demand.in(units::usd_per_h)));
    CHECK(b.cloud[i].spot.in(units::usd_per_h) ==
          Approx(cat::default_prices[i].spot.in(units::usd_per_h)));
    CHECK(b.cloud[i].date == cat::default_prices[i].date);
    CHECK(b.cloud[i].source.view() == cat::default_prices[i].source.view());
    CHECK(b.cloud[i].gpu == cat::default_prices[i].gpu);
  }
}

TEST_CASE("Bad entries: one line naming file, entry and field", "[prices][json][errors]") {
  CHECK_THAT(error_of("bad_type.json"),
             Contains("bad_type.json: cloud[0] (aws p5): field 'on_demand_usd_per_gpu_hour' "
                      "must be a number, not a string"));
  CHECK_THAT(error_of("missing_date.json"),
             Contains("missing_date.json: cloud[0] (aws p5): field 'date' is missing"));
  CHECK_THAT(error_of("unknown_key.json"),
             Contains("cloud[0] (aws p5): field 'on_demand' is not a known field"));
  CHECK_THAT(error_of("bad_date.json"),
             Contains("field 'date' must be a date YYYY-MM-DD between 1990 and 2100 (got "
                      "'2026-02-30')"));
  CHECK_THAT(error_of("negative_price.json"),
             Contains("field 'spot_usd_per_gpu_hour' must not be negative"));
  CHECK_THAT(error_of("no_price.json"),
             Contains("no_price.json: cloud[0] (aws p5): cloud_price needs at least one positive "
                      "price"));
  CHECK_THAT(error_of("bad_cooling.json"),
             Contains("bad_cooling.json: site: field 'cooling': unknown cooling 'water'"));
  CHECK_THAT(error_of("zero_years.json"),
             Contains("zero_years.json: onprem: field 'amortisation_years' must be positive"));
  CHECK_THAT(error_of("malformed.json"), Contains("malformed.json:2:"));
  CHECK_THAT(error_of("no_such_file.json"), Contains("no such file"));
  for (const char* f :
       {"bad_type.json", "missing_date.json", "unknown_key.json", "bad_date.json",
        "negative_price.json", "no_price.json", "bad_cooling.json", "zero_years.json"})
    CHECK(error_of(f).find('\n') == std::string::npos);
}

TEST_CASE("Duplicate entries and empty books are rejected", "[prices][json][errors]") {
  const nlohmann::json entry = io::to_json(cat::lambda_1x_h100_sxm);
  nlohmann::json dup;
  dup["cloud"] = nlohmann::json::array({entry, entry});
  CHECK_THROWS_WITH(io::price_book_from_json(dup, "dup.json"),
                    Contains("dup.json: cloud[1] (lambda gpu_1x_h100_sxm5): the same provider"));
  CHECK_THROWS_WITH(io::price_book_from_json(nlohmann::json::parse(R"({"replace_defaults": true})"),
                                             "empty.json"),
                    Contains("no cloud prices"));
  CHECK_THROWS_WITH(io::price_book_from_json(nlohmann::json::parse("[]"), "arr.json"),
                    Contains("must be a JSON object"));
}

TEST_CASE("A price of 0 in a book is refused, naming the file, the entry and the key",
          "[prices][json][errors]") {
  // 0 meant "not offered" and the entry's term was skipped without a word.
  CHECK(error_of("zero_price.json") ==
        data("zero_price.json") +
            ": cloud[0] (examplecloud 8x H100): field 'spot_usd_per_gpu_hour' is 0: a price must "
            "be positive (leave the key out when the term is not offered)");
  // a term left out is still "not offered"
  nlohmann::json book = nlohmann::json::parse(
      R"({"cloud": [{"provider": "p", "instance": "i", "gpu": "h100", "gpus_per_instance": 8,
           "on_demand_usd_per_gpu_hour": 2.5, "date": "2026-10-20", "source": "s"}]})");
  const io::price_book b = io::price_book_from_json(book, "mine.json");
  CHECK_FALSE(b.cloud.back().offers(price_term::spot));
  for (const char* key : {"on_demand_usd_per_gpu_hour", "commit_1yr_usd_per_gpu_hour",
                          "commit_3yr_usd_per_gpu_hour", "spot_usd_per_gpu_hour"}) {
    nlohmann::json z = book;
    z["cloud"][0][key] = 0;
    CHECK_THROWS_WITH(io::price_book_from_json(z, "mine.json"),
                      Contains("mine.json: cloud[0] (p i): field '" + std::string(key) +
                               "' is 0: a price must be positive"));
  }
}

TEST_CASE("Each price names the book it came from", "[prices][json]") {
  // `cost --prices mine.json` credited a default-book entry to mine.json.
  const io::price_book b = io::read_price_book(data("book.json"));
  const cloud_price* mine = cheapest_price(b.cloud, cat::h100_sxm, price_term::commit_3yr);
  REQUIRE(mine != nullptr);
  CHECK(io::price_origin(b, *mine) == data("book.json"));
  const cloud_price* theirs = cheapest_price(b.cloud, cat::a100_sxm_80gb, price_term::on_demand);
  REQUIRE(theirs != nullptr);
  CHECK(io::price_origin(b, *theirs) == "gpuplan default book");
  const io::price_book d = io::default_price_book();
  CHECK(io::price_origin(d, d.cloud.front()) == "gpuplan default book");
  // replace_defaults: every entry is the file's
  const io::price_book r = io::read_price_book(data("replace.json"));
  for (const cloud_price& p : r.cloud) CHECK(io::price_origin(r, p) == data("replace.json"));
}
