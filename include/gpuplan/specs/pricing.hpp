// gpuplan/specs/pricing.hpp: what GPU time costs, rented by the hour or owned.
//
// Cloud prices are stored per GPU-hour (an 8-GPU instance at $98.32/h is $12.29 per GPU-hour),
// with the instance it came from, so that a reader can check the entry against the provider's
// page. Every entry carries its date and its source: GPU prices have fallen by half within a
// year, and a price without a date is not a price.
#pragma once

#include <cstddef>
#include <gpuplan/specs/checks.hpp>
#include <gpuplan/specs/enum_names.hpp>
#include <gpuplan/specs/name.hpp>
#include <gpuplan/specs/source.hpp>
#include <gpuplan/units.hpp>
#include <string_view>

namespace gpuplan {

namespace units {
/// A month of 365/12 days (30.42 d): the average month of a 365-day year, so that 12 months make
/// units::yr exactly.
inline constexpr unit<dims::time> month{365.0 / 12.0 * 86400.0, "mo"};
/// Dollars per kilowatt of provisioned power per month, the unit of colocation prices.
inline constexpr unit<dims::energy_price> usd_per_kW_month{1.0 / (1e3 * 365.0 / 12.0 * 86400.0),
                                                           "$/kW-mo"};
}  // namespace units

namespace detail {
constexpr char fold_char(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}
constexpr bool is_name_separator(char c) { return c == '-' || c == '_' || c == ' '; }
/// Whether a and b are one name, ignoring ASCII case and the separators '-', '_' and ' ' (as the
/// catalogs match names): "H100 SXM5 80GB" is "h100-sxm5-80gb".
constexpr bool same_folded_name(std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  while (true) {
    while (i < a.size() && is_name_separator(a[i])) ++i;
    while (j < b.size() && is_name_separator(b[j])) ++j;
    if (i == a.size() || j == b.size()) return i == a.size() && j == b.size();
    if (fold_char(a[i]) != fold_char(b[j])) return false;
    ++i;
    ++j;
  }
}
}  // namespace detail

/// The most a GPU-hour is taken at (a price book's entries, --price-per-gpu-hour of cost and
/// search): $10,000, about a thousand times the dearest on-demand rate of the default price book
/// (an 8-GPU B200 instance's share, tens of dollars). Anything above is a typo, and 1e308
/// overflowed a run's cost unnamed (1e300 printed a 300-digit cost).
inline constexpr double max_price_per_gpu_hour_usd = 1e4;

/// How a cloud GPU-hour is bought.
enum class price_term : unsigned char {
  on_demand,   ///< pay as you go, per hour used
  commit_1yr,  ///< one-year reservation / committed-use / savings plan: every hour is paid
  commit_3yr,  ///< three-year reservation: every hour is paid
  spot,        ///< spare capacity, may be reclaimed at short notice
};

inline constexpr enumerator<price_term> price_term_names[] = {
    {price_term::on_demand, "on_demand"},
    {price_term::commit_1yr, "commit_1yr"},
    {price_term::commit_3yr, "commit_3yr"},
    {price_term::spot, "spot"}};
constexpr const auto& enumerators(price_term) { return price_term_names; }

/// Whether a term bills every hour of the commitment, used or not.
constexpr bool bills_idle_hours(price_term t) {
  return t == price_term::commit_1yr || t == price_term::commit_3yr;
}

/// One cloud offering of one GPU model. Prices are per GPU-hour; zero means the term is not
/// offered or not listed in the source.
struct cloud_price {
  name_string provider;       ///< "aws", "gcp", "azure", "lambda", "coreweave"
  name_string instance;       ///< "p5.48xlarge"
  name_string gpu;            ///< a catalog GPU name or alias: "H100-SXM5-80GB"
  int gpus_per_instance = 1;  ///< 8 for p5.48xlarge
  name_string region;         ///< "us-east-1"; empty when the price is the same everywhere
  money_rate on_demand{};     ///< per GPU-hour
  money_rate commit_1yr{};    ///< per GPU-hour, effective rate of a one-year commitment
  money_rate commit_3yr{};    ///< per GPU-hour, effective rate of a three-year commitment
  money_rate spot{};          ///< per GPU-hour, a typical spot price on the date
  calendar_date date{};       ///< when the source published (or was read at) these prices
  source_text source;         ///< where the figures were read

  [[nodiscard]] constexpr money_rate price(price_term t) const {
    switch (t) {
      case price_term::on_demand:
        return on_demand;
      case price_term::commit_1yr:
        return commit_1yr;
      case price_term::commit_3yr:
        return commit_3yr;
      case price_term::spot:
        return spot;
    }
    return {};
  }
  /// The price of the whole instance per hour.
  [[nodiscard]] constexpr money_rate instance_price(price_term t) const {
    return 1.0 * gpus_per_instance * price(t);
  }
  [[nodiscard]] constexpr bool offers(price_term t) const { return price(t).value > 0.0; }

