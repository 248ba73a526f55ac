#!/usr/bin/env python3
"""Functions a reader can hold: no function in include/gpuplan or tools/gpuplan runs over
LIMIT lines (100) unless a comment just above it gives the reason, beginning "Over 100 lines".

    scripts/check_function_length.py [ROOT]     lists every longer function; exit 1 if one has
                                                no reason written beside it

A function is found as text, not parsed: a line indented by at most two spaces (namespace scope or
a class member) that holds a parenthesis and opens a body before any ';'. Its length is from that
line to the brace that closes the body (string and character literals and comments stripped before
counting braces). The reason is looked for in the five lines above the function's first line (its
template line, when it has one).
"""
import pathlib
import re
import sys

LIMIT = 100
REASON = "Over 100 lines"
NOT_FUNCTIONS = ("if", "for", "while", "switch", "return", "case", "else", "do", "struct",
                 "class", "enum", "namespace", "using", "typedef", "#", "//", "/*", "*", "}",
                 "static_assert", "public", "private", "protected", "union")


def code_of(line: str) -> str:
    """The line without string/character literals and // comments."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(?:\\.|[^'\\])*'", "''", line)
    return line.split("//", 1)[0]


def functions(lines):
    """(first line index, last line index, name) of every function body found."""
    i = 0
    while i < len(lines):
        raw = lines[i]
        indent = len(raw) - len(raw.lstrip(" "))
        text = code_of(raw).strip()
        if (indent > 2 or "(" not in text or text.startswith(NOT_FUNCTIONS)
                or re.match(r"^[\w:<>, ]*=", text) or "#define" in text):
            i += 1
            continue
        # The declarator runs to the first '{' (a body) or ';' (a declaration).
        k, opened = i, False
        while k < len(lines) and k < i + 20:
            c = code_of(lines[k])
            brace, semi = c.find("{"), c.find(";")
            if brace >= 0 and (semi < 0 or brace < semi):
                opened = True
                break
            if semi >= 0:
                break
            k += 1
        if not opened:
            i += 1
            continue
        head = " ".join(code_of(x).strip() for x in lines[i:k + 1])
        head = head[:head.find("{")]
        if "=" in head.split("(", 1)[0]:  # a variable initialised by a call
            i = k + 1
            continue
        depth, m = 0, k
        while m < len(lines):
            c = code_of(lines[m])
            depth += c.count("{") - c.count("}")
            if depth <= 0:
                break
            m += 1
        name = re.findall(r"([\w:~]+|operator\s*\S+)\s*\(", head)
        yield i, m, name[0] if name else head.strip()[:60]
        i = m + 1


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    files = sorted(list((root / "include/gpuplan").rglob("*.hpp")) +
                   list((root / "tools/gpuplan").rglob("*.cpp")) +
                   list((root / "tools/gpuplan").rglob("*.hpp")))
    unexplained = 0
    for f in files:
        lines = f.read_text(encoding="utf-8").split("\n")
        for first, last, name in functions(lines):
            n = last - first + 1
            if n <= LIMIT:
                continue
            start = first
            while start > 0 and lines[start - 1].lstrip().startswith("template"):
                start -= 1
            above = "\n".join(lines[max(0, start - 5):start])
            ok = REASON in above
            unexplained += not ok
            print(f"{'reason given' if ok else 'NO REASON'}: {f.relative_to(root)}:{first + 1} "
                  f"{name} ({n} lines)")
    if unexplained:
        print(f"{unexplained} function(s) over {LIMIT} lines without a comment beginning "
              f"'{REASON}' above them: split them along their seams, or say why not")
        return 1
    print(f"every function over {LIMIT} lines says why ({len(files)} files read)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
