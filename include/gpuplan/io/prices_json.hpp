// gpuplan/io/prices_json.hpp: price books in JSON, the user's own prices over the default book.
//
// An edge of the library (target gpuplan::json). A book is one object:
//
//   {
//     "date": "2026-11-01",                        optional: when the book was compiled
//     "replace_defaults": false,                    optional: true drops the default cloud book
//     "cloud": [                                    optional
//       {"provider": "aws", "instance": "p5.48xlarge", "gpu": "H100-SXM5-80GB",
//        "gpus_per_instance": 8, "region": "us-east-1",
//        "on_demand_usd_per_gpu_hour": 6.88, "commit_1yr_usd_per_gpu_hour": 4.3,
//        "commit_3yr_usd_per_gpu_hour": 3.1, "spot_usd_per_gpu_hour": 2.5,
//        "date": "2025-06-05", "source": "https://aws.amazon.com/ec2/pricing/on-demand/"}
//     ],
//     "onprem": {"server_price_usd": 300000, "networking_share": 0.1, "storage_share": 0.05,
//                "installation_usd": 5000, "amortisation_years": 4, "maintenance_per_year": 0.08,
//                "colocation_usd_per_kw_month": 180, "staff_usd_per_year": 250000},
//     "site": {"name": "dc1", "pue": 1.2, "electricity_usd_per_kwh": 0.07,
//              "rack_budget_kw": 40, "cooling": "liquid"}
//   }
//
// A cloud entry with the same provider, instance, GPU and region as a default entry replaces it;
// any other entry extends the book. "onprem" and "site" override the defaults key by key. Reading
// is strict: an unknown key, a missing field, a value of the wrong type or out of range throws
// gpuplan::io::error naming the file, the entry (by index and by provider and instance) and the
// field, in one line.
#pragma once

#include <cmath>
#include <cstddef>
#include <filesystem>
#include <gpuplan/catalog/prices.hpp>
#include <gpuplan/io/json.hpp>
#include <gpuplan/specs/error.hpp>
#include <gpuplan/specs/pricing.hpp>
#include <gpuplan/specs/site.hpp>
#include <gpuplan/specs/source.hpp>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::io {

/// A price book: cloud prices, and the owned-fleet and site figures to price against them.
struct price_book {
  std::vector<cloud_price> cloud;
  onprem_costs onprem{};
  site_spec site{};
  calendar_date date = catalog::price_book_date;
  std::string origin = "gpuplan default book";  ///< "gpuplan default book" or the file read
  /// The cloud entries read from `origin` (a file): the others in `cloud` are the default
  /// book's (`base_origin`). price_origin() names the book of one entry.
  std::vector<cloud_price> cloud_from_file;
  /// The name of the book under the file (`origin` before the file was read over it).
  std::string base_origin = "gpuplan default book";
  bool onprem_from_file = false;
  bool site_from_file = false;
};

/// The library's default book.
inline price_book default_price_book() {
  price_book b;
  b.cloud.assign(catalog::default_prices.begin(), catalog::default_prices.end());
  return b;
}

namespace detail {

/// "prices.json: cloud[2] (aws p5.48xlarge)" or "prices.json: site".
struct entry_place {
  std::string file;
  std::string entry;
  [[nodiscard]] std::string field(std::string_view key) const {
    // The key as one line: a key read from the file may hold a newline (a fuzzing finding).
    return file + ": " + entry + ": field '" + io::detail::one_line(std::string(key)) + "'";
  }
};

inline void reject_unknown_keys(const nlohmann::json& j,
                                std::initializer_list<std::string_view> known,
                                const entry_place& at) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool ok = false;
    for (std::string_view k : known) ok = ok || it.key() == k;
    if (!ok) {
      std::string list;
      for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      throw error(at.field(it.key()) + " is not a known field (expected one of: " + list + ")");
    }
  }
}

inline const nlohmann::json* find_key(const nlohmann::json& j, std::string_view key) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}

inline std::string text_field(const nlohmann::json& j, std::string_view key, const entry_place& at,
                              bool required, std::size_t capacity) {
  const nlohmann::json* v = find_key(j, key);
  if (v == nullptr) {
    if (required) throw error(at.field(key) + " is missing");
    return {};
  }
  if (!v->is_string())
    throw error(at.field(key) + " must be a string, not " + io::detail::type_name(*v));
  std::string s = v->get<std::string>();
  if (required && s.empty()) throw error(at.field(key) + " must not be empty");
  if (s.size() > capacity)
    throw error(at.field(key) + " is longer than " + std::to_string(capacity) + " characters");
  return s;
}

