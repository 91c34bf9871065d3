//===- online_reduction.cpp - Online exact reduction (SPEC §4 online form) ===//
///
/// \file
/// The sweep of transitive_reduction.cpp, one consumer at a time as the caller
/// adds it: the open node's closure starts from its implicit engine edges
/// (add_node), then add_edges() runs the two passes of SPEC §4 over its
/// explicit sources (grouped, so the enumeration order does not matter) and
/// the closure is kept while the node may still be read (its consumers, or
/// the next node of its engine).
///
/// Closures live in one pool of lanes (lane.hpp, the same lane as reduce()'s),
/// 2 * slots lanes each (bank A, then bank B), with a mask of the lanes in use.
/// Bank B is only kept apart from bank A once it can differ: on graphs with
/// engines from the start, on graphs without engines from the first
/// ORDERED-only (S) edge, when every live closure's bank A is copied into its
/// bank B (until then B = A).
//===----------------------------------------------------------------------===//
#include "depreduce/online_reduction.hpp"

#include "lane.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <string>
#include <utility>

namespace depreduce {
namespace {
using detail::Lane;
constexpr std::uint32_t kNone = ~std::uint32_t{0};
// Node state bits.
constexpr std::uint8_t kRetired = 1; // no further WAIT consumer may come
constexpr std::uint8_t kSync = 2;    // async_window == 0

/// One part of the open node's edges, as add_edges() groups them.
struct Part {
  NodeId src;
  std::uint32_t index; // position in the caller's span
  KindSet kinds;
  FlagSet flags;
};
bool part_before(const Part& a, const Part& b) noexcept {
  return a.src != b.src ? a.src < b.src : a.index < b.index;
}

/// One source of the open node: its parts merged (SPEC §2).
struct Source {
  NodeId src;
  std::uint32_t first;  // index of its first part in the caller's span
  KindSet kinds;        // all parts
  FlagSet flags;        // all parts
  KindSet wait_kinds;   // WAIT parts only
  bool wait = false;    // some part carries WAIT
  bool unlabelled_wait = false;
  bool completion = false; // some WAIT part demands C
};
} // namespace

struct OnlineReducer::Impl {
  OnlineOptions opt;
  std::uint32_t slots = 1; // num_engines + 1: engines, then nodes without engine
  std::uint32_t words = 1; // used-mask words per closure
  bool track_issue = false;

  // The closure pool.
  std::vector<Lane> lanes;
  std::vector<std::uint64_t> used;
  std::vector<std::uint32_t> free_list;
  std::uint32_t closures = 0;

  // Per node.
  std::vector<std::uint32_t> slot_of, key_of, closure_of, remaining;
  std::vector<std::uint8_t> bits;
  // Per engine: its last node, its next position, and the asynchronous nodes
  // still to complete into a later position (min-heap of (position, key)).
  std::vector<std::uint32_t> tail, count;
  std::vector<std::vector<std::pair<std::uint64_t, std::uint32_t>>> due;

  NodeId n = 0;
  bool open = false;
  bool fresh = false; // the open node's closure is still empty
  std::size_t peak = 0;

  std::vector<Part> parts;
  std::vector<Source> sources;

  ~Impl() { release_all(); }
  void release_all() {
    for (Lane& l : lanes) l.release();
  }

  std::size_t live() const { return closures - free_list.size(); }

  Lane& lane_at(std::uint32_t ci, std::uint32_t slot, bool issue) {
    const std::size_t i = std::size_t{issue ? slots : 0} + slot;
    used[std::size_t{ci} * words + i / 64] |= std::uint64_t{1} << (i % 64);
    return lanes[std::size_t{ci} * 2 * slots + i];
  }
  const Lane& lane_at(std::uint32_t ci, std::uint32_t slot, bool issue) const {
    return lanes[std::size_t{ci} * 2 * slots + (issue ? slots : 0) + slot];
  }
  bool has(std::uint32_t ci, NodeId y, bool issue) const { return lane_at(ci, slot_of[y], issue).contains(key_of[y]); }
  void add(std::uint32_t ci, NodeId y, bool issue) { lane_at(ci, slot_of[y], issue).add(key_of[y]); }

