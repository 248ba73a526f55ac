// gpuplan/io/kubernetes_yaml.hpp: a replica plan as Kubernetes objects (the CLI's
// `capacity --kubernetes NAME`): for a serving plan, a complete manifest (a Deployment running the
// engine with the plan's arguments, a Service and a HorizontalPodAutoscaler on the engine's queue
// metric: kubernetes_manifest); for a replica given by its capacity alone, a Deployment with the
// plan's replicas and one replica's GPU request, whole GPUs or a MIG slice
// (kubernetes_resources); and the YAML quoting that keeps a user's text one scalar.
//
// An edge of the library (target gpuplan::json, beside the JSON writers): never included by the umbrella
// header.
#pragma once

#include <gpuplan/catalog/mig.hpp>
#include <gpuplan/io/error.hpp>
#include <gpuplan/specs/serving.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuplan::io {

/// `text` as a YAML double-quoted scalar (YAML 1.2 section 7.3.1, which YAML 1.1 parsers such as
/// PyYAML read alike), so a value from the user is always one string and never more YAML: `"` and
/// `\` are escaped, control characters as \n, \t, \r or \xNN, and every character past ASCII
/// as \uXXXX or \UXXXXXXXX, so the output is plain ASCII (no line break of any kind, such as
/// U+2028, reaches the file). Throws io::error when `text` is not valid UTF-8 (YAML is Unicode
/// text: such bytes cannot be written in it).
inline std::string yaml_quoted(std::string_view text, std::string_view what = "value") {
  std::string out = "\"";
  auto hex = [&out](const char* prefix, std::uint32_t v, int digits) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%s%0*X", prefix, digits, static_cast<unsigned>(v));
    out += buf;
  };
  const auto bad = [&] { return error(std::string(what) + " is not valid UTF-8"); };
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      ++i;
      if (b == '"') out += "\\\"";
      else if (b == '\\') out += "\\\\";
      else if (b == '\n') out += "\\n";
      else if (b == '\t') out += "\\t";
      else if (b == '\r') out += "\\r";
      else if (b < 0x20 || b == 0x7f) hex("\\x", b, 2);
      else out += static_cast<char>(b);
      continue;
    }
    // A multi-byte UTF-8 sequence: its length from the lead byte, then continuation bytes; an
    // overlong form, a surrogate or a value past U+10FFFF is not UTF-8 (RFC 3629 section 3).
    const int len = b >= 0xF0 && b <= 0xF4 ? 4 : b >= 0xE0 ? (b <= 0xEF ? 3 : 0) : b >= 0xC2 ? 2 : 0;
    if (len == 0 || i + static_cast<std::size_t>(len) > text.size()) throw bad();
    std::uint32_t cp = b & (len == 2 ? 0x1Fu : len == 3 ? 0x0Fu : 0x07u);
    for (int k = 1; k < len; ++k) {
      const auto c = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
      if ((c & 0xC0u) != 0x80u) throw bad();
      cp = (cp << 6) | (c & 0x3Fu);
    }
    constexpr std::uint32_t min_of[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_of[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) throw bad();
    if (cp <= 0xFFFF) hex("\\u", cp, 4);
    else hex("\\U", cp, 8);
    i += static_cast<std::size_t>(len);
  }
  return out + "\"";
}

