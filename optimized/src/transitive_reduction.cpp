//===- transitive_reduction.cpp - SyncState reduction (walrus dep_reduction) ===//
///
/// \file
/// Per consumer c in program order:
///   1. via = union of the SyncStates of every incoming edge's source (explicit
///      WAIT edges and the implicit engine edges of SPEC §3.2), plus the
///      sources of implicit edges themselves;
///   2. an admitted explicit edge y -> c is redundant iff y is in via (bank A
///      for a C edge, bank B for an S edge);
///   3. SyncState(c) = via plus the explicit sources, kept until c's last
///      consumer has been processed (walrus successorCounter).
//===----------------------------------------------------------------------===//
#include "depreduce/transitive_reduction.hpp"

#include <roaring/roaring.h>

#include <algorithm>
#include <cassert>
#include <deque>
#include <memory>
#include <new>

namespace depreduce {
namespace {

/// A pair of banks: A = completed-before (C), B = issued-before (S); one Roaring
/// bitmap per engine, indexed by engine position, plus a last one for nodes
/// without engine, indexed by node id. Bitmaps are created on first use.
class SyncState {
public:
  explicit SyncState(std::size_t slots) : a_(slots, nullptr), b_(slots, nullptr) {}
  ~SyncState() {
    for (auto* r : a_) if (r) roaring_bitmap_free(r);
    for (auto* r : b_) if (r) roaring_bitmap_free(r);
  }
  SyncState(const SyncState&) = delete;
  SyncState& operator=(const SyncState&) = delete;

  /// walrus SyncState::setCompleted(e, id, bank).
  void set_completed(std::size_t slot, std::uint32_t key, bool issue_bank) {
    roaring_bitmap_add(bitmap(issue_bank ? b_ : a_, slot), key);
  }
  /// Marks positions [0, last] of \p slot in both banks (a barrier's view).
  void set_completed_prefix(std::size_t slot, std::uint32_t last) {
    roaring_bitmap_add_range_closed(bitmap(a_, slot), 0, last);
    roaring_bitmap_add_range_closed(bitmap(b_, slot), 0, last);
  }
  /// walrus hasCompleted: one roaring_bitmap_contains.
  bool has_completed(std::size_t slot, std::uint32_t key, bool issue_bank) const {
    const roaring_bitmap_t* r = (issue_bank ? b_ : a_)[slot];
    return r && roaring_bitmap_contains(r, key);
  }
  /// walrus SyncState::merge: bank-wise union.
  /// On an engine slot, bank B is a prefix of engine positions (in-order
  /// issue: p_{j-1} S p_j), so its union is the longer prefix, added as one
  /// closed range; the last slot (nodes without engine, by node id) is a set.
  void merge(const SyncState& o, bool track_issue_bank) {
    const std::size_t none_slot = a_.size() - 1;
    for (std::size_t s = 0; s < a_.size(); ++s) {
      if (o.a_[s] && !roaring_bitmap_is_empty(o.a_[s])) roaring_bitmap_or_inplace(bitmap(a_, s), o.a_[s]);
      if (!track_issue_bank || !o.b_[s] || roaring_bitmap_is_empty(o.b_[s])) continue;
      if (s == none_slot) {
        roaring_bitmap_or_inplace(bitmap(b_, s), o.b_[s]);
      } else {
        roaring_bitmap_t* mine = bitmap(b_, s);
        std::uint32_t last = roaring_bitmap_maximum(o.b_[s]);
        if (roaring_bitmap_is_empty(mine) || roaring_bitmap_maximum(mine) < last)
          roaring_bitmap_add_range_closed(mine, 0, last);
      }
    }
  }
  /// minimizeSyncState: per engine, bank B is the prefix [0, last] (one
  /// add_range_closed run) and bank A is that prefix minus the positions still
  /// in flight (asynchronous, window not yet reached): run-length encoding
  /// stores each as one run plus one per hole, which is what the walrus
  /// add_range_closed + andnot_inplace pair computes.
  void minimize() {
    for (auto* r : a_) if (r) roaring_bitmap_run_optimize(r);
    for (auto* r : b_) if (r) roaring_bitmap_run_optimize(r);
  }
  void clear() {
    for (auto* r : a_) if (r) roaring_bitmap_clear(r);
    for (auto* r : b_) if (r) roaring_bitmap_clear(r);
  }
  std::size_t bytes() const {
    std::size_t total = 0;
    for (auto* r : a_) if (r) total += roaring_bitmap_portable_size_in_bytes(r);
    for (auto* r : b_) if (r) total += roaring_bitmap_portable_size_in_bytes(r);
    return total;
  }

private:
  static roaring_bitmap_t* bitmap(std::vector<roaring_bitmap_t*>& bank, std::size_t slot) {
    if (!bank[slot]) {
      bank[slot] = roaring_bitmap_create();
      if (!bank[slot]) throw std::bad_alloc();
    }
    return bank[slot];
  }
  std::vector<roaring_bitmap_t*> a_, b_;
};

/// Graph facts both the reduction and the witness search need: per-consumer
/// incoming explicit WAIT edges (sources ascending), the previous instruction
/// on each engine, and the asynchronous completions landing on each node.
struct Structure {
  std::vector<std::uint32_t> in_begin;   // CSR over g.edges indices, by dst
  std::vector<std::uint32_t> in_edges;
  std::vector<NodeId> engine_prev;       // kNone if first on its engine
  std::vector<std::uint32_t> async_begin; // CSR: async nodes completing into v
  std::vector<NodeId> async_into;
  std::vector<std::vector<NodeId>> engine_nodes; // nodes per engine, program order

