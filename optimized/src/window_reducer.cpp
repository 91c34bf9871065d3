//===- window_reducer.cpp - Bounded-window WAIT reduction ------------------===//
///
/// \file
/// The non-template parts of depreduce/window_reducer.hpp and its explicit
/// instantiations for BL = 64, 128, 256.
//===----------------------------------------------------------------------===//
#include "depreduce/window_reducer.hpp"

#include <string>

namespace depreduce {

namespace {
const char* const kFile = "window_reducer";
} // namespace

std::string to_string(SourceSet sources) {
  static const char* const names[] = {"creator", "tensormap", "explicit"};
  std::string out;
  for (int i = 0; i < 3; ++i)
    if (sources.bits() & (1u << i)) {
      if (!out.empty()) out += '|';
      out += names[i];
    }
  return out;
}

std::string to_string(WindowKernel kernel) { return kernel == WindowKernel::Auto ? "auto" : "portable"; }

std::string to_string(WindowMode mode) { return mode == WindowMode::Global ? "global" : "same-ring"; }

std::optional<WindowMode> parse_window_mode(std::string_view text) {
  if (text == "global") return WindowMode::Global;
  if (text == "same-ring" || text == "same_ring") return WindowMode::SameRing;
  return std::nullopt;
}

std::string to_string(WindowStatus status) {
  switch (status) {
  case WindowStatus::Stale: return "stale";
  case WindowStatus::CrossRing: return "cross-ring";
  case WindowStatus::Untracked: return "untracked";
  case WindowStatus::Tracked: return "tracked";
  }
  return "?";
}

Status check_window_options(const WindowOptions& o) {
  auto bad = [](std::string message) { return Status(ErrorCode::BadArgument, 0, std::move(message)); };
  if (o.rings == 0) return bad("ring count must be at least 1");
  if (o.slots_per_ring == 0) return bad("slots per ring must be at least 1");
  if (static_cast<std::uint64_t>(o.rings) * o.slots_per_ring > kMaxWindowSlots)
    return bad("rings * slots per ring = " + std::to_string(static_cast<std::uint64_t>(o.rings) * o.slots_per_ring) +
               " exceeds the limit of " + std::to_string(kMaxWindowSlots) + " slots");
  if (o.seq_width != 32 && o.seq_width != 64)
    return bad("sequence width must be 32 or 64 bits, not " + std::to_string(o.seq_width));
  if (o.seq_width == 32 && o.initial_seq > 0xffffffffu)
    return bad("initial sequence " + std::to_string(o.initial_seq) + " does not fit in 32 bits");
  return Status();
}

void validate_window_options(const WindowOptions& o) {
  if (Status s = check_window_options(o); !s.ok()) throw InputError(kFile, 0, s.message());
}

WindowCounters summarize(const std::vector<std::vector<WindowEdge>>& edges) {
  WindowCounters c;
  c.tasks = edges.size();
  for (const auto& list : edges)
    for (const WindowEdge& e : list) {
      ++c.candidates;
      if (!e.input_flags.has(Flag::Wait)) continue;
      ++c.wait_candidates;
      switch (e.status) {
      case WindowStatus::Tracked: ++c.tracked; break;
      case WindowStatus::Untracked: ++c.untracked; break;
      case WindowStatus::CrossRing: ++c.cross_ring; break;
      case WindowStatus::Stale: ++c.stale; break;
      }
      if (e.wait_removed()) {
        ++c.wait_removed;
        if (e.flags.has(Flag::Retain)) ++c.retain_conversions;
        else ++c.pure_wait_removals;
      }
    }
  return c;
}

namespace window_detail {
namespace {
std::string range_message(const char* what, TaskId id, std::uint32_t rings, std::uint32_t slots) {
  return std::string(what) + " id " + std::to_string(id) + " (ring " + std::to_string(task_ring(id)) + ", slot " +
         std::to_string(task_slot(id)) + ") is outside the configured " + std::to_string(rings) + " ring(s) of " +
         std::to_string(slots) + " slot(s)";
}
} // namespace

Status submit_failure(std::size_t r, TaskId task, Generation generation, std::span<const Candidate> candidates,
                      std::uint32_t rings, std::uint32_t slots, const char* function, std::size_t room,
                      const char* what) {
  switch (static_cast<SubmitFailure>(r)) {
  case kTaskOutOfRange:
    return Status(ErrorCode::NodeOutOfRange, task, range_message("task", task, rings, slots));
  case kRepublished:
    return Status(ErrorCode::BadState, task,
                  "task ring " + std::to_string(task_ring(task)) + " slot " + std::to_string(task_slot(task)) +
                      " generation " + std::to_string(generation) +
                      " was already submitted (a (slot, generation) is published once)");
  case kShortOutput:
    return Status(ErrorCode::BadArgument, room,
                  std::string(function) + ": " + std::to_string(candidates.size()) + " candidate(s) but room for " +
                      std::to_string(room) + " " + what);
  case kProducerOutOfRange:
    for (std::size_t i = 0; i < candidates.size(); ++i) // the first offending candidate
      if (task_ring(candidates[i].producer) >= rings || task_slot(candidates[i].producer) >= slots)
        return Status(ErrorCode::NodeOutOfRange, i, range_message("producer", candidates[i].producer, rings, slots));
    break;
  }
  return Status(ErrorCode::BadState, 0, "window_reducer: unknown failure");
}

void throw_submit_failure(std::size_t r, TaskId task, Generation generation, std::span<const Candidate> candidates,
                          std::uint32_t rings, std::uint32_t slots, const char* function, std::size_t room,
                          const char* what) {
  throw InputError(kFile, 0,
                   submit_failure(r, task, generation, candidates, rings, slots, function, room, what).message());
}
} // namespace window_detail

template <unsigned BL>
WindowRun run_window(const TaskStream& stream, const WindowOptions& options) {
  window_reducer<BL> reducer(options);
  WindowRun run;
  run.edges.resize(stream.size());
  for (std::size_t i = 0; i < stream.size(); ++i) {
    const TaskRecord& t = stream[i];
    try {
      reducer.submit(t.id, t.generation, t.candidates, run.edges[i]);
    } catch (const InputError& e) {
      throw InputError("<stream>", static_cast<std::uint32_t>(i + 1), "task " + std::to_string(i) + ": " + e.problem());
    }
  }
  run.counters = summarize(run.edges);
  return run;
}

template class window_reducer<64>;
template class window_reducer<128>;
template class window_reducer<256>;
template WindowRun run_window<64>(const TaskStream&, const WindowOptions&);
template WindowRun run_window<128>(const TaskStream&, const WindowOptions&);
template WindowRun run_window<256>(const TaskStream&, const WindowOptions&);

} // namespace depreduce
