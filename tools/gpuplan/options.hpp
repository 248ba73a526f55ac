// tools/gpuplan/options.hpp: the settings of a command, described once in a table of fields.
//
// A field is one setting: its plan-file key, its flag, what it holds and its help text. A
// command's table is a list of groups: the shared groups below (model, gpu, node, layout,
// training, serving) and the command's own fields. From that one table `settings` registers the
// flags, reads plan files (unknown keys refused with a suggestion), merges the two (flags win),
// and names each value as the user gave it in messages ("--zero" or "plan.json: key 'zero'").
// The builders at the end turn the shared groups into the library's inputs, so every command that
// takes a model, a GPU, a layout or a run configuration reads them the same way.
#pragma once

#include "cli.hpp"

#include <gpuplan/io/assumptions.hpp>
#include <gpuplan/specs/layout.hpp>
#include <gpuplan/specs/node.hpp>
#include <gpuplan/specs/serving.hpp>
#include <gpuplan/specs/training.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuplan::cli {

/// What a field holds, on the command line and in plan files alike.
enum class field_type : unsigned char {
  text,     ///< a string (an enum's name, a file, a catalog name)
  count,    ///< a positive integer
  count0,   ///< an integer that may be 0 (ZeRO stage, shard group)
  number,   ///< a floating-point number
  flag,     ///< true/false: `--sp`, `--flash-attention=false`; a JSON boolean in plans
  spec,     ///< a string, or in plan files an inline JSON object (model, gpu)
  custom,   ///< registered by the command itself (fit's --train/--infer as the key "mode")
  list,     ///< values searched over: "1,2,4" or "64..4096" on the command line; in plan files
            ///< the same string, a number, a boolean or an array of them (gpuplan search)
  assignments,  ///< NAME=VALUE, repeatable (`--set step.tp_overlap=1 --set ...`); in plan files
                ///< an object of NAME: VALUE, nested objects joined with '.'
};

/// Which runs a setting applies to: a ZeRO stage means nothing to a serving engine, a KV-cache
/// dtype nothing to training. Commands that take both (fit) refuse a setting of the other mode.
enum class field_use : unsigned char { both, train, serve };

/// A string literal as a template argument, for help text built at compile time (with_names).
template <std::size_t N>
struct fixed_text {
  char chars[N]{};
  constexpr fixed_text(const char (&s)[N]) {  // NOLINT(google-explicit-constructor)
    for (std::size_t i = 0; i < N; ++i) chars[i] = s[i];
  }
  [[nodiscard]] static constexpr std::size_t size() { return N - 1; }
};

namespace help_text {
constexpr std::string_view name_of(std::string_view s) { return s; }
template <named_enum E>
constexpr std::string_view name_of(E e) {
  return to_string(e);
}
template <named_enum E>
constexpr std::string_view name_of(const enumerator<E>& x) {
  return x.name;
}
/// Before, the names of Values (an enum's name table, or an array of some of its enumerators)
/// joined with '|', After: one static array per use.
template <fixed_text Before, const auto& Values, fixed_text After>
struct joined {
  static constexpr std::size_t names_size = [] {
    std::size_t n = 0;
    bool first = true;
    for (const auto& v : Values) {
      n += (first ? 0 : 1) + name_of(v).size();
      first = false;
    }
    return n;
  }();
  static constexpr std::size_t size = Before.size() + names_size + After.size();
  static constexpr std::array<char, size + 1> text = [] {
    std::array<char, size + 1> out{};
    std::size_t at = 0;
    const auto put = [&](std::string_view part) {
      for (char c : part) out[at++] = c;
    };
    put({Before.chars, Before.size()});
    bool first = true;
    for (const auto& v : Values) {
      if (!first) put("|");
      first = false;
      put(name_of(v));
    }
    put({After.chars, After.size()});
    return out;
  }();
  static constexpr std::string_view view{text.data(), size};
};
}  // namespace help_text

/// Help text that lists an enum's names from its table: with_names<"Price term: ", price_term>
/// is "Price term: on_demand|commit_1yr|commit_3yr|spot", a std::string_view of static storage
/// (a field's help), so a new enumerator is listed where it is named.
template <fixed_text Before, named_enum E, fixed_text After = "">
inline constexpr std::string_view with_names = help_text::joined<Before, enumerators(E{}), After>::view;

