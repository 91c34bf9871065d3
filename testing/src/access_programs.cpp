//===- access_programs.cpp - Access programs, unit graphs, the adapter ----===//
#include "depreduce/testing/access_programs.hpp"

#include <algorithm>
#include <limits>
#include <random>
#include <sstream>

#include "depreduce/reference/dependence_builder.hpp"
#include "depreduce/reference/label_verification.hpp"
#include "depreduce/reference/race_check.hpp"
#include "depreduce/reference/scheduling_units.hpp"
#include "depreduce/scheduling_units.hpp"

namespace depreduce::testing {
namespace {

/// Where the generators get their choices: random bytes or fuzzer bytes.
class Source {
public:
  virtual ~Source() = default;
  virtual std::uint8_t next() = 0;
  virtual bool more() const = 0;
};

class RandomSource final : public Source {
public:
  explicit RandomSource(std::uint64_t seed) : rng_(seed) {}
  std::uint8_t next() override { return static_cast<std::uint8_t>(rng_()); }
  bool more() const override { return true; }
private:
  std::mt19937_64 rng_;
};

class ByteSource final : public Source {
public:
  ByteSource(const std::uint8_t* data, std::size_t size) : p_(data), n_(std::min<std::size_t>(size, 4096)) {}
  std::uint8_t next() override { return i_ < n_ ? p_[i_++] : 0; }
  bool more() const override { return i_ < n_; }
private:
  const std::uint8_t* p_;
  std::size_t n_, i_ = 0;
};

const char* const kSpaces[] = {"sbuf", "psum", "dram", "hbm"};

/// A range from two bytes (see access_program_from_bytes()).
ByteRange decode_range(std::uint8_t a, std::uint8_t b, std::uint32_t spaces, std::uint32_t extent_tiles) {
  ByteRange r;
  r.space = kSpaces[a % spaces];
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  if (a == 0xff && b >= 0xf0) { // the top of the 64-bit space: no overflow anywhere
    r.lo = kMax - 16 + (b & 7);
    r.hi = kMax;
    return r;
  }
  const std::uint64_t offset = (b & 0x80) ? 7 : ((b & 0x40) ? 1 : 0);
  r.lo = std::uint64_t((a >> 2) % extent_tiles) * 8 + offset;
  const std::uint64_t code = b & 0x3f;
  const std::uint64_t length = code == 0 ? 0 : code == 1 ? 1 : ((code - 2) % 12 + 1) * 4; // 4..48
  r.hi = std::min<std::uint64_t>(r.lo + length, std::uint64_t(extent_tiles) * 8 + 8);
  if (r.hi < r.lo) r.hi = r.lo;
  return r;
}

struct ProgramShape {
  std::uint32_t nodes, spaces, max_accesses, extent_tiles, engines;
  bool async, barriers;
  std::int64_t edges; ///< -1: until the source runs out.
};

Graph access_program(Source& in, const ProgramShape& shape, const std::string& file) {
  InputGraph g;
  g.file = file;
  g.num_engines = shape.engines;
  g.nodes.resize(shape.nodes);
  const std::uint32_t per = shape.max_accesses + 1;
  for (NodeId i = 0; i < shape.nodes; ++i) {
    Node& v = g.nodes[i];
    v.name = "n";
    v.name += std::to_string(i);
    const std::uint8_t counts = in.next(), f = in.next();
    if (shape.engines > 0) {
      const std::uint32_t e = f % (shape.engines + 1);
      v.engine = e == shape.engines ? kNoEngine : e;
      if (v.engine != kNoEngine) {
        const std::uint32_t w = (f >> 4) % 8; // 0..3 sync, 4..6 window 1..3, 7 inf
        if (shape.async) v.async_window = w < 4 ? 0 : (w == 7 ? kAsyncInfinite : w - 3);
        v.barrier = shape.barriers && (f & 0x88) == 0x88;
      }
    }
    const std::uint32_t reads = counts % per, writes = (counts / per) % per;
    for (std::uint32_t k = 0; k < reads; ++k) {
      std::uint8_t a = in.next(), b = in.next();
      v.reads.push_back(decode_range(a, b, shape.spaces, shape.extent_tiles));
    }
    for (std::uint32_t k = 0; k < writes; ++k) {
      std::uint8_t a = in.next(), b = in.next();
      v.writes.push_back(decode_range(a, b, shape.spaces, shape.extent_tiles));
    }
  }
  for (std::int64_t k = 0; shape.edges < 0 ? in.more() : k < shape.edges; ++k) {
    const NodeId a = in.next() % shape.nodes, b = in.next() % shape.nodes;
    const std::uint8_t kf = in.next();
    if (a == b) continue;
    Edge e;
    e.src = std::min(a, b);
    e.dst = std::max(a, b);
    e.kinds = KindSet::from_bits(kf & 15);
    const std::uint8_t fl = (kf >> 4) % 4;
    e.flags = fl == 0 ? FlagSet::retain() : FlagSet::from_bits(fl == 3 ? 3 : 1);
    g.edges.push_back(e);
  }
  return make_program_order(std::move(g));
}

struct UnitShape {
  std::uint32_t leaves, max_depth;
  bool shuffle, collide, conflict;
  std::int64_t edges; ///< -1: until the source runs out.
};

void collect(std::vector<Subgraph>& list, std::vector<Subgraph*>& all) {
  for (Subgraph& s : list) {
    all.push_back(&s);
    collect(s.children, all);
  }
}

/// The generated name of node \p v under the unit path \p path ("" = none).
std::string generated_name(const std::vector<Subgraph*>& open, const std::string& leaf) {
  std::string path;
  for (const Subgraph* s : open)
    if (is_scheduling_unit(*s)) {
      if (!path.empty()) path += '/';
      path += unit_name(*s);
    }
  return path.empty() ? leaf : path + "/" + leaf;
}

Graph unit_graph(Source& in, const UnitShape& shape, const std::string& file) {
  static const char* const kClusters[] = {"cluster_a", "cluster_b", "cluster_c", "clusterD",
                                          "cluster",   "cluster_",  "cluster_x/y", "cluster_a"};
  static const char* const kPlain[] = {"", "rank", "%3", "sub"};
  InputGraph g;
  g.file = file;
  std::vector<Subgraph*> open; // the open subgraphs, outermost first
  std::string collision;       // a generated name a top-level node will take
  while (g.nodes.size() < shape.leaves) {
    const std::uint8_t t = in.more() ? in.next() : 7; // out of bytes: leaves
    std::vector<Subgraph>& here = open.empty() ? g.subgraphs : open.back()->children;
    switch (t % 8) {
    case 0:
    case 1:
    case 2:
      if (open.size() >= shape.max_depth) break;
      here.push_back(Subgraph{});
      here.back().name = t % 8 == 2 ? kPlain[(t >> 3) % 4] : kClusters[(t >> 3) % 8];
      open.push_back(&here.back());
      break;
    case 3:
      if (!open.empty()) open.pop_back();
      break;
    default: {
      const NodeId id = static_cast<NodeId>(g.nodes.size());
      Node v;
      v.name = "n";
      v.name += std::to_string(id);
      g.nodes.push_back(v);
      if (!open.empty()) open.back()->nodes.push_back(id);
      if (collision.empty() && shape.collide && !open.empty() && generated_name(open, v.name) != v.name)
        collision = generated_name(open, v.name);
    }
    }
  }
  if (!collision.empty()) {
    Node v;
    v.name = collision; // top level: keeps its name; the leaf gets "#2"
    g.nodes.push_back(v);
  }
  const NodeId n = static_cast<NodeId>(g.nodes.size());
  std::vector<Subgraph*> all;
  collect(g.subgraphs, all);
  if (shape.conflict && !all.empty()) {
    Subgraph* s = all[in.next() % all.size()];
    NodeId v = in.next() % n;
    if (std::find(s->nodes.begin(), s->nodes.end(), v) == s->nodes.end()) s->nodes.push_back(v);
  }
  // Program order = id order (edges go forward); shuffling the ids makes
  // units non-contiguous.
  std::vector<NodeId> perm(n);
  for (NodeId i = 0; i < n; ++i) perm[i] = i;
  if (shape.shuffle)
    for (NodeId i = n; i > 1; --i) std::swap(perm[i - 1], perm[in.next() % i]);
  std::vector<Node> nodes(n);
  for (NodeId i = 0; i < n; ++i) nodes[perm[i]] = std::move(g.nodes[i]);
  g.nodes = std::move(nodes);
  for (Subgraph* s : all) {
    for (NodeId& v : s->nodes) v = perm[v];
    std::sort(s->nodes.begin(), s->nodes.end()); // cgraph lists members in creation order
  }
  for (std::int64_t k = 0; shape.edges < 0 ? in.more() : k < shape.edges; ++k) {
    const NodeId a = in.next() % n, b = in.next() % n;
    if (a == b) continue;
    Edge e;
    e.src = std::min(a, b);
    e.dst = std::max(a, b);
    g.edges.push_back(e);
  }
  return make_program_order(std::move(g));
}

void describe_subgraphs(std::ostringstream& os, const Graph& g, const std::vector<Subgraph>& list, int depth) {
  for (const Subgraph& s : list) {
    os << std::string(2 * depth, ' ') << "subgraph '" << s.name << "':";
    for (NodeId v : s.nodes) os << " " << (v < g.nodes.size() ? g.nodes[v].name : "?");
    os << "\n";
    describe_subgraphs(os, g, s.children, depth + 1);
  }
}

} // namespace

Graph random_access_program(const AccessProgramParams& p, std::uint64_t seed) {
  RandomSource in(seed);
  ProgramShape shape{std::max<std::uint32_t>(p.nodes, 1), std::clamp<std::uint32_t>(p.spaces, 1, 4),
                     p.max_accesses, std::max<std::uint32_t>(p.extent_tiles, 1),
                     std::min(p.engines, kMaxEngines), p.async, p.barriers, p.edges};
  return access_program(in, shape, "<random_access_program>");
}

Graph access_program_from_bytes(const std::uint8_t* data, std::size_t size, std::uint32_t max_nodes) {
  ByteSource in(data, size);
  const std::uint32_t n = in.next() % std::clamp<std::uint32_t>(max_nodes, 1, 32) + 1;
  const std::uint8_t b = in.next();
  ProgramShape shape{n, b % 3u + 1, 2, 8, (b >> 2) % 5u, true, true, -1};
  return access_program(in, shape, "<fuzz>");
}

Graph without_edges(const Graph& g) {
  Graph out;
  static_cast<GraphHeader&>(out) = g;
  out.nodes = g.nodes;
  return out;
}

Graph random_unit_graph(const UnitGraphParams& p, std::uint64_t seed) {
  RandomSource in(seed);
  UnitShape shape{std::max<std::uint32_t>(p.nodes, 1), p.max_depth, !p.contiguous, false, false, p.edges};
  return unit_graph(in, shape, "<random_unit_graph>");
}

Graph unit_graph_from_bytes(const std::uint8_t* data, std::size_t size) {
  ByteSource in(data, size);
  const std::uint32_t leaves = in.next() % 40 + 1;
  const std::uint8_t flags = in.next();
  UnitShape shape{leaves, 6, (flags & 1) != 0, (flags & 2) != 0, (flags & 4) != 0, -1};
  return unit_graph(in, shape, "<fuzz>");
}

std::string describe(const Graph& g) {
  std::ostringstream os;
  os << "graph '" << g.name << "' " << g.nodes.size() << " nodes, " << g.num_engines << " engines\n";
  for (const Node& v : g.nodes) {
    os << "  " << v.name;
    if (v.engine != kNoEngine) os << " engine=" << v.engine;
    if (v.async_window == kAsyncInfinite) os << " async=inf";
    else if (v.async_window) os << " async=" << v.async_window;
    if (v.barrier) os << " barrier";
    if (!v.reads.empty()) os << " reads=" << to_string(v.reads);
    if (!v.writes.empty()) os << " writes=" << to_string(v.writes);
    os << "\n";
  }
  for (const Edge& e : g.edges)
    os << "  " << g.nodes[e.src].name << " -> " << g.nodes[e.dst].name << " kind=" << to_string(e.kinds)
       << " flags=" << to_string(e.flags) << "\n";
  describe_subgraphs(os, g, g.subgraphs, 1);
  return os.str();
}

namespace {
std::vector<BuilderImpl>& builder_registry() {
  static std::vector<BuilderImpl> impls = {
      {"optimized", &depreduce::computed_kinds, &depreduce::build_dependences, &depreduce::verify_labels,
       &depreduce::find_races, &depreduce::expand_scheduling_units},
      {"reference", &depreduce::reference::computed_kinds, &depreduce::reference::build_dependences,
       &depreduce::reference::verify_labels, &depreduce::reference::find_races,
       &depreduce::reference::expand_scheduling_units},
  };
  return impls;
}
} // namespace

const std::vector<BuilderImpl>& builder_impls() { return builder_registry(); }
const BuilderImpl& optimized_builder() { return builder_impls()[0]; }
const BuilderImpl& reference_builder() { return builder_impls()[1]; }

bool register_builder_impl(BuilderImpl impl) {
  builder_registry().push_back(std::move(impl));
  return true;
}

void PrintTo(const BuilderImpl& impl, std::ostream* os) { *os << impl.name; }

} // namespace depreduce::testing
