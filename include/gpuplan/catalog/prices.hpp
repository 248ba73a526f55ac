// gpuplan/catalog/prices.hpp: the default price book, dated and sourced entry by entry.
//
// BOOK DATE: 2026-11-23 (the day the entries were collected). Each entry's own `date` is when its
// source published or last verified the figures; several sources are secondary (price trackers
// and comparison articles citing the providers' pages), because the providers' own pages were
// not reachable from where the book was compiled. Prices move monthly: pass your own book
// (gpuplan/io/prices_json.hpp, `gpuplan cost --prices FILE`) for anything you will sign.
//
// Not in this book, for want of a source that could be checked: Azure ND H100 v5 reserved (1 and 3
// years) and spot prices, CoreWeave's committed and spot prices (CoreWeave sells both, but no page
// read gave a rate or a discount), AWS P5 savings-plan rates (the book holds the P5 Reserved
// Instance rates instead), and Google Cloud's A2 (A100) and A4 (B200) machine types (not
// collected). No installation cost is sourced either (onprem_costs::installation stays 0).
#pragma once

#include <array>
#include <gpuplan/specs/node.hpp>
#include <gpuplan/specs/pricing.hpp>
#include <gpuplan/specs/source.hpp>

namespace gpuplan::catalog {

/// The date the default book was compiled.
inline constexpr calendar_date price_book_date{2026, 11, 23};

namespace detail {
constexpr money_rate per_gpu_hour(double instance_usd_per_h, int gpus) {
  return instance_usd_per_h / gpus * units::usd_per_h;
}
}  // namespace detail

/// AWS p5.48xlarge (8x H100 SXM 80GB) on demand: $55.04 per instance-hour, us-east-1, as read on
/// 2026-11-09 (after the June 2025 reduction of "up to 45%"; the launch price was $98.32, The Next
/// Platform, 2023-07-27).
inline constexpr cloud_price aws_p5_48xlarge{
    .provider = "aws",
    .instance = "p5.48xlarge",
    .gpu = "H100-SXM5-80GB",
    .gpus_per_instance = 8,
    .region = "us-east-1",
    .on_demand = detail::per_gpu_hour(55.04, 8),  // $6.88 per GPU-hour
    .date = {2026, 11, 9},
    .source =
        "github.com/datareceipts/data-receipts 109-gpu-pricing/hyperscalers.json, retrieved "
        "2026-11-09: p5.48xlarge $55.04/h, $6.88 per GPU-hour, us-east-1",
};

/// AWS p5.48xlarge (8x H100 SXM 80GB), us-east-1, Linux: Reserved Instances and spot, from the
/// instances.vantage.sh pricing data committed to github.com/tsaol/aws-gpu on 2025-11-30 (commit
/// 2d0108c, data/gpu_instances_raw.json). The same file gives on demand $55.04, as aws_p5_48xlarge
/// does (read a year later), so these rates are set against the same list price. A separate entry,
/// because its date and source differ; on demand is left to aws_p5_48xlarge.
///  - 1 year: the file lists only the convertible RI (no standard one): no upfront $43.344/h
///    (partial upfront $41.280, all upfront $40.454 effective).
///  - 3 years: standard RI, no upfront $23.77728/h (partial $22.016, all upfront $20.695; the
///    convertible one is $40.421). No-upfront rates are used, billed hourly like the other
///    commitments in the book (GCP's committed use is a monthly rate).
///  - spot: the file's us-east-1 average, $28.106467/h (its range that day: $13.2182 to $52.0766;
///    us-east-2 averaged $13.888, us-west-2 $18.037).
/// These are Reserved Instance rates, not Savings Plans rates (the file has none).
inline constexpr cloud_price aws_p5_48xlarge_reserved_spot{
    .provider = "aws",
    .instance = "p5.48xlarge reserved+spot",
    .gpu = "H100-SXM5-80GB",
    .gpus_per_instance = 8,
    .region = "us-east-1",
    .commit_1yr = detail::per_gpu_hour(43.344, 8),    // $5.418 per GPU-hour
    .commit_3yr = detail::per_gpu_hour(23.77728, 8),  // $2.97216
    .spot = detail::per_gpu_hour(28.106467, 8),       // $3.5133
    .date = {2025, 11, 30},
    .source =
        "github.com/tsaol/aws-gpu gpu_instances_raw.json (vantage.sh data, 2025-11-30): "
        "p5.48xlarge us-east-1 RI no upfront 1yr $43.344/h, 3yr $23.77728/h; spot avg "
        "$28.106467/h",
};

/// AWS EC2 Capacity Blocks for ML: GPUs reserved ahead for 1 to 182 days, paid up front. Stored
/// as on_demand (a price per hour of use, no long commitment). The page listed these rates as
/// current until their scheduled update of 2025-01-01.
inline constexpr cloud_price aws_p5_capacity_block{
    .provider = "aws",
    .instance = "p5.48xlarge capacity-block",
    .gpu = "H100-SXM5-80GB",
    .gpus_per_instance = 8,
    .region = "us-east-1",
    .on_demand = detail::per_gpu_hour(39.33, 8),  // $4.916 per accelerator-hour
    .date = {2024, 12, 31},
    .source =
        "aws.amazon.com/ec2/capacityblocks/pricing (rates current until the 2025-01-01 "
        "update): p5.48xlarge $39.33/h, $4.916 per accelerator-hour",
};
inline constexpr cloud_price aws_p5e_capacity_block{
    .provider = "aws",
    .instance = "p5e.48xlarge capacity-block",
    .gpu = "H200-SXM-141GB",
    .gpus_per_instance = 8,
    .region = "us-east-2",
    .on_demand = detail::per_gpu_hour(43.26, 8),  // $5.408 per accelerator-hour
    .date = {2024, 12, 31},
    .source =
        "aws.amazon.com/ec2/capacityblocks/pricing (rates current until the 2025-01-01 "
        "update): 8x H200, $43.26/h, $5.408 per accelerator-hour",
};
inline constexpr cloud_price aws_p4d_capacity_block{
    .provider = "aws",
    .instance = "p4d.24xlarge capacity-block",
    .gpu = "A100-SXM4-40GB",
    .gpus_per_instance = 8,
    .region = "us-east-2",
    .on_demand = detail::per_gpu_hour(14.75, 8),  // $1.844 per accelerator-hour
    .date = {2024, 12, 31},
    .source =
        "aws.amazon.com/ec2/capacityblocks/pricing (rates current until the 2025-01-01 "
        "update): p4d.24xlarge $14.75/h, $1.844 per accelerator-hour",
};

/// AWS p6-b200.48xlarge (8x B200), us-east-1, Linux: on demand $113.9328/h and spot $37.872/h
/// (the file's only us-east-1 spot reading: min = max = average), from the same
/// instances.vantage.sh data (github.com/tsaol/aws-gpu, commit 2d0108c, 2025-11-30). The
/// on-demand rate was unchanged in the repository's data/p6-b200_instances.js "Last updated:
/// 2026-08-26". No reserved rate was listed.
inline constexpr cloud_price aws_p6_b200_48xlarge{
    .provider = "aws",
    .instance = "p6-b200.48xlarge",
    .gpu = "B200-SXM-180GB",
    .gpus_per_instance = 8,
    .region = "us-east-1",
    .on_demand = detail::per_gpu_hour(113.9328, 8),  // $14.2416 per GPU-hour
    .spot = detail::per_gpu_hour(37.872, 8),         // $4.734
    .date = {2025, 11, 30},
    .source =
        "github.com/tsaol/aws-gpu data/gpu_instances_raw.json (instances.vantage.sh data, commit "
        "2d0108c, 2025-11-30): p6-b200.48xlarge us-east-1 linux ondemand $113.9328/h, spot "
        "$37.872/h",
};

/// Lambda on-demand single-GPU instances.
inline constexpr cloud_price lambda_1x_h100_sxm{
    .provider = "lambda",
    .instance = "gpu_1x_h100_sxm5",
    .gpu = "H100-SXM5-80GB",
    .gpus_per_instance = 1,
    .region = {},
    .on_demand = 3.78 * units::usd_per_h,
    .date = {2026, 5, 7},
    .source =
        "techbytes.app 'Serverless GPU Pricing Matrix [2026]', prices verified 2026-05-07 "
        "from vendor pages: Lambda 1x H100 SXM $3.78/h",
};
inline constexpr cloud_price lambda_1x_h100_pcie{
    .provider = "lambda",
    .instance = "gpu_1x_h100_pcie",
    .gpu = "H100-PCIe-80GB",
    .gpus_per_instance = 1,
    .region = {},
    .on_demand = 2.86 * units::usd_per_h,
    .date = {2026, 5, 7},
    .source =
        "techbytes.app 'Serverless GPU Pricing Matrix [2026]', prices verified 2026-05-07 "
        "from vendor pages: Lambda 1x H100 PCIe $2.86/h",
};
inline constexpr cloud_price lambda_1x_a100_40gb{
    .provider = "lambda",
    .instance = "gpu_1x_a100",
    .gpu = "A100-SXM4-40GB",
    .gpus_per_instance = 1,
    .region = {},
    .on_demand = 1.48 * units::usd_per_h,
    .date = {2026, 5, 7},
    .source =
        "techbytes.app 'Serverless GPU Pricing Matrix [2026]', prices verified 2026-05-07 "
        "from vendor pages: Lambda A100 40GB $1.48/h",
};

/// Modal (serverless, billed per second of use): H100 at $0.001097/s.
inline constexpr cloud_price modal_h100{
    .provider = "modal",
    .instance = "h100",
    .gpu = "H100-SXM5-80GB",
    .gpus_per_instance = 1,
    .region = {},
    .on_demand = 3.9492 * units::usd_per_h,
    .date = {2026, 5, 7},
    .source =
        "techbytes.app 'Serverless GPU Pricing Matrix [2026]', verified 2026-05-07: Modal "
        "H100 $3.9492/h ($0.001097/s)",
};

/// RunPod Secure Cloud 8x H100 and the Vast.ai marketplace spot floor for 8x H100.
inline constexpr cloud_price runpod_8x_h100{
    .provider = "runpod",
    .instance = "secure-cloud 8x H100 SXM",
    .gpu = "H100-SXM5-80GB",
    .gpus_per_instance = 8,
    .region = {},
    .on_demand = detail::per_gpu_hour(22.32, 8),  // $2.79 per GPU-hour
    .date = {2026, 4, 30},
    .source =
        "techplained.aptechsolutions.io 'RunPod vs Vast.ai vs Lambda Labs: 8xH100 Training "
        "Economics (2026)', April 2026: RunPod Secure Cloud 8xH100 $22.32/h",
};
inline constexpr cloud_price vastai_8x_h100{
    .provider = "vast.ai",
    .instance = "marketplace 8x H100",
    .gpu = "H100-SXM5-80GB",
    .gpus_per_instance = 8,
    .region = {},
    .spot = detail::per_gpu_hour(12.16, 8),  // $1.52 per GPU-hour, 14-day spot median floor
    .date = {2026, 4, 30},
    .source =
        "techplained.aptechsolutions.io 'RunPod vs Vast.ai vs Lambda Labs: 8xH100 Training "
        "Economics (2026)', April 2026: Vast.ai spot floor $12.16/h for 8xH100",
};

/// Google Cloud a3-highgpu-8g (8x H100 80GB, 208 vCPU, 1,872 GB), us-central1: on demand
/// $88.49/h, spot $35.3957/h, and committed use at $44,810.08 (1 year) and $28,371.00 (3 years)
/// per 730-hour month, as the Cloud Billing Catalog's SKUs gave them on 2025-03-06 (Cyclenerd's
/// generated pricing.yml). The $88.49/h on-demand rate is also quoted in 2026 ("GCP a3-highgpu-8g:
/// $88.49/hr", helios comparison page).
inline constexpr cloud_price gcp_a3_highgpu_8g{
    .provider = "gcp",
    .instance = "a3-highgpu-8g",
    .gpu = "H100-SXM5-80GB",
    .gpus_per_instance = 8,
    .region = "us-central1",
    .on_demand = detail::per_gpu_hour(88.49, 8),                 // $11.061 per GPU-hour
    .commit_1yr = detail::per_gpu_hour(44810.08066464 / 730, 8),  // $7.673
    .commit_3yr = detail::per_gpu_hour(28370.99821392 / 730, 8),  // $4.858
    .spot = detail::per_gpu_hour(35.3957496986301, 8),           // $4.424
    .date = {2025, 3, 6},
    .source =
        "github.com/Cyclenerd/google-cloud-pricing-cost-calculator pricing.yml (Cloud Billing "
        "Catalog SKUs, generated 2025-03-06): a3-highgpu-8g us-central1 $88.49/h, spot 35.40",
};

/// Azure Standard_ND96isr_H100_v5 (8x H100 SXM 80GB, InfiniBand NDR) pay as you go: $98.32 per
/// instance-hour, $12.29 per GPU-hour, as read on 2026-11-09.
inline constexpr cloud_price azure_nd96isr_h100_v5{
    .provider = "azure",
    .instance = "Standard_ND96isr_H100_v5",
    .gpu = "H100-SXM5-80GB",
    .gpus_per_instance = 8,
    .region = {},
    .on_demand = detail::per_gpu_hour(98.32, 8),  // $12.29 per GPU-hour
    .date = {2026, 11, 9},
    .source =
        "github.com/datareceipts/data-receipts 109-gpu-pricing (README and hyperscalers.json, "
        "retrieved 2026-11-09): Azure ND96isr_H100_v5 $12.29 per GPU-hour",
};

/// CoreWeave on demand, 8-GPU HGX instances (the GPU price includes the host's vCPU, RAM and
/// ephemeral storage, docs.coreweave.com "Billing and charges"), publicly listed in February 2026
/// (H100, H200, B200, A100 80GB; GB200 NVL72 and RTX PRO 6000 below).
inline constexpr cloud_price coreweave_hgx_h100{
    .provider = "coreweave",
    .instance = "HGX H100 8x",
    .gpu = "H100-SXM5-80GB",
    .gpus_per_instance = 8,
    .region = {},
    .on_demand = detail::per_gpu_hour(49.24, 8),  // $6.155 per GPU-hour
    .date = {2026, 2, 28},
    .source =
        "kaelresearch.com 'GPU Economics: What Inference Actually Costs in 2026', on-demand "
        "list prices as of February 2026: CoreWeave NVIDIA HGX H100 8x GPU $49.24/h",
};
inline constexpr cloud_price coreweave_hgx_h200{
    .provider = "coreweave",
    .instance = "HGX H200 8x",
    .gpu = "H200-SXM-141GB",
    .gpus_per_instance = 8,
    .region = {},
    .on_demand = detail::per_gpu_hour(50.44, 8),  // $6.305 per GPU-hour
    .date = {2026, 2, 28},
    .source =
        "kaelresearch.com 'GPU Economics: What Inference Actually Costs in 2026', February "
        "2026: CoreWeave NVIDIA HGX H200 8x GPU $50.44/h",
};
inline constexpr cloud_price coreweave_hgx_b200{
    .provider = "coreweave",
    .instance = "HGX B200 8x",
    .gpu = "B200-SXM-180GB",
    .gpus_per_instance = 8,
    .region = {},
    .on_demand = detail::per_gpu_hour(68.80, 8),  // $8.60 per GPU-hour
    .date = {2026, 2, 28},
    .source =
        "kaelresearch.com 'GPU Economics: What Inference Actually Costs in 2026', February "
        "2026: CoreWeave NVIDIA B200 8x GPU $68.80/h",
};
inline constexpr cloud_price coreweave_a100_80gb{
    .provider = "coreweave",
    .instance = "A100 80GB 8x",
    .gpu = "A100-SXM4-80GB",
    .gpus_per_instance = 8,
    .region = {},
    .on_demand = detail::per_gpu_hour(21.60, 8),  // $2.70 per GPU-hour
    .date = {2026, 2, 28},
    .source =
        "kaelresearch.com 'GPU Economics: What Inference Actually Costs in 2026', February "
        "2026: CoreWeave NVIDIA A100 80GB 8x GPU $21.60/h",
};

/// CoreWeave on demand, the same February 2026 list: a GB200 NVL72 sold by the 4-GPU slice (one
/// compute tray of the rack), $42.00/h, and an 8x RTX PRO 6000 instance, $20.00/h.
inline constexpr cloud_price coreweave_gb200_nvl72{
    .provider = "coreweave",
    .instance = "GB200 NVL72 4-GPU slice",
    .gpu = "GB200-186GB",
    .gpus_per_instance = 4,
    .region = {},
    .on_demand = detail::per_gpu_hour(42.00, 4),  // $10.50 per GPU-hour
    .date = {2026, 2, 28},
    .source =
        "kaelresearch.com 'GPU Economics: What Inference Actually Costs in 2026', February "
        "2026: CoreWeave NVIDIA GB200 NVL72 4-GPU slice $42.00/h",
};
inline constexpr cloud_price coreweave_rtx_pro_6000{
    .provider = "coreweave",
    .instance = "RTX PRO 6000 8x",
    .gpu = "RTX-PRO-6000-Blackwell-96GB",
    .gpus_per_instance = 8,
    .region = {},
    .on_demand = detail::per_gpu_hour(20.00, 8),  // $2.50 per GPU-hour
    .date = {2026, 2, 28},
    .source =
        "kaelresearch.com 'GPU Economics: What Inference Actually Costs in 2026', February "
        "2026: CoreWeave NVIDIA RTX PRO 6000 8x GPU $20.00/h",
};

/// The default price book.
inline constexpr std::array default_prices{
    aws_p5_48xlarge,        aws_p5_48xlarge_reserved_spot, aws_p5_capacity_block,
    aws_p5e_capacity_block, aws_p4d_capacity_block,        aws_p6_b200_48xlarge,
    gcp_a3_highgpu_8g,      azure_nd96isr_h100_v5,         coreweave_hgx_h100,
    coreweave_hgx_h200,     coreweave_hgx_b200,            coreweave_a100_80gb,
    lambda_1x_h100_sxm,     lambda_1x_h100_pcie,           lambda_1x_a100_40gb,
    modal_h100,             runpod_8x_h100,                vastai_8x_h100,
    coreweave_gb200_nvl72,  coreweave_rtx_pro_6000,
};

// ---- owned servers ------------------------------------------------------------------------------

/// The purchase price of one GPU server of a catalog node, with its date and source.
struct server_price {
  name_string node;  ///< a catalog node's name ("DGX-H100")
  money price{};
  calendar_date date{};
  source_text source;
};

/// DGX H100: SemiAnalysis's estimate of its sale price, "~$270,000" (May 2023), as quoted by
/// Epoch AI's training-cost-trends analysis (github.com/epoch-research/training-cost-trends).
inline constexpr server_price dgx_h100_price{
    .node = "DGX-H100",
    .price = 270000 * units::usd,
    .date = {2023, 5, 31},
    .source = "SemiAnalysis 'AI Server Cost Analysis - Memory Is The Biggest Loser', May 2023: "
              "DGX H100 sale price ~$270,000 (quoted by epoch-research/training-cost-trends)",
};
/// DGX A100 at its launch: from $200,000 (geektopia.es, 2020-05-14, the day of the announcement).
inline constexpr server_price dgx_a100_price{
    .node = "DGX-A100",
    .price = 200000 * units::usd,
    .date = {2020, 5, 14},
    .source = "geektopia.es 2020-05-14, 'Nvidia anuncia el servidor DGX A100': price from "
              "$200,000",
};
/// An HGX H100 server from an integrator: the Thinkmate quotation of $317,000 for 8x H100 SXM with
/// 8x 400G InfiniBand (archived 2024-08-22), cited by the "H100 cluster cost" sheet. This is the
/// default onprem_costs::server_price.
inline constexpr server_price hgx_h100_price{
    .node = "HGX-H100",
    .price = 317000 * units::usd,
    .date = {2024, 8, 22},
    .source = "Thinkmate quotation, 8x H100 SXM + InfiniBand, $317k (web.archive.org, "
              "2024-08-22), cited in the public 'H100 cluster cost' sheet (Aug 2024)",
};

inline constexpr std::array server_prices{dgx_h100_price, dgx_a100_price, hgx_h100_price};

/// The catalog's price for a node (matched by name), or nullptr.
constexpr const server_price* find_server_price(const node_spec& n) {
  for (const server_price& p : server_prices)
    if (p.node == n.name) return &p;
  return nullptr;
}

/// The default owning costs with the server price of node n when the catalog has one (DGX H100
/// $270,000, DGX A100 $200,000); otherwise the HGX H100 quotation of onprem_costs.
constexpr onprem_costs onprem_costs_for(const node_spec& n) {
  onprem_costs c;
  if (const server_price* p = find_server_price(n)) c.server_price = p->price;
  return c;
}

}  // namespace gpuplan::catalog
