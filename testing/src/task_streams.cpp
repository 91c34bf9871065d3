//===- task_streams.cpp - Window reducer adapters and random task streams -===//
#include "depreduce/testing/task_streams.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "depreduce/reference/window_reducer.hpp"

namespace depreduce::testing {

bool WindowImpl::supports(unsigned bl) const noexcept {
  switch (bl) {
  case 64: return run64 != nullptr;
  case 128: return run128 != nullptr;
  case 256: return run256 != nullptr;
  default: return false;
  }
}

WindowRun WindowImpl::run(unsigned bl, const TaskStream& stream, const WindowOptions& options) const {
  if (bl != 64 && bl != 128 && bl != 256)
    throw std::invalid_argument("window size must be 64, 128 or 256, not " + std::to_string(bl));
  if (!supports(bl)) throw std::invalid_argument(name + " does not implement BL = " + std::to_string(bl));
  return (bl == 64 ? run64 : bl == 128 ? run128 : run256)(stream, options);
}

namespace {
std::vector<WindowImpl>& window_registry() {
  static std::vector<WindowImpl> impls = {
      {"optimized", &depreduce::run_window<64>, &depreduce::run_window<128>, &depreduce::run_window<256>},
      {"reference", &depreduce::reference::run_window<64>, &depreduce::reference::run_window<128>,
       &depreduce::reference::run_window<256>},
  };
  return impls;
}
} // namespace

const std::vector<WindowImpl>& window_impls() { return window_registry(); }

bool register_window_impl(WindowImpl impl) {
  window_registry().push_back(std::move(impl));
  return true;
}
const WindowImpl& optimized_window() { return window_impls()[0]; }
const WindowImpl& reference_window() { return window_impls()[1]; }

namespace {

/// Per-ring local-id bookkeeping shared by both generators: the runtime gives
/// each ring's tasks consecutive local ids and maps them onto slots.
struct RingClock {
  std::vector<std::uint64_t> next_local;
  std::uint32_t slots;
  RingClock(std::uint32_t rings, std::uint32_t slots_per_ring) : next_local(rings, 0), slots(slots_per_ring) {}
  /// Next task on \p ring: its TaskId and generation.
  std::pair<TaskId, Generation> next(std::uint32_t ring) {
    const std::uint64_t local = next_local[ring]++;
    return {make_task_id(ring, static_cast<std::uint32_t>(local % slots)), static_cast<Generation>(local / slots)};
  }
};

const DepSource kSources[] = {DepSource::Creator, DepSource::TensorMap, DepSource::Explicit};
const unsigned kEdges[] = {64, 128, 256};

} // namespace

WindowCase random_stream(std::uint64_t seed, const StreamParams& p) {
  std::mt19937_64 rng(seed);
  auto pct = [&](unsigned percent) { return std::uniform_int_distribution<unsigned>(0, 99)(rng) < percent; };
  auto uniform = [&](std::uint64_t lo, std::uint64_t hi) { return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng); };

  WindowCase out;
  out.options.rings = std::max<std::uint32_t>(1, p.rings);
  out.options.slots_per_ring = std::max<std::uint32_t>(1, p.slots_per_ring);
  out.options.seq_width = p.seq_width;
  out.options.initial_seq = p.initial_seq;
  RingClock clock(out.options.rings, out.options.slots_per_ring);
  std::uint32_t ring = 0;
  out.stream.reserve(p.tasks);
  for (std::size_t i = 0; i < p.tasks; ++i) {
    if (pct(p.ring_switch_percent)) ring = static_cast<std::uint32_t>(uniform(0, out.options.rings - 1));
    TaskRecord t;
    std::tie(t.id, t.generation) = clock.next(ring);
    const unsigned k = i == 0 ? 0 : static_cast<unsigned>(uniform(0, p.max_candidates));
    for (unsigned c = 0; c < k; ++c) {
      if (!t.candidates.empty() && pct(p.duplicate_percent)) {
        Candidate dup = t.candidates[uniform(0, t.candidates.size() - 1)];
        dup.source = kSources[uniform(0, 2)];
        dup.flags = pct(50) ? FlagSet::wait() : FlagSet::retain();
        t.candidates.push_back(dup);
        continue;
      }
      std::uint64_t d;
      const unsigned r = static_cast<unsigned>(uniform(0, 99));
      if (r < p.near_percent) d = uniform(1, 6);
      else if (r < p.near_percent + p.edge_percent) d = kEdges[uniform(0, 2)] - 2 + uniform(0, 4);
      else d = uniform(1, p.max_distance == 0 ? i : std::min<std::uint64_t>(i, p.max_distance));
      d = std::min<std::uint64_t>(d, i);
      const TaskRecord& prod = out.stream[i - d];
      Candidate cand;
      cand.producer = prod.id;
      cand.generation = prod.generation;
      if (pct(p.stale_percent)) cand.generation = prod.generation + static_cast<Generation>(uniform(1, 2));
      if (pct(p.retain_percent)) cand.flags = pct(50) ? (FlagSet::wait() | FlagSet::retain()) : FlagSet::retain();
      cand.source = kSources[uniform(0, 2)];
      t.candidates.push_back(cand);
    }
    std::shuffle(t.candidates.begin(), t.candidates.end(), rng);
    out.stream.push_back(std::move(t));
  }
  return out;
}

