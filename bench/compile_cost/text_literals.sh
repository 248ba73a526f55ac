#!/usr/bin/env bash
# What g++ spends to put catalog text into a constexpr table, two ways: a converting constructor
# that copies the literal character by character (how gpuplan's fixed_text, behind name_string
# and source_text, is built today), and aggregate initialisation of the same character array
# from the literal. 300 entries of a name (20-60 characters) and a citation (three times as
# long): 47,572 characters in all. Prints millions of instructions (valgrind callgrind, as
# bench/compile_instructions.sh counts) per variant, and a third with the constructor's loop
# removed (what is left: the table itself). Three more write the characters other ways: unrolled
# (eight stores per turn of the loop), pointer (through a moving pointer) and whole (every
# character of the array stored, the rest as zeros: 256 stores an entry, no default initialiser):
# what a store costs g++'s constant evaluator, whatever the loop around it.
#
#   bench/compile_cost/text_literals.sh [compiler]
set -euo pipefail
cxx="${1:-g++}"
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
out="$(mktemp -d)"
trap 'rm -rf "${out}"' EXIT
python3 - "${out}" <<'PY'
import random, sys
out = sys.argv[1]
random.seed(1)
texts = ["".join(random.choice("abcdefghij klmnop") for _ in range(random.randint(20, 60)))
         for _ in range(300)]
ctor = ("template <std::size_t N> constexpr ft(const char (&s)[N]) "
        "{ for (std::size_t i = 0; i + 1 < N; ++i) chars[i] = s[i]; }")
unrolled = ("template <std::size_t N> constexpr ft(const char (&s)[N]) { std::size_t i = 0; "
            "for (; i + 8 < N; i += 8) { " +
            " ".join(f"chars[i + {k}] = s[i + {k}];" for k in range(8)) +
            " } for (; i + 1 < N; ++i) chars[i] = s[i]; }")
pointer = ("template <std::size_t N> constexpr ft(const char (&s)[N]) "
           "{ char* d = chars; for (const char* p = s; *p; ++p, ++d) *d = *p; }")
whole = ("template <std::size_t N> constexpr ft(const char (&s)[N]) "
         "{ for (std::size_t i = 0; i <= C; ++i) chars[i] = i < N ? s[i] : 0; }")
variants = {
    "loop": (ctor, '"{}"'),
    "aggregate": ("", '{{"{}"}}'),
    "no_copy": ("template <std::size_t N> constexpr ft(const char (&)[N]) {}", '"{}"'),
    "unrolled": (unrolled, '"{}"'),
    "pointer": (pointer, '"{}"'),
    "whole": (whole, '"{}"'),
}
for name, (body, init) in variants.items():
    with open(f"{out}/{name}.cpp", "w") as f:
        f.write("#include <cstddef>\ntemplate <std::size_t C> struct ft {\n")
        if name == "whole":
            f.write("  char chars[C + 1];\n  constexpr ft() : chars{} {}\n  " + body + "\n")
        else:
            f.write("  char chars[C + 1]{};\n")
            if body:
                f.write("  constexpr ft() = default;\n  " + body + "\n")
        f.write("};\nstruct entry { ft<63> name; ft<191> source; int x; };\n")
        f.write("inline constexpr entry table[] = {\n")
        for i, t in enumerate(texts):
            f.write("  {" + init.format(t[:60]) + ", " + init.format(t * 3) + f", {i}}},\n")
        f.write("};\nint main() { return table[3].x; }\n")
PY
for v in loop aggregate no_copy unrolled pointer whole; do
  rm -f "${out}"/cg.*
  valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="${out}/cg.%p" \
    "${cxx}" -std=c++20 -O0 -c "${out}/${v}.cpp" -o "${out}/o.o" 2>"${out}/log" ||
    { cat "${out}/log" >&2; exit 1; }
  printf '%-10s %8.0f M instructions\n' "${v}" \
    "$(grep -h '^summary:' "${out}"/cg.* | awk '{s += $2} END {print s / 1e6}')"
done
