# tests/cli/cases_json_names.py: every key the CLI's JSON writers emit follows the one naming rule
# of docs/json-schema.md ("Naming rule", issue 26). Each command's --json is walked key by key;
# a key that breaks the rule must be in _PREDATES_RULE, a contract key kept as it was (never
# renamed: fields may be added, never renamed), with the rule it breaks.
# Exec'd in cli_tests.py's namespace (case, run, ok, ok_json, bad, check, near, ...).

# Keys older than the rule, kept for the contract; each with why it breaks the rule.
_PREDATES_RULE = {
    "30_70": "starts with a digit, names a band by the default edges (utilization `bands`)",
    "70_90": "starts with a digit, names a band by the default edges (utilization `bands`)",
    "90_95": "starts with a digit, names a band by the default edges (utilization `bands`)",
    "under_30": "names a band by the default edges (utilization `bands`; band_shares names it)",
    "over_95": "names a band by the default edges (utilization `bands`; band_shares names it)",
    "memory_per_gpu_gib": "a size in GiB (sizes are _bytes)",
    "restart_minutes": "minutes (times are _s)",
    "cost_per_million_tokens": "money without _usd (search serve's contract ranking figure)",
    "price_per_gpu_hour": "money without _usd (search and search serve results)",
    "seconds": "a time named by its unit, not suffixed _s (the searches' wall time, contract)",
}

# The commands whose JSON is walked: every command that writes JSON, in a fast configuration.
_JSON_COMMANDS = {
    "fit": ["fit", "--model", "llama-3.1-8b", "--gpu", "h100"],
    "fit --infer": ["fit", "--model", "llama-3.1-8b", "--gpu", "h100", "--infer"],
    "train": ["train", "--model", "llama-3.1-8b", "--gpus", "8", "--tokens", "1B",
              "--scaling", "8..32"],
    "serve": ["serve", "--model", "llama-3.1-8b", "--gpu", "h100", "--concurrency", "8",
              "--sweep", "3"],
    "capacity": ["capacity", "--rate", "30", "--peak-factor", "1.6", "--wait-slo", "2",
                 "--wait-percentile", "95", "--replica-rate", "2", "--service-time", "4",
                 "--months", "3"],
    "capacity (serving)": ["capacity", "--rate", "20", "--wait-slo", "1", "--model",
                           "llama-3.1-8b", "--gpu", "h100", "--ttft-slo", "1", "--months", "2"],
    "cost": ["cost", "--gpus", "8", "--hours", "100", "--compare", "cloud,onprem"],
    "search": ["search", "--model", "llama-3.1-8b", "--gpu", "h100", "--gpus", "8..16", "--seq",
               "4096", "--global-batch", "64", "--tokens", "1B", "--top", "2"],
    "search serve": ["search", "serve", "--model", "llama-3.1-8b", "--gpu", "h100,l40s",
                     "--rate", "5", "--top", "2"],
    "utilization": ["utilization", "monitoring/nvidia-smi-units.csv"],
    "gpus": ["gpus"],
    "models": ["models"],
}

# A unit in a key is its suffix, or is followed only by "_per_<denominator>" (bytes_per_s).
_UNIT_WORDS = ("bytes", "usd", "watts", "joules", "kwh", "mwh", "hz", "gib", "kw")
# Units the rule does not use: times in s, sizes in bytes, fractions not percent.
_FORBIDDEN = re.compile(r"(^|_)(ms|us|mib|mb|gb|kb|gib|minutes|mins|seconds|secs|percent|pct)($|_)")
_PERCENTILE = re.compile(r"(^|_)p(\d+)($|_)")


def _name_problems(key, value):
    """The rules `key` (holding `value`) breaks, as words; empty when it follows them all."""
    out = []
    if not re.fullmatch(r"[a-z][a-z0-9_]*", key):
        out.append("not lower snake_case starting with a letter")
    if _FORBIDDEN.search(key):
        out.append("a unit the rule does not use (times _s, sizes _bytes, fractions not percent)")
    words = key.split("_")
    for i, w in enumerate(words):
        if w in _UNIT_WORDS and i + 1 < len(words) and words[i + 1] != "per":
            out.append(f"the unit '{w}' is not its suffix")
    m = _PERCENTILE.search(key)
    if m and m.group(2) not in ("50", "90", "95", "99"):
        out.append("a fixed percentile is _p50, _p90, _p95 or _p99")
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    if numeric and re.search(r"(^|_)(cost|price|capex)($|_)", key) and "usd" not in words:
        out.append("money without _usd")
    if (key.endswith("_fraction") or key == "percentile") and value is not None:
        if not numeric or not 0 <= value <= 1:
            out.append(f"a fraction outside [0, 1]: {value!r}")
    if re.fullmatch(r"(under|over)_\d+|\d+_\d+", key):
        out.append("a band named by numbers (bands are waste, low, healthy, high, overload)")
    return out


