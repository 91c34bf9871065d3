//===- reference/transitive_reduction.cpp - TEST ORACLE -------------------===//
///
/// \file
/// THIS CODE IS A TEST ORACLE. It exists so the optimized reduction has
/// something obviously right to be compared with. Do not use it in production.
///
/// The event graph of SPEC §3: every node v has two events, start(v) and
/// end(v), joined by start(v) -> end(v). Every WAIT part of an explicit edge
/// and the implicit engine edges connect events. "p happens before c"
/// questions become plain reachability questions on this graph, answered with
/// Boost.Graph. Everything is read from the InputGraph as written; no rule of
/// the optimized side is called.
//===----------------------------------------------------------------------===//
#include "depreduce/reference/transitive_reduction.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <set>
#include <string>
#include <vector>

#include "depreduce/error.hpp"

namespace depreduce::reference {
namespace {

// ---------------------------------------------------------------------------
// The input as the oracle reads it.

/// One edge as written, with its ends as program-order positions.
struct Part {
  NodeId src = 0;
  NodeId dst = 0;
  KindSet kinds;
  FlagSet flags;
};

/// All the parts between one pair of nodes.
struct Pair {
  NodeId src = 0;
  NodeId dst = 0;
  std::vector<Part> parts;
};

bool has_wait(const Part& part) { return part.flags.has(Flag::Wait); }

/// SPEC §3.1: a WAIT part that is unlabelled or has any kind but ORDERED
/// orders completion (C); a WAIT part whose only kind is ORDERED orders issue (S).
bool part_demands_completion(const Part& part) {
  if (part.kinds.empty()) return true;
  return part.kinds.has(Kind::Flow) || part.kinds.has(Kind::Anti) || part.kinds.has(Kind::Output);
}

/// SPEC §2: the pair demands C if one of its WAIT parts does, else S.
bool pair_demands_completion(const Pair& pair) {
  for (const Part& part : pair.parts)
    if (has_wait(part) && part_demands_completion(part)) return true;
  return false;
}

bool pair_has_wait(const Pair& pair) {
  for (const Part& part : pair.parts)
    if (has_wait(part)) return true;
  return false;
}

/// The input in program order: nodes by position, pairs sorted by (src, dst).
struct ReadInput {
  std::vector<Node> nodes; ///< nodes[position] (copies: a ReadInput outlives its InputGraph)
  std::uint32_t num_engines = 0;
  std::vector<Pair> pairs;
};

ReadInput read_input(const InputGraph& input) {
  const std::vector<NodeId> order = program_order(input);
  std::vector<NodeId> position(order.size());
  for (NodeId p = 0; p < order.size(); ++p) position[order[p]] = p;

  ReadInput in;
  in.num_engines = input.num_engines;
  for (NodeId i : order) in.nodes.push_back(input.nodes[i]);
  std::map<std::pair<NodeId, NodeId>, std::vector<Part>> by_pair; // sorted by (src, dst)
  for (const Edge& e : input.edges) {
    if (e.src == e.dst) continue; // self-loops: kept in the output, never a path (SPEC §9)
    Part part{position[e.src], position[e.dst], e.kinds, e.flags};
    by_pair[{part.src, part.dst}].push_back(part);
  }
  for (auto& [ends, parts] : by_pair) in.pairs.push_back({ends.first, ends.second, std::move(parts)});
  return in;
}

// ---------------------------------------------------------------------------
// The event graph.

/// What an event-graph edge stands for.
struct EventEdge {
  HopKind kind = HopKind::ExplicitCompletion;
  bool internal = false;      ///< start(v) -> end(v)
  int pair = -1;              ///< Index into ReadInput::pairs, or -1 if implicit.
};

using EventGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS,
                                         boost::no_property, EventEdge>;
using EventVertex = boost::graph_traits<EventGraph>::vertex_descriptor;
using EventEdgeDesc = boost::graph_traits<EventGraph>::edge_descriptor;

EventVertex start_of(NodeId v) { return 2 * v; }
EventVertex end_of(NodeId v) { return 2 * v + 1; }

/// Builds the event graph: internal edges, one edge per WAIT part, and the
/// implicit engine edges of SPEC §3.2, spelled out one by one.
EventGraph build_event_graph(const ReadInput& in) {
  const NodeId n = static_cast<NodeId>(in.nodes.size());
  EventGraph eg(2 * n);
  for (NodeId v = 0; v < n; ++v)
    boost::add_edge(start_of(v), end_of(v), EventEdge{HopKind::ExplicitCompletion, true, -1}, eg);

  for (std::size_t i = 0; i < in.pairs.size(); ++i)
    for (const Part& part : in.pairs[i].parts) {
      if (!has_wait(part)) continue; // a part without WAIT orders nothing
      if (part_demands_completion(part))
        boost::add_edge(end_of(part.src), start_of(part.dst), EventEdge{HopKind::ExplicitCompletion, false, int(i)}, eg);
      else
        boost::add_edge(start_of(part.src), start_of(part.dst), EventEdge{HopKind::ExplicitIssue, false, int(i)}, eg);
    }

  for (Engine engine = 0; engine < in.num_engines; ++engine) {
    std::vector<NodeId> on_engine; // program order
    for (NodeId v = 0; v < n; ++v)
      if (in.nodes[v].engine == engine) on_engine.push_back(v);
    for (std::size_t i = 0; i < on_engine.size(); ++i) {
      const Node& p = in.nodes[on_engine[i]];
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
        if (in.nodes[on_engine[j]].barrier)
          boost::add_edge(end_of(on_engine[i]), start_of(on_engine[j]),
                          EventEdge{HopKind::EngineCompletion, false, -1}, eg);
    }
  }
  return eg;
}

/// Hides every part of one pair from the event graph.
struct WithoutPair {
  const EventGraph* eg = nullptr;
  int hidden = -1;
  bool operator()(const EventEdgeDesc& e) const { return hidden < 0 || (*eg)[e].pair != hidden; }
};

/// Breadth-first search from \p from in \p eg without pair \p hidden.
/// Returns, for every event reached, the tree edge it was reached by.
std::vector<std::optional<EventEdgeDesc>> search(const EventGraph& eg, EventVertex from, int hidden) {
  boost::filtered_graph<EventGraph, WithoutPair> view(eg, WithoutPair{&eg, hidden});
  std::vector<std::optional<EventEdgeDesc>> reached_by(boost::num_vertices(eg));
  std::vector<boost::default_color_type> color(boost::num_vertices(eg));
  struct Recorder : boost::default_bfs_visitor {
    std::vector<std::optional<EventEdgeDesc>>* out;
    void tree_edge(EventEdgeDesc e, const boost::filtered_graph<EventGraph, WithoutPair>& gr) const {
      (*out)[boost::target(e, gr)] = e;
    }
  } recorder;
  recorder.out = &reached_by;
  boost::breadth_first_search(view, from,
                              boost::visitor(recorder).color_map(boost::make_iterator_property_map(
                                  color.begin(), boost::get(boost::vertex_index, view))));
  return reached_by;
}

/// The events a pair's relation joins: (end(p) for C, start(p) for S) -> start(c).
std::pair<EventVertex, EventVertex> events_of(const Pair& pair) {
  return {pair_demands_completion(pair) ? end_of(pair.src) : start_of(pair.src), start_of(pair.dst)};
}

HappensBefore relations(const ReadInput& in) {
  const std::size_t n = in.nodes.size();
  HappensBefore hb;
  hb.completed.assign(n, std::vector<bool>(n, false));
  hb.issued.assign(n, std::vector<bool>(n, false));
  if (n == 0) return hb;
  const EventGraph eg = build_event_graph(in);
  for (NodeId p = 0; p < n; ++p) {
    auto from_end = search(eg, end_of(p), -1);
    auto from_start = search(eg, start_of(p), -1);
    for (NodeId c = 0; c < n; ++c) {
      if (c == p) continue;
      hb.completed[p][c] = from_end[start_of(c)].has_value();
      hb.issued[p][c] = from_start[start_of(c)].has_value();
    }
  }
  return hb;
}

} // namespace

std::vector<NodeId> program_order(const InputGraph& input) {
  const std::size_t n = input.nodes.size();
  // What makes an input bad, stated here rather than taken from
  // make_program_order, checked in the order the header gives so that the
  // first problem is the one reported: the engine count, then node by node
  // (a name seen before, then the engine), then edge by edge, then a cycle.
  if (input.num_engines > kMaxEngines)
    throw InputError(input.file, 0, "engine count " + std::to_string(input.num_engines) + " exceeds " +
                                        std::to_string(kMaxEngines));
  std::set<std::string> names;
  for (const Node& node : input.nodes) {
    if (!names.insert(node.name).second)
      throw InputError(input.file, node.line, "duplicate node name '" + node.name + "'");
    if (node.engine != kNoEngine && node.engine >= input.num_engines)
      throw InputError(input.file, node.line,
                       "node '" + node.name + "': engine " + std::to_string(node.engine) + " out of range [0, " +
                           std::to_string(input.num_engines) + ")");
  }
  std::vector<std::vector<NodeId>> preds(n);
  for (const Edge& e : input.edges) {
    if (e.src >= n || e.dst >= n)
      throw InputError(input.file, e.line,
                       "edge names an unknown node (index " + std::to_string(std::max(e.src, e.dst)) + ")");
    if (e.src != e.dst) preds[e.dst].push_back(e.src);
  }
  // Repeatedly place the first node, in input order, whose predecessors are
  // all placed.
  std::vector<bool> placed(n, false);
  std::vector<NodeId> order;
  while (order.size() < n) {
    bool found = false;
    for (NodeId v = 0; v < n && !found; ++v) {
      if (placed[v]) continue;
      bool ready = true;
      for (NodeId u : preds[v]) ready = ready && placed[u];
      if (!ready) continue;
      placed[v] = true;
      order.push_back(v);
      found = true;
    }
    if (!found) {
      // Every node left has a predecessor left: walking back from one
      // repeats a node, and the walk from there, reversed, is a cycle.
      NodeId v = 0;
      while (placed[v]) ++v;
      std::vector<std::size_t> seen_at(n, n);
      std::vector<NodeId> walk;
      while (seen_at[v] == n) {
        seen_at[v] = walk.size();
        walk.push_back(v);
        for (NodeId u : preds[v])
          if (!placed[u]) {
            v = u;
            break;
          }
      }
      std::vector<NodeId> cycle(walk.rbegin(), walk.rend() - static_cast<std::ptrdiff_t>(seen_at[v]));
      std::string text;
      for (NodeId c : cycle) text += "'" + input.nodes[c].name + "' -> ";
      text += "'" + input.nodes[cycle.front()].name + "'";
      std::uint32_t line = 0; // of the edge that closes it
      for (const Edge& e : input.edges)
        if (e.src == cycle.back() && e.dst == cycle.front() && line == 0) line = e.line;
      throw InputError(input.file, line, "cycle: " + text);
    }
  }
  return order;
}

InputGraph as_input(const Graph& g) {
  InputGraph in;
  static_cast<GraphHeader&>(in) = g;
  in.nodes = g.nodes;
  auto add = [&in](const Edge& merged, KindSet kinds, FlagSet flags) {
    Edge part;
    part.src = merged.src;
    part.dst = merged.dst;
    part.kinds = kinds;
    part.flags = flags;
    part.line = merged.line;
    in.edges.push_back(part);
  };
  for (const Edge& e : g.edges) {
    if (!e.flags.has(Flag::Wait)) {
      add(e, e.kinds, e.flags);
      continue;
    }
    // The WAIT parts carried every kind that not only the non-WAIT parts carried.
    KindSet waiting;
    for (Kind k : {Kind::Flow, Kind::Anti, Kind::Output, Kind::Ordered})
      if (e.kinds.has(k) && !e.retain_only_kinds.has(k)) waiting |= k;
    if (e.unlabelled_wait_part) add(e, KindSet(), FlagSet(Flag::Wait));
    add(e, waiting, e.retain_only_kinds.empty() ? e.flags : FlagSet(Flag::Wait));
    if (!e.retain_only_kinds.empty()) add(e, e.retain_only_kinds, e.flags.without(Flag::Wait));
  }
  for (const Edge& e : g.self_loops) add(e, e.kinds, e.flags);
  return in;
}

bool admitted(const std::vector<KindSet>& part_kinds, const KindFilter& filter) {
  for (KindSet kinds : part_kinds) {
    if (kinds.empty()) {
      if (!filter.unlabelled) return false;
      continue;
    }
    for (Kind k : {Kind::Flow, Kind::Anti, Kind::Output, Kind::Ordered})
      if (kinds.has(k) && !filter.kinds.has(k)) return false;
  }
  return true;
}

std::vector<Reduction> reduce_each(const InputGraph& input, const std::vector<ReduceOptions>& options,
                                   std::vector<std::size_t>* candidates) {
  // The shipped one-pass loop is a property of the optimized implementation's
  // traversal, not of the graph; the oracle answers the exact question only,
  // so `mode` is not read.
  std::vector<Reduction> results(options.size());
  if (candidates) candidates->assign(options.size(), 0);
  const ReadInput in = read_input(input);
  if (in.nodes.empty()) return results;
  const EventGraph eg = build_event_graph(in);

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

  for (std::size_t i = 0; i < in.pairs.size(); ++i) {
    const Pair& pair = in.pairs[i];
    if (!pair_has_wait(pair)) continue; // orders nothing, never removed
    // Redundant iff another event edge leaving the source event, not one of
    // the pair's parts, leads to an event from which the target event is
    // reachable. (No path can come back through the pair: the event graph is
    // acyclic.) Whether the pair is redundant does not depend on the filter:
    // edges the filter keeps still count as paths.
    auto [from, to] = events_of(pair);
    bool redundant = false;
    for (auto [it, last] = boost::out_edges(from, eg); it != last; ++it)
      if (eg[*it].pair != int(i) && reaches[boost::target(*it, eg)][to]) redundant = true;
    std::vector<KindSet> wait_part_kinds;
    for (const Part& part : pair.parts)
      if (has_wait(part)) wait_part_kinds.push_back(part.kinds);
    RemovedEdge removed{pair.src, pair.dst, KindSet(), FlagSet(), false, static_cast<std::uint32_t>(i)};
    for (const Part& part : pair.parts) {
      removed.kinds |= part.kinds;
      removed.flags |= part.flags;
    }
    removed.demoted_to_retain = removed.flags.has(Flag::Retain);
    for (std::size_t k = 0; k < options.size(); ++k) {
      if (!admitted(wait_part_kinds, options[k].filter)) continue;
      if (candidates) ++(*candidates)[k];
      if (redundant) results[k].removed.push_back(removed);
    }
  }
  return results;
}

Reduction reduce(const InputGraph& input, const ReduceOptions& options, ReduceStats* stats) {
  std::vector<std::size_t> candidates;
  std::vector<Reduction> result = reduce_each(input, {options}, &candidates);
  if (stats) stats->candidates = candidates.front();
  return std::move(result.front());
}

Reduction reduce(const Graph& g, const ReduceOptions& options, ReduceStats* stats) {
  return reduce(as_input(g), options, stats);
}

std::optional<Witness> find_witness(const Graph& g, NodeId src, NodeId dst) {
  const ReadInput in = read_input(as_input(g));
  int index = -1;
  for (std::size_t i = 0; i < in.pairs.size(); ++i)
    if (in.pairs[i].src == src && in.pairs[i].dst == dst) index = int(i);
  if (index < 0 || !pair_has_wait(in.pairs[index])) return std::nullopt;
  const EventGraph eg = build_event_graph(in);
  auto [from, to] = events_of(in.pairs[index]);
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

HappensBefore happens_before(const InputGraph& input) { return relations(read_input(input)); }

HappensBefore happens_before(const Graph& g) { return happens_before(as_input(g)); }

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

// ---------------------------------------------------------------------------
// The reduced graph, from the input as read.

namespace {

/// SPEC §2 / docs/formats.md: the first value of every attribute is kept,
/// except `label`, whose distinct values are joined with '|'.
void merge_part_attrs(AttrList& into, const AttrList& from) {
  for (const auto& [k, v] : from) {
    const std::string& key = k; // clang 14 cannot capture a structured binding
    auto it = std::find_if(into.begin(), into.end(), [&](const auto& kv) { return kv.first == key; });
    if (it == into.end()) {
      into.emplace_back(k, v);
      continue;
    }
    if (k != "label") continue;
    std::vector<std::string> have;
    std::string cur = it->second;
    for (std::size_t i = 0;;) {
      std::size_t j = cur.find('|', i);
      have.push_back(cur.substr(i, j == std::string::npos ? std::string::npos : j - i));
      if (j == std::string::npos) break;
      i = j + 1;
    }
    if (std::find(have.begin(), have.end(), v) == have.end()) it->second += "|" + v;
  }
}

} // namespace

Graph apply(const InputGraph& input, const Reduction& r) {
  const std::vector<NodeId> order = program_order(input);
  std::vector<NodeId> position(order.size());
  for (NodeId p = 0; p < order.size(); ++p) position[order[p]] = p;

  Graph g;
  static_cast<GraphHeader&>(g) = static_cast<const GraphHeader&>(input);
  std::function<void(Subgraph&)> renumber = [&](Subgraph& s) {
    for (NodeId& v : s.nodes) v = position.at(v);
    for (Subgraph& c : s.children) renumber(c);
  };
  for (Subgraph& s : g.subgraphs) renumber(s);
  std::vector<std::uint32_t> next_position(input.num_engines, 0);
  for (NodeId p = 0; p < order.size(); ++p) {
    Node node = input.nodes[order[p]];
    node.input_index = order[p];
    node.engine_position = node.engine == kNoEngine ? 0 : next_position.at(node.engine)++;
    g.nodes.push_back(std::move(node));
  }

  // One Edge per pair, from its parts in the order written (SPEC §2).
  struct Parts {
    KindSet wait_kinds, other_kinds;
    bool any_wait = false, unlabelled_wait = false;
  };
  std::map<std::pair<NodeId, NodeId>, std::size_t> index;
  std::vector<Edge> pairs;
  std::vector<Parts> parts;
  for (std::uint32_t i = 0; i < input.edges.size(); ++i) {
    Edge e = input.edges[i];
    e.src = position.at(e.src);
    e.dst = position.at(e.dst);
    e.input_index = i;
    e.retain_only_kinds = KindSet();
    e.unlabelled_wait_part = false;
    if (e.src == e.dst) {
      g.self_loops.push_back(std::move(e));
      continue;
    }
    auto [it, fresh] = index.emplace(std::make_pair(e.src, e.dst), pairs.size());
    if (fresh) {
      pairs.push_back(e);
      parts.emplace_back();
    } else {
      Edge& have = pairs[it->second];
      have.kinds |= e.kinds;
      have.flags |= e.flags;
      merge_part_attrs(have.attrs, e.attrs);
    }
    Parts& p = parts[it->second];
    if (e.flags.has(Flag::Wait)) {
      p.any_wait = true;
      p.wait_kinds |= e.kinds;
      p.unlabelled_wait = p.unlabelled_wait || e.kinds.empty();
    } else {
      p.other_kinds |= e.kinds;
    }
  }
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    if (!parts[k].any_wait) continue; // nothing orders: both part fields stay clear
    pairs[k].retain_only_kinds =
        KindSet::from_bits(static_cast<std::uint8_t>(parts[k].other_kinds.bits() & ~parts[k].wait_kinds.bits()));
    pairs[k].unlabelled_wait_part = parts[k].unlabelled_wait && !parts[k].wait_kinds.empty();
  }
  std::sort(pairs.begin(), pairs.end(), [](const Edge& a, const Edge& b) {
    return std::make_pair(a.src, a.dst) < std::make_pair(b.src, b.dst);
  });

  // The reduction: removed pairs go, demoted ones keep RETAIN only.
  std::vector<bool> gone(pairs.size(), false);
  for (const RemovedEdge& x : r.removed) {
    if (x.edge >= pairs.size() || pairs[x.edge].src != x.src || pairs[x.edge].dst != x.dst)
      throw std::invalid_argument("reference::apply: the reduction names a pair the input does not have");
    if (x.demoted_to_retain) {
      pairs[x.edge].flags = FlagSet::retain();
      pairs[x.edge].retain_only_kinds = KindSet();
      pairs[x.edge].unlabelled_wait_part = false;
    } else {
      gone[x.edge] = true;
    }
  }
  for (std::size_t k = 0; k < pairs.size(); ++k)
    if (!gone[k]) g.edges.push_back(std::move(pairs[k]));
  return g;
}

} // namespace depreduce::reference
