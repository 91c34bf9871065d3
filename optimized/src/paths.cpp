//===- paths.cpp - Paths in the event graph (witnesses, relation paths) ---===//
///
/// \file
/// Event ids: start(v) = 2v, end(v) = 2v + 1 (SPEC §3.1). A backward
/// breadth-first search from start(dst) over explicit WAIT edges (those the
/// finder may use) and the implicit engine edges of SPEC §3.2, restricted to
/// the nodes in [src, dst] (edges go forward in program order).
//===----------------------------------------------------------------------===//
#include "depreduce/paths.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>
#include <string>

namespace depreduce {
namespace {

constexpr NodeId kNone = std::numeric_limits<NodeId>::max();
constexpr std::uint32_t start_event(NodeId v) { return 2 * v; }
constexpr std::uint32_t end_event(NodeId v) { return 2 * v + 1; }

const Edge* find_edge(const Graph& g, NodeId src, NodeId dst) {
  auto it = std::lower_bound(g.edges.begin(), g.edges.end(), std::make_pair(src, dst),
                             [](const Edge& e, const std::pair<NodeId, NodeId>& k) {
                               return std::make_pair(e.src, e.dst) < k;
                             });
  if (it == g.edges.end() || it->src != src || it->dst != dst) return nullptr;
  return &*it;
}

} // namespace

PathFinder::PathFinder(const Graph& g) : g_(&g) { build(nullptr); }

PathFinder::PathFinder(const Graph& g, const Reduction& kept_only) : g_(&g) {
  std::vector<std::uint8_t> removed(g.edges.size(), 0);
  for (const RemovedEdge& r : kept_only.removed) {
    if (r.edge >= g.edges.size() || g.edges[r.edge].src != r.src || g.edges[r.edge].dst != r.dst)
      throw std::invalid_argument("PathFinder: the reduction names an edge the graph does not have (index " +
                                  std::to_string(r.edge) + ")");
    removed[r.edge] = 1;
  }
  build(&removed);
}

void PathFinder::build(const std::vector<std::uint8_t>* removed) {
  const Graph& g = *g_;
  const std::size_t n = g.nodes.size();
  in_begin_.assign(n + 1, 0);
  auto usable = [&](std::size_t i) { return is_wait(g.edges[i]) && !(removed && (*removed)[i]); };
  for (std::size_t i = 0; i < g.edges.size(); ++i)
    if (usable(i)) ++in_begin_[g.edges[i].dst + 1];
  for (std::size_t v = 0; v < n; ++v) in_begin_[v + 1] += in_begin_[v];
  forward_only_ = true;
  for (std::size_t i = 0; i < g.edges.size(); ++i)
    if (usable(i) && g.edges[i].src > g.edges[i].dst) forward_only_ = false;
  in_edge_.assign(in_begin_[n], 0);
  std::vector<std::uint32_t> fill(in_begin_.begin(), in_begin_.end() - 1);
  for (std::size_t i = 0; i < g.edges.size(); ++i)
    if (usable(i)) in_edge_[fill[g.edges[i].dst]++] = static_cast<std::uint32_t>(i);

  engine_prev_.assign(n, kNone);
  engine_nodes_.assign(g.num_engines, {});
  for (NodeId v = 0; v < n; ++v) {
    const Engine e = g.nodes[v].engine;
    if (e == kNoEngine || e >= g.num_engines) continue;
    if (!engine_nodes_[e].empty()) engine_prev_[v] = engine_nodes_[e].back();
    engine_nodes_[e].push_back(v);
  }
  // Asynchronous p with window w completes before the node w later on its engine.
  std::vector<std::pair<NodeId, NodeId>> async; // (into, from)
  for (const auto& nodes : engine_nodes_)
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const std::uint32_t w = g.nodes[nodes[i]].async_window;
      if (w != 0 && w != kAsyncInfinite && i + w < nodes.size()) async.emplace_back(nodes[i + w], nodes[i]);
    }
  std::sort(async.begin(), async.end());
  async_begin_.assign(n + 1, 0);
  async_into_.clear();
  for (auto [into, from] : async) {
    ++async_begin_[into + 1];
    async_into_.push_back(from);
  }
  for (std::size_t v = 0; v < n; ++v) async_begin_[v + 1] += async_begin_[v];
  step_.assign(2 * n, Step{});
  stamp_ = 0;
}

