//===- engine_graph_exhaustive_test.cpp - Small-scope tiers for engine graphs ===//
///
/// Every engine graph with up to three nodes, and a seeded
/// sample of a million graphs with four or five, each checked as
/// "production path == oracle on the input as read"
/// (testing::raw_input_difference): make_program_order and reduce under every
/// kinds filter against reference::reduce on the InputGraph, both
/// happens-before relations for every pair, the race check and the label
/// check, and (unfiltered) that the reduced graph keeps both relations.
///
/// A node is one of 13: no engine, or engine 0/1 x async 0/1/inf x barrier
/// or not. A pair (i < j in the intended program order) is one of 7:
/// no edge, C, S, C|RETAIN, RETAIN-only, C and S in parallel, S and a
/// RETAIN-only FLOW part in parallel (kPairs below). Half of the graphs list
/// their nodes in reverse, so input order is not program order. Node k
/// reads or writes byte 0 of `sbuf` or neither, varying with the graph, so
/// the race and label checks have something to say.
///
/// DEPREDUCE_EXHAUSTIVE_SCALE (a divisor, default 1; the sanitizer job sets
/// it) thins both tiers: every SCALE-th graph of the first, 10^6 / SCALE of
/// the second. docs/testing.md gives the counts.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "depreduce/testing/generators.hpp"
#include "depreduce/testing/raw_input.hpp"