def _walk(x, path, found):
    if isinstance(x, dict):
        for k, v in x.items():
            found.setdefault(k, (f"{path}.{k}", v))
            _walk(v, f"{path}.{k}", found)
    elif isinstance(x, list):
        for v in x:
            _walk(v, path + "[]", found)


@case("json_names.every_key_follows_the_rule")
def _():
    # the rule catches what it is for
    check(_name_problems("wait_ms", 1) and _name_problems("util_percent", 50)
          and _name_problems("cost_per_token", 1.0) and _name_problems("idle_fraction", 3)
          and _name_problems("wait_p97_s", 1) and _name_problems("30_70", 0.5)
          and _name_problems("percentile", 99) and _name_problems("bytes_total", 1),
          "the rule's checks reject what they should")
    check(not _name_problems("wait_p99_s", 1.0) and not _name_problems("bytes_per_s", 1)
          and not _name_problems("cost_per_hour_usd", 2.0)
          and not _name_problems("usd_per_gpu_hour", 2.0) and not _name_problems("percentile", 0.99),
          "the rule's checks accept what they should")
    problems, seen = [], set()
    for name, args in _JSON_COMMANDS.items():
        args = [data(a) if a.startswith("monitoring/") else a for a in args]
        r = run(*args, "--json")
        check(r.rc in (0, 1), f"gpuplan {name} --json: exit {r.rc}, {r.err!r}")
        found = {}
        _walk(r.json(), name, found)
        check(found, f"{name}: keys to check")
        for key, (where, value) in found.items():
            seen.add(key)
            why = _name_problems(key, value)
            if why and key not in _PREDATES_RULE:
                problems.append(f"{where}: {'; '.join(why)}")
    check(not problems, "keys that break docs/json-schema.md's naming rule:\n" + "\n".join(problems))
    stale = [k for k in _PREDATES_RULE if k not in seen]
    check(not stale, f"allow-listed keys no command emits any more (drop them): {stale}")


@case("json_names.percentile_keys_agree")
def _():
    # --wait-percentile 95: slo.percentile is the fraction 0.95; wait_p99_s stays the 99th
    # percentile (a contract key) and wait_at_percentile_s is the wait at the 95th
    args = ["capacity", "--rate", "30", "--peak-factor", "1.6", "--wait-slo", "2",
            "--replica-rate", "2", "--service-time", "4", "--months", "0"]
    j95 = ok_json(*args, "--wait-percentile", "95")
    j99 = ok_json(*args, "--wait-percentile", "99")
    near(j95["slo"]["percentile"], 0.95, 1e-12, "percentile as a fraction")
    if j95["replicas"] == j99["replicas"]:  # one fleet: its p99 does not move with the ask
        near(j95["wait_p99_s"], j99["wait_p99_s"], 1e-12, "wait_p99_s is p99 whatever was asked")
    near(j95["wait_p99_s"], j95["at_peak"]["wait_p99_s"], 1e-12, "top-level p99 = at_peak's")
    near(j95["wait_at_percentile_s"], j95["at_peak"]["wait_at_percentile_s"], 1e-12,
         "the asked percentile's wait, at the peak")
    near(j95["wait_at_percentile_s"], j95["at_peak"]["wait_p95_s"], 1e-12,
         "wait_at_percentile_s at --wait-percentile 95 is the p95")
    near(j99["wait_at_percentile_s"], j99["wait_p99_s"], 1e-12, "at 99 it is the p99")


@case("json_names.bands_by_name_with_edges")
def _():
    j = ok_json("utilization", data("monitoring/nvidia-smi-units.csv"))
    e = j["band_edges"]
    check(e == {"waste_below_fraction": 0.3, "healthy_from_fraction": 0.7,
                "healthy_to_fraction": 0.9, "overload_above_fraction": 0.95}, f"edges {e!r}")
    for g in [*j["gpus"], j["fleet"]]:
        b, s = g["bands"], g["band_shares"]
        check(sorted(s) == ["healthy", "high", "low", "overload", "waste"], f"names {sorted(s)}")
        for old, new in [("under_30", "waste"), ("30_70", "low"), ("70_90", "healthy"),
                         ("90_95", "high"), ("over_95", "overload")]:
            near(s[new], b[old], 0, f"{g['id'] if 'id' in g else 'fleet'}: {new} = {old}")
