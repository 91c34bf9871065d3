//===- tests/attr_list_test.cpp - AttrList against std::vector -----------===//
///
/// \file
/// AttrList (depreduce/graph.hpp) is the one-pointer list of attributes in
/// every Node and Edge. It is checked in lock-step with the std::vector it
/// replaced: the same operations on both, the same contents after each, the
/// way CRoaring keeps its std::set twin.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "depreduce/graph.hpp"

namespace depreduce {
namespace {

using Vector = std::vector<std::pair<std::string, std::string>>;

Vector as_vector(const AttrList& a) { return Vector(a.begin(), a.end()); }

TEST(AttrList, IsOnePointerAndEmptyUntilSomethingIsAdded) {
  static_assert(sizeof(AttrList) == sizeof(void*));
  AttrList a;
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(a.begin(), a.end());
  a.reserve(0);
  EXPECT_TRUE(a.empty());
  a.emplace_back("k", "v");
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a.size(), 1u);
  a.erase(a.begin());
  EXPECT_TRUE(a.empty()); // a list emptied by erase is empty too
  EXPECT_EQ(a, AttrList{});
  a.emplace_back("k", "v");
  a.clear();
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.begin(), a.end());
}

TEST(AttrList, CopiesAreIndependent) {
  AttrList a{{"color", "red"}, {"label", "x"}};
  AttrList b = a;
  EXPECT_EQ(a, b);
  b[0].second = "blue";
  set_attr(b, "shape", "box");
  EXPECT_EQ(*find_attr(a, "color"), "red");
  EXPECT_EQ(find_attr(a, "shape"), nullptr);
  EXPECT_EQ(as_vector(a), (Vector{{"color", "red"}, {"label", "x"}}));
  EXPECT_EQ(as_vector(b), (Vector{{"color", "blue"}, {"label", "x"}, {"shape", "box"}}));
  a = b;
  EXPECT_EQ(a, b);
  AttrList moved = std::move(b);
  EXPECT_EQ(moved, a);
  AttrList empty;
  a = empty;
  EXPECT_TRUE(a.empty());
  a = a; // self-assignment keeps the list
  AttrList self{{"k", "v"}};
  const AttrList& alias = self;
  self = alias;
  EXPECT_EQ(as_vector(self), (Vector{{"k", "v"}}));
}

TEST(AttrList, OrdersAndComparesAsTheVectorDid) {
  const std::vector<Vector> lists = {{}, {{"a", ""}}, {{"a", "b"}}, {{"a", "b"}, {"c", "d"}}, {{"b", ""}}};
  for (const Vector& x : lists)
    for (const Vector& y : lists) {
      AttrList ax, ay;
      for (const auto& kv : x) ax.push_back(kv);
      for (const auto& kv : y) ay.push_back(kv);
      EXPECT_EQ(ax == ay, x == y);
      EXPECT_EQ(ax < ay, x < y);
      EXPECT_EQ(ax > ay, x > y);
    }
}

TEST(AttrList, RandomOperationsInLockStepWithStdVector) {
  std::mt19937 rng(15);
  for (int round = 0; round < 200; ++round) {
    AttrList a;
    Vector v;
    for (int step = 0; step < 40; ++step) {
      const std::string key = "k" + std::to_string(rng() % 6);
      const std::string value = "v" + std::to_string(rng() % 3);
      switch (rng() % 6) {
      case 0:
        a.emplace_back(key, value);
        v.emplace_back(key, value);
        break;
      case 1:
        a.push_back({key, value});
        v.push_back({key, value});
        break;
      case 2:
        if (!v.empty()) {
          const std::size_t at = rng() % v.size();
          const auto next = a.erase(a.begin() + at);
          const auto vnext = v.erase(v.begin() + static_cast<std::ptrdiff_t>(at));
          EXPECT_EQ(next - a.begin(), vnext - v.begin());
        }
        break;
      case 3: {
        const auto n = erase_if(a, [&](const auto& kv) { return kv.second == value; });
        EXPECT_EQ(n, std::erase_if(v, [&](const auto& kv) { return kv.second == value; }));
        break;
      }
      case 4: {
        set_attr(a, key, value);
        bool found = false;
        for (auto& kv : v)
          if (kv.first == key) { kv.second = value; found = true; break; }
        if (!found) v.emplace_back(key, value);
        break;
      }
      default:
        if (rng() % 8 == 0) {
          a.clear();
          v.clear();
        }
      }
      ASSERT_EQ(as_vector(a), v) << "round " << round << " step " << step;
      ASSERT_EQ(a.size(), v.size());
      ASSERT_EQ(a.empty(), v.empty());
      if (!v.empty()) {
        EXPECT_EQ(a.front(), v.front());
        EXPECT_EQ(a.back(), v.back());
      }
      const std::string* got = find_attr(a, key);
      const std::pair<std::string, std::string>* want = nullptr;
      for (const auto& kv : v)
        if (kv.first == key) { want = &kv; break; }
      ASSERT_EQ(got == nullptr, want == nullptr);
      if (got) {
        EXPECT_EQ(*got, want->second);
      }
    }
  }
}

} // namespace
} // namespace depreduce
