//===- generators.cpp - Seeded graph generators and Sketch ---------------===//
#include "depreduce/testing/generators.hpp"

#include <algorithm>
#include <ostream>
#include <random>
#include <stdexcept>

namespace depreduce::testing {

Graph random_engine_graph(const EngineGraphParams& p, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto coin = [&](unsigned percent) { return std::uniform_int_distribution<unsigned>(0, 99)(rng) < percent; };
  InputGraph in;
  in.file = "<random_engine_graph>";
  in.num_engines = p.engines;
  in.nodes.resize(p.nodes);
  for (NodeId i = 0; i < p.nodes; ++i) {
    Node& v = in.nodes[i];
    v.name = "i" + std::to_string(i);
    if (p.engines > 0 && !(p.allow_no_engine && coin(10)))
      v.engine = std::uniform_int_distribution<Engine>(0, p.engines - 1)(rng);
    if (v.engine != kNoEngine && p.async && coin(30))
      v.async_window = coin(10) ? kAsyncInfinite : std::uniform_int_distribution<std::uint32_t>(1, 4)(rng);
    if (v.engine != kNoEngine && p.barriers && coin(5)) v.barrier = true;
  }
  for (NodeId i = 0; i < p.nodes; ++i) {
    std::uint32_t room = std::min<std::uint32_t>(p.span, p.nodes - 1 - i);
    if (room == 0) continue;
    std::uint32_t k = std::uniform_int_distribution<std::uint32_t>(0, 2 * p.out_degree)(rng);
    for (std::uint32_t j = 0; j < k; ++j) {
      Edge e;
      e.src = i;
      e.dst = i + std::uniform_int_distribution<std::uint32_t>(1, room)(rng);
      if (p.ordered && coin(15)) e.kinds = Kind::Ordered;
      else if (!coin(20)) e.kinds = KindSet::from_bits(std::uniform_int_distribution<unsigned>(1, 7)(rng));
      if (p.retain && coin(10)) e.flags = FlagSet::retain();
      else if (p.retain && coin(15)) e.flags = FlagSet::wait() | Flag::Retain;
      in.edges.push_back(e);
    }
  }
  return make_program_order(std::move(in));
}

const std::vector<std::vector<PartSpec>>& part_combinations() {
  static const std::vector<std::vector<PartSpec>> all = [] {
    std::vector<PartSpec> one;
    for (KindSet k : {KindSet(), KindSet(Kind::Flow), KindSet(Kind::Ordered), KindSet(Kind::Flow) | Kind::Ordered})
      for (FlagSet f : {FlagSet::wait(), FlagSet::retain(), FlagSet::wait() | Flag::Retain}) one.push_back({k, f});
    std::vector<std::vector<PartSpec>> out;
    for (std::size_t a = 0; a < one.size(); ++a) out.push_back({one[a]});
    for (std::size_t a = 0; a < one.size(); ++a)
      for (std::size_t b = a; b < one.size(); ++b) out.push_back({one[a], one[b]});
    for (std::size_t a = 0; a < one.size(); ++a)
      for (std::size_t b = a; b < one.size(); ++b)
        for (std::size_t c = b; c < one.size(); ++c) out.push_back({one[a], one[b], one[c]});
    return out;
  }();
  return all;
}

InputGraph random_input_graph(const EngineGraphParams& p, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto coin = [&](unsigned percent) { return std::uniform_int_distribution<unsigned>(0, 99)(rng) < percent; };
  auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  // Nodes i = 0..n-1 in the intended program order, listed in a random input order.
  std::vector<NodeId> listed_at(p.nodes); // listed_at[i] = input index of node i
  for (NodeId i = 0; i < p.nodes; ++i) listed_at[i] = i;
  std::shuffle(listed_at.begin(), listed_at.end(), rng);
  InputGraph in;
  in.file = "<random_input_graph>";
  in.num_engines = p.engines;
  in.nodes.resize(p.nodes);
  for (NodeId i = 0; i < p.nodes; ++i) {
    Node& v = in.nodes[listed_at[i]];
    v.name = "i" + std::to_string(i);
    v.input_index = listed_at[i];
    if (p.engines > 0 && !(p.allow_no_engine && coin(10)))
      v.engine = std::uniform_int_distribution<Engine>(0, p.engines - 1)(rng);
    if (v.engine != kNoEngine && p.async && coin(30))
      v.async_window = coin(10) ? kAsyncInfinite : std::uniform_int_distribution<std::uint32_t>(1, 4)(rng);
    if (v.engine != kNoEngine && p.barriers && coin(5)) v.barrier = true;
    // Accesses to a few bytes of one space, so the race and label checks have
    // something to say.
    for (auto* list : {&v.reads, &v.writes})
      if (coin(35)) {
        const std::uint64_t lo = std::uniform_int_distribution<std::uint64_t>(0, 7)(rng);
        list->push_back({"sbuf", lo, lo + std::uniform_int_distribution<std::uint64_t>(1, 3)(rng)});
      }
  }
  const auto& combos = part_combinations();
  for (NodeId i = 0; i < p.nodes; ++i) {
    std::uint32_t room = std::min<std::uint32_t>(p.span, p.nodes - 1 - i);
    if (coin(3)) { // a self-loop: kept, never a path
      Edge e;
      e.src = e.dst = listed_at[i];
      in.edges.push_back(e);
    }
    if (room == 0) continue;
    std::uint32_t k = std::uniform_int_distribution<std::uint32_t>(0, 2 * p.out_degree)(rng);
    for (std::uint32_t j = 0; j < k; ++j) {
      const NodeId dst = i + std::uniform_int_distribution<std::uint32_t>(1, room)(rng);
      // Mostly one edge of the generator's usual mix; often several parts.
      std::vector<PartSpec> parts;
      if (coin(40)) {
        parts = combos[pick(combos.size())];
      } else {
        PartSpec part;
        if (p.ordered && coin(15)) part.kinds = Kind::Ordered;
        else if (!coin(20)) part.kinds = KindSet::from_bits(std::uniform_int_distribution<unsigned>(1, 15)(rng));
        if (p.retain && coin(10)) part.flags = FlagSet::retain();
        else if (p.retain && coin(15)) part.flags = FlagSet::wait() | Flag::Retain;
        parts.push_back(part);
      }
      for (const PartSpec& part : parts) {
        Edge e;
        e.src = listed_at[i];
        e.dst = listed_at[dst];
        e.kinds = part.kinds;
        e.flags = part.flags;
        in.edges.push_back(e);
      }
    }
  }
  std::shuffle(in.edges.begin(), in.edges.end(), rng);
  for (std::uint32_t i = 0; i < in.edges.size(); ++i) in.edges[i].line = i + 1;
  return in;
}

bool inject_fault(InputGraph& in, InputFault fault, std::uint32_t a, std::uint32_t b) {
  const std::uint32_t n = static_cast<std::uint32_t>(in.nodes.size());
  if (std::all_of(in.nodes.begin(), in.nodes.end(), [](const Node& v) { return v.line == 0; }))
    for (NodeId i = 0; i < n; ++i) in.nodes[i].line = 1000000 + i;
  auto add_edge = [&](NodeId src, NodeId dst) {
    Edge e;
    e.src = src;
    e.dst = dst;
    e.line = 2000000;
    const std::size_t at = (std::size_t{a} + b) % (in.edges.size() + 1);
    in.edges.insert(in.edges.begin() + static_cast<std::ptrdiff_t>(at), e);
  };
  switch (fault) {
  case InputFault::DuplicateName:
    if (n == 0 || a % n == b % n) return false;
    in.nodes[b % n].name = in.nodes[a % n].name;
    return true;
  case InputFault::EngineOutOfRange:
    if (n == 0) return false;
    in.nodes[a % n].engine = in.num_engines + b % 3;
    return true;
  case InputFault::TooManyEngines:
    in.num_engines = kMaxEngines + 1 + b % 3;
    return true;
  case InputFault::UnknownNode:
    if (n == 0) return false;
    if (b % 2) add_edge(n + b % 2, a % n);
    else add_edge(a % n, n + b % 2);
    return true;
  case InputFault::ReversedEdge: {
    // Only a link (not a self-loop) written backwards closes a cycle.
    std::vector<std::uint32_t> links;
    for (std::uint32_t i = 0; i < in.edges.size(); ++i)
      if (in.edges[i].src != in.edges[i].dst) links.push_back(i);
    if (links.empty()) return false;
    const Edge& e = in.edges[links[a % links.size()]];
    add_edge(e.dst, e.src);
    return true;
  }
  case InputFault::AnyEdge:
    if (n == 0) return false;
    add_edge(a % n, b % n);
    return false;
  }
  return false;
}

std::uint32_t Sketch::index(const std::string& name) {
  for (std::uint32_t i = 0; i < input_.nodes.size(); ++i)
    if (input_.nodes[i].name == name) return i;
  Node v;
  v.name = name;
  input_.nodes.push_back(v);
  return static_cast<std::uint32_t>(input_.nodes.size() - 1);
}

Sketch& Sketch::node(const std::string& name, Engine engine, std::uint32_t async, bool barrier) {
  Node& v = input_.nodes[index(name)];
  v.engine = engine;
  v.async_window = async;
  v.barrier = barrier;
  return *this;
}

Sketch& Sketch::edge(const std::string& src, const std::string& dst, const std::string& kinds,
                     const std::string& flags) {
  Edge e;
  e.src = index(src);
  e.dst = index(dst);
  auto k = parse_kinds(kinds);
  auto f = parse_flags(flags);
  if (!k || !f) throw std::invalid_argument("Sketch::edge: bad kinds or flags");
  e.kinds = *k;
  e.flags = *f;
  input_.edges.push_back(e);
  return *this;
}

Graph Sketch::graph(std::uint32_t engines) const {
  InputGraph in = input_;
  in.file = "<sketch>";
  in.num_engines = engines;
  return make_program_order(std::move(in));
}

NodeId Sketch::id(const std::string& name) const {
  Graph g = graph(input_.num_engines ? input_.num_engines : 64);
  for (NodeId i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].name == name) return i;
  throw std::invalid_argument("Sketch::id: no node " + name);
}

} // namespace depreduce::testing