/// A number >= 0 (or > 0 when `positive`); `fallback` when absent and not required.
inline double number_field(const nlohmann::json& j, std::string_view key, const entry_place& at,
                           bool required, double fallback, bool positive = false) {
  const nlohmann::json* v = find_key(j, key);
  if (v == nullptr) {
    if (required) throw error(at.field(key) + " is missing");
    return fallback;
  }
  if (!v->is_number())
    throw error(at.field(key) + " must be a number, not " + io::detail::type_name(*v));
  const double d = v->get<double>();
  if (!std::isfinite(d)) throw error(at.field(key) + " must be finite");
  if (d < 0 || (positive && d == 0))
    throw error(at.field(key) + (positive ? " must be positive" : " must not be negative") +
                " (got " + nlohmann::json(d).dump() + ")");
  return d;
}

inline calendar_date date_field(const nlohmann::json& j, std::string_view key,
                                const entry_place& at, bool required, calendar_date fallback) {
  const std::string s = text_field(j, key, at, required, 10 + 1000);
  if (s.empty()) return fallback;
  calendar_date d;
  if (!calendar_date::parse(s, d))
    throw error(at.field(key) + " must be a date YYYY-MM-DD between 1990 and 2100 (got '" +
                io::detail::one_line(s) + "')");
  return d;
}

/// Runs a spec's validate(), turning gpuplan::invalid_input into io::error at this entry.
template <class Spec>
void validate_at(const Spec& s, const entry_place& at) {
  try {
    s.validate();
  } catch (const invalid_input& e) {
    std::string what = e.what();
    if (what.rfind("gpuplan: ", 0) == 0) what.erase(0, 9);
    throw error(at.file + ": " + at.entry + ": " + what);
  }
}

inline cloud_price cloud_price_from_json(const nlohmann::json& j, const entry_place& at_index) {
  if (!j.is_object())
    throw error(at_index.file + ": " + at_index.entry + " must be a JSON object, not " +
                io::detail::type_name(j));
  entry_place at = at_index;
  // Name the entry by its provider and instance as soon as they are readable.
  {
    const nlohmann::json* p = find_key(j, "provider");
    const nlohmann::json* i = find_key(j, "instance");
    if (p != nullptr && p->is_string() && i != nullptr && i->is_string())
      at.entry += " (" + io::detail::one_line(p->get<std::string>() + " " + i->get<std::string>()) + ")";
  }
  reject_unknown_keys(j,
                      {"provider", "instance", "gpu", "gpus_per_instance", "region",
                       "on_demand_usd_per_gpu_hour", "commit_1yr_usd_per_gpu_hour",
                       "commit_3yr_usd_per_gpu_hour", "spot_usd_per_gpu_hour", "date", "source"},
                      at);
  cloud_price p;
  p.provider = name_string::from(text_field(j, "provider", at, true, name_string::capacity));
  p.instance = name_string::from(text_field(j, "instance", at, true, name_string::capacity));
  p.gpu = name_string::from(text_field(j, "gpu", at, true, name_string::capacity));
  p.region = name_string::from(text_field(j, "region", at, false, name_string::capacity));
  const double per_instance = number_field(j, "gpus_per_instance", at, true, 0, true);
  // The range first: converting a double past int's range to int is undefined (a fuzzing
  // finding: 21474836488 GPUs per instance).
  if (per_instance > 1024 || per_instance != std::floor(per_instance))
    throw error(at.field("gpus_per_instance") + " must be a whole number from 1 to 1024");
  p.gpus_per_instance = static_cast<int>(per_instance);
  // A term not offered is a key left out. A price of 0 is refused: a free GPU-hour is a typo or
  // a placeholder, and pricing a run at $0 (or skipping the entry, as 0 = not offered did
  // silently) would give a wrong answer without a word.
  const auto price = [&](std::string_view key) {
    const double v = number_field(j, key, at, false, 0);
    if (find_key(j, key) != nullptr && v == 0)
      throw error(at.field(key) +
                  " is 0: a price must be positive (leave the key out when the term is not "
                  "offered)");
    if (!(v <= max_price_per_gpu_hour_usd))
      throw error(at.field(key) + " must be at most " +
                  std::to_string(static_cast<long long>(max_price_per_gpu_hour_usd)) +
                  " USD per GPU-hour (max_price_per_gpu_hour_usd)");
    return v * units::usd_per_h;
  };
  p.on_demand = price("on_demand_usd_per_gpu_hour");
  p.commit_1yr = price("commit_1yr_usd_per_gpu_hour");
  p.commit_3yr = price("commit_3yr_usd_per_gpu_hour");
  p.spot = price("spot_usd_per_gpu_hour");
  p.date = date_field(j, "date", at, true, {});
  p.source = source_text::from(text_field(j, "source", at, true, source_text::capacity));
  validate_at(p, at);
  return p;
}