  std::uint32_t take() {
    const std::uint32_t ci = take_any();
    peak = std::max(peak, live());
    return ci;
  }
  std::uint32_t take_any() {
    if (!free_list.empty()) {
      const std::uint32_t ci = free_list.back();
      free_list.pop_back();
      clear(ci);
      return ci;
    }
    lanes.resize(lanes.size() + 2 * std::size_t{slots});
    used.resize(used.size() + words, 0);
    return closures++;
  }
  void clear(std::uint32_t ci) {
    for (std::uint32_t w = 0; w < words; ++w) {
      std::uint64_t& mask = used[std::size_t{ci} * words + w];
      for (std::uint64_t b = mask; b; b &= b - 1)
        lanes[std::size_t{ci} * 2 * slots + 64 * w + static_cast<std::uint32_t>(std::countr_zero(b))].clear();
      mask = 0;
    }
  }
  void give_back(std::uint32_t ci) { free_list.push_back(ci); }
  /// dst ∪= src, bank-wise (bank B only when it is tracked).
  void merge(std::uint32_t dst, std::uint32_t src) {
    const std::uint32_t end = track_issue ? 2 * slots : slots;
    for (std::uint32_t w = 0; w < words; ++w)
      for (std::uint64_t b = used[std::size_t{src} * words + w]; b; b &= b - 1) {
        const std::uint32_t i = 64 * w + static_cast<std::uint32_t>(std::countr_zero(b));
        if (i >= end) break;
        used[std::size_t{dst} * words + w] |= std::uint64_t{1} << (i % 64);
        lanes[std::size_t{dst} * 2 * slots + i].merge(lanes[std::size_t{src} * 2 * slots + i]);
      }
  }

  bool is_tail(NodeId y) const { return slot_of[y] < opt.num_engines && tail[slot_of[y]] == y; }
  /// Drops y's closure if nothing can read it any more.
  void drop_if_unused(NodeId y) {
    if ((bits[y] & kRetired) && !is_tail(y) && closure_of[y] != kNone) {
      give_back(closure_of[y]);
      closure_of[y] = kNone;
    }
  }
  /// Merges y's closure into the open node's; takes it over instead when the
  /// open closure is empty and this is y's last reader.
  void absorb(NodeId c, NodeId y, bool last_reader) {
    if (fresh && last_reader) {
      std::swap(closure_of[c], closure_of[y]);
      give_back(closure_of[y]);
      closure_of[y] = kNone;
    } else {
      merge(closure_of[c], closure_of[y]);
    }
    fresh = false;
  }

  /// From now on bank B is kept apart: it starts as a copy of bank A.
  void track_issue_bank() {
    for (NodeId v = 0; v < n; ++v) {
      const std::uint32_t ci = closure_of[v];
      if (ci == kNone) continue;
      for (std::uint32_t i = 0; i < slots; ++i)
        if ((used[std::size_t{ci} * words + i / 64] >> (i % 64)) & 1u) {
          Lane& b = lane_at(ci, i, true);
          b.merge(lanes[std::size_t{ci} * 2 * slots + i]);
        }
    }
    track_issue = true;
  }

