//===- online_reduction.cpp - Oracle of the online reduction ------------===//
///
/// \file
/// TEST ORACLE. Plain breadth-first reachability on the event graph of the
/// graph so far (depreduce/reference/online_reduction.hpp).
//===----------------------------------------------------------------------===//
#include "depreduce/reference/online_reduction.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>

#include <map>
#include <string>

namespace depreduce::reference {
namespace {
using EventGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
std::size_t start_of(NodeId v) { return 2 * std::size_t{v}; }
std::size_t end_of(NodeId v) { return 2 * std::size_t{v} + 1; }

/// SPEC §3.1: a WAIT part orders; it demands C if unlabelled or if it has a
/// kind other than ORDERED, else S.
bool part_waits(const OnlineEdge& e) { return e.flags.has(Flag::Wait); }
bool part_demands_completion(const OnlineEdge& e) {
  return e.kinds.empty() || e.kinds.has(Kind::Flow) || e.kinds.has(Kind::Anti) || e.kinds.has(Kind::Output);
}
/// The kinds filter (SPEC §4) on one WAIT part: labelled parts are admitted
/// if all their kinds are in the filter, unlabelled ones if the filter says so.
bool part_admitted(const KindFilter& f, const OnlineEdge& e) {
  if (e.kinds.empty()) return f.unlabelled;
  for (Kind k : {Kind::Flow, Kind::Anti, Kind::Output, Kind::Ordered})
    if (e.kinds.has(k) && !f.kinds.has(k)) return false;
  return true;
}
} // namespace

Status OnlineReducer::reset(const OnlineOptions& options) {
  Status status;
  if (options.num_engines > kMaxEngines)
    status = Status(ErrorCode::EngineOutOfRange, options.num_engines, "too many engines");
  else
    options_ = options;
  nodes_.clear();
  open_ = false;
  return status;
}

Status OnlineReducer::add_node(const OnlineNodeSpec& spec, NodeId* id) {
  if (spec.engine != kNoEngine && spec.engine >= options_.num_engines)
    return Status(ErrorCode::EngineOutOfRange, nodes_.size(), "engine out of range");
  if (open_) {
    Added& prev = nodes_.back();
    prev.finished = true;
    if (prev.spec.successors == 0) prev.retired = true;
  }
  nodes_.push_back({spec, {}, 0, false, false});
  open_ = true;
  if (id) *id = static_cast<NodeId>(nodes_.size() - 1);
  return Status::success();
}

bool OnlineReducer::reaches(NodeId p, NodeId c, bool issue, NodeId skip_src) const {
  EventGraph g(2 * (std::size_t{c} + 1));
  std::map<Engine, std::vector<NodeId>> engine_nodes;
  for (NodeId v = 0; v <= c; ++v) {
    boost::add_edge(start_of(v), end_of(v), g);
    const Added& node = nodes_[v];
    // Implicit engine order (SPEC §3.2), into v from the earlier nodes of its engine.
    if (node.spec.engine != kNoEngine) {
      const std::vector<NodeId>& before = engine_nodes[node.spec.engine];
      const std::size_t i = before.size();
      if (i > 0) {
        const NodeId q = before.back();
        boost::add_edge(start_of(q), start_of(v), g); // issued in order
        if (nodes_[q].spec.async_window == 0) boost::add_edge(end_of(q), start_of(v), g);
      }
      for (std::size_t j = 0; j < i; ++j) {
        const std::uint32_t w = nodes_[before[j]].spec.async_window;
        if (w != 0 && w != kAsyncInfinite && j + w == i) boost::add_edge(end_of(before[j]), start_of(v), g);
        if (node.spec.barrier) boost::add_edge(end_of(before[j]), start_of(v), g);
      }
      engine_nodes[node.spec.engine].push_back(v);
    }
    // Explicit WAIT parts.
    for (const OnlineEdge& e : node.parts) {
      if (!part_waits(e) || e.src == v) continue;
      if (v == c && e.src == skip_src && skip_src != c) continue;
      boost::add_edge(part_demands_completion(e) ? end_of(e.src) : start_of(e.src), start_of(v), g);
    }
  }
  std::vector<boost::default_color_type> color(boost::num_vertices(g));
  const auto cmap = boost::make_iterator_property_map(color.begin(), boost::get(boost::vertex_index, g));
  boost::breadth_first_search(g, issue ? start_of(p) : end_of(p), boost::color_map(cmap));
  return color[start_of(c)] != boost::white_color;
}

Status OnlineReducer::implied(NodeId p, NodeId c, Relation relation, bool* out) const {
  if (!out) return Status(ErrorCode::BadArgument, 0, "null output");
  if (c >= nodes_.size()) return Status(ErrorCode::NodeOutOfRange, c, "unknown node");
  if (p >= c) return Status(ErrorCode::NotProgramOrder, p, "not forward");
  if (nodes_[c].retired) return Status(ErrorCode::BadState, c, "retired");
  *out = reaches(p, c, relation == Relation::IssuedBefore, c);
  return Status::success();
}

Status OnlineReducer::implied(NodeId p, NodeId c, KindSet kinds, bool* out) const {
  const bool ordered_only = kinds.has(Kind::Ordered) && !kinds.has(Kind::Flow) && !kinds.has(Kind::Anti) &&
                            !kinds.has(Kind::Output);
  return implied(p, c, ordered_only ? Relation::IssuedBefore : Relation::CompletedBefore, out);
}

Status OnlineReducer::add_edges(NodeId c, std::span<const OnlineEdge> edges, std::vector<RemovedEdge>& removed) {
  if (!open_ || std::size_t{c} + 1 != nodes_.size()) return Status(ErrorCode::BadState, c, "not the open node");
  // Check every part first: nothing may change on an error.
  std::map<NodeId, std::vector<std::size_t>> by_source; // source -> its parts' positions
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (edges[i].src > c) return Status(ErrorCode::NotProgramOrder, i, "backward edge");
    if (edges[i].src != c) by_source[edges[i].src].push_back(i);
  }
  for (const auto& [src, positions] : by_source) {
    for (std::size_t i : positions)
      if (part_waits(edges[i])) {
        if (nodes_[src].retired) return Status(ErrorCode::BadState, i, "source retired");
        break;
      }
  }
  nodes_[c].parts.assign(edges.begin(), edges.end());
  removed.clear();
  for (const auto& [src, positions] : by_source) {
    bool waits = false, completion = false, admitted = true;
    KindSet kinds;
    FlagSet flags;
    for (std::size_t i : positions) {
      kinds |= edges[i].kinds;
      flags |= edges[i].flags;
      if (!part_waits(edges[i])) continue;
      waits = true;
      completion = completion || part_demands_completion(edges[i]);
      admitted = admitted && part_admitted(options_.filter, edges[i]);
    }
    if (!waits) continue;
    if (admitted && reaches(src, c, !completion, src))
      removed.push_back({src, c, kinds, flags, flags.has(Flag::Retain), static_cast<std::uint32_t>(positions.front())});
  }
  for (const auto& [src, positions] : by_source) {
    bool waits = false;
    for (std::size_t i : positions) waits = waits || part_waits(edges[i]);
    Added& s = nodes_[src];
    if (waits && ++s.consumers == s.spec.successors) s.retired = true;
  }
  nodes_[c].finished = true;
  if (nodes_[c].spec.successors == 0) nodes_[c].retired = true;
  open_ = false;
  return Status::success();
}

Status OnlineReducer::retire(NodeId v) {
  if (v >= nodes_.size()) return Status(ErrorCode::NodeOutOfRange, v, "unknown node");
  if (open_ && std::size_t{v} + 1 == nodes_.size()) return Status(ErrorCode::BadState, v, "open node");
  if (nodes_[v].retired) return Status(ErrorCode::BadState, v, "already retired");
  nodes_[v].retired = true;
  return Status::success();
}

} // namespace depreduce::reference