/// Help text that lists the enumerators a flag takes when it takes only some of an enum's: the
/// array the parser reads (enum_named(text, who, values)), so the two cannot disagree.
/// with_values<"KV cache: ", kv_dtypes, " (default bf16)">.
template <fixed_text Before, const auto& Values, fixed_text After = "">
inline constexpr std::string_view with_values = help_text::joined<Before, Values, After>::view;

namespace help_text {
/// Two help texts of static storage (with_names, with_values), one after the other.
template <const std::string_view& A, const std::string_view& B>
struct concat {
  static constexpr std::array<char, A.size() + B.size() + 1> text = [] {
    std::array<char, A.size() + B.size() + 1> out{};
    std::size_t at = 0;
    for (char c : A) out[at++] = c;
    for (char c : B) out[at++] = c;
    return out;
  }();
  static constexpr std::string_view view{text.data(), A.size() + B.size()};
};
}  // namespace help_text

/// Help text of a flag that lists two enumerator sets: with_values<...> then with_values<...>.
template <const std::string_view& A, const std::string_view& B>
inline constexpr std::string_view joined_help = help_text::concat<A, B>::view;

// ---- the enumerators flags take where they take only some of an enum's -----------------------

/// --dtype of a training run.
inline constexpr precision training_dtypes[] = {precision::bf16, precision::fp16,
                                                precision::fp32, precision::fp8};
/// --dtype of a serving deployment: the matrix math's precision (fp8 and int8: W8A8).
inline constexpr precision serving_compute_dtypes[] = {precision::bf16, precision::fp16,
                                                       precision::fp8, precision::int8};
/// --grad-dtype.
inline constexpr precision gradient_dtypes[] = {precision::bf16, precision::fp16,
                                                precision::fp32};
/// --kv-dtype.
inline constexpr precision kv_dtypes[] = {precision::bf16, precision::fp16, precision::fp8};
/// --quant-scale-dtype (GPTQ/AWQ scales).
inline constexpr precision quant_scale_dtypes[] = {precision::fp16, precision::bf16,
                                                   precision::fp32};
/// --offload (none is the absence of the flag).
inline constexpr offload_kind offload_choices[] = {offload_kind::optimizer, offload_kind::params};
/// --fabric: the networks between nodes the collective model times (none is one node).
inline constexpr inter_node_fabric fabric_choices[] = {
    inter_node_fabric::infiniband, inter_node_fabric::roce, inter_node_fabric::efa,
    inter_node_fabric::ethernet};

/// One setting of a command.
struct field {
  std::string_view key;    ///< plan-file key, snake_case ("micro_batch"); '-' is read as '_'
  std::string_view flag;   ///< command-line flag ("--micro-batch")
  field_type type;
  std::string_view group;  ///< "model", "gpu", "node", "layout", "train", "serve" or the command's
  std::string_view help;
  field_use use = field_use::both;
};

// ---- the shared groups: every command that takes these settings uses these fields ------------

std::span<const field> model_fields();     ///< --model
std::span<const field> gpu_fields();       ///< --gpu, --gpus
std::span<const field> node_fields();      ///< --node (a catalog node: GPUs, fabric, NICs)
std::span<const field> layout_fields();    ///< --dp --tp --pp --cp --ep --zero --sp ...
std::span<const field> training_fields();  ///< every training_config field
std::span<const field> serving_fields();   ///< every inference_config field
/// --set NAME=VALUE and the plan key "assumptions": any field of the models' assumption structs
/// (io/assumptions.hpp), plus Megatron's layout and overlap flags that set step assumptions
/// (--first-stage-layers, --last-stage-layers, --tp-comm-overlap, ...) for commands that time a
/// training step.
std::span<const field> assumption_fields();
std::span<const field> step_assumption_fields();