  void finish(NodeId c) {
    open = false;
    if (remaining[c] == 0) bits[c] |= kRetired;
    drop_if_unused(c);
  }
};

OnlineReducer::OnlineReducer() : impl_(std::make_unique<Impl>()) { (void)reset(OnlineOptions{}); }
OnlineReducer::~OnlineReducer() = default;
OnlineReducer::OnlineReducer(OnlineReducer&&) noexcept = default;
OnlineReducer& OnlineReducer::operator=(OnlineReducer&&) noexcept = default;

Status OnlineReducer::reset(const OnlineOptions& options) {
  Impl& m = *impl_;
  Status status;
  OnlineOptions o = options;
  if (o.num_engines > kMaxEngines) {
    status = Status(ErrorCode::EngineOutOfRange, o.num_engines,
                    "engine count " + std::to_string(o.num_engines) + " exceeds " + std::to_string(kMaxEngines));
    o = m.opt;
  }
  m.release_all();
  m.opt = o;
  m.slots = o.num_engines + 1;
  m.words = (2 * m.slots + 63) / 64;
  m.track_issue = o.num_engines > 0;
  m.lanes.clear();
  m.used.clear();
  m.free_list.clear();
  m.closures = 0;
  m.slot_of.clear();
  m.key_of.clear();
  m.closure_of.clear();
  m.remaining.clear();
  m.bits.clear();
  m.tail.assign(o.num_engines, kNone);
  m.count.assign(o.num_engines, 0);
  for (auto& d : m.due) d.clear();
  m.due.resize(o.num_engines);
  m.n = 0;
  m.open = false;
  m.fresh = false;
  m.peak = 0;
  return status;
}

Status OnlineReducer::add_node(const OnlineNodeSpec& spec, NodeId* id) {
  Impl& m = *impl_;
  if (spec.engine != kNoEngine && spec.engine >= m.opt.num_engines)
    return Status(ErrorCode::EngineOutOfRange, m.n,
                  "node " + std::to_string(m.n) + ": engine " + std::to_string(spec.engine) + " is not below the " +
                      std::to_string(m.opt.num_engines) + " engine(s) declared");
  if (m.n == kNone) return Status(ErrorCode::NodeOutOfRange, m.n, "too many nodes");
  if (m.open) m.finish(m.n - 1);

  const NodeId c = m.n++;
  const std::uint32_t ci = m.take();
  m.slot_of.push_back(spec.engine == kNoEngine ? m.opt.num_engines : spec.engine);
  m.key_of.push_back(c);
  m.closure_of.push_back(ci);
  m.remaining.push_back(spec.successors);
  m.bits.push_back(spec.async_window == 0 ? kSync : 0);
  m.open = true;
  m.fresh = true;
  if (spec.engine == kNoEngine) {
    if (id) *id = c;
    return Status::success();
  }

  // Implicit engine order (SPEC §3.2).
  const Engine e = spec.engine;
  const std::uint32_t pos = m.count[e]++;
  m.key_of[c] = pos;
  if (const NodeId prev = m.tail[e]; prev != kNone) {
    m.tail[e] = c; // prev's closure is read once more, here
    const bool last = (m.bits[prev] & kRetired) != 0;
    m.absorb(c, prev, last);
    m.add(m.closure_of[c], prev, true); // prev S c
    if (m.bits[prev] & kSync) m.add(m.closure_of[c], prev, false);
    m.drop_if_unused(prev);
  }
  m.tail[e] = c;
  auto& heap = m.due[e];
  const auto later = std::greater<>();
  while (!heap.empty() && heap.front().first == pos) { // async slot reused w positions later: a C c
    const std::uint32_t key = heap.front().second;
    std::pop_heap(heap.begin(), heap.end(), later);
    heap.pop_back();
    m.lane_at(m.closure_of[c], e, false).add(key);
    m.lane_at(m.closure_of[c], e, true).add(key);
    m.fresh = false;
  }
  if (spec.barrier && pos > 0) {
    m.lane_at(m.closure_of[c], e, false).add_prefix(pos - 1);
    m.lane_at(m.closure_of[c], e, true).add_prefix(pos - 1);
    m.fresh = false;
  }
  if (spec.async_window != 0 && spec.async_window != kAsyncInfinite) {
    heap.emplace_back(std::uint64_t{pos} + spec.async_window, pos);
    std::push_heap(heap.begin(), heap.end(), later);
  }
  if (id) *id = c;
  return Status::success();
}

Status OnlineReducer::implied(NodeId p, NodeId c, Relation relation, bool* out) const {
  const Impl& m = *impl_;
  if (!out) return Status(ErrorCode::BadArgument, 0, "implied: null output");
  if (c >= m.n) return Status(ErrorCode::NodeOutOfRange, c, "node " + std::to_string(c) + " was not added");
  if (p >= c)
    return Status(ErrorCode::NotProgramOrder, p,
                  "edge " + std::to_string(p) + " -> " + std::to_string(c) + " does not go forward in program order");
  const std::uint32_t ci = m.closure_of[c];
  if ((m.bits[c] & kRetired) || ci == kNone)
    return Status(ErrorCode::BadState, c, "node " + std::to_string(c) + " is retired: its closure is gone");
  *out = m.has(ci, p, relation == Relation::IssuedBefore && m.track_issue);
  return Status::success();
}

Status OnlineReducer::implied(NodeId p, NodeId c, KindSet kinds, bool* out) const {
  const bool issue = kinds == KindSet(Kind::Ordered);
  return implied(p, c, issue ? Relation::IssuedBefore : Relation::CompletedBefore, out);
}

Status OnlineReducer::add_edges(NodeId c, std::span<const OnlineEdge> edges, std::vector<RemovedEdge>& removed) {
  Impl& m = *impl_;
  if (!m.open || c + 1 != m.n)
    return Status(ErrorCode::BadState, c, "node " + std::to_string(c) + " is not the open node");

  // Group the parts by source (the answer must not depend on their order).
  auto& parts = m.parts;
  parts.clear();
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const OnlineEdge& e = edges[i];
    if (e.src > c)
      return Status(ErrorCode::NotProgramOrder, i,
                    "edge " + std::to_string(i) + ": " + std::to_string(e.src) + " -> " + std::to_string(c) +
                        " goes backward in program order");
    if (e.src == c) continue; // a self-loop: never a path, never removed
    parts.push_back({e.src, static_cast<std::uint32_t>(i), e.kinds, e.flags});
  }
  if (parts.size() > 16) {
    std::sort(parts.begin(), parts.end(), part_before);
  } else {
    for (std::size_t i = 1; i < parts.size(); ++i) {
      const Part x = parts[i];
      std::size_t j = i;
      for (; j > 0 && part_before(x, parts[j - 1]); --j) parts[j] = parts[j - 1];
      parts[j] = x;
    }
  }
  auto& sources = m.sources;
  sources.clear();
  bool any_issue = false;
  for (std::size_t i = 0; i < parts.size();) {
    Source s{parts[i].src, parts[i].index, {}, {}, {}, false, false, false};
    std::uint32_t first_wait = kNone;
    for (; i < parts.size() && parts[i].src == s.src; ++i) {
      const Part& p = parts[i];
      s.kinds |= p.kinds;
      s.flags |= p.flags;
      if (!p.flags.has(Flag::Wait)) continue;
      if (first_wait == kNone) first_wait = p.index;
      s.wait = true;
      s.wait_kinds |= p.kinds;
      if (p.kinds.empty()) s.unlabelled_wait = true;
      if (p.kinds.empty() || p.kinds.intersects(KindSet::data())) s.completion = true;
    }
    if (s.wait && (m.bits[s.src] & kRetired))
      return Status(ErrorCode::BadState, first_wait,
                    "edge " + std::to_string(first_wait) + ": source " + std::to_string(s.src) +
                        (m.remaining[s.src] == 0 ? " already had its declared number of consumers"
                                                 : " was retired"));
    any_issue |= s.wait && !s.completion;
    sources.push_back(s);
  }
  if (any_issue && !m.track_issue) m.track_issue_bank();

