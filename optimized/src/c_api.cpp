//===- c_api.cpp - The C API of libdepreduce (depreduce/c_api.h) ----------===//
///
/// \file
/// Opaque handles over depreduce's C++ entry points. Every function body runs
/// inside guard(), which turns any exception (std::bad_alloc, or an
/// InputError of a throwing entry point) into a dr_status and the handle's
/// message: no exception crosses the C boundary.
///
/// The exact reduction (dr_graph) holds a depreduce::GraphBuilder and a
/// depreduce::Reducer, the C++ entrance a compiler uses (SPEC §1): nodes and
/// edges go into the builder as the caller adds them, dr_graph_reduce() runs
/// Reducer::reduce(const GraphBuilder&) (no names, no Graph materialised, no
/// renumbering: add_edge already refuses src > dst), and every array - the
/// builder's, the reducer's scratch, the result - keeps its capacity across
/// dr_graph_clear() and repeated reductions.
//===----------------------------------------------------------------------===//
#include "depreduce/c_api.h"

#include "depreduce/error.hpp"
#include "depreduce/graph.hpp"
#include "depreduce/graph_builder.hpp"
#include "depreduce/online_reduction.hpp"
#include "depreduce/reducer.hpp"
#include "depreduce/status.hpp"
#include "depreduce/transitive_reduction.hpp"
#include "depreduce/window_reducer.hpp"

#include <algorithm>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

static_assert(DR_OK == static_cast<int>(depreduce::ErrorCode::Ok));
static_assert(DR_NODE_OUT_OF_RANGE == static_cast<int>(depreduce::ErrorCode::NodeOutOfRange));
static_assert(DR_NOT_PROGRAM_ORDER == static_cast<int>(depreduce::ErrorCode::NotProgramOrder));
static_assert(DR_CYCLE == static_cast<int>(depreduce::ErrorCode::Cycle));
static_assert(DR_ENGINE_OUT_OF_RANGE == static_cast<int>(depreduce::ErrorCode::EngineOutOfRange));
static_assert(DR_DUPLICATE_NAME == static_cast<int>(depreduce::ErrorCode::DuplicateName));
static_assert(DR_BAD_ARGUMENT == static_cast<int>(depreduce::ErrorCode::BadArgument));
static_assert(DR_BAD_STATE == static_cast<int>(depreduce::ErrorCode::BadState));
static_assert(DR_OUT_OF_MEMORY == static_cast<int>(depreduce::ErrorCode::OutOfMemory));
static_assert(DR_NO_ENGINE == depreduce::kNoEngine && DR_ASYNC_INFINITE == depreduce::kAsyncInfinite &&
              DR_UNKNOWN_SUCCESSORS == depreduce::kUnknownSuccessors);
static_assert(DR_KIND_FLOW == static_cast<unsigned>(depreduce::Kind::Flow) &&
              DR_KIND_ANTI == static_cast<unsigned>(depreduce::Kind::Anti) &&
              DR_KIND_OUTPUT == static_cast<unsigned>(depreduce::Kind::Output) &&
              DR_KIND_ORDERED == static_cast<unsigned>(depreduce::Kind::Ordered) &&
              DR_FLAG_WAIT == static_cast<unsigned>(depreduce::Flag::Wait) &&
              DR_FLAG_RETAIN == static_cast<unsigned>(depreduce::Flag::Retain));

namespace {
using namespace depreduce;

/// The message store every handle has.
struct ErrorSlot {
  std::string message;
  dr_status set(const Status& s) {
    message = s.message();
    return static_cast<dr_status>(s.code());
  }
  dr_status set(dr_status code, const char* text) {
    message = text;
    return code;
  }
  dr_status ok() {
    message.clear();
    return DR_OK;
  }
};

thread_local std::string create_error;

/// Runs \p f, which returns a dr_status; any exception becomes one.
template <class F>
dr_status guard(ErrorSlot* slot, F&& f) noexcept {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  try {
    return f();
  } catch (const std::bad_alloc&) {
    if (slot) slot->message = "out of memory";
    return DR_OUT_OF_MEMORY;
  } catch (const InputError& e) {
    if (slot) slot->message = e.what();
    return DR_BAD_ARGUMENT;
  } catch (...) {
    if (slot) slot->message = "internal error";
    return DR_BAD_STATE;
  }
#else
  (void)slot;
  return f();
#endif
}

KindFilter to_filter(const dr_filter* f) {
  if (!f) return KindFilter{};
  return KindFilter{KindSet::from_bits(f->kinds), f->unlabelled != 0};
}
dr_removed_edge to_c(const RemovedEdge& e, std::uint32_t edge) {
  return dr_removed_edge{e.src, e.dst, e.kinds.bits(), e.flags.bits(), static_cast<std::uint8_t>(e.demoted_to_retain),
                         edge};
}
Status engine_count(std::uint32_t num_engines) {
  if (num_engines > kMaxEngines)
    return Status(ErrorCode::EngineOutOfRange, num_engines,
                  "engine count " + std::to_string(num_engines) + " exceeds " + std::to_string(kMaxEngines));
  return Status();
}
} // namespace

