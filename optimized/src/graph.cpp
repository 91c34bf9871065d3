//===- graph.cpp - Program order, merging, checks -------------------------===//
#include "depreduce/graph.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <numeric>
#include <queue>
#include <unordered_map>

#include "depreduce/error.hpp"

namespace depreduce {

namespace {
std::string located(const std::string& file, std::uint32_t line, const std::string& problem) {
  std::string text = file.empty() ? std::string("<input>") : file;
  if (line) {
    text += ':';
    text += std::to_string(line);
  }
  text += ": ";
  text += problem;
  return text;
}
} // namespace

InputError::InputError(std::string file, std::uint32_t line, std::string problem)
    : std::runtime_error(located(file, line, problem)), file_(std::move(file)), line_(line),
      problem_(std::move(problem)) {}

const std::string* find_attr(const AttrList& attrs, const std::string& key) noexcept {
  for (const auto& [k, v] : attrs)
    if (k == key) return &v;
  return nullptr;
}

void set_attr(AttrList& attrs, const std::string& key, std::string value) {
  for (auto& [k, v] : attrs)
    if (k == key) { v = std::move(value); return; }
  attrs.emplace_back(key, std::move(value));
}

namespace {
constexpr const char* kKindNames[] = {"flow", "anti", "output", "ordered"};
constexpr const char* kFlagNames[] = {"wait", "retain"};

/// Calls \p f with each '|'- or ','-separated item of \p text, trimmed and
/// in lower case (empty items skipped); false as soon as \p f is. Items are
/// lowered into a small buffer: every name is shorter than 16 bytes, so a
/// longer item is no name at all.
template <typename F>
bool for_each_item(std::string_view text, F&& f) {
  std::size_t i = 0;
  while (i <= text.size()) {
    std::size_t j = i;
    while (j < text.size() && text[j] != '|' && text[j] != ',') ++j;
    std::string_view item = text.substr(i, j - i);
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front()))) item.remove_prefix(1);
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back()))) item.remove_suffix(1);
    if (!item.empty()) {
      if (item.size() >= 16) return false;
      char lower[16];
      for (std::size_t k = 0; k < item.size(); ++k) {
        const char c = item[k];
        lower[k] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
      }
      if (!f(std::string_view(lower, item.size()))) return false;
    }
    i = j + 1;
  }
  return true;
}
} // namespace

std::string to_string(KindSet kinds) {
  std::string out;
  for (int i = 0; i < 4; ++i)
    if (kinds.bits() & (1u << i)) { if (!out.empty()) out += '|'; out += kKindNames[i]; }
  return out;
}

std::string to_string(FlagSet flags) {
  std::string out;
  for (int i = 0; i < 2; ++i)
    if (flags.bits() & (1u << i)) { if (!out.empty()) out += '|'; out += kFlagNames[i]; }
  return out;
}

std::optional<KindSet> parse_kinds(std::string_view text) {
  KindSet out;
  bool ok = for_each_item(text, [&](std::string_view s) {
    if (s == "flow" || s == "raw") out |= Kind::Flow;
    else if (s == "anti" || s == "war") out |= Kind::Anti;
    else if (s == "output" || s == "waw") out |= Kind::Output;
    else if (s == "ordered") out |= Kind::Ordered;
    else return false;
    return true;
  });
  if (!ok) return std::nullopt;
  return out;
}

std::optional<FlagSet> parse_flags(std::string_view text) {
  FlagSet out;
  bool ok = for_each_item(text, [&](std::string_view s) {
    if (s == "wait") out |= Flag::Wait;
    else if (s == "retain") out |= Flag::Retain;
    else return false;
    return true;
  });
  if (!ok) return std::nullopt;
  return out;
}

