// gpuplan/io/kubernetes_yaml.hpp: a replica plan as Kubernetes resource requests (the CLI's
// `capacity --kubernetes NAME`): a Deployment with the plan's replicas and one replica's GPU
// request, whole GPUs or a MIG slice, and the YAML quoting that keeps a user's text one scalar.
//
// An edge of the library (target gpuplan::json, beside the JSON writers): never included by the umbrella
// header.
#pragma once

#include <gpuplan/catalog/mig.hpp>
#include <gpuplan/io/error.hpp>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

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
  if (name.empty() || name.size() > 63 ||
      name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos ||
      name.front() == '-' || name.back() == '-')
    throw error("kubernetes: name '" + name +
                "' must be 1-63 lower-case letters, digits and '-', not starting or ending with '-' "
                "(RFC 1123 label)");
  std::string resource = "nvidia.com/gpu";
  int count = gpus_per_replica;
  if (mig) {
    resource = std::string(mig_resource_name(*mig).view());
    count = 1;
  }
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

}  // namespace gpuplan::io