/// The settings a command was given, by flag and by plan file; flags win. The flags registered by
/// add() write into this object when CLI11 parses, so it must stay where it is: hold it in a
/// std::shared_ptr (or a member of one) captured by the command's run function.
class settings {
 public:
  /// Registers `fields` as flags of `app` (except custom ones) and as plan-file keys.
  void add(CLI::App* app, std::span<const field> fields);
  /// Registers the fields of several groups: add(app, {model_fields(), gpu_fields(), ...}).
  void add(CLI::App* app, std::initializer_list<std::span<const field>> groups);
  /// Adds `--plan FILE` to app: the same fields in JSON, read by read_plan() at run time.
  void add_plan_option(CLI::App* app);
  /// A plan given as a JSON object rather than a file (the Python module's keyword arguments,
  /// api.hpp): read_plan() reads it as it reads a --plan file, with the same checks, and messages
  /// name its keys as `label`'s ("gpuplan.fit(): key 'zero' must be 0, 1, 2 or 3").
  void use_plan_object(nlohmann::json plan, std::string label);
  /// A field add() registered that this command does not take, though a user may reach for it
  /// (fit's --batch on serve, a training layout flag on a serving command, a removed flag): it
  /// stays parsed, so the refusal can name it and say what to use instead, but --help no longer
  /// lists it, and read_plan() refuses it, given as a flag or a plan key, with the usage error
  /// "<name> <why>" ("--batch is fit's; serve takes --concurrency, ...").
  void refuse(CLI::App* app, std::string_view key, std::string why);
  /// refuse() for every registered field whose use is `use` (a serving command's training-only
  /// fields: --zero, --cp, --sp, --virtual-stages, --shard-group).
  void refuse(CLI::App* app, field_use use, const std::string& why);

  /// Reads the plan file given with --plan, if any: every key must be a registered field's. Then
  /// refuses a field given that the command refuse()d.
  void read_plan();
  /// Sets a value as the command line does (for custom fields: fit's --train/--infer).
  void set_flag(std::string_view key, nlohmann::json value);
  /// Drops a plan file's value for key (the command line chose something that excludes it).
  void forget_plan_value(std::string_view key);

  [[nodiscard]] bool has(std::string_view key) const;
  [[nodiscard]] bool from_flags(std::string_view key) const;
  [[nodiscard]] bool from_plan(std::string_view key) const;
  /// The keys given, by flag or plan, in table order.
  [[nodiscard]] std::vector<const field*> given() const;
  [[nodiscard]] const field& info(std::string_view key) const;
  /// Every field registered, in table order, and whether the command refuse()d it.
  [[nodiscard]] std::span<const field> fields() const { return fields_; }
  [[nodiscard]] bool refused(std::string_view key) const;
  /// How the user gave key, for messages: "--zero", or "plan.json: key 'zero'".
  [[nodiscard]] std::string name(std::string_view key) const;
  [[nodiscard]] const std::string& plan_file() const { return plan_file_; }
  /// A message of the library in the user's terms: its names of this command's fields
  /// ("training_config.global_batch", "layout.dp", "gpu_spec.memory_bandwidth", "min_servers:")
  /// replaced by how the user gave them ("--global-batch 7", "plan.json: key 'dp'", "--gpu
  /// my.json: memory_bandwidth", "--rate 20:"), by the table in options.cpp. The library keeps
  /// its own names (it has no flags); main() translates every error of a command through this.
  [[nodiscard]] std::string in_user_terms(std::string_view message) const;

  /// Typed values; nullopt when not given. count() checks positivity (usage_error naming the
  /// field), count0() non-negativity.
  [[nodiscard]] std::optional<int> count(std::string_view key) const;
  [[nodiscard]] std::optional<int> count0(std::string_view key) const;
  [[nodiscard]] std::optional<double> number(std::string_view key) const;
  [[nodiscard]] std::optional<std::string> text(std::string_view key) const;
  [[nodiscard]] std::optional<bool> flag(std::string_view key) const;
  [[nodiscard]] const nlohmann::json* value(std::string_view key) const;
  /// The value of key given on the command line, or in the plan file; null when not there.
  [[nodiscard]] const nlohmann::json* flag_value(std::string_view key) const;
  [[nodiscard]] const nlohmann::json* plan_value(std::string_view key) const;

 private:
  std::vector<field> fields_;
  std::map<std::string, nlohmann::json, std::less<>> flags_;
  std::map<std::string, nlohmann::json, std::less<>> plan_;
  void read_plan_file();
  std::vector<std::pair<std::string, std::string>> refused_;  ///< key, why (refuse())
  std::optional<std::string> plan_option_;
  std::optional<nlohmann::json> plan_object_;  ///< use_plan_object()
  std::string plan_object_label_;
  std::string plan_file_;
};

// ---- from the shared groups to the library's inputs ------------------------------------------