namespace {
/// Reads fuzzer bytes one at a time; past the end it yields zeros.
class ByteReader {
public:
  ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool done() const { return pos_ >= size_; }
  std::uint8_t next() { return pos_ < size_ ? data_[pos_++] : 0; }
private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};
} // namespace

WindowCase stream_from_bytes(const std::uint8_t* data, std::size_t size, std::size_t max_tasks) {
  ByteReader in(data, size);
  WindowCase out;
  // Header: geometry and sequence width / start. 1024 slots (max_tasks if
  // more) stand for the runtime's 16384: a ring of at most that many tasks
  // never reuses a slot in either, so the stream is the same, and a
  // 16384-slot table cost 0.3 s a run under ASan (clearing the slot tables of
  // every reducer fuzz_window_reducer_diff builds: 4 rings x 16384 x 6 geometries).
  const std::uint32_t kSlots[] = {3, 16, 64, 300,
                                  static_cast<std::uint32_t>(std::max<std::size_t>(1024, max_tasks))};
  // Byte 0 also chooses the one mode and window size the input is run for
  // (bit 2, bits 3-7 % 3): one run per twin instead of six, and the corpus
  // as a whole still covers every combination (fuzz/window_seeds.py).
  const std::uint8_t b0 = in.next();
  out.options.rings = 1 + b0 % 4u;
  out.options.mode = (b0 & 4) ? WindowMode::SameRing : WindowMode::Global;
  out.window = kEdges[(b0 >> 3) % 3u];
  out.options.slots_per_ring = kSlots[in.next() % 5u];
  const std::uint8_t seq = in.next();
  out.options.seq_width = (seq & 1) ? 32 : 64;
  if (seq & 2) { // start just before the wrap
    const std::uint64_t top = out.options.seq_width == 32 ? 0xffffffffu : ~std::uint64_t{0};
    out.options.initial_seq = top - (seq >> 2) % 16u;
  }
  RingClock clock(out.options.rings, out.options.slots_per_ring);
  std::uint32_t ring = 0;
  while (!in.done() && out.stream.size() < max_tasks) {
    const std::size_t i = out.stream.size();
    const std::uint8_t head = in.next();
    if (head == 0xfe && i > 0) { // a run of 1 + (g >> 1) tasks, a chain (g even) or independent (g odd)
      const std::uint8_t g = in.next();
      for (unsigned r = 0; r <= g >> 1u && out.stream.size() < max_tasks; ++r) {
        TaskRecord t;
        std::tie(t.id, t.generation) = clock.next(ring);
        if (!(g & 1)) {
          const TaskRecord& prev = out.stream.back();
          t.candidates.push_back({prev.id, prev.generation, FlagSet::wait(), DepSource::Creator});
        }
        out.stream.push_back(std::move(t));
      }
      continue;
    }
    if (head & 0x80) ring = (head >> 4) % out.options.rings;
    TaskRecord t;
    if (head == 0xff && i > 0) { // republish the previous task's (slot, generation): an error both twins must report
      t.id = out.stream[i - 1].id;
      t.generation = out.stream[i - 1].generation;
    } else {
      std::tie(t.id, t.generation) = clock.next(ring);
    }
    const unsigned k = i == 0 ? 0 : head % 9u;
    for (unsigned c = 0; c < k; ++c) {
      const std::uint8_t a = in.next(), b = in.next();
      if (a == 0xff) { // a producer on a ring that does not exist: an error
        t.candidates.push_back({make_task_id(out.options.rings, 0), 0, FlagSet::wait(), DepSource::Explicit});
        continue;
      }
      const unsigned kind = a & 7u;
      if (kind == 7 && !t.candidates.empty()) { // duplicate an earlier candidate from another source
        Candidate dup = t.candidates[b % t.candidates.size()];
        dup.source = kSources[(a >> 3) % 3u];
        dup.flags = (a & 0x40) ? FlagSet::retain() : FlagSet::wait();
        t.candidates.push_back(dup);
        continue;
      }
      std::uint64_t d;
      if (kind <= 2) d = 1 + b % 8u;                               // near
      else if (kind == 3) d = kEdges[b % 3u] - 2 + (b / 3u) % 5u; // around a window edge
      else if (kind == 4) d = 1 + b;                               // 1..256
      else d = 1 + static_cast<std::uint64_t>(b) * 2;              // 1..511
      d = std::min<std::uint64_t>(d, i);
      const TaskRecord& prod = out.stream[i - d];
      Candidate cand{prod.id, prod.generation, FlagSet::wait(), kSources[(a >> 3) % 3u]};
      if (kind == 6) cand.generation += 1 + (b & 1); // stale: a generation the slot does not hold (now)
      switch ((a >> 5) & 3u) {
      case 0: case 1: break;
      case 2: cand.flags = FlagSet::wait() | FlagSet::retain(); break;
      case 3: cand.flags = (a & 0x80) ? FlagSet::retain() : FlagSet(); break;
      }
      t.candidates.push_back(cand);
    }
    out.stream.push_back(std::move(t));
  }
  return out;
}

