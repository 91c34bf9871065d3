//===- race_check.cpp - Every conflicting pair completed-before ------------===//
#include "depreduce/race_check.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_set>

#include "builder_internal.hpp"
#include "depreduce/dependence_builder.hpp"
#include "depreduce/label_verification.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce {

std::vector<Race> find_races(const Graph& g) {
  const std::vector<Dependence> deps = computed_kinds(g);
  std::vector<HappensBeforeQuery> queries;
  queries.reserve(deps.size());
  for (const Dependence& d : deps) queries.push_back({d.src, d.dst, Relation::CompletedBefore});
  const std::vector<bool> ordered = happens_before(g, queries);

  std::unordered_set<std::uint64_t> racing;
  for (std::size_t i = 0; i < deps.size(); ++i)
    if (!ordered[i]) racing.insert((std::uint64_t{deps[i].src} << 32) | deps[i].dst);
  std::vector<Race> out;
  if (racing.empty()) return out;

  // Second pass: the bytes, for the racing pairs only.
  const std::vector<Dependence> with_bytes = detail::computed_kinds_with_bytes_of(
      g, [&](NodeId p, NodeId c) { return racing.count((std::uint64_t{p} << 32) | c) != 0; });
  for (const Dependence& d : with_bytes)
    if (racing.count((std::uint64_t{d.src} << 32) | d.dst)) out.push_back({d.src, d.dst, d.kinds, d.bytes});
  return out; // with_bytes is sorted by (src, dst)
}

std::string format_race(const Graph& g, const Race& r) {
  return "Race on: " + node_name(g, r.src) + " -> " + node_name(g, r.dst) +
         " computed: " + kinds_or_none(r.kinds) + " bytes: " + to_string(r.bytes);
}

} // namespace depreduce
