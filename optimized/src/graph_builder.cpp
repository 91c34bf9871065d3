//===- graph_builder.cpp - Building a Graph by id in program order ---------===//
#include "depreduce/graph_builder.hpp"

#include "order_internal.hpp"

#include <string>
#include <unordered_map>

namespace depreduce {

void GraphBuilder::clear(std::uint32_t num_engines) noexcept {
  num_engines_ = num_engines;
  nodes_.clear();
  edges_.clear();
  names_.clear();
  name_of_.clear();
}

NodeId GraphBuilder::add_node(NodeSpec spec) {
  const auto id = static_cast<NodeId>(nodes_.size());
  nodes_.push_back(spec);
  return id;
}

NodeId GraphBuilder::add_node(NodeSpec spec, std::string_view name) {
  const NodeId id = add_node(spec);
  if (name_of_.size() < nodes_.size()) name_of_.resize(nodes_.size(), {0, 0});
  const auto begin = static_cast<std::uint32_t>(names_.size());
  names_.append(name);
  name_of_[id] = {begin, static_cast<std::uint32_t>(names_.size())};
  return id;
}

void GraphBuilder::add_edge(NodeId src, NodeId dst, KindSet kinds, FlagSet flags) {
  edges_.push_back(BuilderEdge{src, dst, kinds, flags});
}

std::string_view GraphBuilder::name(NodeId v) const noexcept {
  if (v >= name_of_.size()) return {};
  const auto [b, e] = name_of_[v];
  return std::string_view(names_).substr(b, e - b);
}

std::string GraphBuilder::node_label(NodeId v) const {
  const std::string_view n = name(v);
  if (n.empty()) return std::to_string(v);
  return "'" + std::string(n) + "'";
}

Status GraphBuilder::validate() const {
  const auto n = static_cast<std::uint32_t>(nodes_.size());
  if (num_engines_ > kMaxEngines)
    return Status(ErrorCode::BadArgument, 0,
                  "engine count " + std::to_string(num_engines_) + " exceeds " + std::to_string(kMaxEngines));
  for (NodeId v = 0; v < n; ++v)
    if (nodes_[v].engine != kNoEngine && nodes_[v].engine >= num_engines_)
      return Status(ErrorCode::EngineOutOfRange, v,
                    "node " + node_label(v) + ": engine " + std::to_string(nodes_[v].engine) +
                        " out of range [0, " + std::to_string(num_engines_) + ")");
  if (has_names()) {
    // Names are rare on this path (a compiler gives ids); a hash map is fine.
    std::unordered_map<std::string_view, NodeId> seen;
    seen.reserve(name_of_.size());
    for (NodeId v = 0; v < n; ++v) {
      std::string_view nm = name(v);
      if (nm.empty()) continue; // named by its id in the Graph: checked below
      auto [it, fresh] = seen.emplace(nm, v);
      if (!fresh)
        return Status(ErrorCode::DuplicateName, v,
                      "duplicate node name '" + std::string(nm) + "' (nodes " + std::to_string(it->second) +
                          " and " + std::to_string(v) + ")");
    }
    // A given name equal to the id of a node without one would make two
    // nodes of the Graph share a name.
    for (NodeId v = 0; v < n; ++v)
      if (name(v).empty())
        if (auto it = seen.find(std::to_string(v)); it != seen.end())
          return Status(ErrorCode::DuplicateName, std::max(v, it->second),
                        "duplicate node name '" + std::to_string(v) + "' (node " + std::to_string(it->second) +
                            " is named so, node " + std::to_string(v) + " is unnamed and named by its id)");
  }
  for (std::uint32_t i = 0; i < edges_.size(); ++i) {
    const BuilderEdge& e = edges_[i];
    if (e.src >= n || e.dst >= n)
      return Status(ErrorCode::NodeOutOfRange, i,
                    "edge " + std::to_string(i) + ": " + std::to_string(e.src) + " -> " + std::to_string(e.dst) +
                        " names node " + std::to_string(e.src >= n ? e.src : e.dst) + " but the graph has " +
                        std::to_string(n) + " nodes");
  }
  for (std::uint32_t i = 0; i < edges_.size(); ++i) {
    const BuilderEdge& e = edges_[i];
    if (e.src > e.dst)
      return Status(ErrorCode::NotProgramOrder, i,
                    "edge " + std::to_string(i) + ": " + node_label(e.src) + " -> " + node_label(e.dst) +
                        " goes backward in program order");
  }
  return Status::success();
}

namespace detail {

/// A builder as build_graph() reads it.
struct FromBuilder {
  const GraphBuilder& b;
  std::uint32_t num_nodes() const { return b.num_nodes(); }
  std::uint32_t num_edges() const { return b.num_edges(); }
  std::uint32_t num_engines() const { return b.num_engines(); }
  const NodeSpec& spec(NodeId v) const { return b.nodes()[v]; }
  std::string_view name(NodeId v) const { return b.name(v); }
  const BuilderEdge& edge(std::uint32_t i) const { return b.edges()[i]; }
};

/// Plain arrays (reduce_edges): no engines, unlabelled WAIT edges.
struct FromArrays {
  std::uint32_t n, m;
  const std::uint32_t* src;
  const std::uint32_t* dst;
  std::uint32_t num_nodes() const { return n; }
  std::uint32_t num_edges() const { return m; }
  std::uint32_t num_engines() const { return 0; }
  NodeSpec spec(NodeId) const { return {}; }
  std::string_view name(NodeId) const { return {}; }
  BuilderEdge edge(std::uint32_t i) const { return {src[i], dst[i], KindSet(), FlagSet::wait()}; }
};

/// Writes the canonical Graph of \p b's nodes and edges, node v at position
/// rank(v), edges sorted and merged; \p count, \p tmp, \p order are the
/// scratch of the sort. \p with_names false leaves every name empty (a Graph
/// only reduce() reads, never shown).
template <class Source, class Rank>
void build_graph(const Source& b, Rank rank, Graph& out, std::vector<std::uint32_t>& count,
                 std::vector<std::uint32_t>& tmp, std::vector<std::uint32_t>& order, bool with_names = true) {
  const std::uint32_t n = b.num_nodes();
  const std::uint32_t m = b.num_edges();

  out.file.clear();
  out.name.clear();
  out.strict = false;
  out.num_engines = b.num_engines();
  out.graph_attrs.clear();
  out.node_defaults.clear();
  out.edge_defaults.clear();
  out.subgraphs.clear();

  out.nodes.resize(n);
  std::vector<std::uint32_t> next_position(b.num_engines(), 0);
  for (NodeId v = 0; v < n; ++v) {
    Node& node = out.nodes[rank(v)];
    const std::string_view nm = b.name(v);
    if (!with_names) node.name.clear();
    else if (nm.empty()) node.name = std::to_string(v);
    else node.name.assign(nm);
    const NodeSpec spec = b.spec(v);
    node.engine = spec.engine;
    node.async_window = spec.async_window;
    node.barrier = spec.barrier;
    node.line = 0;
    node.attrs.clear();
    node.reads.clear();
    node.writes.clear();
    node.input_index = v;
  }
  for (Node& node : out.nodes)
    node.engine_position = node.engine == kNoEngine ? 0 : next_position[node.engine]++;

  detail::sort_by_pair(
      n, m, [&](std::uint32_t i) { return rank(b.edge(i).src); }, [&](std::uint32_t i) { return rank(b.edge(i).dst); },
      count, tmp, order);

  out.edges.clear();
  out.self_loops.clear();
  for (std::uint32_t i = 0; i < m; ++i)
    if (const BuilderEdge p = b.edge(i); p.src == p.dst) {
      Edge& e = out.self_loops.emplace_back();
      e.src = e.dst = rank(p.src);
      e.kinds = p.kinds;
      e.flags = p.flags;
      e.input_index = i;
    }
  // Merge each pair's parts (SPEC §2) as make_program_order() does.
  KindSet acc_kinds;
  bool acc_unlabelled = false;
  for (std::uint32_t k = 0; k < order.size(); ++k) {
    const std::uint32_t i = order[k];
    const BuilderEdge p = b.edge(i);
    const NodeId s = rank(p.src), d = rank(p.dst);
    const bool wait = p.flags.has(Flag::Wait);
    if (out.edges.empty() || out.edges.back().src != s || out.edges.back().dst != d) {
      Edge& e = out.edges.emplace_back();
      e.src = s;
      e.dst = d;
      e.kinds = p.kinds;
      e.flags = p.flags;
      e.input_index = i;
      acc_kinds = wait ? p.kinds : KindSet();
      acc_unlabelled = wait && p.kinds.empty();
      continue;
    }
    Edge& have = out.edges.back();
    if (wait) {
      acc_kinds |= p.kinds;
      acc_unlabelled = acc_unlabelled || p.kinds.empty();
    }
    have.kinds |= p.kinds;
    have.flags |= p.flags;
    if (is_wait(have)) {
      have.retain_only_kinds = KindSet::from_bits(static_cast<std::uint8_t>(have.kinds.bits() & ~acc_kinds.bits()));
      have.unlabelled_wait_part = acc_unlabelled && !acc_kinds.empty();
    } else {
      have.retain_only_kinds = KindSet();
      have.unlabelled_wait_part = false;
    }
  }
}

void build_graph_in_order(const GraphBuilder& b, Graph& out, std::vector<std::uint32_t>& count,
                          std::vector<std::uint32_t>& tmp, std::vector<std::uint32_t>& order, bool with_names) {
  build_graph(FromBuilder{b}, [](NodeId v) { return v; }, out, count, tmp, order, with_names);
}

void build_plain_graph(std::uint32_t n, std::uint32_t m, const std::uint32_t* src, const std::uint32_t* dst,
                       Graph& out, std::vector<std::uint32_t>& count, std::vector<std::uint32_t>& tmp,
                       std::vector<std::uint32_t>& order) {
  build_graph(FromArrays{n, m, src, dst}, [](NodeId v) { return v; }, out, count, tmp, order, false);
}

} // namespace detail

Status GraphBuilder::finish(Graph& out) {
  if (Status s = validate(); !s.ok()) return s;
  detail::build_graph(detail::FromBuilder{*this}, [](NodeId v) { return v; }, out, count_, order2_, order_);
  return Status::success();
}

Status GraphBuilder::finish_renumbered(Graph& out, std::vector<NodeId>* program_order_of) {
  // validate() without its last check (backward edges are what this entry
  // is for): run it and accept NotProgramOrder.
  if (Status s = validate(); !s.ok() && s.code() != ErrorCode::NotProgramOrder) return s;
  const std::uint32_t n = num_nodes();
  bool forward = true;
  for (const BuilderEdge& e : edges_) forward = forward && e.src <= e.dst;
  if (forward) {
    detail::build_graph(detail::FromBuilder{*this}, [](NodeId v) { return v; }, out, count_, order2_, order_);
    if (program_order_of) {
      program_order_of->resize(n);
      for (NodeId v = 0; v < n; ++v) (*program_order_of)[v] = v;
    }
    return Status::success();
  }
  std::vector<NodeId> rank, cycle;
  std::uint32_t cycle_edge = 0;
  if (!detail::stable_topological_rank(
          n, num_edges(), [&](std::uint32_t i) { return edges_[i].src; },
          [&](std::uint32_t i) { return edges_[i].dst; }, rank, cycle, cycle_edge)) {
    std::string text;
    for (NodeId v : cycle) text += node_label(v) + " -> ";
    text += node_label(cycle.front());
    return Status(ErrorCode::Cycle, cycle_edge, "cycle: " + text);
  }
  detail::build_graph(detail::FromBuilder{*this}, [&](NodeId v) { return rank[v]; }, out, count_, order2_, order_);
  if (program_order_of) *program_order_of = std::move(rank);
  return Status::success();
}

} // namespace depreduce
