//===- tests/online_reduction_test.cpp - Named cases of the online reducer -===//
///
/// Hand-checked cases of depreduce::OnlineReducer (SPEC §3.2, §4 online form),
/// each run on the optimized reducer and its oracle (typed test): asynchronous
/// windows, barriers, parallel parts in either order, the lazy issue bank on
/// graphs without engines, and the live frontier under declared successor counts.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <vector>

#include "depreduce/online_reduction.hpp"
#include "depreduce/reference/online_reduction.hpp"

namespace {
using namespace depreduce;

template <class R>
class OnlineReductionTest : public ::testing::Test {};
using Reducers = ::testing::Types<OnlineReducer, reference::OnlineReducer>;
TYPED_TEST_SUITE(OnlineReductionTest, Reducers);

template <class R>
NodeId add(R& r, OnlineNodeSpec spec) {
  NodeId id = 0;
  EXPECT_TRUE(r.add_node(spec, &id).ok());
  return id;
}
template <class R>
std::vector<RemovedEdge> edges(R& r, NodeId c, std::vector<OnlineEdge> in) {
  std::vector<RemovedEdge> removed;
  const Status s = r.add_edges(c, in, removed);
  EXPECT_TRUE(s.ok()) << s.message();
  return removed;
}
template <class R>
bool implied(const R& r, NodeId p, NodeId c, KindSet kinds) {
  bool out = false;
  EXPECT_TRUE(r.implied(p, c, kinds, &out).ok());
  return out;
}

// Engine 0: x (async, window 2), y, z. x completes before z (its slot is
// reused 2 positions later) but only issues before y.
TYPED_TEST(OnlineReductionTest, AsyncWindowCompletesTwoPositionsLater) {
  TypeParam r;
  ASSERT_TRUE(r.reset({1, {}}).ok());
  const NodeId x = add(r, {0, 2});
  edges(r, x, {});
  const NodeId y = add(r, {0});
  EXPECT_FALSE(implied(r, x, y, Kind::Flow));
  EXPECT_TRUE(implied(r, x, y, Kind::Ordered));
  EXPECT_TRUE(edges(r, y, {{x, Kind::Flow}}).empty());
  const NodeId z = add(r, {0});
  EXPECT_TRUE(implied(r, x, z, Kind::Flow));
  const auto removed = edges(r, z, {{x, Kind::Flow}, {y, Kind::Ordered}});
  ASSERT_EQ(removed.size(), 2u); // x C z by the window; y S z by engine order
  EXPECT_EQ(removed[0].src, x);
  EXPECT_EQ(removed[1].src, y);
}

// A barrier waits for an infinitely asynchronous node of its engine.
TYPED_TEST(OnlineReductionTest, BarrierCompletesEverythingEarlierOnItsEngine) {
  TypeParam r;
  ASSERT_TRUE(r.reset({2, {}}).ok());
  const NodeId x = add(r, {0, kAsyncInfinite});
  edges(r, x, {});
  const NodeId other = add(r, {1});
  edges(r, other, {});
  const NodeId y = add(r, {0});
  EXPECT_FALSE(implied(r, x, y, Kind::Flow));
  edges(r, y, {});
  const NodeId b = add(r, {0, 0, true});
  EXPECT_TRUE(implied(r, x, b, Kind::Flow));
  EXPECT_FALSE(implied(r, other, b, Kind::Flow));
  const auto removed = edges(r, b, {{x, Kind::Flow}, {other, Kind::Flow}});
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0].src, x);
}

// Parallel parts: ORDERED WAIT + FLOW RETAIN is an S dependency (SPEC §2),
// implied by a C path; removed and demoted, whatever order the parts come in.
TYPED_TEST(OnlineReductionTest, ParallelPartsInEitherOrder) {
  for (bool flip : {false, true}) {
    TypeParam r;
    ASSERT_TRUE(r.reset({0, {}}).ok());
    const NodeId a = add(r, {});
    edges(r, a, {});
    const NodeId b = add(r, {});
    edges(r, b, {{a, Kind::Flow}});
    const NodeId c = add(r, {});
    std::vector<OnlineEdge> in{{a, Kind::Ordered}, {b, Kind::Flow}, {a, Kind::Flow, FlagSet::retain()}};
    if (flip) in = {{b, Kind::Flow}, {a, Kind::Flow, FlagSet::retain()}, {a, Kind::Ordered}};
    const auto removed = edges(r, c, in);
    ASSERT_EQ(removed.size(), 1u);
    EXPECT_EQ(removed[0].src, a);
    EXPECT_EQ(removed[0].kinds, KindSet(Kind::Flow) | Kind::Ordered);
    EXPECT_EQ(removed[0].flags, FlagSet::wait() | Flag::Retain);
    EXPECT_TRUE(removed[0].demoted_to_retain);
    EXPECT_EQ(removed[0].edge, flip ? 1u : 0u); // the pair's first part in the caller's list
  }
}

// Without engines, an ORDERED edge chain: a S b S c, so a S c but not a C c.
TYPED_TEST(OnlineReductionTest, IssueBankWithoutEngines) {
  TypeParam r;
  ASSERT_TRUE(r.reset({0, {}}).ok());
  const NodeId a = add(r, {});
  edges(r, a, {});
  const NodeId b = add(r, {});
  edges(r, b, {{a, Kind::Flow}});
  const NodeId c = add(r, {});
  EXPECT_FALSE(implied(r, a, c, Kind::Ordered));
  edges(r, c, {{b, Kind::Ordered}});
  const NodeId d = add(r, {});
  EXPECT_FALSE(implied(r, a, d, Kind::Ordered)); // d has no implicit edge: nothing yet
  const auto removed = edges(r, d, {{c, Kind::Flow}, {a, Kind::Ordered}, {b, Kind::Flow}});
  // a -> d (S) is implied: a C b S c C d is C (the first hop decides, SPEC §3.1).
  // b -> d (C) is not: b S c C d gives only b S d.
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0].src, a);
}

// Declared successor counts keep the live frontier small: node v depends on
// v - 1 and v - 2, so each closure is read twice and released after its
// second reader (not taken over by the first).
TEST(OnlineReduction, DeclaredSuccessorsReleaseClosures) {
  OnlineReducer r;
  std::vector<RemovedEdge> removed;
  constexpr NodeId n = 1000;
  for (NodeId v = 0; v < n; ++v) {
    const std::uint32_t successors = (v + 1 < n) + (v + 2 < n);
    NodeId id = 0;
    ASSERT_TRUE(r.add_node({kNoEngine, 0, false, successors}, &id).ok());
    std::vector<OnlineEdge> in;
    if (v >= 1) in.push_back({v - 1, {}});
    if (v >= 2) in.push_back({v - 2, {}});
    ASSERT_TRUE(r.add_edges(id, in, removed).ok());
    ASSERT_EQ(removed.size(), v >= 2 ? 1u : 0u); // v - 2 -> v is implied through v - 1
  }
  EXPECT_LE(r.peak_live_closures(), 4u);
  EXPECT_EQ(r.live_closures(), 0u);
}

} // namespace
