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

#include "depreduce/paths.hpp"

#include "lane.hpp"

#include <roaring/roaring.h>

#include <algorithm>
#include <bit>
#include <cassert>
#include <deque>
#include <memory>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>

namespace depreduce {
namespace {

// One lane of a SyncState (dense prefix + window, or sparse): lane.hpp, a
// template also instantiated by proofs/ (obligation 5, docs/proofs.md).
using detail::Lane;

/// A pair of banks: A = completed-before (C), B = issued-before (S); one lane
/// per engine, indexed by engine position, plus a last one for nodes without
/// engine, indexed by node id (walrus SyncState: one Roaring bitmap per engine
/// per bank). A mask records the lanes in use, so clearing and merging touch
/// only those.
class SyncState {
public:
  /// A state over \p lanes (2 * slots of them, cleared) and \p used
  /// ((2 * slots + 63) / 64 zero words), both owned by a SyncStateArena.
  SyncState(Lane* lanes, std::uint64_t* used, std::size_t slots)
      : lanes_(lanes, 2 * slots), used_(used, (2 * slots + 63) / 64), slots_(slots) {}
  SyncState(const SyncState&) = delete;
  SyncState& operator=(const SyncState&) = delete;
  /// Frees the lanes' Roaring bitmaps (the arena's destructor calls it).
  void release_lanes() {
    for (Lane& l : lanes_) l.release();
  }

  /// walrus SyncState::setCompleted(e, id, bank).
  void set_completed(std::size_t slot, std::uint32_t key, bool issue_bank) {
    lane(slot, issue_bank).add(key);
  }
  /// Marks positions [0, last] of \p slot in both banks (a barrier's view).
  void set_completed_prefix(std::size_t slot, std::uint32_t last) {
    lane(slot, false).add_prefix(last);
    lane(slot, true).add_prefix(last);
  }
  /// walrus hasCompleted.
  bool has_completed(std::size_t slot, std::uint32_t key, bool issue_bank) const {
    // Lanes not in use are empty (cleared), so no mask test is needed.
    return lanes_[index(slot, issue_bank)].contains(key);
  }
  /// walrus SyncState::merge: bank-wise union (bank B only if tracked).
  void merge(const SyncState& o, bool track_issue_bank) {
    const std::size_t end = track_issue_bank ? 2 * slots_ : slots_;
    for (std::size_t w = 0; w < used_.size(); ++w)
      for (std::uint64_t bits = o.used_[w]; bits; bits &= bits - 1) {
        std::size_t i = 64 * w + static_cast<std::size_t>(std::countr_zero(bits));
        if (i >= end) break;
        used_[w] |= std::uint64_t{1} << (i % 64);
        lanes_[i].merge(o.lanes_[i]);
      }
  }
  /// Bank A of the only slot, for graphs without engines and S edges (the
  /// sweep's one-lane form): keys are node ids.
  Lane& only_lane() {
    used_[0] |= 1;
    return lanes_[0];
  }
  const Lane& only_lane() const { return lanes_[0]; }
  /// minimizeSyncState: lanes are kept in normal form on every update (the
  /// prefix absorbs completed positions, as walrus's add_range_closed does);
  /// what is left is compressing the Roaring remainders.
  void minimize() {
    for_each_used([](Lane& l) { l.minimize(); });
  }
  void clear() {
    for_each_used([](Lane& l) { l.clear(); });
    std::fill(used_.begin(), used_.end(), 0);
  }
  bool any_sparse() const {
    for (const Lane& l : lanes_)
      if (l.sparse) return true;
    return false;
  }
  std::size_t bytes() const {
    std::size_t total = 0;
    for (std::size_t w = 0; w < used_.size(); ++w)
      for (std::uint64_t bits = used_[w]; bits; bits &= bits - 1)
        total += lanes_[64 * w + static_cast<std::size_t>(std::countr_zero(bits))].bytes();
    return total;
  }

private:
  // Bank A lanes first, then bank B lanes.
  std::size_t index(std::size_t slot, bool issue_bank) const { return (issue_bank ? slots_ : 0) + slot; }
  Lane& lane(std::size_t slot, bool issue_bank) {
    std::size_t i = index(slot, issue_bank);
    used_[i / 64] |= std::uint64_t{1} << (i % 64);
    return lanes_[i];
  }
  template <class F> void for_each_used(F f) {
    for (std::size_t w = 0; w < used_.size(); ++w)
      for (std::uint64_t bits = used_[w]; bits; bits &= bits - 1)
        f(lanes_[64 * w + static_cast<std::size_t>(std::countr_zero(bits))]);
  }
  std::span<Lane> lanes_;
  std::span<std::uint64_t> used_;
  std::size_t slots_;
};

/// Where a sweep's SyncStates live: lanes and lane masks in a few large
/// chunks (each chunk twice the previous), released states reused first. A
/// sweep holds at most its live frontier plus one state, so they stay close
/// together in memory whatever the heap looked like before (separately
/// allocated states, scattered over a fragmented heap, made the sweep 15-20%
/// slower).
class SyncStateArena {
public:
  /// For a sweep of \p nodes nodes (it never holds more than nodes + 1
  /// states at once): the first chunk is no larger, so a small graph does
  /// not zero lanes it cannot use (a batch reduces hundreds of them).
  SyncStateArena(std::size_t slots, std::size_t nodes)
      : slots_(slots), words_((2 * slots + 63) / 64), first_chunk_(std::min<std::size_t>(16, nodes + 1)) {}
  ~SyncStateArena() {
    for (SyncState& s : states_) s.release_lanes();
  }
  SyncStateArena(const SyncStateArena&) = delete;
  SyncStateArena& operator=(const SyncStateArena&) = delete;

