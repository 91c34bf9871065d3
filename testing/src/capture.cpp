//===- capture.cpp - Runtime capture generator and checker ----------------===//
///
/// \file
/// testing/capture.hpp: random and fuzzer-driven deps.json captures written
/// from a model, and the check of the reader, both reductions and the
/// write-back against that model.
//===----------------------------------------------------------------------===//
#include "depreduce/testing/capture.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "depreduce/error.hpp"
#include "depreduce/formats/deps_json.hpp"
#include "depreduce/graph.hpp"
#include "depreduce/reference/transitive_reduction.hpp"
#include "depreduce/reference/window_reducer.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce::testing {
namespace {

/// Where the generator's choices come from: a seeded engine, or fuzzer bytes
/// (0 once they run out).
class Choices {
public:
  explicit Choices(std::uint64_t seed) : rng_(seed) {}
  Choices(const std::uint8_t* data, std::size_t size) : data_(data), size_(size), bytes_(true) {}

  /// Uniform in [0, bound) (0 for bound <= 1). Once the bytes run out,
  /// bound - 1: percent() is then false, so every loop it drives ends.
  std::uint32_t below(std::uint32_t bound) {
    if (bound <= 1) return 0;
    if (!bytes_) return std::uniform_int_distribution<std::uint32_t>(0, bound - 1)(rng_);
    if (pos_ >= size_) return bound - 1;
    std::uint32_t v = byte();
    if (bound > 256) v = v << 8 | byte();
    return v % bound;
  }
  bool percent(unsigned p) { return below(100) < p; }
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }

private:
  std::mt19937_64 rng_{0};
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0, pos_ = 0;
  bool bytes_ = false;
};

/// One task of the model, in generation order.
struct Task {
  std::uint64_t id = 0;
  bool captured = true;
  std::uint32_t ring = 0, slot = 0, generation = 0;
};

FlagSet flags_of(DepSource s) {
  return s == DepSource::TensorMap ? FlagSet::wait() : FlagSet::wait() | FlagSet::retain();
}

const char* source_name(DepSource s) {
  return s == DepSource::Creator ? "creator" : s == DepSource::TensorMap ? "tensormap" : "explicit";
}

std::string flags_text(FlagSet f) {
  std::string out = "[";
  if (f.has(Flag::Wait)) out += "\"wait\"";
  if (f.has(Flag::Retain)) out += std::string(out.size() > 1 ? ", " : "") + "\"retain\"";
  return out + "]";
}