inline void onprem_from_json(const nlohmann::json& j, const entry_place& at, onprem_costs& c) {
  if (!j.is_object())
    throw error(at.file + ": " + at.entry + " must be a JSON object, not " +
                io::detail::type_name(j));
  reject_unknown_keys(j,
                      {"server_price_usd", "networking_share", "storage_share", "installation_usd",
                       "amortisation_years", "maintenance_per_year", "colocation_usd_per_kw_month",
                       "staff_usd_per_year"},
                      at);
  c.server_price =
      number_field(j, "server_price_usd", at, false, c.server_price.in(units::usd), true) *
      units::usd;
  c.networking_share = number_field(j, "networking_share", at, false, c.networking_share);
  c.storage_share = number_field(j, "storage_share", at, false, c.storage_share);
  c.installation =
      number_field(j, "installation_usd", at, false, c.installation.in(units::usd)) * units::usd;
  c.amortisation_years =
      number_field(j, "amortisation_years", at, false, c.amortisation_years, true);
  c.maintenance_per_year =
      number_field(j, "maintenance_per_year", at, false, c.maintenance_per_year);
  c.colocation = number_field(j, "colocation_usd_per_kw_month", at, false,
                              c.colocation.in(units::usd_per_kW_month)) *
                 units::usd_per_kW_month;
  c.staff = number_field(j, "staff_usd_per_year", at, false, c.staff.in(units::usd / units::yr)) *
            (units::usd / units::yr);
  validate_at(c, at);
}

inline void site_from_json(const nlohmann::json& j, const entry_place& at, site_spec& s) {
  if (!j.is_object())
    throw error(at.file + ": " + at.entry + " must be a JSON object, not " +
                io::detail::type_name(j));
  reject_unknown_keys(j, {"name", "pue", "electricity_usd_per_kwh", "rack_budget_kw", "cooling"},
                      at);
  if (find_key(j, "name") != nullptr)
    s.name = name_string::from(text_field(j, "name", at, true, name_string::capacity));
  s.pue = number_field(j, "pue", at, false, s.pue, true);
  s.electricity =
      number_field(j, "electricity_usd_per_kwh", at, false, s.electricity.in(units::usd_per_kWh)) *
      units::usd_per_kWh;
  s.rack_budget =
      number_field(j, "rack_budget_kw", at, false, s.rack_budget.in(units::kW), true) * units::kW;
  const std::string cooling = text_field(j, "cooling", at, false, 64);
  if (!cooling.empty()) {
    bool found = false;
    for (cooling_kind k : {cooling_kind::air, cooling_kind::air_containment, cooling_kind::liquid})
      if (cooling == to_string(k)) {
        s.cooling = k;
        found = true;
      }
    if (!found)
      throw error(at.field("cooling") + ": unknown cooling '" + io::detail::one_line(cooling) +
                  "' (expected air, air_containment or liquid)");
  }
  validate_at(s, at);
}

inline bool same_offer(const cloud_price& a, const cloud_price& b) {
  return gpuplan::detail::same_folded_name(a.provider.view(), b.provider.view()) &&
         gpuplan::detail::same_folded_name(a.instance.view(), b.instance.view()) &&
         gpuplan::detail::same_folded_name(a.gpu.view(), b.gpu.view()) &&
         gpuplan::detail::same_folded_name(a.region.view(), b.region.view());
}

}  // namespace detail