TaskStream shuffled_candidates(const TaskStream& stream, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  TaskStream out = stream;
  for (TaskRecord& t : out) std::shuffle(t.candidates.begin(), t.candidates.end(), rng);
  return out;
}

Graph full_wait_graph(const TaskStream& stream) {
  std::map<std::pair<TaskId, Generation>, NodeId> last; // (TaskId, generation) -> latest task
  std::vector<std::pair<NodeId, NodeId>> edges;
  for (std::size_t i = 0; i < stream.size(); ++i) {
    const TaskRecord& t = stream[i];
    for (const Candidate& c : t.candidates) {
      if (!c.flags.has(Flag::Wait)) continue;
      auto it = last.find({c.producer, c.generation});
      if (it != last.end()) edges.emplace_back(it->second, static_cast<NodeId>(i));
    }
    last[{t.id, t.generation}] = static_cast<NodeId>(i);
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return graph_from_edges(static_cast<std::uint32_t>(stream.size()), edges);
}

namespace {
template <unsigned BL>
std::string flags_difference(const WindowCase& c, WindowKernel kernel) {
  WindowOptions lean_options = c.options;
  lean_options.kernel = kernel;
  window_reducer<BL> full(c.options), lean(lean_options);
  // An audit reads every slot: after every submit it is quadratic, so only
  // for small tables and short streams (else every 64th submit and the last).
  const bool audit_every_submit = std::uint64_t{c.options.rings} * c.options.slots_per_ring <= 1024 &&
                                  std::uint64_t{c.options.rings} * c.options.slots_per_ring * c.stream.size() <= 16384;
  std::vector<WindowEdge> edges;
  std::vector<FlagSet> eff;
  for (std::size_t i = 0; i < c.stream.size(); ++i) {
    const TaskRecord& t = c.stream[i];
    full.submit(t.id, t.generation, t.candidates, edges);
    eff.assign(t.candidates.size(), FlagSet());
    const std::size_t removed = lean.submit_flags(t.id, t.generation, t.candidates, eff);
    std::size_t expect_removed = 0;
    for (std::size_t j = 0; j < t.candidates.size(); ++j) {
      const Candidate& cand = t.candidates[j];
      bool lost = false;
      for (const WindowEdge& e : edges)
        if (e.producer == cand.producer && e.producer_generation == cand.generation) lost = e.wait_removed();
      const FlagSet want = lost && cand.flags.has(Flag::Wait) ? cand.flags.without(Flag::Wait) : cand.flags;
      expect_removed += want != cand.flags;
      if (eff[j] != want) {
        std::ostringstream s;
        s << "BL=" << BL << " task " << i << " candidate " << j << ": submit_flags (" << lean.kernel_name()
          << " kernel) gave '" << to_string(eff[j])
          << "', submit implies '" << to_string(want) << "'";
        return s.str();
      }
    }
    if (removed != expect_removed)
      return "BL=" + std::to_string(BL) + " task " + std::to_string(i) + ": submit_flags counted a different removal total";
    if (full.published(t.id, t.generation) != lean.published(t.id, t.generation))
      return "BL=" + std::to_string(BL) + " task " + std::to_string(i) + ": published bitmaps differ";
    // The parking invariant submit_flags relies on, after every submit (every
    // 64th for large configurations: the audit reads every slot).
    if (audit_every_submit || i % 64 == 63 || i + 1 == c.stream.size())
      for (const auto* r : {&full, &lean})
        if (auto bad = r->audit())
          return "BL=" + std::to_string(BL) + " task " + std::to_string(i) + ": audit after " +
                 (r == &full ? "submit" : "submit_flags") + ": " + *bad;
  }
  if (full.next_seq() != lean.next_seq()) return "BL=" + std::to_string(BL) + ": next sequence numbers differ";
  return "";
}
} // namespace

std::string submit_flags_difference(unsigned bl, const WindowCase& c) {
  try {
    for (WindowKernel kernel : {WindowKernel::Auto, WindowKernel::Portable}) {
      std::string diff;
      switch (bl) {
      case 64: diff = flags_difference<64>(c, kernel); break;
      case 128: diff = flags_difference<128>(c, kernel); break;
      case 256: diff = flags_difference<256>(c, kernel); break;
      default: throw std::invalid_argument("window size must be 64, 128 or 256, not " + std::to_string(bl));
      }
      if (!diff.empty()) return diff;
    }
    return "";
  } catch (const InputError& e) {
    throw InputError("<stream>", 0, e.problem());
  }
}

namespace {
std::string id_text(TaskId id, Generation g) {
  return std::to_string(task_ring(id)) + ":" + std::to_string(task_slot(id)) + "@" + std::to_string(g);
}
std::string edge_text(const WindowEdge& e) {
  return id_text(e.producer, e.producer_generation) + " d=" + std::to_string(e.distance) + " " + to_string(e.status) +
         " " + to_string(e.input_flags) + "->" + (e.flags.empty() ? std::string("-") : to_string(e.flags)) + " [" +
         to_string(e.sources) + "]";
}
} // namespace

std::string describe(const TaskStream& stream, const WindowOptions& o) {
  std::ostringstream s;
  s << "options: rings=" << o.rings << " slots=" << o.slots_per_ring << " width=" << o.seq_width
    << " initial_seq=" << o.initial_seq << " mode=" << to_string(o.mode) << "\n";
  for (std::size_t i = 0; i < stream.size(); ++i) {
    s << "  t" << i << " " << id_text(stream[i].id, stream[i].generation) << " <-";
    for (const Candidate& c : stream[i].candidates)
      s << " " << id_text(c.producer, c.generation) << "/" << to_string(c.flags) << "/" << to_string(SourceSet(c.source));
    s << "\n";
  }
  return s.str();
}

std::string describe(const WindowRun& run) {
  std::ostringstream s;
  for (std::size_t i = 0; i < run.edges.size(); ++i) {
    if (run.edges[i].empty()) continue;
    s << "  t" << i << ":";
    for (const WindowEdge& e : run.edges[i]) s << " {" << edge_text(e) << "}";
    s << "\n";
  }
  return s.str();
}

std::string first_difference(const WindowRun& a, const WindowRun& b) {
  std::ostringstream s;
  if (a.edges.size() != b.edges.size()) {
    s << "task counts differ: " << a.edges.size() << " vs " << b.edges.size();
    return s.str();
  }
  for (std::size_t i = 0; i < a.edges.size(); ++i) {
    if (a.edges[i] == b.edges[i]) continue;
    s << "task " << i << ":\n  first: ";
    for (const WindowEdge& e : a.edges[i]) s << " {" << edge_text(e) << "}";
    s << "\n  second:";
    for (const WindowEdge& e : b.edges[i]) s << " {" << edge_text(e) << "}";
    return s.str();
  }
  if (!(a.counters == b.counters)) return "counters differ";
  return "";
}

} // namespace depreduce::testing