CaptureCase build(Choices& ch, const CaptureParams& p) {
  CaptureCase c;
  const bool hbg = p.host_build_graph;
  c.runtime = hbg ? "host_build_graph" : "tensormap_and_ringbuffer";
  const std::uint32_t spr = std::max<std::uint32_t>(1, p.slots_per_ring);
  const std::uint32_t rings = std::clamp<std::uint32_t>(p.rings, 1, 4);
  c.slots_per_ring = hbg ? 16384 : spr;

  // 1. Tasks in generation order; each ring's buffer advances one slot at a
  // time and wraps into the next generation (no division: the reader's
  // local % slots must land on the same slot).
  std::vector<Task> tasks;
  std::vector<std::uint32_t> next_slot(rings, 0), next_generation(rings, 0);
  std::uint32_t ring = 0, hbg_local = 0;
  auto new_task = [&](bool captured) {
    Task t;
    t.captured = captured;
    if (hbg) {
      const std::uint64_t local = hbg_local++;
      // GLOBAL, or SUB_TASK of some parent: numeric order is not submission order.
      t.id = ch.percent(40) ? (std::uint64_t{1} << 62) | (std::uint64_t{ch.below(1u << 20)} << 32) | local : local;
    } else {
      if (ch.percent(30)) ring = ch.below(rings);
      t.ring = ring;
      t.slot = next_slot[ring];
      t.generation = next_generation[ring];
      if (++next_slot[ring] == spr) next_slot[ring] = 0, ++next_generation[ring];
      t.id = (std::uint64_t{ring} << 32) | (std::uint64_t{t.generation} * spr + t.slot);
    }
    tasks.push_back(t);
    return static_cast<std::uint32_t>(tasks.size() - 1);
  };
  std::vector<std::vector<std::uint32_t>> allocs_before; // per captured task (generation index)
  std::vector<std::uint32_t> captured_tasks;
  for (std::size_t k = 0; k < p.tasks; ++k) {
    std::vector<std::uint32_t> allocs;
    if (ch.percent(p.uncaptured_percent))
      for (std::uint32_t m = 1 + ch.below(2); m > 0; --m) allocs.push_back(new_task(false));
    allocs_before.push_back(allocs);
    captured_tasks.push_back(new_task(true));
  }

  // 2. Records, grouped by consumer in submission order as the runtime
  // writes them: each alloc task before a consumer feeds it (its creator),
  // then up to max_preds producers, near or far, from any earlier task.
  struct Rec {
    std::uint32_t producer, consumer; // generation indices
    FlagSet flags;
    bool written;
    DepSource source;
  };
  std::vector<std::vector<Rec>> groups;
  std::vector<std::uint32_t> gen_order; // generation indices in (provisional) submission order
  for (std::size_t k = 0; k < captured_tasks.size(); ++k) {
    for (std::uint32_t a : allocs_before[k]) gen_order.push_back(a);
    const std::uint32_t consumer = captured_tasks[k];
    const auto at = static_cast<std::uint32_t>(gen_order.size());
    gen_order.push_back(consumer);
    std::vector<std::uint32_t> producers(allocs_before[k].begin(), allocs_before[k].end());
    if (at > 0)
      for (std::uint32_t n = ch.below(p.max_preds + 1); n > 0; --n) {
        const std::uint32_t reach = ch.percent(p.far_percent) ? 300 : 8;
        const std::uint32_t d = 1 + ch.below(std::min(at, reach));
        producers.push_back(gen_order[at - d]);
      }
    std::vector<Rec> group;
    for (std::size_t j = 0; j < producers.size(); ++j) {
      bool first_record = true;
      unsigned records_of_pair = 0;
      for (bool again = true; again; first_record = false) {
        Rec r;
        r.producer = producers[j];
        r.consumer = consumer;
        // An alloc task reaches its first consumer as the creator of its tensor.
        r.source = j < allocs_before[k].size() && first_record ? DepSource::Creator
                                                               : static_cast<DepSource>(1u << ch.below(3));
        r.written = ch.percent(p.flags_percent);
        r.flags = flags_of(r.source);
        if (r.written) {
          if (r.source == DepSource::Explicit && ch.percent(50)) r.flags = FlagSet::wait(); // add_dep_wait()
          if (ch.percent(10)) r.flags = FlagSet::retain();
          if (ch.percent(4)) r.flags = FlagSet{};
        }
        group.push_back(r);
        again = ++records_of_pair < 4 && ch.percent(p.duplicate_percent);
      }
    }
    groups.push_back(std::move(group));
  }
  // Now and then the groups are written in another order, so that an alloc
  // task's first mention is not with its first consumer.
  std::vector<std::size_t> group_order(groups.size());
  std::iota(group_order.begin(), group_order.end(), 0);
  if (ch.percent(30))
    for (std::size_t i = group_order.size(); i > 1; --i) std::swap(group_order[i - 1], group_order[ch.below(static_cast<std::uint32_t>(i))]);
  std::vector<Rec> records;
  for (std::size_t g : group_order) records.insert(records.end(), groups[g].begin(), groups[g].end());

  // 3. Final submission order: alloc tasks before one consumer in order of
  // first mention in edges[] (SPEC §6: each just before its first consumer).
  std::map<std::uint32_t, std::size_t> first_mention;
  for (std::size_t k = 0; k < records.size(); ++k) first_mention.try_emplace(records[k].producer, k);
  std::vector<std::uint32_t> order;
  for (std::size_t k = 0; k < captured_tasks.size(); ++k) {
    std::vector<std::uint32_t> allocs = allocs_before[k];
    std::stable_sort(allocs.begin(), allocs.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return first_mention.at(a) < first_mention.at(b); });
    order.insert(order.end(), allocs.begin(), allocs.end());
    order.push_back(captured_tasks[k]);
  }
  std::vector<std::uint32_t> position(tasks.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) position[order[i]] = i;

  // 4. The model: order, records, the stream the reference replays.
  const auto n = static_cast<std::uint32_t>(order.size());
  std::uint32_t max_ring = 0;
  c.stream.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const Task& t = tasks[order[i]];
    c.ids.push_back(t.id);
    c.captured.push_back(t.captured);
    max_ring = std::max(max_ring, t.ring);
    c.stream[i].id = hbg ? make_task_id(0, i) : make_task_id(t.ring, t.slot);
    c.stream[i].generation = hbg ? 0 : t.generation;
  }
  for (const Rec& r : records) {
    const std::uint32_t pp = position[r.producer], cp = position[r.consumer];
    c.records.push_back({pp, cp, r.flags, r.written, r.source});
    c.stream[cp].candidates.push_back({c.stream[pp].id, c.stream[pp].generation, r.flags, r.source});
  }
  c.geometry.rings = max_ring + 1;
  c.geometry.slots_per_ring = hbg ? std::max<std::uint32_t>(1, n) : spr;

  // 5. The text, as the runtime's writer lays it out (spacing varied).
  auto id_text = [&](std::uint64_t id) {
    if (ch.percent(p.number_ids_percent)) return std::to_string(id);
    return "\"" + std::to_string(id) + "\"";
  };
  const std::string sep = ch.percent(50) ? ",\n    " : ", ";
  std::string text = "{";
  const bool runtime_last = ch.percent(20);
  if (!runtime_last) text += "\"runtime\": \"" + c.runtime + "\",\n  ";
  text += "\"tasks\": [";
  bool first = true;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!c.captured[i]) continue;
    text += std::string(first ? "\n    " : sep) + "{\"task_id\": " + id_text(c.ids[i]) + ", \"scope\": \"" +
            (ch.percent(20) ? "manual" : "auto") + "\", \"kernel_ids\": [" + std::to_string(ch.below(9)) +
            ", -1, -1], \"block_num\": " + std::to_string(1 + ch.below(4)) + ", \"args\": []}";
    first = false;
  }
  text += "],\n  \"tensors\": [{\"tensor_id\": \"13451765318376212391\", \"buffer_addr\": \"29204938752\", "
          "\"version\": 0, \"dtype\": \"FLOAT32\", \"buffer_numel\": \"1024\"}],\n  \"edges\": [";
  for (std::size_t k = 0; k < c.records.size(); ++k) {
    const CaptureCase::Record& r = c.records[k];
    std::string e = "{\"pred\": " + id_text(c.ids[r.producer]) + ", \"succ\": " + id_text(c.ids[r.consumer]) +
                    ", \"arg\": " + (r.source == DepSource::Explicit ? "-1" : std::to_string(ch.below(4))) +
                    ", \"source\": \"" + source_name(r.source) + "\"";
    const bool flags_last = ch.percent(20);
    if (r.flags_written && !flags_last) e += ", \"flags\": " + flags_text(r.flags);
    if (r.source == DepSource::TensorMap) e += std::string(", \"overlap\": \"") + (ch.percent(50) ? "covered" : "other") + "\"";
    if (r.source != DepSource::Explicit)
      e += ", \"tensor_id\": \"13451765318376212391\", \"consumer_dtype\": \"FLOAT32\", \"consumer_shape\": [1024], "
           "\"consumer_start_offset\": \"0\", \"consumer_strides\": [1]";
    if (r.flags_written && flags_last) e += ", \"flags\": " + flags_text(r.flags);
    text += std::string(k == 0 ? "\n    " : sep) + e + "}";
  }
  text += "]";
  if (runtime_last) text += ",\n  \"runtime\": \"" + c.runtime + "\"";
  text += "\n}\n";
  c.text = std::move(text);
  return c;
}