EdgeParts parts_to_write(const Edge& e) noexcept {
  EdgeParts parts;
  auto push = [&](KindSet kinds, FlagSet flags) {
    parts.part[parts.count] = {kinds, flags, parts.count == 0};
    ++parts.count;
  };
  if (written_as_one_part(e)) {
    push(e.kinds, e.flags);
    return parts;
  }
  // Each part below reads back as what it stands for; together they merge
  // back to e (kinds = wait kinds | retain-only kinds, flags = e.flags).
  const KindSet waiting = wait_kinds(e);
  if (e.unlabelled_wait_part && !waiting.empty()) push(KindSet(), FlagSet::wait());
  push(waiting, e.retain_only_kinds.empty() ? e.flags : FlagSet::wait());
  if (!e.retain_only_kinds.empty()) push(e.retain_only_kinds, e.flags.without(Flag::Wait));
  return parts;
}

namespace {

void merge_attrs(AttrList& into, const AttrList& from) {
  for (const auto& [k, v] : from) {
    std::string* have = nullptr;
    for (auto& [k2, v2] : into)
      if (k2 == k) { have = &v2; break; }
    if (!have) { into.emplace_back(k, v); continue; }
    if (k != "label" || *have == v) continue;
    // Join distinct labels: "RAW" + "WAR" -> "RAW|WAR" (unless already present).
    std::string_view cur(*have);
    bool present = false;
    std::size_t i = 0;
    while (i <= cur.size()) {
      std::size_t j = cur.find('|', i);
      if (j == std::string_view::npos) j = cur.size();
      if (cur.substr(i, j - i) == v) { present = true; break; }
      i = j + 1;
    }
    if (!present) *have += "|" + v;
  }
}

// Names the nodes of one cycle among the nodes that Kahn's algorithm could not
// order (every one of them has an unordered predecessor). Walking predecessors
// from any of them must revisit a node; the revisited stretch is a cycle.
std::vector<NodeId> find_cycle(const std::vector<std::uint32_t>& in_begin, const std::vector<std::uint32_t>& in_list,
                               const std::vector<Edge>& edges, const std::vector<bool>& done, NodeId start) {
  std::vector<std::int64_t> seen_at(done.size(), -1);
  std::vector<NodeId> walk;
  NodeId v = start;
  while (seen_at[v] < 0) {
    seen_at[v] = static_cast<std::int64_t>(walk.size());
    walk.push_back(v);
    NodeId next = v;
    for (std::uint32_t k = in_begin[v]; k < in_begin[v + 1]; ++k)
      if (!done[edges[in_list[k]].src]) { next = edges[in_list[k]].src; break; }
    v = next;
  }
  std::vector<NodeId> cycle(walk.begin() + seen_at[v], walk.end());
  std::reverse(cycle.begin(), cycle.end()); // predecessor walk -> forward order
  return cycle;
}

} // namespace

