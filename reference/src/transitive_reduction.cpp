//===- reference/transitive_reduction.cpp - TEST ORACLE -------------------===//
///
/// \file
/// THIS CODE IS A TEST ORACLE. It exists so the optimized reduction has
/// something obviously right to be compared with. Do not use it in production.
///
/// The event graph of SPEC §3: every node v has two events, start(v) and
/// end(v), joined by start(v) -> end(v). Explicit WAIT edges and the implicit
/// engine edges connect events. "p happens before c" questions become plain
/// reachability questions on this graph, answered with Boost.Graph.
//===----------------------------------------------------------------------===//
#include "depreduce/reference/transitive_reduction.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>

#include <algorithm>
#include <vector>

namespace depreduce::reference {
namespace {

/// What an event-graph edge stands for.
struct EventEdge {
  HopKind kind = HopKind::ExplicitCompletion;
  bool internal = false;      ///< start(v) -> end(v)
  int explicit_edge = -1;     ///< Index into Graph::edges, or -1 if implicit.
};

using EventGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS,
                                         boost::no_property, EventEdge>;
using EventVertex = boost::graph_traits<EventGraph>::vertex_descriptor;
using EventEdgeDesc = boost::graph_traits<EventGraph>::edge_descriptor;

EventVertex start_of(NodeId v) { return 2 * v; }
EventVertex end_of(NodeId v) { return 2 * v + 1; }

/// Builds the event graph of \p g: internal edges, explicit WAIT edges, and
/// the implicit engine edges of SPEC §3.2, spelled out one by one.
EventGraph build_event_graph(const Graph& g) {
  const NodeId n = static_cast<NodeId>(g.nodes.size());
  EventGraph eg(2 * n);
  for (NodeId v = 0; v < n; ++v)
    boost::add_edge(start_of(v), end_of(v), EventEdge{HopKind::ExplicitCompletion, true, -1}, eg);

  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    const Edge& e = g.edges[i];
    if (!is_wait(e)) continue; // RETAIN-only edges order nothing
    if (is_completion_edge(e))
      boost::add_edge(end_of(e.src), start_of(e.dst), EventEdge{HopKind::ExplicitCompletion, false, int(i)}, eg);
    else
      boost::add_edge(start_of(e.src), start_of(e.dst), EventEdge{HopKind::ExplicitIssue, false, int(i)}, eg);
  }

  for (Engine engine = 0; engine < g.num_engines; ++engine) {
    std::vector<NodeId> on_engine; // program order
    for (NodeId v = 0; v < n; ++v)
      if (g.nodes[v].engine == engine) on_engine.push_back(v);
    for (std::size_t i = 0; i < on_engine.size(); ++i) {
      const Node& p = g.nodes[on_engine[i]];
      // Engines issue in order.
      if (i + 1 < on_engine.size())
        boost::add_edge(start_of(on_engine[i]), start_of(on_engine[i + 1]),
                        EventEdge{HopKind::EngineIssue, false, -1}, eg);
      // A synchronous instruction completes before the next one starts.
      if (p.async_window == 0 && i + 1 < on_engine.size())
        boost::add_edge(end_of(on_engine[i]), start_of(on_engine[i + 1]),
                        EventEdge{HopKind::EngineCompletion, false, -1}, eg);
      // An asynchronous one completes before its slot is reused w later.
      if (p.async_window != 0 && p.async_window != kAsyncInfinite && i + p.async_window < on_engine.size())
        boost::add_edge(end_of(on_engine[i]), start_of(on_engine[i + p.async_window]),
                        EventEdge{HopKind::EngineCompletion, false, -1}, eg);
      // A barrier waits for everything earlier on its engine.
      for (std::size_t j = i + 1; j < on_engine.size(); ++j)
        if (g.nodes[on_engine[j]].barrier)
          boost::add_edge(end_of(on_engine[i]), start_of(on_engine[j]),
                          EventEdge{HopKind::EngineCompletion, false, -1}, eg);
    }
  }
  return eg;
}

/// Hides one explicit edge from the event graph.
struct WithoutEdge {
  const EventGraph* eg = nullptr;
  int hidden = -1;
  bool operator()(const EventEdgeDesc& e) const { return (*eg)[e].explicit_edge != hidden || hidden < 0; }
};

/// Breadth-first search from \p from in \p eg without explicit edge \p hidden.
/// Returns, for every event reached, the tree edge it was reached by.
std::vector<std::optional<EventEdgeDesc>> search(const EventGraph& eg, EventVertex from, int hidden) {
  boost::filtered_graph<EventGraph, WithoutEdge> view(eg, WithoutEdge{&eg, hidden});
  std::vector<std::optional<EventEdgeDesc>> reached_by(boost::num_vertices(eg));
  std::vector<boost::default_color_type> color(boost::num_vertices(eg));
  struct Recorder : boost::default_bfs_visitor {
    std::vector<std::optional<EventEdgeDesc>>* out;
    void tree_edge(EventEdgeDesc e, const boost::filtered_graph<EventGraph, WithoutEdge>& gr) const {
      (*out)[boost::target(e, gr)] = e;
    }
  } recorder;
  recorder.out = &reached_by;
  boost::breadth_first_search(view, from,
                              boost::visitor(recorder).color_map(boost::make_iterator_property_map(
                                  color.begin(), boost::get(boost::vertex_index, view))));
  return reached_by;
}

/// The events an explicit edge joins: (end(p) or start(p)) -> start(c).
std::pair<EventVertex, EventVertex> events_of(const Edge& e) {
  return {is_completion_edge(e) ? end_of(e.src) : start_of(e.src), start_of(e.dst)};
}

} // namespace