  /// An empty state: a released one (cleared) or a new one.
  SyncState* take() {
    if (!free_.empty()) {
      SyncState* s = free_.back();
      free_.pop_back();
      s->clear();
      return s;
    }
    if (left_ == 0) grow();
    --left_;
    return &states_.emplace_back(next_lanes_ + (left_ * 2 * slots_), next_used_ + left_ * words_, slots_);
  }
  /// Returns \p s for reuse (its contents are cleared when it is taken again).
  void give_back(SyncState* s) { free_.push_back(s); }

private:
  void grow() {
    const std::size_t count = chunk_ == 0 ? first_chunk_ : 2 * chunk_;
    lane_chunks_.push_back(std::make_unique<Lane[]>(count * 2 * slots_));
    used_chunks_.push_back(std::make_unique<std::uint64_t[]>(count * words_)); // zeroed
    next_lanes_ = lane_chunks_.back().get();
    next_used_ = used_chunks_.back().get();
    chunk_ = left_ = count;
  }
  std::size_t slots_, words_, first_chunk_;
  std::deque<SyncState> states_; // stable addresses
  std::vector<std::unique_ptr<Lane[]>> lane_chunks_;
  std::vector<std::unique_ptr<std::uint64_t[]>> used_chunks_;
  Lane* next_lanes_ = nullptr;
  std::uint64_t* next_used_ = nullptr;
  std::size_t chunk_ = 0, left_ = 0;
  std::vector<SyncState*> free_;
};

/// A WAIT edge's parts as the sweep keeps them: wait_kinds() in the low four
/// bits, has_unlabelled_wait_part() in bit 4, is_completion_edge() in bit 5.
std::uint8_t pack_parts(const Edge& e) {
  return static_cast<std::uint8_t>(wait_kinds(e).bits() | has_unlabelled_wait_part(e) << 4 |
                                   is_completion_edge(e) << 5);
}
bool demands_completion(std::uint8_t parts) { return (parts & 0x20u) != 0; }
bool admits(const KindFilter& filter, std::uint8_t parts) {
  return filter.admits(KindSet::from_bits(parts), (parts & 0x10u) != 0);
}

/// Graph facts the reduction needs, laid out for the sweep: per-consumer
/// incoming explicit WAIT edges (sources ascending) as compact arrays, so the sweep never touches the large Edge and Node
/// records; the previous instruction on each engine; the asynchronous
/// completions landing on each node; and each node's lane (slot) and key.
struct Structure {
  std::vector<std::uint32_t> in_begin;   // CSR by dst over explicit WAIT edges
  // (arrays, not vectors: every entry is written by the fill, none zeroed first)
  std::unique_ptr<std::uint32_t[]> in_edges; //   index into g.edges
  std::unique_ptr<NodeId[]> in_src;          //   its source
  std::unique_ptr<std::uint8_t[]> in_parts;  //   its WAIT parts, pack_parts()
  std::vector<std::uint32_t> out_wait;   // explicit WAIT edges leaving each node
  std::vector<NodeId> engine_prev;       // kNone if first on its engine
  std::vector<std::uint32_t> async_begin; // CSR: async nodes completing into v
  std::vector<NodeId> async_into;
  std::vector<std::vector<NodeId>> engine_nodes; // nodes per engine, program order
  std::vector<std::uint32_t> slot;       // engine, or num_engines for nodes without one;
  std::vector<std::uint32_t> key;        // engine position, or node id without engine
                                         // (both empty on graphs without engines: 0 and v)
  std::uint32_t slot_of(NodeId v) const { return slot.empty() ? 0 : slot[v]; }
  std::uint32_t key_of(NodeId v) const { return key.empty() ? v : key[v]; }
  bool has_issue_edges = false;          // some WAIT edge is ORDERED-only (S)
  // Per edge of g.edges (index i): its dst (kNotWait if it carries no WAIT)
  // and kinds | flags << 4; from_src[v] = index of v's first edge.
  std::unique_ptr<NodeId[]> dst_of;
  std::unique_ptr<std::uint8_t[]> meta_of;
  std::vector<std::uint32_t> from_src;