namespace detail {
/// A Kubernetes object name used as a label value and a DNS name: an RFC 1123 label (1-63
/// lower-case letters, digits and '-', not starting or ending with '-'); io::error otherwise.
inline void check_kubernetes_name(const std::string& name) {
  if (name.empty() || name.size() > 63 ||
      name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos ||
      name.front() == '-' || name.back() == '-')
    throw error("kubernetes: name '" + name +
                "' must be 1-63 lower-case letters, digits and '-', not starting or ending with '-' "
                "(RFC 1123 label)");
}

/// A Deployment's head: its name, `replicas`, the selector and the pod template's `app` label
/// (both kubernetes_resources and kubernetes_manifest's Deployment start with it).
inline std::string deployment_head(const std::string& name, int replicas) {
  std::string y;
  y += "apiVersion: apps/v1\n";
  y += "kind: Deployment\n";
  y += "metadata:\n";
  y += "  name: " + name + "\n";
  y += "spec:\n";
  y += "  replicas: " + std::to_string(replicas) + "\n";
  y += "  selector:\n";
  y += "    matchLabels:\n";
  y += "      app: " + name + "\n";
  y += "  template:\n";
  y += "    metadata:\n";
  y += "      labels:\n";
  y += "        app: " + name + "\n";
  return y;
}

/// The GPU resource of one pod: `nvidia.com/gpu` x the replica's GPUs, or one MIG slice
/// (`nvidia.com/mig-<profile>`, the device plugin's "mixed" strategy).
inline std::pair<std::string, int> gpu_resource(const std::optional<mig_profile>& mig,
                                                int gpus_per_replica) {
  if (mig) return {std::string(mig_resource_name(*mig).view()), 1};
  return {"nvidia.com/gpu", gpus_per_replica};
}
}  // namespace detail

/// Kubernetes resource requests for a replica plan: a Deployment fragment with `replicas` and the
/// GPU request of one replica's pod, ready to merge into a manifest. Whole GPUs are
/// `nvidia.com/gpu: <gpus per replica>`; a MIG slice is `nvidia.com/mig-<profile>: 1` (the NVIDIA
/// device plugin's "mixed" strategy). Extended resources are set as limits (Kubernetes takes
/// the request from the limit and does not allow overcommitting them). `image_what` names the
/// image in errors (the caller's flag or key).
inline std::string kubernetes_resources(const std::string& name, int replicas,
                                        int gpus_per_replica,
                                        const std::optional<mig_profile>& mig = std::nullopt,
                                        const std::string& image = {},
                                        std::string_view image_what = "kubernetes: the image") {
  if (replicas < 0) throw error("kubernetes: replicas must not be negative");
  if (gpus_per_replica < 1) throw error("kubernetes: GPUs per replica must be at least 1");
  detail::check_kubernetes_name(name);
  const auto [resource, count] = detail::gpu_resource(mig, gpus_per_replica);
  std::string y = detail::deployment_head(name, replicas);
  y += "    spec:\n";
  y += "      containers:\n";
  y += "        - name: " + name + "\n";
  // the image is the user's text: one quoted scalar whatever it holds (yaml_quoted)
  y += image.empty() ? "          # image: your serving image\n"
                     : "          image: " + yaml_quoted(image, image_what) + "\n";
  y += "          resources:\n";
  y += "            limits:\n";
  y += "              " + resource + ": " + std::to_string(count) + "\n";
  return y;
}

// ---- a complete manifest for a serving plan --------------------------------------------------

/// What the manifest assumes beyond the plan: host resources, shared memory and probe timing.
/// Per-GPU figures are scaled by the GPUs of one replica (a MIG slice counts as one).
struct kubernetes_assumptions {
  /// Host CPUs and memory per GPU: vLLM's own Kubernetes guide (vllm-project/vllm
  /// docs/deployment/k8s.md, "Deployment with GPUs", its one-GPU Mistral-7B Deployment) requests
  /// cpu "2" and memory 6G and limits cpu "10" and memory 20G; taken per GPU here (the engine
  /// runs one worker process per GPU of the tensor-parallel group).
  int cpu_request_per_gpu = 2;
  int cpu_limit_per_gpu = 10;
  int memory_request_gb_per_gpu = 6;
  int memory_limit_gb_per_gpu = 20;
  /// The emptyDir (medium: Memory) mounted at /dev/shm, GiB per GPU: the same guide's 2Gi
  /// ("vLLM needs to access the host's shared memory for tensor parallel inference"; NCCL and
  /// PyTorch's worker processes exchange through it, and a container's default /dev/shm is 64 MiB).
  int shm_gib_per_gpu = 2;
  /// Probes on the engine's health endpoint: the same guide's liveness (initialDelaySeconds 60,
  /// periodSeconds 10) and readiness (60, 5) probes.
  int probe_initial_delay_s = 60;
  int liveness_period_s = 10;
  int readiness_period_s = 5;
  /// The autoscaler's target of queued requests per pod is never below this (a target of 0 would
  /// hold the fleet at maxReplicas): one waiting request.
  double min_waiting_target = 1.0;
};