namespace depreduce::testing {
namespace {
struct Bytes {
  const std::uint8_t* p;
  std::size_t n, i = 0;
  bool more() const { return i < n; }
  std::uint8_t next() { return i < n ? p[i++] : 0; }
};
} // namespace

Graph dag_from_bytes(const std::uint8_t* data, std::size_t size, std::uint32_t max_nodes) {
  Bytes in{data, std::min<std::size_t>(size, 4096)};
  std::uint32_t n = in.next() % std::clamp<std::uint32_t>(max_nodes, 1, 64) + 1;
  std::vector<std::pair<NodeId, NodeId>> edges;
  while (in.more()) {
    NodeId a = in.next() % n, b = in.next() % n;
    if (a != b) edges.emplace_back(std::min(a, b), std::max(a, b));
  }
  return graph_from_edges(n, edges);
}

Graph engine_graph_from_bytes(const std::uint8_t* data, std::size_t size, std::uint32_t max_nodes) {
  Bytes in{data, std::min<std::size_t>(size, 4096)};
  InputGraph g;
  g.file = "<fuzz>";
  std::uint32_t n = in.next() % std::clamp<std::uint32_t>(max_nodes, 1, 48) + 1;
  g.num_engines = in.next() % 8 + 1;
  g.nodes.resize(n);
  for (NodeId i = 0; i < n; ++i) {
    Node& v = g.nodes[i];
    v.name = "i" + std::to_string(i);
    std::uint8_t e = in.next() % (g.num_engines + 1);
    v.engine = e == g.num_engines ? kNoEngine : e;
    std::uint8_t f = in.next();
    if (v.engine != kNoEngine) {
      std::uint8_t w = f % 8; // 0..3 sync, 4..6 window 1..3, 7 inf
      v.async_window = w < 4 ? 0 : (w == 7 ? kAsyncInfinite : w - 3u);
      v.barrier = (f & 0x80) != 0;
    }
  }
  while (in.more()) {
    NodeId a = in.next() % n, b = in.next() % n;
    std::uint8_t kf = in.next();
    if (a == b) continue;
    Edge e;
    e.src = std::min(a, b);
    e.dst = std::max(a, b);
    e.kinds = KindSet::from_bits(kf & 15);
    std::uint8_t fl = (kf >> 4) % 4;
    e.flags = fl == 0 ? FlagSet::retain() : FlagSet::from_bits(fl == 3 ? 3 : 1);
    g.edges.push_back(e);
  }
  return make_program_order(std::move(g));
}

InputGraph input_graph_from_bytes(const std::uint8_t* data, std::size_t size, std::uint32_t max_nodes) {
  Bytes in{data, std::min<std::size_t>(size, 4096)};
  InputGraph g;
  g.file = "<fuzz>";
  std::uint32_t n = in.next() % std::clamp<std::uint32_t>(max_nodes, 1, 48) + 1;
  g.num_engines = in.next() % 8 + 1;
  const std::uint32_t rotation = in.next() % n; // node i is listed at (i + rotation) % n
  g.nodes.resize(n);
  for (NodeId i = 0; i < n; ++i) {
    Node& v = g.nodes[(i + rotation) % n];
    v.name = "i" + std::to_string(i);
    std::uint8_t e = in.next() % (g.num_engines + 1);
    v.engine = e == g.num_engines ? kNoEngine : e;
    std::uint8_t f = in.next();
    if (v.engine != kNoEngine) {
      std::uint8_t w = f % 8; // 0..3 sync, 4..6 window 1..3, 7 inf
      v.async_window = w < 4 ? 0 : (w == 7 ? kAsyncInfinite : w - 3u);
      v.barrier = (f & 0x80) != 0;
    }
  }
  while (in.more()) {
    NodeId a = in.next() % n, b = in.next() % n;
    std::uint8_t kf = in.next();
    Edge e;
    e.src = (std::min(a, b) + rotation) % n; // intended order i < j; a == b: a self-loop
    e.dst = (std::max(a, b) + rotation) % n;
    e.kinds = KindSet::from_bits(kf & 15);
    std::uint8_t fl = (kf >> 4) % 4;
    e.flags = fl == 0 ? FlagSet::retain() : FlagSet::from_bits(fl == 3 ? 3 : 1);
    e.line = static_cast<std::uint32_t>(g.edges.size() + 1);
    g.edges.push_back(e);
  }
  return g;
}

} // namespace depreduce::testing