  static constexpr NodeId kNone = static_cast<NodeId>(-1);
  static constexpr NodeId kNotWait = static_cast<NodeId>(-1);

  /// Frees what only the sweep needs (the per-edge arrays stay).
  void release_sweep_arrays() {
    in_edges.reset();
    in_src.reset();
    in_parts.reset();
    std::vector<std::uint32_t>().swap(in_begin);
  }

  explicit Structure(const Graph& g) {
    const std::size_t n = g.nodes.size();
    // One pass over the 32-byte Edge records collects what the CSR needs (the
    // destination of each WAIT edge, its kinds, the edge count per source);
    // the fill then reads only those compact arrays. Edges are sorted by src,
    // so the source of edge i follows from the per-source counts, and each
    // per-dst list comes out with ascending sources. The compact arrays (5
    // bytes per edge) stay for the result; the sweep's CSR takes 9 more.
    const std::size_t m_all = g.edges.size();
    in_begin.assign(n + 1, 0);
    out_wait.assign(n, 0);
    from_src.assign(n + 1, 0);
    dst_of = std::make_unique_for_overwrite<NodeId[]>(m_all);
    meta_of = std::make_unique_for_overwrite<std::uint8_t[]>(m_all);
    std::unique_ptr<std::uint8_t[]> parts_of = std::make_unique_for_overwrite<std::uint8_t[]>(m_all);
    bool issue_edges = false;
    {
      std::uint32_t* const begin_counts = in_begin.data();
      std::uint32_t* const out_counts = out_wait.data();
      std::uint32_t* const src_counts = from_src.data();
      const Edge* const edges = g.edges.data();
      for (std::size_t i = 0; i < m_all; ++i) {
        const Edge& e = edges[i];
        const bool wait = is_wait(e);
        ++src_counts[e.src + 1];
        meta_of[i] = static_cast<std::uint8_t>(e.kinds.bits() | e.flags.bits() << 4);
        parts_of[i] = pack_parts(e);
        dst_of[i] = wait ? e.dst : kNotWait;
        begin_counts[e.dst + 1] += wait;
        out_counts[e.src] += wait;
        issue_edges |= wait && !is_completion_edge(e);
      }
    }
    has_issue_edges = issue_edges;
    for (std::size_t v = 0; v < n; ++v) {
      in_begin[v + 1] += in_begin[v];
      from_src[v + 1] += from_src[v];
    }
    const std::size_t m = in_begin[n];
    in_edges = std::make_unique_for_overwrite<std::uint32_t[]>(m);
    in_src = std::make_unique_for_overwrite<NodeId[]>(m);
    in_parts = std::make_unique_for_overwrite<std::uint8_t[]>(m);
    std::vector<std::uint32_t> fill(in_begin.begin(), in_begin.end() - 1);
    for (NodeId v = 0; v < n; ++v)
      for (std::uint32_t i = from_src[v]; i < from_src[v + 1]; ++i) {
        const NodeId d = dst_of[i];
        if (d == kNotWait) continue;
        const std::uint32_t k = fill[d]++;
        in_edges[k] = i;
        in_src[k] = v;
        in_parts[k] = parts_of[i];
      }

    engine_nodes.assign(g.num_engines, {});
    engine_prev.assign(n, kNone);
    async_begin.assign(n + 1, 0);
    if (g.num_engines == 0) return; // no engine order, no async window: nothing below applies
    slot.resize(n);
    key.resize(n);
    for (NodeId v = 0; v < n; ++v) {
      Engine e = g.nodes[v].engine;
      if (e == kNoEngine) {
        slot[v] = g.num_engines, key[v] = v;
        continue;
      }
      slot[v] = e;
      key[v] = g.nodes[v].engine_position;
      if (!engine_nodes[e].empty()) engine_prev[v] = engine_nodes[e].back();
      engine_nodes[e].push_back(v);
    }
    // Each async node a completes into the node w positions later on its
    // engine, if there is one. Taking the async nodes in program order and
    // dealing each to that node's list (a counting sort) gives every list in
    // ascending order, as sorting the (completes into, a) pairs did, in O(n)
    // (the sort was 1.3 % of a 10^6-instruction run).
    std::vector<NodeId> completes_into(n, kNone);
    for (const auto& list : engine_nodes)
      for (std::size_t i = 0; i < list.size(); ++i) {
        const std::uint32_t w = g.nodes[list[i]].async_window;
        if (w == 0 || w == kAsyncInfinite) continue;
        if (i + w < list.size()) completes_into[list[i]] = list[i + w];
      }
    for (NodeId a = 0; a < n; ++a)
      if (completes_into[a] != kNone) ++async_begin[completes_into[a] + 1];
    for (std::size_t v = 0; v < n; ++v) async_begin[v + 1] += async_begin[v];
    async_into.resize(async_begin[n]);
    std::vector<std::uint32_t> next(async_begin.begin(), async_begin.end() - 1);
    for (NodeId a = 0; a < n; ++a)
      if (completes_into[a] != kNone) async_into[next[completes_into[a]]++] = a;
  }
};

using Queries = std::vector<std::pair<HappensBeforeQuery, std::size_t>>;

/// The SyncState sweep behind reduce() and happens_before(). When \p queries
/// is given (sorted by `after`), each query is answered from the consumer's
/// full SyncState when the sweep reaches it. \p kOneLane: the graph has no
/// engine and no S edge, so a SyncState is one lane of bank A keyed by node id
/// (the same algorithm with the slot/bank indirection compiled out).
template <bool kOneLane>
std::vector<std::uint8_t> sweep_lanes(const Graph& g, Structure& st, const ReduceOptions& options, ReduceStats* stats,
                      const Queries* queries, std::vector<bool>* answers) {
  const std::size_t n = g.nodes.size();
  const std::size_t slots = g.num_engines + 1;


  // Bank B (issued-before) differs from bank A only through S relations:
  // engines (in-order issue) or ORDERED-only edges. Without them, skip it.
  const bool track_issue = g.num_engines > 0 || st.has_issue_edges;

  // Membership, insertion and union on the lane(s) of a SyncState.
  auto has = [&](const SyncState& w, NodeId y, bool issue_bank) -> bool {
    if constexpr (kOneLane) return w.only_lane().contains(y);
    else return w.has_completed(st.slot_of(y), st.key_of(y), issue_bank);
  };
  auto add = [&](SyncState& w, NodeId y, bool issue_bank) {
    if constexpr (kOneLane) w.only_lane().add(y);
    else w.set_completed(st.slot_of(y), st.key_of(y), issue_bank);
  };

  // successorCounter: consumers that will merge this node's SyncState.
  std::vector<std::uint32_t> consumers = std::move(st.out_wait); // the sweep counts them down
  for (NodeId v = 0; v < n; ++v)
    if (st.engine_prev[v] != Structure::kNone) ++consumers[st.engine_prev[v]];

  std::vector<SyncState*> state(n, nullptr); // SyncState(v) while v has consumers left
  SyncStateArena arena(slots, n);
  std::size_t live = 0, live_bytes = 0, peak_live = 0, peak_bytes = 0, sparse_closures = 0;
  std::vector<std::size_t> held_bytes(stats ? n : 0, 0);
  auto release = [&](NodeId y) {
    if (--consumers[y] != 0 || !state[y]) return;
    arena.give_back(state[y]);
    state[y] = nullptr;
    --live;
    if (stats) live_bytes -= held_bytes[y];
  };

  // Merge y's SyncState into work. When work is still empty and c is y's
  // last consumer, the two are swapped instead: y's state would be released
  // right after c anyway, so it becomes c's without copying a bitmap.
  auto absorb = [&](SyncState*& work, bool& fresh, NodeId y) {
    if (!state[y]) return;
    if (fresh && consumers[y] == 1) std::swap(work, state[y]);
    else if constexpr (kOneLane) work->only_lane().merge(state[y]->only_lane());
    else work->merge(*state[y], track_issue);
    fresh = false;
  };

  std::vector<std::uint8_t> redundant(g.edges.size(), 0);
  std::size_t candidates = 0;
  std::size_t next_query = 0;

  const bool report = stats && stats->progress;
  for (NodeId c = 0; c < n; ++c) {
    if (report && (c & 0xFFFF) == 0) stats->progress(c, n);
    SyncState* work = arena.take();
    bool fresh = true;
    const std::uint32_t begin = st.in_begin[c], end = st.in_begin[c + 1];

    if (kOneLane && options.mode == ReductionMode::Exact) {
      // No engine, no S edge: no implicit edge, and one lane keyed by node
      // id. The two passes fold into one descending loop: when predecessor y
      // is reached, every closure that can hold y (those of the later
      // predecessors) is merged already, and the earlier ones are below y,
      // so y's membership now is its membership in the final via; c is also
      // done with y's closure then. A y not covered joins via after its
      // closure (which raises the lane's prefix) is merged - except the
      // first, whose closure starts via and may be empty (a source): it is
      // added last, so that a low prefix never pushes it beyond the dense
      // window (a sparse lane, inherited by every closure built from it).
      NodeId first = Structure::kNone;
      for (std::uint32_t k = end; k-- > begin;) {
        const NodeId y = st.in_src[k];
        const bool covered = work->only_lane().contains(y);
        if (!covered) {
          const bool starts = fresh;
          absorb(work, fresh, y);
          if (starts) first = y;
          else work->only_lane().add(y);
        }
        const bool admitted = admits(options.filter, st.in_parts[k]);
        candidates += admitted;
        redundant[st.in_edges[k]] = static_cast<std::uint8_t>(covered & admitted);
        release(y);
      }
      if (first != Structure::kNone) work->only_lane().add(first);
    } else {
      const Node& node = g.nodes[c];
      // Implicit edges (SPEC §3.2). The previous instruction on c's engine
      // issues before c (S), completes before c if synchronous (C), and its
      // SyncState covers every earlier instruction of the engine.
      if (NodeId prev = st.engine_prev[c]; prev != Structure::kNone) {
        absorb(work, fresh, prev);
        fresh = false;
        work->set_completed(st.slot_of(prev), st.key_of(prev), true);
        if (g.nodes[prev].async_window == 0) work->set_completed(st.slot_of(prev), st.key_of(prev), false);
      }
      for (std::uint32_t i = st.async_begin[c]; i < st.async_begin[c + 1]; ++i) {
        NodeId a = st.async_into[i]; // async slot reused w positions later: a C c
        work->set_completed(st.slot_of(a), st.key_of(a), false);
        work->set_completed(st.slot_of(a), st.key_of(a), true);
        fresh = false;
      }
      if (node.barrier && node.engine_position > 0) {
        work->set_completed_prefix(node.engine, node.engine_position - 1);
        fresh = false;
      }

      if (options.mode == ReductionMode::Exact) {
        // Pass 1: via = union of every explicit predecessor's closure. Taken in
        // descending program order, a predecessor y already in via is reached
        // from a later predecessor z, so SyncState(y) ⊆ SyncState(z) (in both
        // banks) is already merged: skipping it leaves via unchanged.
        for (std::uint32_t k = end; k-- > begin;) {
          NodeId y = st.in_src[k];
          if (!has(*work, y, track_issue)) absorb(work, fresh, y);
        }
        // Pass 2: a candidate found in via is redundant; then the predecessor
        // itself joins the closure. (Sources are distinct, so adding y never
        // changes the test of another candidate.)
        for (std::uint32_t k = begin; k < end; ++k) {
          NodeId y = st.in_src[k];
          const bool completion = demands_completion(st.in_parts[k]);
          if (admits(options.filter, st.in_parts[k])) {
            ++candidates;
            redundant[st.in_edges[k]] = has(*work, y, !completion && track_issue);
          }
          if (completion) add(*work, y, false);
          if (track_issue) add(*work, y, true);
        }
      } else {
        // Shipped one-pass loop: fold predecessors in ascending program order,
        // merge first, then test against what has been merged so far.
        for (std::uint32_t k = begin; k < end; ++k) {
          NodeId y = st.in_src[k];
          absorb(work, fresh, y);
          bool completion = demands_completion(st.in_parts[k]);
          bool admitted = admits(options.filter, st.in_parts[k]);
          candidates += admitted;
          if (admitted && has(*work, y, !completion && track_issue)) {
            redundant[st.in_edges[k]] = 1;
          } else {
            if (completion) add(*work, y, false);
            if (track_issue) add(*work, y, true);
          }
        }
        // Redundant predecessors are already in the closure; nothing to add.
      }

      // Release the closures this consumer was the last user of.
      if (NodeId prev = st.engine_prev[c]; prev != Structure::kNone) release(prev);
      for (std::uint32_t k = begin; k < end; ++k) release(st.in_src[k]);
    }

    while (queries && next_query < queries->size() && (*queries)[next_query].first.after == c) {
      const auto& [q, index] = (*queries)[next_query++];
      bool issue = q.relation == Relation::IssuedBefore && track_issue;
      (*answers)[index] = q.before < c && has(*work, q.before, issue);
    }

    if (consumers[c] > 0) {
      work->minimize();
      ++live;
      if (stats) {
        held_bytes[c] = work->bytes();
        sparse_closures += work->any_sparse();
        live_bytes += held_bytes[c];
        peak_bytes = std::max(peak_bytes, live_bytes);
      }
      peak_live = std::max(peak_live, live);
      state[c] = work;
    } else {
      arena.give_back(work);
    }
  }

  if (report) stats->progress(n, n);
  if (stats) {
    stats->candidates = candidates;
    stats->peak_live_closures = peak_live;
    stats->peak_closure_bytes = peak_bytes;
    stats->sparse_closures = sparse_closures;
  }
  return redundant;
}

/// The Reduction for a redundancy mark per edge (1 = redundant), read from
/// the compact per-edge arrays (not the Edge records), in edge order.
Reduction build_result(const Structure& st, const std::vector<std::uint8_t>& redundant) {
  Reduction result;
  const auto count = static_cast<std::size_t>(std::count(redundant.begin(), redundant.end(), std::uint8_t{1}));
  // Every edge is written to the next free entry, which advances only for a
  // redundant one: no branch on the verdict (it is unpredictable), one spare
  // entry at the end absorbs the last write.
  result.removed.resize(count + 1);
  RemovedEdge* out = result.removed.data();
  std::size_t k = 0;
  const std::size_t n = st.from_src.size() - 1;
  for (NodeId v = 0; v < n; ++v)
    for (std::uint32_t i = st.from_src[v]; i < st.from_src[v + 1]; ++i) {
      const std::uint8_t meta = st.meta_of[i];
      const FlagSet flags = FlagSet::from_bits(static_cast<std::uint8_t>(meta >> 4));
      out[k] = {v, st.dst_of[i], KindSet::from_bits(meta), flags, flags.has(Flag::Retain), i};
      k += redundant[i];
    }
  result.removed.pop_back();
  return result;
}

/// Runs the sweep over \p st; returns one redundancy mark per edge of g.edges.
std::vector<std::uint8_t> sweep(const Graph& g, Structure& st, const ReduceOptions& options, ReduceStats* stats,
                                const Queries* queries, std::vector<bool>* answers) {
  if (g.num_engines == 0 && !st.has_issue_edges) return sweep_lanes<true>(g, st, options, stats, queries, answers);
  return sweep_lanes<false>(g, st, options, stats, queries, answers);
}

} // namespace

Reduction reduce(const Graph& g, const ReduceOptions& options, ReduceStats* stats) {
  Structure st(g);
  const std::vector<std::uint8_t> redundant = sweep(g, st, options, stats, nullptr, nullptr);
  st.release_sweep_arrays(); // the closures are gone too: peak memory is the sweep's
  return build_result(st, redundant);
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
  Structure st(g);
  sweep(g, st, none, nullptr, &sorted, &answers);
  return answers;
}

// The witness search and the hop check are paths.cpp's: a witness of the
// edge src -> dst is a path of its own relation that does not use the edge.

std::optional<Witness> find_witness(const Graph& g, NodeId src, NodeId dst) {
  return PathFinder(g).witness(src, dst);
}

bool is_witness(const Graph& g, NodeId src, NodeId dst, const Witness& w) {
  auto it = std::lower_bound(g.edges.begin(), g.edges.end(), std::make_pair(src, dst),
                             [](const Edge& e, const std::pair<NodeId, NodeId>& k) {
                               return std::make_pair(e.src, e.dst) < k;
                             });
  if (it == g.edges.end() || it->src != src || it->dst != dst || !is_wait(*it)) return false;
  for (const Hop& h : w.hops)
    if (h.from == src && h.to == dst &&
        (h.kind == HopKind::ExplicitCompletion || h.kind == HopKind::ExplicitIssue))
      return false; // the edge itself
  return is_path(g, src, dst, is_completion_edge(*it) ? Relation::CompletedBefore : Relation::IssuedBefore, w);
}

namespace {

/// Checks that \p r names edges of \p g, in order; returns how many it demotes.
std::size_t check_reduction(const Graph& g, const Reduction& r, const char* who) {
  std::size_t demoted = 0, next = 0; // r.removed is sorted by edge index
  for (const RemovedEdge& x : r.removed) {
    if (x.edge < next || x.edge >= g.edges.size() || g.edges[x.edge].src != x.src || g.edges[x.edge].dst != x.dst)
      throw std::invalid_argument(std::string(who) + ": the reduction names an edge the graph does not have (index " +
                                  std::to_string(x.edge) + ")");
    demoted += x.demoted_to_retain;
    next = x.edge + 1;
  }
  return demoted;
}

/// A demoted edge: no WAIT part is left, so the part fields are cleared (Edge's normal form).
void demote(Edge& e) {
  e.flags = FlagSet::retain();
  e.retain_only_kinds = KindSet();
  e.unlabelled_wait_part = false;
}

} // namespace

std::vector<Edge> kept_edges(const Graph& g, const Reduction& r) {
  const std::size_t demoted = check_reduction(g, r, "kept_edges");
  std::size_t next = 0;
  std::vector<Edge> kept;
  kept.reserve(g.edges.size() - r.removed.size() + demoted);
  auto from = [&g](std::size_t i) { return g.edges.begin() + static_cast<std::ptrdiff_t>(i); };
  next = 0;
  for (const RemovedEdge& x : r.removed) {
    kept.insert(kept.end(), from(next), from(x.edge));
    if (x.demoted_to_retain) demote(kept.emplace_back(g.edges[x.edge]));
    next = x.edge + 1;
  }
  kept.insert(kept.end(), from(next), g.edges.end());
  return kept;
}

Graph apply(const Graph& g, const Reduction& r) {
  std::vector<Edge> edges = kept_edges(g, r); // throws before anything is copied
  Graph out;
  static_cast<GraphHeader&>(out) = g; // file, name, attributes, engines, subgraphs
  out.nodes = g.nodes;
  out.edges = std::move(edges);
  out.self_loops = g.self_loops;
  return out;
}

Graph apply(Graph&& g, const Reduction& r) {
  (void)check_reduction(g, r, "apply"); // throws before anything is moved
  std::size_t write = 0, next = 0;
  auto keep = [&](std::size_t i) {
    if (write != i) g.edges[write] = std::move(g.edges[i]);
    ++write;
  };
  for (const RemovedEdge& x : r.removed) {
    for (std::size_t i = next; i < x.edge; ++i) keep(i);
    if (x.demoted_to_retain) {
      keep(x.edge);
      demote(g.edges[write - 1]);
    }
    next = x.edge + 1;
  }
  for (std::size_t i = next; i < g.edges.size(); ++i) keep(i);
  g.edges.erase(g.edges.begin() + static_cast<std::ptrdiff_t>(write), g.edges.end());
  return std::move(g);
}

} // namespace depreduce
