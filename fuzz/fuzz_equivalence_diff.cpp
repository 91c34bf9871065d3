//===- fuzz/fuzz_equivalence_diff.cpp - equivalent(), optimized vs reference
///
/// bytes -> byte 0 picks a mutation and a kinds filter, the rest an engine
/// graph as read (testing::input_graph_from_bytes) -> a second graph over the
/// same nodes (testing::mutated) -> equivalent() of both twins -> compare:
/// the same verdict, and every optimized difference is one the all-pairs
/// reference finds, with a path in the graph that has it. Then the same for
/// reduce --cycles condense on the graph with up to three two-way edges added
/// among nodes without engine (cycles). Abort with both results printed on any difference.
/// Caps: input_graph_from_bytes reads at most 4096 bytes; at most 16 nodes
/// (kMaxNodes; the reference is O(n (n + m)) per graph).
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "depreduce/condense.hpp"
#include "depreduce/equivalence.hpp"
#include "depreduce/error.hpp"
#include "depreduce/paths.hpp"
#include "depreduce/reference/condense.hpp"
#include "depreduce/reference/equivalence.hpp"
#include "depreduce/testing/generators.hpp"
#include "depreduce/testing/graph_pairs.hpp"
#include "depreduce/testing/show.hpp"

namespace {

using namespace depreduce;

[[noreturn]] void fail(const char* what, const InputGraph& a, const InputGraph* b, const std::string& detail) {
  std::ostringstream os;
  os << "fuzz_equivalence_diff: " << what << "\n";
  showValue(a, os);
  if (b) showValue(*b, os);
  os << detail;
  std::fputs(os.str().c_str(), stderr);
  std::abort();
}

void check_equivalence(const InputGraph& a_in, const InputGraph& b_in, const EquivalenceOptions& o) {
  const Graph a = make_program_order(a_in), b = make_program_order(b_in);
  const Equivalence opt = equivalent(a, b, o);
  const Equivalence ref = reference::equivalent(a_in, b_in, o);
  std::ostringstream both;
  both << "optimized: ";
  showValue(opt, both);
  both << "reference: ";
  showValue(ref, both);
  if (opt.equivalent != ref.equivalent || opt.differences.empty() != ref.equivalent)
    fail("optimized and reference disagree on equivalent", a_in, &b_in, both.str());
  PathFinder in_a(a), in_b(b);
  for (const RelationDifference& d : opt.differences) {
    if (std::find(ref.differences.begin(), ref.differences.end(), d) == ref.differences.end())
      fail("optimized reports a difference the reference does not have", a_in, &b_in, both.str());
    const auto w = (d.in_first ? in_a : in_b).find(d.src, d.dst, d.relation);
    if (!w || !is_path(d.in_first ? a : b, d.src, d.dst, d.relation, *w))
      fail("no valid path for a reported difference", a_in, &b_in, both.str());
  }
}

void check_condense(InputGraph in, const std::uint8_t* data, std::size_t size, const KindFilter& filter) {
  // Up to three edges between nodes without engine (both ways: cycles), ends
  // taken from the last bytes of the input.
  std::vector<NodeId> free;
  for (NodeId v = 0; v < in.nodes.size(); ++v)
    if (in.nodes[v].engine == kNoEngine) free.push_back(v);
  for (std::size_t k = 0; free.size() >= 2 && k < 3 && 2 * k + 2 <= size; ++k) {
    Edge e;
    e.src = free[data[size - 1 - 2 * k] % free.size()];
    e.dst = free[data[size - 2 - 2 * k] % free.size()];
    if (e.src == e.dst) continue;
    if (data[size - 1 - 2 * k] & 0x80) e.kinds = Kind::Ordered;
    in.edges.push_back(e);
    std::swap(e.src, e.dst);
    in.edges.push_back(e);
  }
  ReduceOptions o;
  o.filter = filter;
  o.cycles = CycleMode::Condense;
  using Named = std::tuple<std::string, std::string, std::uint8_t, std::uint8_t, bool>;
  std::set<Named> opt, ref;
  bool opt_threw = false, ref_threw = false;
  try {
    const InputReduction r = reduce_input(in, o);
    for (const RemovedEdge& x : r.reduction.removed)
      opt.emplace(r.graph.nodes[x.src].name, r.graph.nodes[x.dst].name, x.kinds.bits(), x.flags.bits(),
                  x.demoted_to_retain);
  } catch (const InputError&) {
    opt_threw = true;
  }
  try {
    for (const RemovedEdge& x : reference::reduce_condensed(in, o))
      ref.emplace(in.nodes[x.src].name, in.nodes[x.dst].name, x.kinds.bits(), x.flags.bits(), x.demoted_to_retain);
  } catch (const InputError&) {
    ref_threw = true;
  }
  if (opt_threw != ref_threw || opt != ref) {
    std::ostringstream os;
    os << "optimized " << (opt_threw ? "threw" : std::to_string(opt.size()) + " removed") << ", reference "
       << (ref_threw ? "threw" : std::to_string(ref.size()) + " removed") << "\n";
    fail("reduce --cycles condense: optimized and reference disagree", in, nullptr, os.str());
  }
}

} // namespace

/// Graphs of up to this many nodes (n = byte 1 % 16 + 1, so an input whose
/// n was 16 or less decodes as before). Both equivalence twins, condense and
/// the all-pairs reference run on every input; 48 gave 3x fewer executions
/// per second (docs/fuzzing.md, "Throughput"). Larger graphs: the equivalence
/// and condense properties (props/). The seeds that kill the mutants of commit
/// f67df8a were regenerated under this cap (docs/fuzzing.md).
constexpr std::uint32_t kMaxNodes = 16;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t choice = data[0];
  const InputGraph a = testing::input_graph_from_bytes(data + 1, size - 1, kMaxNodes);
  static const KindFilter filters[] = {KindFilter{}, KindFilter::reorder(), KindFilter{KindSet(Kind::Ordered), true}};
  const KindFilter& filter = filters[(choice >> 3) % 3];
  const auto m = static_cast<testing::Mutation>(choice % testing::kMutations);
  check_equivalence(a, testing::mutated(a, m, choice), EquivalenceOptions{filter});
  check_condense(a, data, size, filter);
  return 0;
}
