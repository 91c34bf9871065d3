//===- window_reducer.cpp - TEST ORACLE for the bounded window ------------===//
///
/// \file
/// TEST ORACLE. NOT FOR PRODUCTION. See
/// depreduce/reference/window_reducer.hpp. Three plain steps:
///  1. replay the stream with a std::map from slot to its current task, to
///     resolve and deduplicate every candidate;
///  2. build the WAIT graph of the whole stream (Boost adjacency_list);
///  3. per task, mark the strict ancestors of its direct WAIT predecessors
///     with one breadth-first search on the reversed graph: a tracked
///     candidate among them is redundant.
//===----------------------------------------------------------------------===//
#include "depreduce/reference/window_reducer.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/reverse_graph.hpp>

namespace depreduce::reference {

namespace {

using WaitGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

/// One deduplicated candidate and the stream position of the task it names
/// (std::nullopt when stale).
struct Resolved {
  WindowEdge edge;
  std::optional<std::size_t> producer_task;
};

} // namespace

void check_window_options(const WindowOptions& options) {
  const std::string file = "window_reducer";
  const std::uint64_t rings = options.rings;
  const std::uint64_t slots = options.slots_per_ring;
  if (rings < 1) throw InputError(file, 0, "ring count must be at least 1");
  if (slots < 1) throw InputError(file, 0, "slots per ring must be at least 1");
  if (rings * slots > kMaxWindowSlots)
    throw InputError(file, 0,
                     "rings * slots per ring = " + std::to_string(rings * slots) + " exceeds the limit of " +
                         std::to_string(kMaxWindowSlots) + " slots");
  if (options.seq_width != 32 && options.seq_width != 64)
    throw InputError(file, 0, "sequence width must be 32 or 64 bits, not " + std::to_string(options.seq_width));
  const std::uint64_t largest_32_bit = 4294967295u;
  if (options.seq_width == 32 && options.initial_seq > largest_32_bit)
    throw InputError(file, 0,
                     "initial sequence " + std::to_string(options.initial_seq) + " does not fit in 32 bits");
}

bool in_canonical_order(const WindowEdge& a, const WindowEdge& b) {
  const bool a_stale = a.status == WindowStatus::Stale;
  const bool b_stale = b.status == WindowStatus::Stale;
  if (a_stale != b_stale) return b_stale; // resolved edges come first
  if (!a_stale && a.distance != b.distance)
    return a.distance > b.distance; // the earlier producer (the larger distance) first
  if (a.producer != b.producer) return a.producer < b.producer;
  return a.producer_generation < b.producer_generation;
}

template <unsigned BL>
WindowRun run_window(const TaskStream& stream, const WindowOptions& options) {
  reference::check_window_options(options); // qualified: ADL also finds depreduce::check_window_options
  const std::uint64_t mask = options.seq_width == 64 ? ~std::uint64_t{0} : 0xffffffffu;
  const std::size_t n = stream.size();
  auto in_range = [&](TaskId id) {
    return task_ring(id) < options.rings && task_slot(id) < options.slots_per_ring;
  };

  // 1. Replay: which task does each slot hold when task i is submitted?
  struct Occupant {
    Generation generation;
    std::size_t task;
  };
  std::map<TaskId, Occupant> occupant;
  std::vector<std::uint64_t> seq(n);
  std::vector<std::vector<Resolved>> resolved(n);
  for (std::size_t i = 0; i < n; ++i) {
    const TaskRecord& t = stream[i];
    auto fail = [&](const std::string& problem) {
      throw InputError("<stream>", static_cast<std::uint32_t>(i + 1), "task " + std::to_string(i) + ": " + problem);
    };
    if (!in_range(t.id)) fail("task id " + std::to_string(t.id) + " is outside the configured rings/slots");
    seq[i] = (options.initial_seq + i) & mask;
    if (auto own = occupant.find(t.id); own != occupant.end() && own->second.generation == t.generation)
      fail("this (slot, generation) was already submitted");

    std::map<std::pair<TaskId, Generation>, WindowEdge> unique;
    for (const Candidate& c : t.candidates) {
      if (!in_range(c.producer)) fail("producer id " + std::to_string(c.producer) + " is outside the configured rings/slots");
      WindowEdge& e = unique[{c.producer, c.generation}];
      e.producer = c.producer;
      e.producer_generation = c.generation;
      e.input_flags |= c.flags;
      e.sources |= c.source;
    }
    for (auto& [key, e] : unique) {
      if (e.input_flags.empty()) continue;
      Resolved r{e, std::nullopt};
      auto occ = occupant.find(e.producer);
      if (occ != occupant.end() && occ->second.generation == e.producer_generation) {
        const std::size_t j = occ->second.task;
        const std::uint64_t d = (seq[i] - seq[j]) & mask;
        if (d != 0) {
          r.producer_task = j;
          r.edge.distance = d;
        }
      }
      if (!r.producer_task) r.edge.status = WindowStatus::Stale;
      else if (options.mode == WindowMode::SameRing && task_ring(e.producer) != task_ring(t.id))
        r.edge.status = WindowStatus::CrossRing;
      else if (r.edge.distance > BL) r.edge.status = WindowStatus::Untracked;
      else r.edge.status = WindowStatus::Tracked;
      resolved[i].push_back(r);
    }
    occupant[t.id] = Occupant{t.generation, i};
  }

  // 2. The WAIT graph of the whole stream: one edge per valid WAIT candidate
  //    (same ring only in same-ring mode).
  WaitGraph g(n);
  for (std::size_t i = 0; i < n; ++i)
    for (const Resolved& r : resolved[i]) {
      if (!r.producer_task || !r.edge.input_flags.has(Flag::Wait)) continue;
      if (options.mode == WindowMode::SameRing && task_ring(r.edge.producer) != task_ring(stream[i].id)) continue;
      boost::add_edge(*r.producer_task, i, g);
    }

  // 3. Per task: p -> i is redundant iff p is a strict ancestor of a direct
  //    predecessor q of i (then p -> ... -> q -> i avoids the edge p -> i).
  const auto reversed = boost::make_reverse_graph(g);
  WindowRun run;
  run.edges.resize(n);
  std::vector<boost::default_color_type> color(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::set<std::size_t> sources; // the direct predecessors' own predecessors
    for (auto [e, end] = boost::in_edges(i, g); e != end; ++e)
      for (auto [f, fend] = boost::in_edges(boost::source(*e, g), g); f != fend; ++f)
        sources.insert(boost::source(*f, g));
    std::fill(color.begin(), color.end(), boost::white_color);
    auto colors = boost::make_iterator_property_map(color.begin(), boost::get(boost::vertex_index, reversed));
    if (!sources.empty()) {
      boost::queue<std::size_t> queue;
      boost::breadth_first_search(reversed, sources.begin(), sources.end(), queue, boost::default_bfs_visitor(),
                                  colors);
    }
    for (const Resolved& r : resolved[i]) {
      WindowEdge e = r.edge;
      e.flags = e.input_flags;
      const bool redundant = r.producer_task && color[*r.producer_task] != boost::white_color;
      if (e.status == WindowStatus::Tracked && e.flags.has(Flag::Wait) && redundant)
        e.flags = e.flags.without(Flag::Wait);
      run.edges[i].push_back(e);
    }
    std::sort(run.edges[i].begin(), run.edges[i].end(), in_canonical_order);
  }
  // The counters, counted here rather than by the optimized side's summarize().
  WindowCounters& c = run.counters;
  c.tasks = n;
  for (const auto& list : run.edges)
    for (const WindowEdge& e : list) {
      ++c.candidates;
      if (!e.input_flags.has(Flag::Wait)) continue;
      ++c.wait_candidates;
      if (e.status == WindowStatus::Tracked) ++c.tracked;
      if (e.status == WindowStatus::Untracked) ++c.untracked;
      if (e.status == WindowStatus::CrossRing) ++c.cross_ring;
      if (e.status == WindowStatus::Stale) ++c.stale;
      if (!e.flags.has(Flag::Wait)) {
        ++c.wait_removed;
        if (e.flags.has(Flag::Retain)) ++c.retain_conversions;
        else ++c.pure_wait_removals;
      }
    }
  return run;
}

template WindowRun run_window<64>(const TaskStream&, const WindowOptions&);
template WindowRun run_window<128>(const TaskStream&, const WindowOptions&);
template WindowRun run_window<256>(const TaskStream&, const WindowOptions&);

} // namespace depreduce::reference