using Pairs = std::set<std::pair<std::uint32_t, std::uint32_t>>; // (producer, consumer) positions

/// WAIT pairs (a pair waits if any of its records does), sorted.
template <typename Records>
std::vector<std::pair<NodeId, NodeId>> wait_pairs(const Records& records) {
  std::set<std::pair<NodeId, NodeId>> out;
  for (const auto& r : records)
    if (r.flags.has(Flag::Wait) && r.producer != r.consumer) out.emplace(r.producer, r.consumer);
  return {out.begin(), out.end()};
}

Pairs removed_of(const Graph& g, const Reduction& r) {
  Pairs out;
  for (const RemovedEdge& e : r.removed)
    out.emplace(static_cast<std::uint32_t>(std::stoul(g.nodes[e.src].name)),
                static_cast<std::uint32_t>(std::stoul(g.nodes[e.dst].name)));
  return out;
}

template <unsigned BL>
Pairs window_removed(const WindowRun& run) {
  Pairs out;
  for (std::size_t i = 0; i < run.edges.size(); ++i)
    for (const WindowEdge& e : run.edges[i])
      if (e.wait_removed()) out.emplace(static_cast<std::uint32_t>(i - e.distance), static_cast<std::uint32_t>(i));
  return out;
}

std::string pairs_text(const Pairs& p) {
  std::string s = "{";
  for (const auto& [a, b] : p) s += " " + std::to_string(a) + "->" + std::to_string(b);
  return s + " }";
}