  static constexpr NodeId kNone = static_cast<NodeId>(-1);

  explicit Structure(const Graph& g) {
    const std::size_t n = g.nodes.size();
    in_begin.assign(n + 1, 0);
    for (const Edge& e : g.edges)
      if (is_wait(e)) ++in_begin[e.dst + 1];
    for (std::size_t v = 0; v < n; ++v) in_begin[v + 1] += in_begin[v];
    in_edges.resize(in_begin[n]);
    std::vector<std::uint32_t> fill(in_begin.begin(), in_begin.end() - 1);
    for (std::uint32_t i = 0; i < g.edges.size(); ++i) // edges sorted by src: per-dst lists ascend
      if (is_wait(g.edges[i])) in_edges[fill[g.edges[i].dst]++] = i;

    engine_nodes.assign(g.num_engines, {});
    engine_prev.assign(n, kNone);
    for (NodeId v = 0; v < n; ++v) {
      Engine e = g.nodes[v].engine;
      if (e == kNoEngine) continue;
      if (!engine_nodes[e].empty()) engine_prev[v] = engine_nodes[e].back();
      engine_nodes[e].push_back(v);
    }
    std::vector<std::vector<NodeId>> into(n);
    for (const auto& list : engine_nodes)
      for (std::size_t i = 0; i < list.size(); ++i) {
        std::uint32_t w = g.nodes[list[i]].async_window;
        if (w == 0 || w == kAsyncInfinite) continue;
        if (i + w < list.size()) into[list[i + w]].push_back(list[i]);
      }
    async_begin.assign(n + 1, 0);
    for (std::size_t v = 0; v < n; ++v) async_begin[v + 1] = async_begin[v] + static_cast<std::uint32_t>(into[v].size());
    async_into.reserve(async_begin[n]);
    for (auto& l : into) async_into.insert(async_into.end(), l.begin(), l.end());
  }
};

/// The SyncState sweep behind reduce() and happens_before(). When \p queries
/// is given (sorted by `after`), each query is answered from the consumer's
/// full SyncState when the sweep reaches it.
Reduction sweep(const Graph& g, const ReduceOptions& options, ReduceStats* stats,
                const std::vector<std::pair<HappensBeforeQuery, std::size_t>>* queries,
                std::vector<bool>* answers) {
  const std::size_t n = g.nodes.size();
  const std::size_t none_slot = g.num_engines;
  const std::size_t slots = g.num_engines + 1;
  Structure st(g);

  auto slot_of = [&](NodeId v) -> std::size_t {
    return g.nodes[v].engine == kNoEngine ? none_slot : g.nodes[v].engine;
  };
  auto key_of = [&](NodeId v) -> std::uint32_t {
    return g.nodes[v].engine == kNoEngine ? v : g.nodes[v].engine_position;
  };

  // Bank B (issued-before) differs from bank A only through S relations:
  // engines (in-order issue) or ORDERED-only edges. Without them, skip it.
  bool track_issue = g.num_engines > 0;
  for (const Edge& e : g.edges)
    if (is_wait(e) && !is_completion_edge(e)) track_issue = true;

  // successorCounter: consumers that will merge this node's SyncState.
  std::vector<std::uint32_t> consumers(n, 0);
  for (const Edge& e : g.edges)
    if (is_wait(e)) ++consumers[e.src];
  for (NodeId v = 0; v < n; ++v)
    if (st.engine_prev[v] != Structure::kNone) ++consumers[st.engine_prev[v]];

  std::vector<std::unique_ptr<SyncState>> state(n);
  std::vector<std::unique_ptr<SyncState>> pool;
  auto take = [&]() {
    if (pool.empty()) return std::make_unique<SyncState>(slots);
    auto s = std::move(pool.back());
    pool.pop_back();
    s->clear();
    return s;
  };
  std::size_t live = 0, live_bytes = 0, peak_live = 0, peak_bytes = 0;
  std::vector<std::size_t> held_bytes(stats ? n : 0, 0);
  auto release = [&](NodeId y) {
    if (--consumers[y] != 0 || !state[y]) return;
    pool.push_back(std::move(state[y]));
    --live;
    if (stats) live_bytes -= held_bytes[y];
  };

  // Merge y's SyncState into work. When work is still empty and c is y's
  // last consumer, the two are swapped instead: y's state would be released
  // right after c anyway, so it becomes c's without copying a bitmap.
  auto absorb = [&](std::unique_ptr<SyncState>& work, bool& fresh, NodeId y) {
    if (!state[y]) return;
    if (fresh && consumers[y] == 1) std::swap(work, state[y]);
    else work->merge(*state[y], track_issue);
    fresh = false;
  };

  std::vector<bool> redundant(g.edges.size(), false);
  std::size_t candidates = 0;
  std::size_t next_query = 0;

  const bool report = stats && stats->progress;
  for (NodeId c = 0; c < n; ++c) {
    if (report && (c & 0xFFFF) == 0) stats->progress(c, n);
    const Node& node = g.nodes[c];
    auto work = take();
    bool fresh = true;
    // Implicit edges (SPEC §3.2). The previous instruction on c's engine
    // issues before c (S), completes before c if synchronous (C), and its
    // SyncState covers every earlier instruction of the engine.
    if (NodeId prev = st.engine_prev[c]; prev != Structure::kNone) {
      absorb(work, fresh, prev);
      fresh = false;
      work->set_completed(slot_of(prev), key_of(prev), true);
      if (g.nodes[prev].async_window == 0) work->set_completed(slot_of(prev), key_of(prev), false);
    }
    for (std::uint32_t i = st.async_begin[c]; i < st.async_begin[c + 1]; ++i) {
      NodeId a = st.async_into[i]; // async slot reused w positions later: a C c
      work->set_completed(slot_of(a), key_of(a), false);
      work->set_completed(slot_of(a), key_of(a), true);
      fresh = false;
    }
    if (node.barrier && node.engine_position > 0) {
      work->set_completed_prefix(node.engine, node.engine_position - 1);
      fresh = false;
    }

    const std::uint32_t begin = st.in_begin[c], end = st.in_begin[c + 1];
    if (options.mode == ReductionMode::Exact) {
      // Pass 1: via = union of every explicit predecessor's closure. Taken in
      // descending program order, a predecessor y already in via is reached
      // from a later predecessor z, so SyncState(y) ⊆ SyncState(z) (in both
      // banks) is already merged: skipping it leaves via unchanged.
      for (std::uint32_t k = end; k-- > begin;) {
        NodeId y = g.edges[st.in_edges[k]].src;
        if (!work->has_completed(slot_of(y), key_of(y), track_issue)) absorb(work, fresh, y);
      }
      // Pass 2: a candidate found in via is redundant.
      for (std::uint32_t k = begin; k < end; ++k) {
        const Edge& e = g.edges[st.in_edges[k]];
        if (!options.filter.admits(e.kinds)) continue;
        ++candidates;
        bool completion = is_completion_edge(e);
        if (work->has_completed(slot_of(e.src), key_of(e.src), !completion && track_issue))
          redundant[st.in_edges[k]] = true;
      }
      for (std::uint32_t k = begin; k < end; ++k) {
        const Edge& e = g.edges[st.in_edges[k]];
        if (is_completion_edge(e)) work->set_completed(slot_of(e.src), key_of(e.src), false);
        if (track_issue) work->set_completed(slot_of(e.src), key_of(e.src), true);
      }
    } else {
      // Shipped one-pass loop: fold predecessors in ascending program order,
      // merge first, then test against what has been merged so far.
      for (std::uint32_t k = begin; k < end; ++k) {
        const Edge& e = g.edges[st.in_edges[k]];
        NodeId y = e.src;
        absorb(work, fresh, y);
        bool completion = is_completion_edge(e);
        bool admitted = options.filter.admits(e.kinds);
        candidates += admitted;
        if (admitted && work->has_completed(slot_of(y), key_of(y), !completion && track_issue)) {
          redundant[st.in_edges[k]] = true;
        } else {
          if (completion) work->set_completed(slot_of(y), key_of(y), false);
          if (track_issue) work->set_completed(slot_of(y), key_of(y), true);
        }
      }
      // Redundant predecessors are already in the closure; nothing to add.
    }

    // Release the closures this consumer was the last user of.
    if (NodeId prev = st.engine_prev[c]; prev != Structure::kNone) release(prev);
    for (std::uint32_t k = begin; k < end; ++k) release(g.edges[st.in_edges[k]].src);

    while (queries && next_query < queries->size() && (*queries)[next_query].first.after == c) {
      const auto& [q, index] = (*queries)[next_query++];
      bool issue = q.relation == Relation::IssuedBefore && track_issue;
      (*answers)[index] = q.before < c && work->has_completed(slot_of(q.before), key_of(q.before), issue);
    }

    if (consumers[c] > 0) {
      work->minimize();
      ++live;
      if (stats) {
        held_bytes[c] = work->bytes();
        live_bytes += held_bytes[c];
        peak_bytes = std::max(peak_bytes, live_bytes);
      }
      peak_live = std::max(peak_live, live);
      state[c] = std::move(work);
    } else {
      pool.push_back(std::move(work));
    }
  }

  Reduction result;
  result.edges.reserve(g.edges.size());
  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    const Edge& e = g.edges[i];
    if (!redundant[i]) { result.edges.push_back(e); continue; }
    bool retain = e.flags.has(Flag::Retain);
    result.removed.push_back({e.src, e.dst, e.kinds, e.flags, retain});
    if (retain) {
      Edge kept = e;
      kept.flags = FlagSet::retain();
      result.edges.push_back(std::move(kept));
    }
  }
  if (report) stats->progress(n, n);
  if (stats) {
    stats->candidates = candidates;
    stats->peak_live_closures = peak_live;
    stats->peak_closure_bytes = peak_bytes;
  }
  return result;
}

} // namespace