/// The engine a manifest runs and its arguments as planned.
struct kubernetes_engine_args {
  serving_engine engine = serving_engine::vllm;
  std::string model;        ///< the model id the engine loads (user text: quoted in the YAML)
  int tp = 1;               ///< tensor-parallel GPUs of one replica
  int pp = 1;               ///< pipeline stages of one replica
  int max_model_len = 4096; ///< longest sequence (prompt + output) the KV cache must hold
  /// The engine's own memory share: vLLM --gpu-memory-utilization, SGLang --mem-fraction-static,
  /// TensorRT-LLM --kv_cache_free_gpu_memory_fraction (each engine's meaning, as planned).
  double memory_fraction = 0.9;
  int max_num_seqs = 256;   ///< sequences one replica runs at once (the plan's request slots)
};

/// A serving plan as Kubernetes objects: the Deployment's replicas, the autoscaler's bounds and
/// target, one replica's GPUs (or MIG slice) and the engine.
struct kubernetes_plan {
  std::string name;                 ///< the objects' name and `app` label (RFC 1123 label)
  int replicas = 1;                 ///< the Deployment's replicas: the plan's count at the peak
  int min_replicas = 1;             ///< the autoscaler's floor: the plan's count off-peak
  int max_replicas = 1;             ///< the autoscaler's ceiling: the plan's count at the peak
  /// Queued requests per pod the autoscaler holds the fleet at (its Pods metric's AverageValue).
  double waiting_target = 1.0;
  int gpus_per_replica = 1;         ///< tp x pp
  std::optional<mig_profile> mig;   ///< a replica is one MIG slice of this profile
  std::string image;                ///< the container image; empty: the engine's public image
  kubernetes_engine_args args{};
  kubernetes_assumptions assumptions{};
};

/// How an engine is run and watched: its command, its port, its health path and the Prometheus
/// queue gauge the autoscaler reads.
struct kubernetes_engine_facts {
  std::vector<std::string> command;
  int port = 8000;
  const char* health = "/health";
  const char* metrics_path = "/metrics";
  const char* queue_metric = "";
  const char* image = "";
  const char* source = "";
  const char* label = "";
};

/// The facts of `e` (every vLLM flavour runs as today's `vllm serve`).
///  vLLM: `vllm serve MODEL` on port 8000 (vLLM v0.8.5 engine arguments, docs.vllm.ai
///   serving/engine_args); GET /health; /metrics exports the gauge vllm:num_requests_waiting
///   ("Number of requests waiting to be processed", vllm/engine/metrics.py; docs.vllm.ai
///   serving/metrics); image vllm/vllm-openai (docs/deployment/k8s.md).
///  SGLang: `python3 -m sglang.launch_server --model-path MODEL` on port 30000 (its default;
///   python/sglang/srt/server_args.py; docs.sglang.io advanced_features/server_arguments);
///   GET /health; with --enable-metrics, /metrics exports sglang:num_queue_reqs (docs.sglang.io
///   references/production_metrics); image lmsysorg/sglang (the project's Docker image).
///  TensorRT-LLM: `trtllm-serve MODEL` on port 8000 (its default; TensorRT-LLM 0.18 docs
///   commands/trtllm-serve: --tp_size, --pp_size, --max_seq_len, --max_batch_size,
///   --kv_cache_free_gpu_memory_fraction); GET /health (docs/source/commands/trtllm-serve.rst);
///   Prometheus metrics at /prometheus/metrics with the gauge trtllm_num_requests_waiting
///   ("Number of queued requests", tensorrt_llm/metrics/collector.py on main, 2026; releases
///   before it export no queue gauge: /metrics there is JSON iteration statistics); image
///   nvcr.io/nvidia/tensorrt-llm/release (NGC).
inline kubernetes_engine_facts kubernetes_engine(serving_engine e) {
  switch (e) {
    case serving_engine::sglang:
      return {.command = {"python3", "-m", "sglang.launch_server"}, .port = 30000,
              .health = "/health", .metrics_path = "/metrics",
              .queue_metric = "sglang:num_queue_reqs", .image = "lmsysorg/sglang:latest",
              .source = "SGLang python/sglang/srt/server_args.py; docs.sglang.io server_arguments "
                        "and production_metrics",
              .label = "SGLang"};
    case serving_engine::trtllm:
      return {.command = {"trtllm-serve"}, .port = 8000, .health = "/health",
              .metrics_path = "/prometheus/metrics",
              .queue_metric = "trtllm_num_requests_waiting",
              .image = "nvcr.io/nvidia/tensorrt-llm/release:latest",
              .source = "TensorRT-LLM docs commands/trtllm-serve (0.18); "
                        "tensorrt_llm/metrics/collector.py (main, 2026)",
              .label = "TensorRT-LLM (trtllm-serve)"};
    default:
      return {.command = {"vllm", "serve"}, .port = 8000, .health = "/health",
              .metrics_path = "/metrics", .queue_metric = "vllm:num_requests_waiting",
              .image = "vllm/vllm-openai:latest",
              .source = "vLLM v0.8.5 engine arguments and production metrics; "
                        "docs/deployment/k8s.md",
              .label = "vLLM"};
  }
}