std::optional<Witness> PathFinder::find(NodeId src, NodeId dst, Relation relation, bool without_edge) {
  const Graph& g = *g_;
  if (src == dst || src >= g.nodes.size() || dst >= g.nodes.size() || (forward_only_ && src > dst))
    return std::nullopt;
  const NodeId low = forward_only_ ? src : 0; // no path leaves [src, dst] when edges go forward
  if (++stamp_ == 0) { // wrapped: clear the stamps once every 2^32 searches
    for (Step& s : step_) s.stamp = 0;
    stamp_ = 1;
  }
  const std::uint32_t target = relation == Relation::CompletedBefore ? end_event(src) : start_event(src);
  std::deque<std::uint32_t> queue{start_event(dst)};
  step_[start_event(dst)].stamp = stamp_;
  auto visit = [&](std::uint32_t from_ev, std::uint32_t to_ev, HopKind kind) {
    if (from_ev < 2 * low) return; // outside [src, dst]: no path back to src
    Step& s = step_[from_ev];
    if (s.stamp == stamp_) return;
    s = {to_ev, kind, stamp_};
    queue.push_back(from_ev);
  };
  while (!queue.empty()) {
    const std::uint32_t ev = queue.front();
    queue.pop_front();
    if (ev == target) break;
    const NodeId v = ev / 2;
    if (ev % 2 == 1) { visit(start_event(v), ev, HopKind::ExplicitCompletion); continue; } // start -> end
    for (std::uint32_t k = in_begin_[v]; k < in_begin_[v + 1]; ++k) {
      const Edge& e = g.edges[in_edge_[k]];
      if (without_edge && e.src == src && e.dst == dst) continue;
      if (is_completion_edge(e)) visit(end_event(e.src), ev, HopKind::ExplicitCompletion);
      else visit(start_event(e.src), ev, HopKind::ExplicitIssue);
    }
    if (const NodeId prev = engine_prev_[v]; prev != kNone) {
      if (g.nodes[prev].async_window == 0) visit(end_event(prev), ev, HopKind::EngineCompletion);
      visit(start_event(prev), ev, HopKind::EngineIssue);
    }
    for (std::uint32_t i = async_begin_[v]; i < async_begin_[v + 1]; ++i)
      visit(end_event(async_into_[i]), ev, HopKind::EngineCompletion);
    if (g.nodes[v].barrier && g.nodes[v].engine < engine_nodes_.size()) {
      // Everything earlier on the engine completes before a barrier; only
      // those not before src can lie on a path from src.
      const auto& on = engine_nodes_[g.nodes[v].engine];
      auto first = std::lower_bound(on.begin(), on.end(), low);
      for (auto it = first; it != on.end() && *it < v; ++it) visit(end_event(*it), ev, HopKind::EngineCompletion);
    }
  }
  if (step_[target].stamp != stamp_) return std::nullopt;
  Witness w;
  for (std::uint32_t ev = target; ev != start_event(dst);) {
    const Step& s = step_[ev];
    if (s.next_event / 2 != ev / 2) w.hops.push_back({ev / 2, s.next_event / 2, s.kind});
    ev = s.next_event;
  }
  return w;
}

std::optional<Witness> PathFinder::witness(NodeId src, NodeId dst) {
  const Edge* e = find_edge(*g_, src, dst);
  if (!e || !is_wait(*e)) return std::nullopt;
  return find(src, dst, is_completion_edge(*e) ? Relation::CompletedBefore : Relation::IssuedBefore, true);
}

std::optional<Witness> find_kept_witness(const Graph& g, NodeId src, NodeId dst) {
  const Reduction r = reduce(g);
  const bool removed = std::any_of(r.removed.begin(), r.removed.end(),
                                   [&](const RemovedEdge& x) { return x.src == src && x.dst == dst; });
  if (!removed) return std::nullopt;
  PathFinder kept(g, r);
  return kept.witness(src, dst);
}

bool is_path(const Graph& g, NodeId src, NodeId dst, Relation relation, const Witness& w) {
  if (w.hops.empty() || w.hops.front().from != src || w.hops.back().to != dst) return false;
  if (relation == Relation::CompletedBefore && !is_completion_hop(w.hops.front().kind)) return false;
  const std::size_t n = g.nodes.size();
  for (std::size_t i = 0; i < w.hops.size(); ++i) {
    const Hop& h = w.hops[i];
    if (h.from >= n || h.to >= n) return false;
    if (i + 1 < w.hops.size() && h.to != w.hops[i + 1].from) return false;
    const Node& a = g.nodes[h.from];
    const Node& b = g.nodes[h.to];
    const bool same_engine = a.engine != kNoEngine && a.engine == b.engine;
    switch (h.kind) {
    case HopKind::ExplicitCompletion:
    case HopKind::ExplicitIssue: {
      const Edge* e = find_edge(g, h.from, h.to);
      if (!e || !is_wait(*e)) return false;
      if (h.kind == HopKind::ExplicitCompletion && !is_completion_edge(*e)) return false; // S hops may use C edges
      break;
    }
    case HopKind::EngineIssue:
      if (!same_engine || b.engine_position != a.engine_position + 1) return false;
      break;
    case HopKind::EngineCompletion: {
      if (!same_engine || b.engine_position <= a.engine_position) return false;
      const std::uint64_t gap = b.engine_position - a.engine_position;
      const bool ok = (a.async_window == 0 && gap == 1) || b.barrier ||
                      (a.async_window != 0 && a.async_window != kAsyncInfinite && gap == a.async_window);
      if (!ok) return false;
      break;
    }
    }
  }
  return true;
}

} // namespace depreduce