namespace depreduce {
namespace {

using testing::PartSpec;

struct NodeSpec {
  Engine engine = kNoEngine;
  std::uint32_t async = 0;
  bool barrier = false;
};

std::vector<NodeSpec> node_specs() {
  std::vector<NodeSpec> out{{}};
  for (Engine e : {0u, 1u})
    for (std::uint32_t w : {0u, 1u, kAsyncInfinite})
      for (bool b : {false, true}) out.push_back({e, w, b});
  return out; // 13
}

const KindSet kFlowAnti = KindSet(Kind::Flow) | Kind::Anti;
const FlagSet kWait = FlagSet::wait(), kRetain = FlagSet::retain(), kBoth = FlagSet::wait() | Flag::Retain;

/// The seven pair shapes of parallel parts (SPEC §2; a C part is labelled FLOW|ANTI, so that
/// a filter admitting one of the two kinds must not admit it; the parallel C
/// part is unlabelled).
const std::vector<std::vector<PartSpec>> kPairs = {
    {},                                                   // no edge
    {{kFlowAnti, kWait}},                                 // C
    {{Kind::Ordered, kWait}},                             // S
    {{Kind::Output, kBoth}},                              // C|RETAIN
    {{Kind::Flow, kRetain}},                              // RETAIN-only
    {{KindSet(), kWait}, {Kind::Ordered, kWait}},         // C and S in parallel
    {{Kind::Ordered, kWait}, {Kind::Flow, kRetain}},      // S and RETAIN-only FLOW in parallel
};

std::uint64_t scale() {
  const char* s = std::getenv("DEPREDUCE_EXHAUSTIVE_SCALE");
  const long v = s ? std::atol(s) : 1;
  return v > 1 ? static_cast<std::uint64_t>(v) : 1;
}

/// The graph: nodes[k] in intended program order k, pair options per (i < j)
/// (row-major), listed reversed if asked; accesses from \p salt.
InputGraph make_graph(const std::vector<NodeSpec>& nodes, const std::vector<std::size_t>& pair_options,
                      const std::vector<std::uint32_t>& listed_at, std::uint64_t salt) {
  const std::uint32_t n = static_cast<std::uint32_t>(nodes.size());
  InputGraph in;
  in.file = "<exhaustive>";
  in.num_engines = 2;
  in.nodes.resize(n);
  for (NodeId k = 0; k < n; ++k) {
    Node& v = in.nodes[listed_at[k]];
    v.name = "n" + std::to_string(k);
    v.engine = nodes[k].engine;
    v.async_window = nodes[k].async;
    v.barrier = nodes[k].barrier;
    const std::uint64_t access = (salt / (k + 1) + k) % 3;
    if (access == 1) v.reads.push_back({"sbuf", 0, 1});
    if (access == 2) v.writes.push_back({"sbuf", 0, 1});
  }
  std::size_t p = 0;
  for (NodeId i = 0; i < n; ++i)
    for (NodeId j = i + 1; j < n; ++j, ++p)
      for (const PartSpec& part : kPairs[pair_options[p]]) {
        Edge e;
        e.src = listed_at[i];
        e.dst = listed_at[j];
        e.kinds = part.kinds;
        e.flags = part.flags;
        e.line = static_cast<std::uint32_t>(in.edges.size() + 1);
        in.edges.push_back(e);
      }
  return in;
}

/// Every given filter; the reduced graph's relations for the first
/// (unfiltered) one only.
std::string check(const InputGraph& in, const std::vector<KindFilter>& filters) {
  testing::RawInputChecks checks;
  checks.relations_kept_for = 1;
  return testing::raw_input_difference(in, filters, checks);
}

TEST(EngineGraphExhaustive, EveryGraphUpToThreeNodes) {
  const std::vector<NodeSpec> specs = node_specs();
  const auto& filters = testing::every_kind_filter();
  const std::uint64_t every = scale();
  std::uint64_t index = 0, checked = 0;
  for (std::uint32_t n = 1; n <= 3; ++n) {
    const std::uint32_t pairs = n * (n - 1) / 2;
    std::uint64_t node_combos = 1, pair_combos = 1;
    for (std::uint32_t k = 0; k < n; ++k) node_combos *= specs.size();
    for (std::uint32_t k = 0; k < pairs; ++k) pair_combos *= kPairs.size();
    for (std::uint64_t nc = 0; nc < node_combos; ++nc)
      for (std::uint64_t pc = 0; pc < pair_combos; ++pc, ++index) {
        if (index % every != 0) continue;
        std::vector<NodeSpec> nodes(n);
        for (std::uint64_t k = 0, x = nc; k < n; ++k, x /= specs.size()) nodes[k] = specs[x % specs.size()];
        std::vector<std::size_t> options(pairs);
        for (std::uint64_t k = 0, x = pc; k < pairs; ++k, x /= kPairs.size()) options[k] = x % kPairs.size();
        std::vector<std::uint32_t> listed_at(n);
        std::iota(listed_at.begin(), listed_at.end(), 0u);
        if (index % 2 == 1) std::reverse(listed_at.begin(), listed_at.end());
        const InputGraph in = make_graph(nodes, options, listed_at, index);
        const std::string d = check(in, filters);
        ASSERT_EQ(d, "") << "graph " << index;
        ++checked;
      }
  }
  EXPECT_EQ(index, 13u + 169u * 7u + 2197u * 343u); // 754,767 graphs
  RecordProperty("graphs", std::to_string(checked));
  std::printf("checked %llu of %llu graphs with n <= 3, %zu filters each\n",
              static_cast<unsigned long long>(checked), static_cast<unsigned long long>(index), filters.size());
}

TEST(EngineGraphExhaustive, SeededMillionWithFourOrFiveNodes) {
  const std::vector<NodeSpec> specs = node_specs();
  const auto& all = testing::every_kind_filter();
  const std::uint64_t count = 1'000'000 / scale();
  std::mt19937_64 rng(20261201);
  for (std::uint64_t index = 0; index < count; ++index) {
    const std::uint32_t n = 4 + static_cast<std::uint32_t>(rng() % 2);
    std::vector<NodeSpec> nodes(n);
    for (NodeSpec& s : nodes) s = specs[rng() % specs.size()];
    std::vector<std::size_t> options(n * (n - 1) / 2);
    for (std::size_t& o : options) o = rng() % 3 == 0 ? 0 : rng() % kPairs.size(); // a third of pairs empty
    std::vector<std::uint32_t> listed_at(n);
    std::iota(listed_at.begin(), listed_at.end(), 0u);
    std::shuffle(listed_at.begin(), listed_at.end(), rng);
    const InputGraph in = make_graph(nodes, options, listed_at, rng());
    const std::vector<KindFilter> filters{KindFilter{}, all[rng() % all.size()], all[rng() % all.size()]};
    const std::string d = check(in, filters);
    ASSERT_EQ(d, "") << "sample " << index;
  }
  std::printf("checked %llu seeded graphs with n = 4 or 5\n", static_cast<unsigned long long>(count));
}

} // namespace
} // namespace depreduce
