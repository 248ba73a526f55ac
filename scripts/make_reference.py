#!/usr/bin/env python3
"""Regenerates docs/reference.md: the public entry points of every header, grouped by layer.

    python3 scripts/make_reference.py > docs/reference.md
    python3 scripts/make_reference.py --check    exit 1 when docs/reference.md is not what it makes
                                                 (a CTest, docs.reference_current)

For each header under include/gpuplan it lists the header's own summary (its first comment line)
and the names it declares outside `detail` namespaces: types, enums, functions, constants and
macros meant for users. It reads the headers as text (no compiler needed).
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = os.path.join(ROOT, "include")

LAYERS = [
    ("Units", ["gpuplan/units.hpp", "gpuplan/fwd.hpp", "gpuplan/units/"]),
    ("Specs and catalogs", ["gpuplan/specs/", "gpuplan/catalog.hpp", "gpuplan/catalog/"]),
    ("Models", ["gpuplan/models/"]),
    ("Plan", ["gpuplan/plan/"]),
    ("Edges: I/O (target gpuplan::json)", ["gpuplan/io/"]),
    ("Edges: probe (target gpuplan::probe)", ["gpuplan/probe/"]),
    ("Umbrella", ["gpuplan/gpuplan.hpp"]),
]

DECL = re.compile(
    r"^(?:template\s*<[^>]*>\s*)?"
    r"(?:(?:inline|constexpr|static|\[\[nodiscard\]\])\s+)*"
    r"(?:(?P<kind>struct|class|enum class|enum|concept|using)\s+(?P<type>\w+)"
    r"|[\w:<>,\s\*&]+?\s[&\*]?(?P<func>\w+)\s*\()")


def public_names(text):
    """Names declared at namespace scope outside namespace detail (brace depth tracked)."""
    names = []
    depth_stack = []  # one entry per open brace: True when it opens a detail namespace or a body
    in_detail = 0
    in_units_table = False  # inside #define GPUPLAN_UNITS: each row X(constant, ...) is a units:: constant
    for raw in text.split("\n"):
        line = raw.strip()
        if in_units_table:
            row = re.match(r"X\((\w+),", line)
            if row:
                names.append(("constant", row.group(1)))
            in_units_table = line.endswith("\\")
            continue
        if line.startswith("#define GPUPLAN_UNITS("):
            in_units_table = True
        if line.startswith("//") or line.startswith("#") and not line.startswith("#define GPUPLAN_"):
            continue
        m = re.match(r"#define (GPUPLAN_[A-Z_]+)", line)
        if m and "DETAIL" not in m.group(1) and m.group(1) not in ("GPUPLAN_HAS_FMT", "GPUPLAN_HAS_STD_FORMAT"):
            names.append(("macro", m.group(1)))
            continue
        # namespace scope: every open brace is a namespace
        at_namespace_scope = all(kind == "ns" for kind in depth_stack)
        if at_namespace_scope and in_detail == 0 and not raw.startswith((" ", "\t")):
            v = re.match(r"^(?:inline\s+)?constexpr\s+(?!auto\b)[\w:<>,\s]+?\s(\w+)\s*(?:\{|=|\[)", line)
            d = DECL.match(line)
            if v and "(" not in line.split(v.group(1))[0]:
                names.append(("constant", v.group(1)))
            elif d and d.group("type") and "::" in line.split(d.group("type"), 1)[1][:2]:
                pass  # a specialisation of another library's template (fmt::formatter)
            elif d:
                if d.group("type"):
                    names.append((d.group("kind"), d.group("type")))
                elif d.group("func") and d.group("func") not in ("if", "for", "while", "return"):
                    names.append(("function", d.group("func")))
        for ch in line:
            if ch == "{":
                if re.match(r"^(inline\s+)?namespace\b", line) and line.endswith("{"):
                    is_detail = re.match(r"^namespace\s+([\w:]*::)?detail\b", line) is not None
                    depth_stack.append("detail" if is_detail else "ns")
                    if is_detail:
                        in_detail += 1
                else:
                    depth_stack.append("body")
            elif ch == "}":
                if depth_stack:
                    kind = depth_stack.pop()
                    if kind == "detail":
                        in_detail -= 1
    undefined = set(re.findall(r"#undef (GPUPLAN_\w+)", text))
    names = [(k, n) for k, n in names if not (k == "macro" and n in undefined)]
    seen, out = set(), []
    for k, n in names:
        if n in seen or n.startswith("operator") or n in ("formatter",):
            continue
        seen.add(n)
        out.append((k, n))
    return out


def summary(text):
    """The header's opening comment up to its first blank comment line, as one sentence."""
    lines = text.split("\n")
    m = re.match(r"//\s*gpuplan/[\w/]+\.hpp:\s*(.*)", lines[0])
    if not m:
        return ""
    parts = [m.group(1)]
    for line in lines[1:]:
        if not line.startswith("//") or line.strip() == "//":
            break
        parts.append(line[2:].strip())
    text = " ".join(parts)
    return text[0].upper() + text[1:] if text else ""


def main():
    headers = []
    for base, _, files in os.walk(os.path.join(INCLUDE, "gpuplan")):
        for f in files:
            if f.endswith(".hpp"):
                headers.append(os.path.relpath(os.path.join(base, f), INCLUDE))
    headers.sort()
    out = ["# Reference: the public entry points, header by header", "",
           "Generated by `python3 scripts/make_reference.py > docs/reference.md` from the headers.",
           "Everything listed is meant to be called or named by users; names in `detail`",
           "namespaces are the library's own and may change. Each header compiles on its own. The",
           "layers and where new models go: [architecture.md](architecture.md).", ""]
    done = set()
    for title, prefixes in LAYERS:
        group = [h for h in headers if h not in done and any(h == p or h.startswith(p) for p in prefixes)]
        if not group:
            continue
        out += ["## " + title, ""]
        for h in group:
            done.add(h)
            text = open(os.path.join(INCLUDE, h)).read()
            names = public_names(text)
            out.append("### `<%s>`" % h)
            out.append("")
            s = summary(text)
            if s:
                out.append(s)
                out.append("")
            if names:
                by_kind = {}
                for k, n in names:
                    by_kind.setdefault(k, []).append(n)
                order = ["struct", "class", "enum class", "enum", "concept", "using", "function", "constant", "macro"]
                label = {"struct": "types", "class": "types", "enum class": "enums", "enum": "enums",
                         "concept": "concepts", "using": "aliases", "function": "functions",
                         "constant": "constants",
                         "macro": "macros"}
                merged = {}
                for k in order:
                    if k in by_kind:
                        merged.setdefault(label[k], []).extend(by_kind[k])
                for lab, ns in merged.items():
                    out.append("- %s: %s" % (lab, ", ".join("`%s`" % n for n in ns)))
                out.append("")
    text = "\n".join(out).rstrip("\n") + "\n"
    if sys.argv[1:] == ["--check"]:
        with open(os.path.join(ROOT, "docs", "reference.md")) as f:
            if f.read() != text:
                print("docs/reference.md is stale: run python3 scripts/make_reference.py > "
                      "docs/reference.md", file=sys.stderr)
                return 1
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