namespace depreduce {

namespace {
/// ` [engine=0 pos=1 async=2 barrier]` (nothing for a plain node).
void show_node(const Node& v, bool positions, std::ostream& os) {
  std::string attrs;
  if (v.engine != kNoEngine) {
    attrs += " engine=" + std::to_string(v.engine);
    if (positions) attrs += " pos=" + std::to_string(v.engine_position);
  }
  if (v.async_window == kAsyncInfinite) attrs += " async=inf";
  else if (v.async_window) attrs += " async=" + std::to_string(v.async_window);
  if (v.barrier) attrs += " barrier";
  os << "  \"" << v.name << "\"";
  if (!attrs.empty()) os << " [" << attrs.substr(1) << "]";
  os << ";\n";
}
void show_edge(const std::string& src, const std::string& dst, const Edge& e, std::ostream& os) {
  os << "  \"" << src << "\" -> \"" << dst << "\" [kind=" << (e.kinds.empty() ? "\"\"" : to_string(e.kinds))
     << " flags=" << (e.flags.empty() ? "\"\"" : to_string(e.flags));
  if (!e.retain_only_kinds.empty()) os << " retain_only_kinds=" << to_string(e.retain_only_kinds);
  if (e.unlabelled_wait_part) os << " unlabelled_wait_part";
  os << "];\n";
}
} // namespace

void showValue(const InputGraph& g, std::ostream& os) {
  os << "digraph input /* " << g.nodes.size() << " nodes, input order */ {\n  graph [engines=" << g.num_engines
     << "];\n";
  for (const Node& v : g.nodes) show_node(v, false, os);
  auto name = [&](NodeId v) { return v < g.nodes.size() ? g.nodes[v].name : "#" + std::to_string(v); };
  for (const Edge& e : g.edges) show_edge(name(e.src), name(e.dst), e, os);
  os << "}\n";
}

void PrintTo(const InputGraph& g, std::ostream* os) { showValue(g, *os); }

void showValue(const Graph& g, std::ostream& os) {
  os << "digraph /* " << g.nodes.size() << " nodes, program order */ {\n  graph [engines=" << g.num_engines
     << "];\n";
  for (const Node& v : g.nodes) show_node(v, true, os);
  for (const Edge& e : g.edges) show_edge(g.nodes[e.src].name, g.nodes[e.dst].name, e, os);
  for (const Edge& e : g.self_loops) show_edge(g.nodes[e.src].name, g.nodes[e.dst].name, e, os);
  os << "}\n";
}

void PrintTo(const Graph& g, std::ostream* os) { showValue(g, *os); }

} // namespace depreduce