namespace detail {
/// A fraction in (0, 1] as the engine's flag takes it: up to four decimals, no trailing zeros.
inline std::string engine_fraction(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", f);
  std::string t = buf;
  while (!t.empty() && t.back() == '0') t.pop_back();
  if (!t.empty() && t.back() == '.') t.pop_back();
  return t;
}
}  // namespace detail

/// The engine's command-line arguments as planned (the model first where the engine takes it as
/// a positional argument), the listening address and port included so that the Service reaches it
/// (SGLang and trtllm-serve listen on localhost by default).
inline std::vector<std::string> kubernetes_engine_argv(const kubernetes_engine_args& a) {
  const kubernetes_engine_facts f = kubernetes_engine(a.engine);
  const std::string port = std::to_string(f.port), tp = std::to_string(a.tp),
                    pp = std::to_string(a.pp), len = std::to_string(a.max_model_len),
                    seqs = std::to_string(a.max_num_seqs),
                    frac = detail::engine_fraction(a.memory_fraction);
  std::vector<std::string> v;
  switch (a.engine) {
    case serving_engine::sglang:
      v = {"--model-path", a.model, "--host", "0.0.0.0", "--port", port, "--tp-size", tp};
      if (a.pp > 1) v.insert(v.end(), {"--pp-size", pp});
      v.insert(v.end(), {"--context-length", len, "--mem-fraction-static", frac,
                         "--max-running-requests", seqs, "--enable-metrics"});
      break;
    case serving_engine::trtllm:
      v = {a.model, "--host", "0.0.0.0", "--port", port, "--tp_size", tp};
      if (a.pp > 1) v.insert(v.end(), {"--pp_size", pp});
      v.insert(v.end(), {"--max_seq_len", len, "--max_batch_size", seqs,
                         "--kv_cache_free_gpu_memory_fraction", frac});
      break;
    default:
      v = {a.model, "--host", "0.0.0.0", "--port", port, "--tensor-parallel-size", tp};
      if (a.pp > 1) v.insert(v.end(), {"--pipeline-parallel-size", pp});
      v.insert(v.end(), {"--max-model-len", len, "--gpu-memory-utilization", frac,
                         "--max-num-seqs", seqs});
      break;
  }
  return v;
}