/// The model (required): --model NAME|PATH|params:N, or a plan's inline "model" object.
model_choice model_from(const settings& s, std::string_view command);
/// --redundant-experts (where the command registers it): the model's experts plus the replicas
/// an expert-parallel load balancer adds (usage error for a dense model or more replicas than
/// experts).
void with_redundant_experts(const settings& s, model_choice& m);
/// The GPU: --gpu NAME|FILE|local, a plan's inline "gpu" object, or H100-SXM5-80GB.
/// The --gpu (or the plan's "gpu"), checked for `use` (check_gpu): fit asks for the memory only.
/// Under --power-limit (commands with node_fields) when it is the GPU that runs (with_power_limit).
gpu_choice gpu_from(const settings& s, gpu_use use = gpu_use::rates);
/// The node, when --node was given: a catalog name or alias, a node JSON file, or a plan's inline
/// "node" object (io/node_json.hpp); under --power-limit.
std::optional<node_spec> node_from(const settings& s);
/// `g` (or `n`'s GPUs) under --power-limit when given (models/power_limit.hpp power_limited);
/// a limit above the TDP or below the driver's minimum is a usage error naming --power-limit.
gpu_spec with_power_limit(const settings& s, const gpu_spec& g);
node_spec with_power_limit(const settings& s, const node_spec& n);
/// The layout: dp defaults to what --gpus leaves after tp x pp x cp; checked against the model.
/// `expert_parallel_in_tp`: ep counts ranks of the tensor-parallel group (serving's meaning,
/// checked by serving_plan::validate) instead of the data-parallel ranks (training's).
parallel_layout layout_from(const settings& s, const model_choice& model,
                            bool expert_parallel_in_tp = false);
/// Every training_config field, checked.
training_config training_from(const settings& s);
/// The training framework: --framework if given (refused when the plan needs the other one),
/// else transformers, or megatron when the plan uses what only the Megatron profile models
/// (tp/pp/cp/ep > 1, sp, virtual stages, selective recompute, offload, fp8, dropout, no flash
/// attention, MoE, params:N). Returns the note the text output prints beside the framework.
std::string settle_framework(const settings& s, const model_choice& model,
                             const parallel_layout& l, training_config& c);
/// Every inference_config field, checked; weights default to the model's own 16-bit dtype.
inference_config serving_from(const settings& s, const model_choice& model);
/// The assumptions the command runs with: the defaults, then the step flags of
/// step_assumption_fields() (when registered), then the plan's "assumptions", then each --set in
/// order. usage_error / io::error naming the flag or key and the assumption.
assumption_set assumptions_from(const settings& s);
/// The assumptions of `a` that differ from the defaults, for a report: one line
/// "assumptions: step.tp_overlap 1 (default 0), ..." (empty when none), and a JSON object
/// NAME: VALUE (each value as --set reads it back).
std::string assumptions_text(const assumption_set& a);
nlohmann::json assumptions_json(const assumption_set& a);

/// The items of a comma-separated list, each without the spaces around it: "1, 2,4" is "1", "2",
/// "4". An empty item ("1,,2", "1,", "") is refused: usage_error "<who> '<text>': an empty item".
/// Every list flag is read through this (--tp 1,2,4, --gpu a,b, --demand, --compare, --mix, ...).
std::vector<std::string> list_items(std::string_view text, std::string_view who);

/// E's names in prose: "air, air_containment or liquid" (sep ", ", last " or ").
template <named_enum E>
std::string names_text(std::string_view sep = ", ", std::string_view last = " or ") {
  std::string out;
  const std::size_t n = enum_count<E>();
  for (std::size_t i = 0; i < n; ++i)
    out.append(i == 0 ? "" : i + 1 == n ? last : sep).append(enumerators(E{})[i].name);
  return out;
}

/// The enumerator named `text`, among `allowed` (all of E's when empty); usage_error
/// "<who> 'x' is not one of a|b|c" otherwise.
template <named_enum E>
E enum_named(const std::string& text, const std::string& who, std::span<const E> allowed) {
  // No std::vector here: g++ 12 at -O3 reports a false -Wfree-nonheap-object on one (the demo
  // and release presets build with -O3 and -Werror).
  E e{};
  const bool parsed = parse_enum(text, e);
  bool found = false;
  std::string list;
  const auto consider = [&](E a) {
    list += (list.empty() ? "" : "|") + std::string(to_string(a));
    found = found || (parsed && a == e);
  };
  if (allowed.size() > 0)
    for (E a : allowed) consider(a);
  else
    for (const enumerator<E>& x : enumerators(E{})) consider(x.value);
  if (!found) throw usage_error(who + " '" + text + "' is not one of " + list);
  return e;
}
template <named_enum E>
E enum_named(const std::string& text, const std::string& who, std::initializer_list<E> allowed = {}) {
  return enum_named(text, who, std::span<const E>(allowed.begin(), allowed.size()));
}

}  // namespace gpuplan::cli