struct dr_graph {
  ErrorSlot error;
  GraphBuilder builder;          ///< The nodes and edges added (capacity kept by clear()).
  Reducer reducer;               ///< Scratch of the reduction, kept across calls.
  Reduction reduction;           ///< The last result, in the builder's merged (src, dst) order.
  std::vector<std::uint32_t> first_part; ///< Per removed pair: its first part's add_edge() index.
  std::vector<dr_removed_edge> removed;  ///< What dr_graph_reduce() hands out.
};

struct dr_online {
  ErrorSlot error;
  OnlineReducer reducer;
  std::vector<OnlineEdge> edges;
  std::vector<RemovedEdge> removed;
  std::vector<dr_removed_edge> out;
};

struct dr_window {
  ErrorSlot error;
  std::unique_ptr<window_reducer<64>> w64;
  std::unique_ptr<window_reducer<128>> w128;
  std::unique_ptr<window_reducer<256>> w256;
  std::vector<Candidate> candidates;
  std::vector<FlagSet> effective;
  template <class F>
  dr_status with(F&& f) {
    if (w64) return f(*w64);
    if (w128) return f(*w128);
    return f(*w256);
  }
};

extern "C" {

const char* dr_create_error(void) { return create_error.c_str(); }

//===-- dr_graph ----------------------------------------------------------===//

dr_status dr_graph_create(uint32_t num_engines, dr_graph** out) {
  return guard(nullptr, [&] {
    if (!out) {
      create_error = "dr_graph_create: null output";
      return DR_BAD_ARGUMENT;
    }
    *out = nullptr;
    if (Status s = engine_count(num_engines); !s.ok()) {
      create_error = s.message();
      return static_cast<dr_status>(s.code());
    }
    auto* g = new (std::nothrow) dr_graph;
    if (!g) {
      create_error = "out of memory";
      return DR_OUT_OF_MEMORY;
    }
    g->builder.clear(num_engines);
    *out = g;
    create_error.clear();
    return DR_OK;
  });
}

void dr_graph_destroy(dr_graph* g) { delete g; }

dr_status dr_graph_clear(dr_graph* g, uint32_t num_engines) {
  if (!g) return DR_BAD_ARGUMENT;
  return guard(&g->error, [&] {
    if (Status s = engine_count(num_engines); !s.ok()) return g->error.set(s);
    g->builder.clear(num_engines);
    g->reduction.removed.clear();
    g->removed.clear();
    return g->error.ok();
  });
}

dr_status dr_graph_add_node(dr_graph* g, const dr_node* node, uint32_t* id) {
  if (!g) return DR_BAD_ARGUMENT;
  return guard(&g->error, [&] {
    if (!node) return g->error.set(DR_BAD_ARGUMENT, "dr_graph_add_node: null node");
    // Checked here (GraphBuilder checks at finish) so the error names the call.
    const std::uint32_t v = g->builder.num_nodes();
    if (node->engine != kNoEngine && node->engine >= g->builder.num_engines())
      return g->error.set(Status(ErrorCode::EngineOutOfRange, v,
                                 "node " + std::to_string(v) + ": engine " + std::to_string(node->engine) +
                                     " is not below the " + std::to_string(g->builder.num_engines()) +
                                     " engine(s) declared"));
    if (v >= kNoEngine) return g->error.set(DR_NODE_OUT_OF_RANGE, "too many nodes");
    const NodeId added = g->builder.add_node(NodeSpec{node->engine, node->async_window, node->barrier != 0});
    if (id) *id = added;
    return g->error.ok();
  });
}

dr_status dr_graph_add_edge(dr_graph* g, const dr_edge* edge) {
  if (!g) return DR_BAD_ARGUMENT;
  return guard(&g->error, [&] {
    if (!edge) return g->error.set(DR_BAD_ARGUMENT, "dr_graph_add_edge: null edge");
    const std::size_t n = g->builder.num_nodes(), i = g->builder.num_edges();
    const std::string name = "edge " + std::to_string(i) + ": " + std::to_string(edge->src) + " -> " +
                             std::to_string(edge->dst);
    if (edge->src >= n || edge->dst >= n)
      return g->error.set(Status(ErrorCode::NodeOutOfRange, i, name + " names a node not added"));
    if (edge->src > edge->dst)
      return g->error.set(Status(ErrorCode::NotProgramOrder, i, name + " goes backward in program order"));
    g->builder.add_edge(edge->src, edge->dst, KindSet::from_bits(edge->kinds), FlagSet::from_bits(edge->flags));
    return g->error.ok();
  });
}

dr_status dr_graph_reduce(dr_graph* g, const dr_filter* filter, const dr_removed_edge** removed, size_t* count) {
  if (!g) return DR_BAD_ARGUMENT;
  return guard(&g->error, [&] {
    if (!removed || !count) return g->error.set(DR_BAD_ARGUMENT, "dr_graph_reduce: null output");
    // Ids are program order already (add_edge refuses src > dst), so the
    // builder is reduced as it is, without renumbering.
    ReduceOptions options;
    options.filter = to_filter(filter);
    if (Status s = g->reducer.reduce(g->builder, g->reduction, options); !s.ok()) return g->error.set(s);
    // RemovedEdge::edge indexes the merged, (src, dst)-sorted pairs; the C API
    // reports the position of the pair's first part in add_edge() order. The
    // removed pairs are sorted by (src, dst), so each part finds its pair by
    // binary search; the first part found (lowest index) is kept.
    const std::vector<RemovedEdge>& r = g->reduction.removed;
    g->first_part.assign(r.size(), UINT32_MAX);
    if (!r.empty()) {
      const std::vector<BuilderEdge>& parts = g->builder.edges();
      for (std::uint32_t i = 0; i < parts.size(); ++i) {
        const BuilderEdge& p = parts[i];
        const auto it = std::lower_bound(r.begin(), r.end(), p, [](const RemovedEdge& e, const BuilderEdge& q) {
          return e.src != q.src ? e.src < q.src : e.dst < q.dst;
        });
        if (it != r.end() && it->src == p.src && it->dst == p.dst) {
          std::uint32_t& first = g->first_part[static_cast<std::size_t>(it - r.begin())];
          if (first == UINT32_MAX) first = i;
        }
      }
    }
    g->removed.clear();
    for (std::size_t k = 0; k < r.size(); ++k) g->removed.push_back(to_c(r[k], g->first_part[k]));
    *removed = g->removed.data();
    *count = g->removed.size();
    return g->error.ok();
  });
}

const char* dr_graph_last_error(const dr_graph* g) { return g ? g->error.message.c_str() : "null handle"; }

//===-- dr_online ---------------------------------------------------------===//

dr_status dr_online_create(uint32_t num_engines, const dr_filter* filter, dr_online** out) {
  return guard(nullptr, [&] {
    if (!out) {
      create_error = "dr_online_create: null output";
      return DR_BAD_ARGUMENT;
    }
    *out = nullptr;
    auto r = std::make_unique<dr_online>();
    if (Status s = r->reducer.reset(OnlineOptions{num_engines, to_filter(filter)}); !s.ok()) {
      create_error = s.message();
      return static_cast<dr_status>(s.code());
    }
    *out = r.release();
    create_error.clear();
    return DR_OK;
  });
}

void dr_online_destroy(dr_online* r) { delete r; }

dr_status dr_online_reset(dr_online* r, uint32_t num_engines, const dr_filter* filter) {
  if (!r) return DR_BAD_ARGUMENT;
  return guard(&r->error, [&] {
    if (Status s = engine_count(num_engines); !s.ok()) return r->error.set(s);
    return r->error.set(r->reducer.reset(OnlineOptions{num_engines, to_filter(filter)}));
  });
}

dr_status dr_online_add_node(dr_online* r, const dr_node* node, uint32_t successors, uint32_t* id) {
  if (!r) return DR_BAD_ARGUMENT;
  return guard(&r->error, [&] {
    if (!node) return r->error.set(DR_BAD_ARGUMENT, "dr_online_add_node: null node");
    const OnlineNodeSpec spec{node->engine, node->async_window, node->barrier != 0, successors};
    return r->error.set(r->reducer.add_node(spec, id));
  });
}

dr_status dr_online_implied(dr_online* r, uint32_t p, uint32_t c, uint8_t kinds, int* out) {
  if (!r) return DR_BAD_ARGUMENT;
  return guard(&r->error, [&] {
    if (!out) return r->error.set(DR_BAD_ARGUMENT, "dr_online_implied: null output");
    bool answer = false;
    const Status s = r->reducer.implied(p, c, KindSet::from_bits(kinds), &answer);
    if (s.ok()) *out = answer ? 1 : 0;
    return r->error.set(s);
  });
}

dr_status dr_online_add_edges(dr_online* r, uint32_t c, const dr_in_edge* edges, size_t n,
                              const dr_removed_edge** removed, size_t* count) {
  if (!r) return DR_BAD_ARGUMENT;
  return guard(&r->error, [&] {
    if ((!edges && n > 0) || !removed || !count)
      return r->error.set(DR_BAD_ARGUMENT, "dr_online_add_edges: null array or output");
    r->edges.clear();
    for (std::size_t i = 0; i < n; ++i)
      r->edges.push_back({edges[i].src, KindSet::from_bits(edges[i].kinds), FlagSet::from_bits(edges[i].flags)});
    const Status s = r->reducer.add_edges(c, r->edges, r->removed);
    if (!s.ok()) return r->error.set(s);
    r->out.clear();
    for (const RemovedEdge& e : r->removed) r->out.push_back(to_c(e, e.edge));
    *removed = r->out.data();
    *count = r->out.size();
    return r->error.ok();
  });
}

dr_status dr_online_retire(dr_online* r, uint32_t v) {
  if (!r) return DR_BAD_ARGUMENT;
  return guard(&r->error, [&] { return r->error.set(r->reducer.retire(v)); });
}

const char* dr_online_last_error(const dr_online* r) { return r ? r->error.message.c_str() : "null handle"; }

//===-- dr_window ---------------------------------------------------------===//

dr_status dr_window_create(const dr_window_options* options, dr_window** out) {
  return guard(nullptr, [&] {
    if (!out || !options) {
      create_error = "dr_window_create: null options or output";
      return DR_BAD_ARGUMENT;
    }
    *out = nullptr;
    WindowOptions o;
    o.rings = options->rings;
    o.slots_per_ring = options->slots_per_ring;
    o.seq_width = options->seq_width == 0 ? 64 : options->seq_width;
    o.initial_seq = options->initial_seq;
    o.mode = options->same_ring ? WindowMode::SameRing : WindowMode::Global;
    if (Status s = check_window_options(o); !s.ok()) {
      create_error = s.message();
      return static_cast<dr_status>(s.code());
    }
    auto w = std::make_unique<dr_window>();
    switch (options->window_bits) {
    case 64: w->w64 = std::make_unique<window_reducer<64>>(o); break;
    case 128: w->w128 = std::make_unique<window_reducer<128>>(o); break;
    case 256: w->w256 = std::make_unique<window_reducer<256>>(o); break;
    default:
      create_error = "window of " + std::to_string(options->window_bits) + " bits: 64, 128 or 256 expected";
      return DR_BAD_ARGUMENT;
    }
    *out = w.release();
    create_error.clear();
    return DR_OK;
  });
}

void dr_window_destroy(dr_window* w) { delete w; }

dr_status dr_window_submit(dr_window* w, uint64_t task, uint32_t generation, const dr_candidate* candidates,
                           size_t k, uint8_t* effective, size_t* removed) {
  if (!w) return DR_BAD_ARGUMENT;
  return guard(&w->error, [&] {
    if (k > 0 && (!candidates || !effective))
      return w->error.set(DR_BAD_ARGUMENT, "dr_window_submit: null candidates or effective flags");
    w->candidates.resize(k);
    for (std::size_t i = 0; i < k; ++i)
      w->candidates[i] = Candidate{candidates[i].producer, candidates[i].generation,
                                   FlagSet::from_bits(candidates[i].flags),
                                   static_cast<DepSource>(candidates[i].source)};
    w->effective.resize(k);
    return w->with([&](auto& reducer) {
      const Status s = reducer.try_submit_flags(task, generation, w->candidates, w->effective, removed);
      if (s.ok())
        for (std::size_t i = 0; i < k; ++i) effective[i] = w->effective[i].bits();
      return w->error.set(s);
    });
  });
}

const char* dr_window_last_error(const dr_window* w) { return w ? w->error.message.c_str() : "null handle"; }

} // extern "C"