/// Writes \p removed back into the capture and checks the result.
std::string check_write_back(const CaptureCase& c, const formats::WindowTrace& t, const Pairs& removed,
                             const char* what) {
  std::vector<formats::ReducedPair> pairs;
  for (const auto& [p, q] : removed) pairs.push_back({p, q});
  std::string out;
  formats::WindowTrace back;
  try {
    out = formats::write_reduced_deps_json(c.text, t, pairs);
    back = formats::read_deps_json(out, "reduced.deps.json", {c.slots_per_ring});
  } catch (const InputError& e) {
    return std::string(what) + ": write-back failed: " + e.what();
  }
  if (back.ids != c.ids || back.captured != c.captured) return std::string(what) + ": write-back changed the tasks";
  if (back.records.size() != c.records.size()) return std::string(what) + ": write-back changed the record count";
  for (std::size_t k = 0; k < c.records.size(); ++k) {
    const CaptureCase::Record& r = c.records[k];
    const bool cleared = removed.count({r.producer, r.consumer}) != 0 && r.flags.has(Flag::Wait);
    const FlagSet want = cleared ? r.flags.without(Flag::Wait) : r.flags;
    const formats::DepsEdgeRecord& b = back.records[k];
    if (b.producer != r.producer || b.consumer != r.consumer || b.flags != want ||
        b.flags_written != (r.flags_written || cleared))
      return std::string(what) + ": record " + std::to_string(k) + " reads back with flags " + to_string(b.flags) +
             ", want " + to_string(want);
  }
  // Every other field, and the order of everything, as written.
  using ojson = nlohmann::ordered_json;
  ojson a = ojson::parse(c.text), b = ojson::parse(out);
  for (ojson* doc : {&a, &b})
    for (ojson& e : (*doc)["edges"]) e.erase("flags");
  if (a != b) return std::string(what) + ": write-back changed a field other than flags";
  return "";
}

} // namespace

CaptureCase random_capture(std::uint64_t seed, const CaptureParams& params) {
  Choices ch(seed);
  return build(ch, params);
}

