// A model whose KV heads do not divide its heads, validated in a constant expression: the build
// stops and the diagnostic carries the message naming the field (g++ and clang++ both print the
// call to gpuplan::detail::fail with its argument).
// expect: transformer_spec\.kv_heads must divide heads
#include <gpuplan/catalog.hpp>

constexpr gpuplan::transformer_spec my_model = [] {
  gpuplan::transformer_spec m = gpuplan::catalog::llama31_8b;
  m.name = "my-model";
  m.aliases = {};
#if defined(GPUPLAN_COMPILE_FAIL)
  m.kv_heads = 5;  // 32 heads in groups of 5: not a valid GQA layout
#else
  m.kv_heads = 4;
#endif
  m.validate();
  return m;
}();

int main() { return my_model.kv_heads > 0 ? 0 : 1; }