Reduction reduce(const Graph& g, const ReduceOptions& options, ReduceStats* stats) {
  return sweep(g, options, stats, nullptr, nullptr);
}

std::vector<bool> happens_before(const Graph& g, const std::vector<HappensBeforeQuery>& queries) {
  std::vector<std::pair<HappensBeforeQuery, std::size_t>> sorted;
  sorted.reserve(queries.size());
  std::vector<bool> answers(queries.size(), false);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const HappensBeforeQuery& q = queries[i];
    if (q.before >= g.nodes.size() || q.after >= g.nodes.size() || q.before >= q.after) continue;
    sorted.emplace_back(q, i);
  }
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.first.after < b.first.after; });
  // Nothing is a candidate: the sweep only builds SyncStates.
  ReduceOptions none;
  none.filter = KindFilter{KindSet{}, false};
  sweep(g, none, nullptr, &sorted, &answers);
  return answers;
}

namespace {

/// Event ids: start(v) = 2v, end(v) = 2v + 1 (SPEC §3.1).
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

std::optional<Witness> find_witness(const Graph& g, NodeId src, NodeId dst) {
  const Edge* edge = find_edge(g, src, dst);
  if (!edge || !is_wait(*edge)) return std::nullopt;
  Structure st(g);
  const bool completion = is_completion_edge(*edge);
  const std::uint32_t target = completion ? end_event(src) : start_event(src);

  // Backward breadth-first search from start(dst) over the event graph without
  // the edge, restricted to nodes in [src, dst] (program order bounds any path).
  struct Step { std::uint32_t next_event; HopKind kind; bool set = false; };
  std::vector<Step> step(2 * (dst - src + 1));
  auto idx = [&](std::uint32_t ev) { return ev - 2 * src; };
  std::deque<std::uint32_t> queue{start_event(dst)};
  step[idx(start_event(dst))].set = true;
  auto visit = [&](std::uint32_t from_ev, std::uint32_t to_ev, HopKind kind) {
    if (from_ev < 2 * src) return;
    Step& s = step[idx(from_ev)];
    if (s.set) return;
    s = {to_ev, kind, true};
    queue.push_back(from_ev);
  };
  while (!queue.empty()) {
    std::uint32_t ev = queue.front();
    queue.pop_front();
    if (ev == target) break;
    NodeId v = ev / 2;
    if (ev % 2 == 1) { visit(start_event(v), ev, HopKind::ExplicitCompletion); continue; } // start->end
    for (std::uint32_t k = st.in_begin[v]; k < st.in_begin[v + 1]; ++k) {
      const Edge& e = g.edges[st.in_edges[k]];
      if (e.src == src && e.dst == dst) continue;
      if (is_completion_edge(e)) visit(end_event(e.src), ev, HopKind::ExplicitCompletion);
      else visit(start_event(e.src), ev, HopKind::ExplicitIssue);
    }
    if (NodeId prev = st.engine_prev[v]; prev != Structure::kNone) {
      if (g.nodes[prev].async_window == 0) visit(end_event(prev), ev, HopKind::EngineCompletion);
      visit(start_event(prev), ev, HopKind::EngineIssue);
    }
    for (std::uint32_t i = st.async_begin[v]; i < st.async_begin[v + 1]; ++i)
      visit(end_event(st.async_into[i]), ev, HopKind::EngineCompletion);
    if (g.nodes[v].barrier)
      for (NodeId p : st.engine_nodes[g.nodes[v].engine]) {
        if (p >= v) break;
        visit(end_event(p), ev, HopKind::EngineCompletion);
      }
  }
  if (!step[idx(target)].set) return std::nullopt;

  Witness w;
  for (std::uint32_t ev = target; ev != start_event(dst);) {
    const Step& s = step[idx(ev)];
    if (s.next_event / 2 != ev / 2) w.hops.push_back({ev / 2, s.next_event / 2, s.kind});
    ev = s.next_event;
  }
  return w;
}

bool is_witness(const Graph& g, NodeId src, NodeId dst, const Witness& w) {
  const Edge* edge = find_edge(g, src, dst);
  if (!edge || !is_wait(*edge) || w.hops.empty()) return false;
  if (w.hops.front().from != src || w.hops.back().to != dst) return false;
  if (is_completion_edge(*edge) && !is_completion_hop(w.hops.front().kind)) return false;
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
      if (h.from == src && h.to == dst) return false;
      const Edge* e = find_edge(g, h.from, h.to);
      if (!e || !is_wait(*e)) return false;
      if (is_completion_edge(*e) != (h.kind == HopKind::ExplicitCompletion)) return false;
      break;
    }
    case HopKind::EngineIssue:
      if (!same_engine || b.engine_position != a.engine_position + 1) return false;
      break;
    case HopKind::EngineCompletion: {
      if (!same_engine || b.engine_position <= a.engine_position) return false;
      std::uint64_t gap = b.engine_position - a.engine_position;
      bool ok = (a.async_window == 0 && gap == 1) || b.barrier ||
                (a.async_window != 0 && a.async_window != kAsyncInfinite && gap == a.async_window);
      if (!ok) return false;
      break;
    }
    }
  }
  return true;
}

Graph apply(const Graph& g, const Reduction& r) {
  Graph out = g;
  out.edges = r.edges;
  return out;
}

} // namespace depreduce