namespace detail {
/// The manifest's Deployment: the engine's container with its arguments, resources, /dev/shm
/// and probes (kubernetes_manifest).
inline std::string kubernetes_deployment(const kubernetes_plan& p, std::string_view image_what,
                                         std::string_view model_what) {
  const kubernetes_engine_args& a = p.args;
  const kubernetes_assumptions& k = p.assumptions;
  const kubernetes_engine_facts f = kubernetes_engine(a.engine);
  const int gpus = p.mig ? 1 : p.gpus_per_replica;  // a MIG slice: one device, one process
  const auto [resource, count] = gpu_resource(p.mig, p.gpus_per_replica);
  const std::string port = std::to_string(f.port);
  const std::string image = yaml_quoted(p.image.empty() ? f.image : p.image, image_what);
  std::string y;
  y += "# gpuplan capacity --kubernetes: " + std::string(f.label) + " serving the plan's replicas.\n";
  y += "# Engine arguments and endpoints: " + std::string(f.source) + ".\n";
  y += deployment_head(p.name, p.replicas);
  y += "      annotations:\n";
  y += "        # where Prometheus scrapes the engine's metrics (the prometheus.io/* convention)\n";
  y += "        prometheus.io/scrape: \"true\"\n";
  y += "        prometheus.io/port: \"" + port + "\"\n";
  y += "        prometheus.io/path: \"" + std::string(f.metrics_path) + "\"\n";
  y += "    spec:\n";
  y += "      containers:\n";
  y += "        - name: " + p.name + "\n";
  y += "          image: " + image + "\n";
  y += "          command:\n";
  for (const std::string& c : f.command) y += "            - " + yaml_quoted(c) + "\n";
  y += "          args:\n";
  for (const std::string& arg : kubernetes_engine_argv(a))
    y += "            - " + yaml_quoted(arg, model_what) + "\n";
  y += "          ports:\n";
  y += "            - name: http\n";
  y += "              containerPort: " + port + "\n";
  y += "              protocol: TCP\n";
  y += "          # host CPU and memory per GPU: vLLM docs/deployment/k8s.md's one-GPU example\n";
  y += "          resources:\n";
  y += "            requests:\n";
  y += "              cpu: \"" + std::to_string(k.cpu_request_per_gpu * gpus) + "\"\n";
  y += "              memory: " + std::to_string(k.memory_request_gb_per_gpu * gpus) + "G\n";
  y += "              " + resource + ": " + std::to_string(count) + "\n";
  y += "            limits:\n";
  y += "              cpu: \"" + std::to_string(k.cpu_limit_per_gpu * gpus) + "\"\n";
  y += "              memory: " + std::to_string(k.memory_limit_gb_per_gpu * gpus) + "G\n";
  y += "              " + resource + ": " + std::to_string(count) + "\n";
  y += "          volumeMounts:\n";
  y += "            - name: shm\n";
  y += "              mountPath: /dev/shm\n";
  for (const auto& [probe, period] :
       {std::pair{"readinessProbe", k.readiness_period_s}, std::pair{"livenessProbe", k.liveness_period_s}}) {
    y += std::string("          ") + probe + ":\n";
    y += "            httpGet:\n";
    y += "              path: " + std::string(f.health) + "\n";
    y += "              port: " + port + "\n";
    y += "            initialDelaySeconds: " + std::to_string(k.probe_initial_delay_s) + "\n";
    y += "            periodSeconds: " + std::to_string(period) + "\n";
  }
  y += "      volumes:\n";
  y += "        # NCCL and PyTorch's worker processes share tensors through /dev/shm\n";
  y += "        - name: shm\n";
  y += "          emptyDir:\n";
  y += "            medium: Memory\n";
  y += "            sizeLimit: " + std::to_string(k.shm_gib_per_gpu * gpus) + "Gi\n";
  return y;
}

/// The manifest's Service: the pods' port, by the Deployment's `app` label.
inline std::string kubernetes_service(const kubernetes_plan& p) {
  const std::string port = std::to_string(kubernetes_engine(p.args.engine).port);
  std::string y;
  y += "apiVersion: v1\n";
  y += "kind: Service\n";
  y += "metadata:\n";
  y += "  name: " + p.name + "\n";
  y += "spec:\n";
  y += "  type: ClusterIP\n";
  y += "  selector:\n";
  y += "    app: " + p.name + "\n";
  y += "  ports:\n";
  y += "    - name: http\n";
  y += "      port: " + port + "\n";
  y += "      targetPort: http\n";
  y += "      protocol: TCP\n";
  return y;
}

/// The manifest's HorizontalPodAutoscaler: the plan's bounds on the engine's queue gauge.
inline std::string kubernetes_autoscaler(const kubernetes_plan& p) {
  const kubernetes_engine_facts f = kubernetes_engine(p.args.engine);
  const kubernetes_assumptions& k = p.assumptions;
  std::string y;
  y += "# minReplicas: the plan's replicas off-peak; maxReplicas: at the peak. The target is the\n";
  y += "# queue a replica holds when its requests wait the SLO on average (Little's law: its rate\n";
  y += "# x the wait). The SLO bounds a percentile of the wait, which the mean stays below: this\n";
  y += "# target scales out late for it; lower it for headroom.\n";
  y += "# A Pods metric needs a custom-metrics adapter (e.g. the Prometheus Adapter) serving the\n";
  y += "# engine's gauge " + std::string(f.queue_metric) +
       " under this name (rename it here if the adapter's rules do).\n";
  y += "apiVersion: autoscaling/v2\n";
  y += "kind: HorizontalPodAutoscaler\n";
  y += "metadata:\n";
  y += "  name: " + p.name + "\n";
  y += "spec:\n";
  y += "  scaleTargetRef:\n";
  y += "    apiVersion: apps/v1\n";
  y += "    kind: Deployment\n";
  y += "    name: " + p.name + "\n";
  y += "  minReplicas: " + std::to_string(p.min_replicas) + "\n";
  y += "  maxReplicas: " + std::to_string(p.max_replicas) + "\n";
  y += "  metrics:\n";
  y += "    - type: Pods\n";
  y += "      pods:\n";
  y += "        metric:\n";
  y += "          name: " + yaml_quoted(f.queue_metric) + "\n";
  y += "        target:\n";
  y += "          type: AverageValue\n";
  const double target = std::max(p.waiting_target, k.min_waiting_target);
  y += "          averageValue: \"" + std::to_string(std::llround(target * 1000.0)) + "m\"\n";
  return y;
}
}  // namespace detail

