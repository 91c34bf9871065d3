//===- fuzz/reduce_diff_common.hpp - Compare the twins, abort on mismatch ===//
#ifndef DEPREDUCE_FUZZ_REDUCE_DIFF_COMMON_HPP
#define DEPREDUCE_FUZZ_REDUCE_DIFF_COMMON_HPP

#include <cstdio>
#include <cstdlib>

#include "depreduce/testing/implementations.hpp"

namespace depreduce::fuzz {

inline void print(const char* who, const Graph& g, const Reduction& r) {
  std::fprintf(stderr, "%s: %zu edges in, removed:", who, g.edges.size());
  for (const RemovedEdge& e : r.removed)
    std::fprintf(stderr, " %s->%s", g.nodes[e.src].name.c_str(), g.nodes[e.dst].name.c_str());
  std::fprintf(stderr, "\n");
}

/// Runs every implementation on \p g with \p o; aborts with both results
/// printed if any differs from the first, or if a removed edge has no valid
/// witness.
inline void compare_all(const Graph& g, const ReduceOptions& o) {
  const auto& impls = testing::reduction_impls();
  Reduction first = impls[0].reduce(g, o, nullptr);
  for (std::size_t i = 1; i < impls.size(); ++i) {
    Reduction other = impls[i].reduce(g, o, nullptr);
    if (other != first) {
      std::fprintf(stderr, "MISMATCH on a graph of %zu nodes, %zu edges\n", g.nodes.size(), g.edges.size());
      for (const Edge& e : g.edges)
        std::fprintf(stderr, "  %s -> %s kinds=%s flags=%s\n", g.nodes[e.src].name.c_str(),
                     g.nodes[e.dst].name.c_str(), to_string(e.kinds).c_str(), to_string(e.flags).c_str());
      print(impls[0].name.c_str(), g, first);
      print(impls[i].name.c_str(), g, other);
      std::abort();
    }
  }
  for (const RemovedEdge& r : first.removed) {
    auto w = impls[0].find_witness(g, r.src, r.dst);
    if (!w || !is_witness(g, r.src, r.dst, *w)) {
      std::fprintf(stderr, "no valid witness for %u -> %u\n", r.src, r.dst);
      std::abort();
    }
  }
}

} // namespace depreduce::fuzz

#endif
