//===- fuzz/fuzz_reducer_diff.cpp - Reusable Reducer vs the reference -----===//
///
/// bytes -> several graphs -> one Reducer (static: it also carries scratch
/// from input to input) -> compare each result with the reference; abort with
/// both printed on any difference.
///
/// Framing: the input is a sequence of records `kind, len, len bytes`; kind %
/// 4 picks the decoder (dag_from_bytes, engine_graph_from_bytes,
/// input_graph_from_bytes, or the plain-array entry reduce_edges() on a
/// dag_from_bytes graph with its ids permuted), kind / 4 the kinds filter.
/// Each Graph goes through Reducer::reduce(Graph) and, as parts added in an
/// order taken from the bytes, Reducer::reduce(GraphBuilder).
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "depreduce/graph_builder.hpp"
#include "depreduce/reducer.hpp"
#include "depreduce/testing/generators.hpp"
#include "depreduce/testing/implementations.hpp"

namespace {
using namespace depreduce;

[[noreturn]] void mismatch(const char* what, const Graph& g, const Reduction& want, const Reduction& got) {
  std::fprintf(stderr, "MISMATCH (%s) on a graph of %zu nodes, %u engines, %zu edges\n", what, g.nodes.size(),
               g.num_engines, g.edges.size());
  for (const Node& node : g.nodes)
    std::fprintf(stderr, "  node %s engine=%d async=%u barrier=%d\n", node.name.c_str(),
                 node.engine == kNoEngine ? -1 : static_cast<int>(node.engine), node.async_window, node.barrier);
  for (const Edge& e : g.edges)
    std::fprintf(stderr, "  %u -> %u kinds=%s flags=%s\n", e.src, e.dst, to_string(e.kinds).c_str(),
                 to_string(e.flags).c_str());
  for (const auto* r : {&want, &got}) {
    std::fprintf(stderr, "%s removed:", r == &want ? "reference" : "Reducer");
    for (const RemovedEdge& e : r->removed) std::fprintf(stderr, " %u->%u#%u", e.src, e.dst, e.edge);
    std::fprintf(stderr, "\n");
  }
  std::abort();
}

KindFilter filter_of(std::uint8_t k) {
  switch (k % 4) {
  case 1: return KindFilter::reorder();
  case 2: return KindFilter::anti_dependence();
  case 3: return KindFilter{KindSet(Kind::Ordered) | Kind::Flow, true};
  default: return KindFilter{};
  }
}

Reducer& reducer() {
  static Reducer r;
  return r;
}

void check_graph(const Graph& g, const KindFilter& filter, const std::uint8_t* order, std::size_t order_len) {
  const ReduceOptions options{filter};
  const Reduction want = testing::reference_reduction().reduce(g, options, nullptr);
  Reduction got;
  if (!reducer().reduce(g, got, options).ok()) mismatch("reduce(Graph) refused", g, want, got);
  if (got != want) mismatch("reduce(Graph)", g, want, got);
  // The same graph through the builder: its pairs added in a rotated order,
  // each spelled as the parts it stands for.
  static GraphBuilder b;
  b.clear(g.num_engines);
  for (const Node& node : g.nodes) b.add_node({node.engine, node.async_window, node.barrier});
  // Every part of every pair in one list, rotated and, when the byte says
  // so, reversed: a pair's parts come in either order.
  std::vector<BuilderEdge> parts;
  for (const Edge& e : g.edges)
    for (const EdgePart& p : parts_to_write(e)) parts.push_back({e.src, e.dst, p.kinds, p.flags});
  const std::size_t m = parts.size();
  const std::size_t start = order_len ? order[0] % (m + 1) : 0;
  const bool reversed = order_len > 1 && (order[1] & 1);
  for (std::size_t k = 0; k < m; ++k) {
    const BuilderEdge& p = parts[reversed ? m - 1 - (start + k) % (m ? m : 1) : (start + k) % m];
    b.add_edge(p.src, p.dst, p.kinds, p.flags);
  }
  if (!reducer().reduce(b, got, options).ok()) mismatch("reduce(GraphBuilder) refused", g, want, got);
  if (got != want) mismatch("reduce(GraphBuilder)", g, want, got);
}

void check_edges(const Graph& g, std::uint8_t salt) {
  // reduce_edges() on g's edges with ids permuted (node v becomes perm[v]),
  // each edge listed twice when salt says so (the duplicate must go).
  const auto n = static_cast<std::uint32_t>(g.nodes.size());
  std::vector<std::uint32_t> perm(n);
  for (std::uint32_t v = 0; v < n; ++v) perm[v] = (salt & 1) ? n - 1 - v : (v * 7 + salt) % n;
  std::vector<bool> used(n, false);
  bool bijective = true;
  for (auto p : perm) bijective = bijective && !used[p], used[p] = true;
  if (!bijective)
    for (std::uint32_t v = 0; v < n; ++v) perm[v] = v;
  std::vector<std::uint32_t> src, dst;
  std::vector<std::uint8_t> expect;
  const Reduction want = testing::reference_reduction().reduce(g, {}, nullptr);
  std::vector<std::uint8_t> removed(g.edges.size(), 0);
  for (const RemovedEdge& e : want.removed) removed[e.edge] = 1;
  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    src.push_back(perm[g.edges[i].src]);
    dst.push_back(perm[g.edges[i].dst]);
    expect.push_back(!removed[i]);
    if ((salt >> 1) & 1 && i % 3 == 0) {
      src.push_back(perm[g.edges[i].src]);
      dst.push_back(perm[g.edges[i].dst]);
      expect.push_back(0);
    }
  }
  std::vector<std::uint8_t> keep(src.size());
  const Status s = reducer().reduce_edges(n, src, dst, keep);
  if (!s.ok() || keep != expect) {
    std::fprintf(stderr, "MISMATCH (reduce_edges): %s\n", s.message().c_str());
    for (std::size_t i = 0; i < src.size(); ++i)
      std::fprintf(stderr, "  %u -> %u keep=%d want=%d\n", src[i], dst[i], keep[i], expect[i]);
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Cap: the reference is O(n * (n + m)) per graph; 8 graphs of <= 64 nodes.
  if (size > 2048) return 0;
  std::size_t at = 0;
  for (int graphs = 0; graphs < 8 && at + 2 <= size; ++graphs) {
    const std::uint8_t kind = data[at];
    const std::size_t len = std::min<std::size_t>(data[at + 1], size - at - 2);
    const std::uint8_t* body = data + at + 2;
    at += 2 + len;
    const KindFilter filter = filter_of(static_cast<std::uint8_t>(kind / 4));
    switch (kind % 4) {
    case 0: check_graph(testing::dag_from_bytes(body, len), filter, body, len); break;
    case 1: check_graph(testing::engine_graph_from_bytes(body, len), filter, body, len); break;
    case 2: check_graph(make_program_order(testing::input_graph_from_bytes(body, len)), filter, body, len); break;
    default: check_edges(testing::dag_from_bytes(body, len), static_cast<std::uint8_t>(kind / 4)); break;
    }
  }
  return 0;
}