Reduction reduce(const Graph& g, const ReduceOptions& options, ReduceStats* stats) {
  // The shipped one-pass loop is a property of the optimized implementation's
  // traversal, not of the graph; the oracle answers the exact question only.
  (void)options.mode;
  Reduction result;
  std::size_t candidates = 0;
  if (g.nodes.empty()) return result;
  const EventGraph eg = build_event_graph(g);

  // reaches[x] = every event reachable from event x (x included).
  const std::size_t events = boost::num_vertices(eg);
  std::vector<std::vector<bool>> reaches(events);
  for (EventVertex x = 0; x < events; ++x) {
    auto reached_by = search(eg, x, -1);
    reaches[x].assign(events, false);
    reaches[x][x] = true;
    for (EventVertex y = 0; y < events; ++y)
      if (reached_by[y]) reaches[x][y] = true;
  }

  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    const Edge& e = g.edges[i];
    bool redundant = false;
    if (is_wait(e) && options.filter.admits(e.kinds)) {
      ++candidates;
      // Redundant iff another event edge leaving the source event leads to
      // an event from which the target event is reachable. (No path can come
      // back through the edge itself: the event graph is acyclic.)
      auto [from, to] = events_of(e);
      for (auto [it, last] = boost::out_edges(from, eg); it != last; ++it)
        if (eg[*it].explicit_edge != int(i) && reaches[boost::target(*it, eg)][to]) redundant = true;
    }
    if (!redundant) continue;
    bool retain = e.flags.has(Flag::Retain);
    result.removed.push_back({e.src, e.dst, e.kinds, e.flags, retain, static_cast<std::uint32_t>(i)});
  }
  if (stats) stats->candidates = candidates;
  return result;
}

std::optional<Witness> find_witness(const Graph& g, NodeId src, NodeId dst) {
  int index = -1;
  for (std::size_t i = 0; i < g.edges.size(); ++i)
    if (g.edges[i].src == src && g.edges[i].dst == dst) index = int(i);
  if (index < 0 || !is_wait(g.edges[index])) return std::nullopt;
  const EventGraph eg = build_event_graph(g);
  auto [from, to] = events_of(g.edges[index]);
  auto reached_by = search(eg, from, index);
  if (!reached_by[to]) return std::nullopt;

  // Walk the search tree back from the target and keep the inter-node hops.
  Witness w;
  for (EventVertex v = to; v != from;) {
    EventEdgeDesc e = *reached_by[v];
    EventVertex u = boost::source(e, eg);
    if (!eg[e].internal) w.hops.push_back({NodeId(u / 2), NodeId(v / 2), eg[e].kind});
    v = u;
  }
  std::reverse(w.hops.begin(), w.hops.end());
  return w;
}

HappensBefore happens_before(const Graph& g) {
  const std::size_t n = g.nodes.size();
  HappensBefore hb;
  hb.completed.assign(n, std::vector<bool>(n, false));
  hb.issued.assign(n, std::vector<bool>(n, false));
  if (n == 0) return hb;
  const EventGraph eg = build_event_graph(g);
  for (NodeId p = 0; p < n; ++p) {
    auto from_end = search(eg, end_of(NodeId(p)), -1);
    auto from_start = search(eg, start_of(NodeId(p)), -1);
    for (NodeId c = 0; c < n; ++c) {
      if (c == p) continue;
      hb.completed[p][c] = from_end[start_of(c)].has_value();
      hb.issued[p][c] = from_start[start_of(c)].has_value();
    }
  }
  return hb;
}

std::vector<bool> happens_before(const Graph& g, const std::vector<HappensBeforeQuery>& queries) {
  const HappensBefore hb = happens_before(g);
  const std::size_t n = g.nodes.size();
  std::vector<bool> answers;
  for (const HappensBeforeQuery& q : queries) {
    bool in_range = q.before < n && q.after < n;
    const auto& relation = q.relation == Relation::CompletedBefore ? hb.completed : hb.issued;
    answers.push_back(in_range && relation[q.before][q.after]);
  }
  return answers;
}

} // namespace depreduce::reference