/// A book from parsed JSON over `base` (normally the default book). `file` names the source in
/// messages.
inline price_book price_book_from_json(const nlohmann::json& j, std::string_view file,
                                       price_book base = default_price_book()) {
  const detail::entry_place top{std::string(file), "price book"};
  if (!j.is_object())
    throw error(top.file + ": a price book must be a JSON object, not " + io::detail::type_name(j));
  detail::reject_unknown_keys(j, {"date", "replace_defaults", "cloud", "onprem", "site"}, top);
  price_book b = std::move(base);
  b.base_origin = b.origin;
  b.origin = std::string(file);
  b.date = detail::date_field(j, "date", top, false, b.date);
  if (const nlohmann::json* r = detail::find_key(j, "replace_defaults")) {
    if (!r->is_boolean())
      throw error(top.field("replace_defaults") + " must be true or false, not " +
                  io::detail::type_name(*r));
    if (r->get<bool>()) {
      // the default book is gone: every price left, and every missing one, is the file's
      b.cloud.clear();
      b.base_origin = b.origin;
    }
  }
  if (const nlohmann::json* c = detail::find_key(j, "cloud")) {
    if (!c->is_array())
      throw error(top.field("cloud") + " must be an array of price entries, not " +
                  io::detail::type_name(*c));
    std::vector<cloud_price> added;
    for (std::size_t i = 0; i < c->size(); ++i) {
      const detail::entry_place at{std::string(file), "cloud[" + std::to_string(i) + "]"};
      const cloud_price p = detail::cloud_price_from_json((*c)[i], at);
      for (const cloud_price& q : added)
        if (detail::same_offer(p, q))
          throw error(at.file + ": " + at.entry + " (" +
                      io::detail::one_line(std::string(p.provider.view()) + " " +
                                           std::string(p.instance.view())) +
                      "): the same provider, instance, gpu and region as an earlier entry");
      added.push_back(p);
    }
    b.cloud_from_file = added;
    for (const cloud_price& p : added) {
      bool replaced = false;
      for (cloud_price& q : b.cloud)
        if (detail::same_offer(p, q)) {
          q = p;
          replaced = true;
        }
      if (!replaced) b.cloud.push_back(p);
    }
  }
  if (const nlohmann::json* o = detail::find_key(j, "onprem")) {
    detail::onprem_from_json(*o, {std::string(file), "onprem"}, b.onprem);
    b.onprem_from_file = true;
  }
  if (const nlohmann::json* s = detail::find_key(j, "site")) {
    detail::site_from_json(*s, {std::string(file), "site"}, b.site);
    b.site_from_file = true;
  }
  if (b.cloud.empty() && !b.onprem_from_file)
    throw error(top.file + ": the book has no cloud prices and no onprem costs");
  return b;
}

/// The name of the book a cloud entry of `b` came from: the file read when it is one of the
/// file's entries, else the default book (an entry the file did not replace).
inline std::string price_origin(const price_book& b, const cloud_price& p) {
  for (const cloud_price& q : b.cloud_from_file)
    if (detail::same_offer(p, q)) return b.origin;
  return b.base_origin;
}

/// Reads a book file over the default book.
inline price_book read_price_book(const std::filesystem::path& path) {
  return price_book_from_json(read_json_file(path), path.string());
}

/// One cloud price entry as JSON (the reader's format).
inline nlohmann::json to_json(const cloud_price& p) {
  nlohmann::json j;
  j["provider"] = std::string(p.provider.view());
  j["instance"] = std::string(p.instance.view());
  j["gpu"] = std::string(p.gpu.view());
  j["gpus_per_instance"] = p.gpus_per_instance;
  if (!p.region.empty()) j["region"] = std::string(p.region.view());
  if (p.offers(price_term::on_demand))
    j["on_demand_usd_per_gpu_hour"] = p.on_demand.in(units::usd_per_h);
  if (p.offers(price_term::commit_1yr))
    j["commit_1yr_usd_per_gpu_hour"] = p.commit_1yr.in(units::usd_per_h);
  if (p.offers(price_term::commit_3yr))
    j["commit_3yr_usd_per_gpu_hour"] = p.commit_3yr.in(units::usd_per_h);
  if (p.offers(price_term::spot)) j["spot_usd_per_gpu_hour"] = p.spot.in(units::usd_per_h);
  char date[11] = {};
  const int y = p.date.year, m = p.date.month, d = p.date.day;
  const int parts[] = {y / 1000, y / 100 % 10, y / 10 % 10, y % 10, -1,
                       m / 10,   m % 10,       -1,          d / 10, d % 10};
  for (int i = 0; i < 10; ++i) date[i] = parts[i] < 0 ? '-' : static_cast<char>('0' + parts[i]);
  j["date"] = std::string(date, 10);
  j["source"] = std::string(p.source.view());
  return j;
}

}  // namespace gpuplan::io