  // Pass 1: via = union of every WAIT source's closure, in descending program
  // order (a source already covered adds nothing: its closure is inside).
  for (std::size_t k = sources.size(); k-- > 0;) {
    const Source& s = sources[k];
    if (!s.wait || m.has(m.closure_of[c], s.src, m.track_issue)) continue;
    const bool last = m.remaining[s.src] == 1 && !m.is_tail(s.src);
    m.absorb(c, s.src, last);
  }
  // Pass 2: a candidate found in via is redundant; then the source joins.
  removed.clear();
  const std::uint32_t ci = m.closure_of[c];
  for (const Source& s : sources) {
    if (!s.wait) continue;
    if (m.opt.filter.admits(s.wait_kinds, s.unlabelled_wait) && m.has(ci, s.src, !s.completion && m.track_issue))
      removed.push_back({s.src, c, s.kinds, s.flags, s.flags.has(Flag::Retain), s.first});
    if (s.completion) m.add(ci, s.src, false);
    if (m.track_issue) m.add(ci, s.src, true);
  }
  m.fresh = false;
  // Count the consumers down; sources with none left retire.
  for (const Source& s : sources) {
    if (!s.wait || m.remaining[s.src] == kUnknownSuccessors) continue;
    if (--m.remaining[s.src] == 0) {
      m.bits[s.src] |= kRetired;
      m.drop_if_unused(s.src);
    }
  }
  m.finish(c);
  return Status::success();
}

Status OnlineReducer::retire(NodeId v) {
  Impl& m = *impl_;
  if (v >= m.n) return Status(ErrorCode::NodeOutOfRange, v, "node " + std::to_string(v) + " was not added");
  if (m.open && v + 1 == m.n)
    return Status(ErrorCode::BadState, v, "node " + std::to_string(v) + " is open: add its edges first");
  if (m.bits[v] & kRetired) return Status(ErrorCode::BadState, v, "node " + std::to_string(v) + " is already retired");
  m.bits[v] |= kRetired;
  m.drop_if_unused(v);
  return Status::success();
}

NodeId OnlineReducer::size() const noexcept { return impl_->n; }
std::size_t OnlineReducer::live_closures() const noexcept { return impl_->live(); }
std::size_t OnlineReducer::peak_live_closures() const noexcept { return impl_->peak; }
const OnlineOptions& OnlineReducer::options() const noexcept { return impl_->opt; }

} // namespace depreduce