/// A complete manifest for a serving plan: a Deployment running the engine with the plan's
/// arguments (CPU and memory requests and limits, a memory-backed /dev/shm, readiness and
/// liveness probes on the engine's health endpoint), a Service selecting its pods, and an
/// autoscaling/v2 HorizontalPodAutoscaler from the plan's off-peak to its peak replicas on the
/// engine's queue gauge (a Pods metric: served by a custom-metrics adapter such as the Prometheus
/// Adapter), as three YAML documents separated by `---`. User text (the image, the model id) is
/// quoted (yaml_quoted); the name must be an RFC 1123 label. `image_what` and `model_what` name
/// the image and the model in errors (not UTF-8). Throws io::error naming the field.
inline std::string kubernetes_manifest(const kubernetes_plan& p,
                                       std::string_view image_what = "kubernetes: the image",
                                       std::string_view model_what = "kubernetes: the model") {
  detail::check_kubernetes_name(p.name);
  const kubernetes_engine_args& a = p.args;
  if (p.replicas < 1) throw error("kubernetes: replicas must be at least 1");
  if (p.min_replicas < 1 || p.min_replicas > p.max_replicas)
    throw error("kubernetes: min_replicas must be in [1, max_replicas]");
  if (p.gpus_per_replica < 1) throw error("kubernetes: GPUs per replica must be at least 1");
  if (a.tp < 1 || a.pp < 1 || a.tp * a.pp != p.gpus_per_replica)
    throw error("kubernetes: tp x pp must equal the GPUs per replica");
  if (a.model.empty()) throw error("kubernetes: the model id must not be empty");
  if (a.max_model_len < 1 || a.max_num_seqs < 1)
    throw error("kubernetes: max_model_len and max_num_seqs must be at least 1");
  if (!(a.memory_fraction > 0.0 && a.memory_fraction <= 1.0))
    throw error("kubernetes: the engine's memory fraction must be in (0, 1]");
  if (!(p.waiting_target > 0.0) || !std::isfinite(p.waiting_target))
    throw error("kubernetes: waiting_target must be positive");
  return detail::kubernetes_deployment(p, image_what, model_what) + "---\n" +
         detail::kubernetes_service(p) + "---\n" + detail::kubernetes_autoscaler(p);
}

}  // namespace gpuplan::io