CaptureCase capture_from_bytes(const std::uint8_t* data, std::size_t size, std::size_t max_tasks) {
  Choices ch(data, size);
  CaptureParams p;
  const std::uint8_t b0 = ch.byte();
  p.host_build_graph = (b0 & 1) != 0;
  p.rings = 1 + ((b0 >> 1) & 3);
  p.flags_percent = (b0 & 0x20) != 0 ? 0 : 70; // the host-built writer leaves flags out
  p.far_percent = (b0 & 0x40) != 0 ? 40 : 5;
  p.slots_per_ring = 1 + ch.byte() % 64;
  p.max_preds = ch.byte() % 7;
  p.uncaptured_percent = ch.byte() % 40;
  p.tasks = std::min<std::size_t>(max_tasks, size > 4 ? (size - 4) / 2 : 0);
  return build(ch, p);
}

std::string check_capture(const CaptureCase& c, unsigned bl) {
  formats::WindowTrace t;
  try {
    t = formats::read_deps_json(c.text, "generated.deps.json", {c.slots_per_ring});
  } catch (const InputError& e) {
    return std::string("the reader refused a conformant capture: ") + e.what();
  }
  // The reader against the model.
  if (t.ids != c.ids) return "submission order differs from the model";
  if (t.captured != c.captured) return "captured flags differ from the model";
  if (t.records.size() != c.records.size()) return "record count differs from the model";
  for (std::size_t k = 0; k < c.records.size(); ++k) {
    const auto& a = t.records[k];
    const auto& b = c.records[k];
    if (a.producer != b.producer || a.consumer != b.consumer || a.flags != b.flags || a.flags_written != b.flags_written)
      return "record " + std::to_string(k) + " differs from the model: read " + std::to_string(a.producer) + "->" +
             std::to_string(a.consumer) + " " + to_string(a.flags) + ", model " + std::to_string(b.producer) + "->" +
             std::to_string(b.consumer) + " " + to_string(b.flags);
  }
  if (t.stream != c.stream) {
    for (std::size_t i = 0; i < c.stream.size(); ++i)
      if (!(t.stream[i] == c.stream[i]))
        return "task " + std::to_string(i) + " (" + std::to_string(c.ids[i]) + ") differs from the model: read slot " +
               std::to_string(task_slot(t.stream[i].id)) + " generation " + std::to_string(t.stream[i].generation) +
               ", model slot " + std::to_string(task_slot(c.stream[i].id)) + " generation " +
               std::to_string(c.stream[i].generation);
    return "stream length differs from the model";
  }
  if (t.geometry.rings != c.geometry.rings || t.geometry.slots_per_ring != c.geometry.slots_per_ring)
    return "geometry differs from the model";

  // The exact reduction: on what was read, against the oracle on the model.
  const auto n = static_cast<std::uint32_t>(c.ids.size());
  const Graph read_graph = graph_from_edges(n, wait_pairs(t.records));
  const Pairs exact = removed_of(read_graph, reduce(read_graph));
  const Graph model_graph = graph_from_edges(n, wait_pairs(c.records));
  const Pairs oracle = removed_of(model_graph, reference::reduce(reference::as_input(model_graph)));
  if (exact != oracle) return "exact reduction " + pairs_text(exact) + ", reference " + pairs_text(oracle);

  // The window reducer at BL: on the trace, against the oracle on the model.
  Pairs window, window_oracle;
  try {
    if (bl == 64) {
      window = window_removed<64>(run_window<64>(t.stream, t.geometry));
      window_oracle = window_removed<64>(reference::run_window<64>(c.stream, c.geometry));
    } else if (bl == 128) {
      window = window_removed<128>(run_window<128>(t.stream, t.geometry));
      window_oracle = window_removed<128>(reference::run_window<128>(c.stream, c.geometry));
    } else {
      window = window_removed<256>(run_window<256>(t.stream, t.geometry));
      window_oracle = window_removed<256>(reference::run_window<256>(c.stream, c.geometry));
    }
  } catch (const InputError& e) {
    return std::string("the window reducer refused the trace: ") + e.what();
  }
  if (window != window_oracle)
    return "BL=" + std::to_string(bl) + " removes " + pairs_text(window) + ", reference " + pairs_text(window_oracle);

  if (std::string d = check_write_back(c, t, exact, "exact"); !d.empty()) return d;
  return check_write_back(c, t, window, "window");
}

} // namespace depreduce::testing
