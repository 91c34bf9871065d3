//===- raw_input.cpp - The production path against the oracle on raw input ===//
#include "depreduce/testing/raw_input.hpp"

#include <algorithm>
#include <sstream>

#include "depreduce/error.hpp"
#include "depreduce/label_verification.hpp"
#include "depreduce/race_check.hpp"
#include "depreduce/reference/label_verification.hpp"
#include "depreduce/reference/race_check.hpp"
#include "depreduce/reference/transitive_reduction.hpp"
#include "depreduce/testing/generators.hpp"
#include "depreduce/testing/implementations.hpp"

namespace depreduce::testing {

const std::vector<KindFilter>& every_kind_filter() {
  static const std::vector<KindFilter> all = [] {
    std::vector<KindFilter> out{KindFilter{}};
    for (unsigned unlabelled = 0; unlabelled < 2; ++unlabelled)
      for (std::uint8_t bits = 0; bits < 16; ++bits) {
        KindFilter f{KindSet::from_bits(bits), unlabelled == 1};
        if (f != KindFilter{}) out.push_back(f);
      }
    return out;
  }();
  return all;
}

std::string describe(const KindFilter& filter) {
  return "kinds=" + (filter.kinds.empty() ? std::string("none") : to_string(filter.kinds)) +
         " unlabelled=" + (filter.unlabelled ? "yes" : "no");
}

namespace {

std::string names(const Graph& g, const Reduction& r) {
  std::string out;
  for (const RemovedEdge& e : r.removed) {
    out += ' ' + g.nodes[e.src].name + "->" + g.nodes[e.dst].name + "(" + to_string(e.kinds) + "/" +
           to_string(e.flags) + (e.demoted_to_retain ? ",demoted" : "") + ")";
  }
  return out.empty() ? " nothing" : out;
}

std::string shown(const InputGraph& input) {
  std::ostringstream os;
  showValue(input, os);
  return os.str();
}

} // namespace

std::string raw_input_difference(const InputGraph& input, const std::vector<KindFilter>& filters,
                                 const RawInputChecks& checks) {
  // Both reject, or neither.
  Graph g;
  bool production_rejects = false, oracle_rejects = false;
  std::string production_error;
  try {
    g = make_program_order(input);
  } catch (const InputError& e) {
    production_rejects = true;
    production_error = e.what();
  }
  std::vector<NodeId> order;
  std::string oracle_error;
  try {
    order = reference::program_order(input);
  } catch (const InputError& e) {
    oracle_rejects = true;
    oracle_error = e.what();
  }
  if (production_rejects != oracle_rejects)
    return std::string("make_program_order ") + (production_rejects ? "rejects (" + production_error + ")" : "accepts") +
           " but the oracle " + (oracle_rejects ? "rejects (" + oracle_error + ")" : "accepts") + " the input:\n" +
           shown(input);
  // Both reject: for the same first problem, on the same line.
  if (production_rejects)
    return production_error == oracle_error ? ""
                                            : "make_program_order rejects with \"" + production_error +
                                                  "\" but the oracle with \"" + oracle_error + "\":\n" + shown(input);

  for (NodeId i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].input_index != order[i])
      return "program order differs at position " + std::to_string(i) + ": make_program_order has input node " +
             std::to_string(g.nodes[i].input_index) + ", the oracle " + std::to_string(order[i]) + "\n" + shown(input);

  std::vector<ReduceOptions> options;
  for (const KindFilter& f : filters) options.push_back({f, ReductionMode::Exact});
  const std::vector<Reduction> expected = reference::reduce_each(input, options);
  for (std::size_t k = 0; k < filters.size(); ++k)
    for (const ReductionImpl& impl : reduction_impls()) {
      if (&impl == &reference_reduction()) continue;
      const Reduction got = impl.reduce(g, options[k], nullptr);
      if (got != expected[k])
        return impl.name + " reduce (" + describe(filters[k]) + ") removes" + names(g, got) +
               "; the oracle on the input as read removes" + names(g, expected[k]) + "\n" + shown(input);
    }

  const std::size_t kept_for = std::min(checks.relations_kept_for, filters.size());
  const bool need_relations = checks.happens_before || kept_for > 0;
  const reference::HappensBefore hb = need_relations ? reference::happens_before(input) : reference::HappensBefore{};
  if (checks.happens_before) {
    const NodeId n = static_cast<NodeId>(g.nodes.size());
    std::vector<HappensBeforeQuery> all;
    for (NodeId p = 0; p < n; ++p)
      for (NodeId c = 0; c < n; ++c)
        for (Relation r : {Relation::CompletedBefore, Relation::IssuedBefore}) all.push_back({p, c, r});
    const std::vector<bool> got = happens_before(g, all);
    for (std::size_t q = 0; q < all.size(); ++q) {
      const auto& relation = all[q].relation == Relation::CompletedBefore ? hb.completed : hb.issued;
      const bool want = all[q].before != all[q].after && relation[all[q].before][all[q].after];
      if (got[q] != want)
        return std::string("optimized happens_before: ") + g.nodes[all[q].before].name +
               (all[q].relation == Relation::CompletedBefore ? " C " : " S ") + g.nodes[all[q].after].name +
               " is " + (got[q] ? "true" : "false") + ", the oracle says " + (want ? "true" : "false") + "\n" +
               shown(input);
    }
  }
  for (std::size_t k = 0; k < kept_for; ++k) {
    const Graph reduced = apply(g, expected[k]);
    if (reference::happens_before(reference::as_input(reduced)) != hb)
      return "the reduced graph (" + describe(filters[k]) + ") does not have the input's relations\n" + shown(input);
  }
  if (checks.races && find_races(g) != reference::find_races(input))
    return "optimized find_races differs from the oracle's on the input as read\n" + shown(input);
  if (checks.labels && verify_labels(g) != reference::verify_labels(input))
    return "optimized verify_labels differs from the oracle's on the input as read\n" + shown(input);
  return "";
}

} // namespace depreduce::testing