Graph make_program_order(InputGraph input, std::vector<std::string>* warnings) {
  const std::string& file = input.file;
  const std::uint32_t n = static_cast<std::uint32_t>(input.nodes.size());

  if (input.num_engines > kMaxEngines)
    throw InputError(file, 0, "engine count " + std::to_string(input.num_engines) + " exceeds " +
                                  std::to_string(kMaxEngines));
  {
    // Duplicate names: an open-addressing table of node indices (no
    // allocation per name), each slot tagged with the high half of its
    // name's hash, so that a probe past another name compares the tags and
    // reads that node's name only when they match (on a 10^6-node graph the
    // names of the other nodes were cache misses, most of this function's
    // time). A slot is tag << 32 | index; no index is 2^32 - 1, so an
    // all-ones slot is empty.
    std::size_t slots = 16;
    while (slots < 2 * std::size_t{n}) slots *= 2;
    constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
    std::vector<std::uint64_t> table(slots, kEmpty);
    const std::hash<std::string_view> hash;
    for (NodeId i = 0; i < n; ++i) {
      Node& node = input.nodes[i];
      node.input_index = i;
      const std::uint64_t h = hash(node.name);
      const std::uint64_t tag = h >> 32;
      std::size_t at = h & (slots - 1);
      for (; table[at] != kEmpty; at = (at + 1) & (slots - 1))
        if (table[at] >> 32 == tag && input.nodes[static_cast<NodeId>(table[at])].name == node.name)
          throw InputError(file, node.line, "duplicate node name '" + node.name + "'");
      table[at] = tag << 32 | i;
      if (node.engine != kNoEngine && node.engine >= input.num_engines)
        throw InputError(file, node.line,
                         "node '" + node.name + "': engine " + std::to_string(node.engine) +
                             " out of range [0, " + std::to_string(input.num_engines) + ")");
    }
  }

  // Separate self-loops. Parallel edges stay apart until program order is
  // known (they do not change it: Kahn's in-degrees count them all).
  std::vector<Edge> self_loops;
  // The passes below read only the two ends of each edge: from a compact
  // copy (8 bytes an edge) rather than the 32-byte records, which they would
  // otherwise stream through again and again.
  struct Ends { NodeId src, dst; };
  std::vector<Ends> ends(input.edges.size());
  bool forward = true; // every edge goes from an earlier to a later node
  for (std::uint32_t i = 0; i < input.edges.size(); ++i) {
    Edge& e = input.edges[i];
    if (e.src >= n || e.dst >= n)
      throw InputError(file, e.line, "edge names an unknown node (index " +
                                         std::to_string(std::max(e.src, e.dst)) + ")");
    e.input_index = i;
    ends[i] = Ends{e.src, e.dst};
    forward = forward && e.src <= e.dst;
    if (e.src == e.dst) self_loops.push_back(std::move(e));
  }
  if (!self_loops.empty() && warnings)
    warnings->push_back(file + ": warning: " + std::to_string(self_loops.size()) +
                        " self-loop(s) kept in the output and ignored for reachability (first: '" +
                        input.nodes[self_loops.front().src].name + "')");
  const auto is_link = [&](std::uint32_t i) { return ends[i].src != ends[i].dst; };
  const std::uint32_t m_all = static_cast<std::uint32_t>(input.edges.size());

  // Adjacency as CSR arrays over the links (the edges that are not
  // self-loops), each list in input order: in_list by target, and
  // `by_source` by source.
  std::vector<std::uint32_t> out_begin(n + 1, 0), in_begin(n + 1, 0);
  for (std::uint32_t i = 0; i < m_all; ++i)
    if (is_link(i)) {
      ++out_begin[ends[i].src + 1];
      ++in_begin[ends[i].dst + 1];
    }
  for (NodeId v = 0; v < n; ++v) {
    out_begin[v + 1] += out_begin[v];
    in_begin[v + 1] += in_begin[v];
  }
  const std::uint32_t m = out_begin[n];
  std::vector<std::uint32_t> in_list(m), by_source(m);
  std::vector<std::uint32_t> fill(in_begin.begin(), in_begin.end() - 1);
  for (std::uint32_t i = 0; i < m_all; ++i)
    if (is_link(i)) in_list[fill[ends[i].dst]++] = i;

  // Stable Kahn: among ready nodes take the one first in input order. An
  // input whose edges all go forward is its own program order (at every
  // step the next node in input order is ready, and first), so the heap is
  // skipped there.
  std::vector<NodeId> order(n);
  std::iota(order.begin(), order.end(), NodeId{0});
  if (!forward) {
    fill.assign(out_begin.begin(), out_begin.end() - 1);
    for (std::uint32_t i = 0; i < m_all; ++i)
      if (is_link(i)) by_source[fill[ends[i].src]++] = i;
    std::vector<std::uint32_t> indegree(n);
    for (NodeId v = 0; v < n; ++v) indegree[v] = in_begin[v + 1] - in_begin[v];
    std::priority_queue<NodeId, std::vector<NodeId>, std::greater<>> ready;
    for (NodeId v = 0; v < n; ++v)
      if (indegree[v] == 0) ready.push(v);
    std::vector<bool> done(n, false);
    std::uint32_t at = 0;
    while (!ready.empty()) {
      NodeId v = ready.top();
      ready.pop();
      order[at++] = v;
      done[v] = true;
      for (std::uint32_t k = out_begin[v]; k < out_begin[v + 1]; ++k)
        if (--indegree[ends[by_source[k]].dst] == 0) ready.push(ends[by_source[k]].dst);
    }
    if (at != n) {
      NodeId start = 0;
      while (done[start]) ++start;
      const std::vector<NodeId> cycle = find_cycle(in_begin, in_list, input.edges, done, start);
      std::string text;
      for (NodeId v : cycle) text += "'" + input.nodes[v].name + "' -> ";
      text += "'" + input.nodes[cycle.front()].name + "'";
      // Line of the first edge closing the cycle (last -> first), if known.
      std::uint32_t line = 0;
      for (std::uint32_t k = in_begin[cycle.front()]; k < in_begin[cycle.front() + 1] && line == 0; ++k)
        if (input.edges[in_list[k]].src == cycle.back()) line = input.edges[in_list[k]].line;
      throw InputError(file, line, "cycle: " + text);
    }
  }
  std::vector<NodeId> rank(n);
  for (NodeId i = 0; i < n; ++i) rank[order[i]] = i;

  // Merge parallel edges into one dependency per pair (SPEC §2): unions of
  // kinds and flags, plus what the WAIT parts carry (their kinds, and whether
  // one is unlabelled), so the pair keeps its demand. The pairs go in (src,
  // dst) program order, each pair's parts together in input order, without
  // a comparison sort: the links taken target by target in program order
  // (each target's list in input order) and dealt to their sources' lists
  // come out that way (one pass of a radix sort on the target).
  fill.assign(out_begin.begin(), out_begin.end() - 1);
  for (NodeId r = 0; r < n; ++r) {
    const NodeId d = order[r];
    for (std::uint32_t k = in_begin[d]; k < in_begin[d + 1]; ++k) {
      const std::uint32_t i = in_list[k];
      by_source[fill[ends[i].src]++] = i;
    }
  }
  std::vector<std::uint32_t>().swap(in_list);
  std::vector<std::uint32_t>().swap(fill);
  struct WaitParts { KindSet kinds; bool unlabelled = false; };
  auto parts_of = [](const Edge& e) {
    // What one edge (or an edge merged so far) contributes as WAIT parts.
    if (!is_wait(e)) return WaitParts{};
    return WaitParts{wait_kinds(e), has_unlabelled_wait_part(e)};
  };
  // Each pair's first part (in input order) takes the others in; it is the
  // pair's record, and goes to the pair's position in place: no second edge
  // array (32 bytes an edge) is allocated or touched. Only a pair's later
  // parts are read here; the records' ends are renumbered in one pass below.
  // from[p]: the record that goes to position p, the pairs' records first,
  // then the merged parts and self-loops in input order. Where every edge
  // goes forward the sources come in input order, so `by_source` is read in
  // order and becomes `from` in place (a pair's record is written at most
  // where its first part was read); else `from` is an array of its own.
  std::vector<std::uint32_t> from(forward ? 0 : m_all);
  std::vector<std::uint32_t>& record_at = forward ? by_source : from;
  std::vector<bool> stays(m_all, false);
  std::uint32_t kept = 0;
  for (NodeId r = 0; r < n; ++r) {
    const NodeId v = order[r];
    std::uint32_t head = 0; // the record of the pair being merged
    NodeId head_dst = ~NodeId{0}; // no pair yet
    for (std::uint32_t k = out_begin[v]; k < out_begin[v + 1]; ++k) {
      const std::uint32_t i = by_source[k];
      if (ends[i].dst != head_dst) {
        head = i;
        head_dst = ends[i].dst;
        record_at[kept++] = head;
        stays[head] = true;
        continue;
      }
      const Edge& e = input.edges[i];
      Edge& have = input.edges[head];
      WaitParts acc = parts_of(have);
      const WaitParts add = parts_of(e);
      acc.kinds |= add.kinds;
      acc.unlabelled = acc.unlabelled || add.unlabelled;
      have.kinds |= e.kinds;
      have.flags |= e.flags;
      if (is_wait(have)) {
        have.retain_only_kinds = KindSet::from_bits(static_cast<std::uint8_t>(have.kinds.bits() & ~acc.kinds.bits()));
        have.unlabelled_wait_part = acc.unlabelled && !acc.kinds.empty();
      } else {
        have.retain_only_kinds = KindSet();
        have.unlabelled_wait_part = false;
      }
      merge_attrs(have.attrs, e.attrs);
    }
  }
  if (forward) from = std::move(by_source);
  else std::vector<std::uint32_t>().swap(by_source);
  if (!forward) // else order[r] == r: nothing to renumber
    for (std::uint32_t i = 0; i < m_all; ++i)
      if (stays[i]) {
        input.edges[i].src = rank[ends[i].src];
        input.edges[i].dst = rank[ends[i].dst];
      }
  std::vector<Ends>().swap(ends);
  // `from` is a permutation, applied one cycle at a time: the cycle's first
  // record is held aside and every other one moved once, straight to its
  // place (a swap per step moved each record three times; the 20k DAG
  // writes each source's targets in no order, so most records move).
  from.resize(m_all);
  for (std::uint32_t i = 0, spare = kept; i < m_all; ++i)
    if (!stays[i]) from[spare++] = i;
  std::vector<bool>().swap(stays);
  for (std::uint32_t p = 0; p < m_all; ++p) {
    if (from[p] == p) continue;
    Edge held = std::move(input.edges[p]);
    std::uint32_t at = p;
    while (from[at] != p) { // position `at` takes its record, which frees that record's position
      const std::uint32_t src = from[at];
      input.edges[at] = std::move(input.edges[src]);
      from[at] = at;
      at = src;
    }
    input.edges[at] = std::move(held);
    from[at] = at;
  }
  std::vector<std::uint32_t>().swap(from);
  input.edges.resize(kept);
  std::vector<Edge> edges = std::move(input.edges);
  // The work arrays go before the nodes move.
  std::vector<std::uint32_t>().swap(out_begin);
  std::vector<std::uint32_t>().swap(in_begin);

  Graph g;
  static_cast<GraphHeader&>(g) = std::move(static_cast<GraphHeader&>(input));
  std::function<void(Subgraph&)> renumber = [&](Subgraph& s) {
    for (NodeId& v : s.nodes) v = rank[v];
    for (Subgraph& c : s.children) renumber(c);
  };
  for (Subgraph& s : g.subgraphs) renumber(s);

  // Nodes into program order in place (node i goes to rank[i]), one cycle
  // of the permutation at a time: no second node array.
  {
    std::vector<NodeId> to = rank;
    for (NodeId i = 0; i < n; ++i)
      while (to[i] != i) {
        std::swap(input.nodes[i], input.nodes[to[i]]);
        std::swap(to[i], to[to[i]]);
      }
  }
  g.nodes = std::move(input.nodes);
  std::vector<std::uint32_t> next_position(g.num_engines, 0);
  for (Node& node : g.nodes)
    if (node.engine != kNoEngine) node.engine_position = next_position[node.engine]++;

  for (Edge& e : self_loops) { e.src = rank[e.src]; e.dst = rank[e.dst]; }
  g.edges = std::move(edges);
  g.self_loops = std::move(self_loops);
  return g;
}

Graph graph_from_edges(std::uint32_t n, const std::vector<std::pair<NodeId, NodeId>>& edges) {
  InputGraph in;
  in.file = "<generated>";
  in.nodes.resize(n);
  for (NodeId i = 0; i < n; ++i) in.nodes[i].name = std::to_string(i);
  in.edges.reserve(edges.size());
  for (auto [s, d] : edges) {
    Edge e;
    e.src = s;
    e.dst = d;
    in.edges.push_back(std::move(e));
  }
  return make_program_order(std::move(in));
}

} // namespace depreduce

// Every pass over the edges streams these records (docs/performance.md).
static_assert(sizeof(depreduce::AttrList) == sizeof(void*), "an AttrList is one pointer");
static_assert(sizeof(depreduce::Edge) <= 32, "the part fields must stay in the Edge padding");
static_assert(sizeof(depreduce::Node) <= 112, "Node: see its comment");