  /// Throws gpuplan::invalid_input naming the first field that is missing or out of range.
  constexpr void validate() const {
    detail::check_input(!provider.empty(), "cloud_price.provider must not be empty");
    detail::check_input(!instance.empty(), "cloud_price.instance must not be empty");
    detail::check_input(!gpu.empty(), "cloud_price.gpu must not be empty");
    detail::check_input(gpus_per_instance > 0, "cloud_price.gpus_per_instance must be positive");
    detail::check_input(detail::finite_nonnegative(on_demand.value),
                        "cloud_price.on_demand must be finite and not negative");
    detail::check_input(detail::finite_nonnegative(commit_1yr.value),
                        "cloud_price.commit_1yr must be finite and not negative");
    detail::check_input(detail::finite_nonnegative(commit_3yr.value),
                        "cloud_price.commit_3yr must be finite and not negative");
    detail::check_input(detail::finite_nonnegative(spot.value),
                        "cloud_price.spot must be finite and not negative");
    detail::check_input(on_demand.value > 0.0 || commit_1yr.value > 0.0 || commit_3yr.value > 0.0 ||
                            spot.value > 0.0,
                        "cloud_price needs at least one positive price (on_demand, commit_1yr, "
                        "commit_3yr or spot)");
    detail::check_input(date.valid(), "cloud_price.date must be a valid date (YYYY-MM-DD)");
    detail::check_input(!source.empty(), "cloud_price.source must not be empty");
  }
};

/// Owning GPU servers: capital cost, its amortisation, and the running costs that do not depend
/// on how busy the GPUs are. Electricity, which does, comes from the site (specs/site.hpp). The
/// server itself (GPUs per server, power) is a node_spec: these are the costs of one such node.
struct onprem_costs {
  /// Purchase price of one GPU server, GPUs and host included. Default $317,000: a quotation for
  /// an 8x H100 SXM server with InfiniBand adapters (Thinkmate, archived 2024-08-22), as cited in
  /// the public "H100 cluster cost" sheet (docs.google.com/spreadsheets/d/1Ft3RbeZ-w43kY...).
  money server_price = 317000 * units::usd;
  /// Cluster network (switches, cables, transceivers) as a share of the server price. Default
  /// 0.11: the same sheet at 128 nodes (1,024 GPUs): $1.728M of 64-port 400G InfiniBand
  /// switches and $2.621M of connectors and cables for $39.68M of servers (Aug 2024).
  double networking_share = 0.11;
  /// Shared storage as a share of the server price. Default 0.022: Bernstein's breakdown of a
  /// GB200 NVL72 data centre (investing.com, "How much does a GW of data center capacity
  /// actually cost", 2025) puts storage at "roughly 1-1.5%" of total capital against $3.4M of
  /// compute hardware in $5.9M per rack (58%): 1.25 / 57.6 = 0.022 of the servers' price.
  double storage_share = 0.022;
  /// Installation and commissioning per server. Default 0: no sourced figure was found (GPU rack
  /// integrators' pages describe racking, cabling and burn-in but publish no price); set it from
  /// your integrator's quote (it is part of capital, so a zero is visible there).
  money installation{};
  /// Years over which capital is spread. Default 3: the horizon of the published H100 TCO
  /// comparisons this book's prices come from (v2-pseo-ai.pages.dev/tools/gpu-tco-analysis:
  /// "TCO for an 8-GPU H100 node over 3 years"; TechnoLynx, 2026-05-07, "3-year").
  double amortisation_years = 3.0;
  /// Hardware maintenance and support per year as a share of capital. Default 0.06: the middle
  /// of "annual maintenance costs seem to range between 4-8% of the purchase price of the
  /// machine" (CTWatch Quarterly 2(2), May 2006, "Designing and supporting high-end computational
  /// facilities", icl.utk.edu/ctwatch). NVIDIA's DGX support is dearer: about 20% of the base
  /// price for a year (supercluster.blog, "AI Supercluster: NVIDIA DGX Platform").
  double maintenance_per_year = 0.06;
  /// Colocation (space, power distribution and cooling) per kW of provisioned IT power per
  /// month. Default $200: the middle of "$150-250/kW/month" (v2-pseo-ai.pages.dev GPU TCO
  /// analysis, read 2026-11-23).
  energy_price colocation = 200 * units::usd_per_kW_month;
  /// Staff to run the fleet, per year for the whole fleet. Optional; default 0.
  money_rate staff{};

  /// Capital per server: server, network and storage shares, installation.
  [[nodiscard]] constexpr money capex_per_server() const {
    return (1.0 + networking_share + storage_share) * server_price + installation;
  }

  constexpr void validate() const {
    detail::check_input(detail::finite_positive(server_price.value),
                        "onprem_costs.server_price must be positive and finite",
                        server_price.value);
    detail::check_input(detail::finite_nonnegative(networking_share) && networking_share <= 10.0,
                        "onprem_costs.networking_share must be between 0 and 10", networking_share);
    detail::check_input(detail::finite_nonnegative(storage_share) && storage_share <= 10.0,
                        "onprem_costs.storage_share must be between 0 and 10", storage_share);
    detail::check_input(detail::finite_nonnegative(installation.value),
                        "onprem_costs.installation must be finite and not negative");
    detail::check_input(detail::finite_positive(amortisation_years) && amortisation_years <= 30.0,
                        "onprem_costs.amortisation_years must be in (0, 30]", amortisation_years);
    detail::check_input(
        detail::finite_nonnegative(maintenance_per_year) && maintenance_per_year <= 1.0,
        "onprem_costs.maintenance_per_year must be between 0 and 1 (a share of capex)",
        maintenance_per_year);
    detail::check_input(detail::finite_nonnegative(colocation.value),
                        "onprem_costs.colocation must be finite and not negative");
    detail::check_input(detail::finite_nonnegative(staff.value),
                        "onprem_costs.staff must be finite and not negative");
  }
};

}  // namespace gpuplan
