#!/usr/bin/env python3
"""Regenerates include/gpuplan/io/assumption_fields.hpp: every field of the assumption structs,
by name, with the comment that documents it, read from the structs' own definitions.

    python3 scripts/make_assumption_fields.py           rewrites the header
    python3 scripts/make_assumption_fields.py --check   exit 1 when the header is not what it makes
                                                        (a CTest, docs.assumption_fields_current)

The structs are the single source: a field added to step_assumptions (with its `///` comment)
becomes settable by `gpuplan ... --set step.NAME=VALUE` and listed by `gpuplan assumptions` once
this script runs, and the CTest fails until it does. It reads the headers as text (no compiler).
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = os.path.join(ROOT, "include")
OUT = os.path.join(INCLUDE, "gpuplan", "io", "assumption_fields.hpp")

# Every struct whose fields are assumptions, and the header that defines it. A member whose type is
# one of these is a nested group ("step.collectives.launch").
STRUCTS = {
    "step_assumptions": "gpuplan/models/training_step.hpp",
    "serving_assumptions": "gpuplan/models/serving_plan.hpp",
    "roofline_assumptions": "gpuplan/models/kernels.hpp",
    "collective_assumptions": "gpuplan/models/collectives.hpp",
    "network_assumptions": "gpuplan/specs/network.hpp",
    "memory_assumptions": "gpuplan/models/assumptions.hpp",
    "transformers_profile": "gpuplan/models/framework_profile.hpp",
    "torchtitan_memory_profile": "gpuplan/models/framework_profile.hpp",
    "reliability_assumptions": "gpuplan/models/reliability.hpp",
    "node_power_assumptions": "gpuplan/models/energy.hpp",
    "gpu_power_assumptions": "gpuplan/models/energy.hpp",
    "embodied_assumptions": "gpuplan/models/carbon.hpp",
    "power_limit_assumptions": "gpuplan/models/power_limit.hpp",
}

MEMBER = re.compile(r"^  (?P<type>[A-Za-z_][\w:<>, ]*?)\s+(?P<name>[a-z_][a-z0-9_]*)\s*"
                    r"(?:=[^;]*|\{[^;]*\})?;\s*(?:///<\s*(?P<after>.*))?$")
SKIP = ("constexpr", "static", "[[", "using", "friend", "template", "return", "//")


def struct_body(name):
    path = os.path.join(INCLUDE, STRUCTS[name])
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        if line.startswith("struct " + name + " {"):
            body = []
            for other in lines[i + 1:]:
                if other.startswith("};"):
                    return body
                body.append(other)
    sys.exit(f"make_assumption_fields.py: struct {name} not found in {STRUCTS[name]}")


def members(name):
    """(type, field, comment) for each data member of struct `name`, in declaration order."""
    out = []
    block = []
    consumed = False  # the block was given to a member: the next `///` starts a new one
    lines = struct_body(name)
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        i += 1
        if not stripped:
            block, consumed = [], False
            continue
        if stripped.startswith("///"):
            if consumed:
                block, consumed = [], False
            block.append(stripped[3:].strip())
            continue
        if not line.startswith("  ") or line.startswith("   "):
            continue  # a function's body or a continuation
        if stripped.startswith(SKIP) or "(" in stripped.split("=")[0]:
            block = [] if stripped.startswith("//") else block
            # skip a member function's whole body
            if "{" in stripped and not stripped.endswith("}") and not stripped.endswith(";"):
                depth = stripped.count("{") - stripped.count("}")
                while i < len(lines) and depth > 0:
                    depth += lines[i].count("{") - lines[i].count("}")
                    i += 1
            continue
        # a declaration whose initialiser goes on over the next lines
        while not stripped.endswith(";") and "///<" not in stripped and i < len(lines):
            stripped += " " + lines[i].strip()
            i += 1
        m = MEMBER.match("  " + stripped)
        if not m:
            continue
        comment = " ".join(block + ([m.group("after")] if m.group("after") else []))
        out.append((m.group("type").strip(), m.group("name"), comment))
        consumed = True
    return out


def cxx_string(s):
    s = s.replace("\\", "\\\\").replace('"', '\\"')
    # split long literals so the header stays readable
    parts = []
    while len(s) > 88:
        cut = s.rfind(" ", 0, 88)
        if cut <= 0:
            cut = 88
        parts.append(s[:cut + 1])
        s = s[cut + 1:]
    parts.append(s)
    return "\n          ".join('"' + p + '"' for p in parts)


def generate():
    out = [
        "// gpuplan/io/assumption_fields.hpp: every field of the assumption structs by name, with the",
        "// comment that documents it. GENERATED by scripts/make_assumption_fields.py from the structs'",
        "// definitions: do not edit; rerun the script (the CTest docs.assumption_fields_current checks it).",
        "//",
        "// visit_fields(s, v) calls v(name, s.field, doc) for each field of s in declaration order; a",
        "// field that is itself an assumption struct is passed the same way, and the visitor recurses",
        "// (io/assumptions.hpp).",
        "#pragma once",
        "",
    ]
    headers = sorted(set(STRUCTS.values()))
    out += [f"#include <{h}>" for h in headers]
    out += ["", "namespace gpuplan {", ""]
    for name in STRUCTS:
        body = [f"constexpr void visit_fields({name}& s, V&& v) {{"]
        for _type, field, comment in members(name):
            body.append(f"  v(\"{field}\", s.{field},\n    {cxx_string(comment)});")
        body.append("}")
        if "\n".join(body).count("\n") + 1 > 100:  # scripts/check_function_length.py's limit
            out.append("// Over 100 lines, on purpose: generated, one call per field of the struct.")
        out.append("template <class V>")
        out += body
        out.append("")
    out.append("}  // namespace gpuplan")
    return "\n".join(out) + "\n"


def main():
    text = generate()
    if "--check" in sys.argv[1:]:
        with open(OUT, encoding="utf-8") as f:
            if f.read() != text:
                print("include/gpuplan/io/assumption_fields.hpp is out of date: "
                      "run python3 scripts/make_assumption_fields.py", file=sys.stderr)
                return 1
        return 0
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
