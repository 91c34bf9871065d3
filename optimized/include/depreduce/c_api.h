/*===- depreduce/c_api.h - The C API of libdepreduce ----------------*- C -*-===*
 *
 * \file
 * A small C interface (C99 and later, and C++) over the three entry points a
 * compiler or runtime embeds (SPEC §1, "embedding"):
 *  - exact reduction of one graph (SPEC §4): a builder handle (dr_graph) that
 *    takes nodes by integer id in program order and edges between them, and
 *    returns the redundant edges;
 *  - online queries (SPEC §4, "Online form"; depreduce/online_reduction.hpp):
 *    a handle (dr_online) that takes nodes in program order, answers
 *    "is p -> c already implied?" and, given a node's incoming edges, returns
 *    the ones the exact reduction removes;
 *  - the bounded-window WAIT reducer of a task runtime (SPEC §6;
 *    depreduce/window_reducer.hpp): a handle (dr_window) for BL = 64, 128 or
 *    256 that takes a task and its dependency candidates and returns the
 *    effective flags of each.
 *
 * Conventions. Handles are opaque; each is created by dr_<x>_create and freed
 * by dr_<x>_destroy (NULL is accepted). Every call that can fail returns a
 * dr_status whose values are depreduce::ErrorCode's (depreduce/status.hpp);
 * the message of the last failed call on a handle is dr_<x>_last_error()
 * (a string owned by the handle, valid until the next call on it; "" after a
 * success). A failed create has no handle: its message is dr_create_error()
 * (per thread). No C++ exception ever crosses this interface: memory
 * exhaustion returns DR_OUT_OF_MEMORY. On an error nothing changed. A handle
 * is used by one thread at a time.
 *
 * Example (two engines, three instructions; docs/vendoring.md):
 * \code
 *   dr_graph* g; uint32_t a, b, c; const dr_removed_edge* out; size_t n;
 *   dr_graph_create(2, &g);
 *   dr_node sync0 = {0, 0, 0}, sync1 = {1, 0, 0};
 *   dr_graph_add_node(g, &sync0, &a); dr_graph_add_node(g, &sync1, &b);
 *   dr_graph_add_node(g, &sync0, &c);          // engine 0 again: a C c implicitly
 *   dr_edge e1 = {a, b, DR_KIND_FLOW, DR_FLAG_WAIT}, e2 = {a, c, DR_KIND_FLOW, DR_FLAG_WAIT};
 *   dr_graph_add_edge(g, &e1); dr_graph_add_edge(g, &e2);
 *   dr_graph_reduce(g, NULL, &out, &n);        // n == 1: a -> c (engine order implies it)
 *   dr_graph_destroy(g);
 * \endcode
 *===----------------------------------------------------------------------===*/
#ifndef DEPREDUCE_C_API_H
#define DEPREDUCE_C_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Error codes: the numeric values of depreduce::ErrorCode. */
typedef enum dr_status {
  DR_OK = 0,
  DR_NODE_OUT_OF_RANGE = 1,   /**< a node id (or task id) outside the graph (or the reducer's rings/slots) */
  DR_NOT_PROGRAM_ORDER = 2,   /**< an edge going backward in program order */
  DR_CYCLE = 3,               /**< the graph has a cycle */
  DR_ENGINE_OUT_OF_RANGE = 4, /**< an engine >= the declared count, or a count > 64 */
  DR_DUPLICATE_NAME = 5,      /**< two nodes share a name */
  DR_BAD_ARGUMENT = 6,        /**< a null pointer, an option out of range */
  DR_BAD_STATE = 7,           /**< a call out of its documented order (a retired node used, ...) */
  DR_OUT_OF_MEMORY = 8        /**< memory ran out */
} dr_status;

/** A node without engine (no implicit engine order). */
#define DR_NO_ENGINE 0xFFFFFFFFu
/** Asynchronous window "infinite": completes only through explicit edges or barriers. */
#define DR_ASYNC_INFINITE 0xFFFFFFFFu
/** Successor count "not declared" (dr_online: retire the node with dr_online_retire). */
#define DR_UNKNOWN_SUCCESSORS 0xFFFFFFFFu

/** Edge kinds (a bit set; 0 = unlabelled, which orders as completed-before). */
#define DR_KIND_FLOW 1u
#define DR_KIND_ANTI 2u
#define DR_KIND_OUTPUT 4u
#define DR_KIND_ORDERED 8u /**< alone: issued-before only */
/** Edge flags (a bit set). Only WAIT orders; RETAIN keeps a producer alive. */
#define DR_FLAG_WAIT 1u
#define DR_FLAG_RETAIN 2u

/** A node (SPEC §2). */
typedef struct dr_node {
  uint32_t engine;       /**< in [0, num_engines), or DR_NO_ENGINE */
  uint32_t async_window; /**< 0 synchronous, w >= 1 asynchronous, DR_ASYNC_INFINITE */
  uint8_t barrier;       /**< non-zero: waits for everything earlier on its engine */
} dr_node;

/** An edge (one part: edges between the same pair are parts of one dependency, SPEC §2). */
typedef struct dr_edge {
  uint32_t src;   /**< producer id */
  uint32_t dst;   /**< consumer id; src <= dst (src == dst: a self-loop, kept and ignored) */
  uint8_t kinds;  /**< DR_KIND_* bits */
  uint8_t flags;  /**< DR_FLAG_* bits; 0 is read as WAIT-less (orders nothing) */
} dr_edge;

/** An edge the reduction removes. */
typedef struct dr_removed_edge {
  uint32_t src;
  uint32_t dst;
  uint8_t kinds;             /**< union of the pair's parts */
  uint8_t flags;             /**< union of the pair's parts, before the reduction */
  uint8_t demoted_to_retain; /**< 1: a part carries RETAIN, the pair stays RETAIN-only; 0: it disappears */
  uint32_t edge;             /**< position of the pair's first part in the order the caller gave the edges */
} dr_removed_edge;

/** Which edges may be removed (SPEC §4 kinds filter). NULL everywhere means "all". */
typedef struct dr_filter {
  uint8_t kinds;      /**< a labelled WAIT part is removable iff its kinds are within these */
  uint8_t unlabelled; /**< non-zero: unlabelled WAIT parts are removable */
} dr_filter;

/** The message of the last failed dr_*_create on this thread ("" if none). Never NULL. */
const char* dr_create_error(void);

/*===--------------------------------------------------------------------===*
 * Exact reduction of one graph
 *===--------------------------------------------------------------------===*/
/* A dr_graph holds a depreduce::GraphBuilder and a depreduce::Reducer
 * (depreduce/graph_builder.hpp, depreduce/reducer.hpp): the same functions as
 * the C++ entrance, Reducer::reduce(const GraphBuilder&). Reuse: one handle
 * can be cleared and refilled (one graph per basic block or scheduling
 * region), or reduced repeatedly as it grows, without reallocating - the
 * nodes, edges, the reducer's scratch and the removed array keep their
 * capacity, so memory is allocated only while the graphs grow. */
typedef struct dr_graph dr_graph;

/** A graph builder for \p num_engines engines (0..64).
 *  \returns DR_ENGINE_OUT_OF_RANGE if num_engines > 64, DR_BAD_ARGUMENT if
 *  \p out is NULL, DR_OUT_OF_MEMORY. */
dr_status dr_graph_create(uint32_t num_engines, dr_graph** out);
void dr_graph_destroy(dr_graph* g);
/** Forgets every node and edge (keeps the memory: builder, reducer scratch and
 *  removed array) and sets the engine count. O(1).
 *  \returns DR_ENGINE_OUT_OF_RANGE if num_engines > 64. */
dr_status dr_graph_clear(dr_graph* g, uint32_t num_engines);
/** Adds the next node in program order; writes its id (0, 1, ...) to \p id (may be NULL).
 *  \returns DR_ENGINE_OUT_OF_RANGE, DR_BAD_ARGUMENT (null node). O(1). */
dr_status dr_graph_add_node(dr_graph* g, const dr_node* node, uint32_t* id);
/** Adds an edge between added nodes, src <= dst.
 *  \returns DR_NODE_OUT_OF_RANGE (an end not added), DR_NOT_PROGRAM_ORDER
 *  (src > dst), DR_BAD_ARGUMENT (null edge). O(1). */
dr_status dr_graph_add_edge(dr_graph* g, const dr_edge* edge);
/** Reduces the graph (SPEC §4; depreduce::Reducer::reduce(const GraphBuilder&),
 *  whose result equals depreduce::reduce()'s): writes to \p *removed the
 *  redundant pairs sorted by (src, dst) and their count to \p *count; each
 *  one's `edge` is the position of the pair's first part in add_edge order.
 *  The array is owned by the handle, valid until the next call on it. The
 *  graph itself is unchanged (reduce again after adding more).
 *  \returns DR_BAD_ARGUMENT (null outputs), DR_OUT_OF_MEMORY.
 *  Cost: Reducer::reduce()'s (O(n + m) row operations of ceil(n/64) words up
 *  to 1024 nodes, reduce()'s sweep above), plus O(m log r) to map the r
 *  removed pairs back to their first parts; no allocation once the handle's
 *  memory has grown to the graph. */
dr_status dr_graph_reduce(dr_graph* g, const dr_filter* filter, const dr_removed_edge** removed, size_t* count);
/** The message of the last failed call on \p g; "" after a success. */
const char* dr_graph_last_error(const dr_graph* g);

/*===--------------------------------------------------------------------===*
 * Online queries (depreduce::OnlineReducer)
 *===--------------------------------------------------------------------===*/
typedef struct dr_online dr_online;

/** An incoming edge (one part) of the open node. */
typedef struct dr_in_edge {
  uint32_t src;
  uint8_t kinds;
  uint8_t flags;
} dr_in_edge;

/** An online reducer for \p num_engines engines; \p filter may be NULL (all).
 *  \returns DR_ENGINE_OUT_OF_RANGE, DR_BAD_ARGUMENT, DR_OUT_OF_MEMORY. */
dr_status dr_online_create(uint32_t num_engines, const dr_filter* filter, dr_online** out);
void dr_online_destroy(dr_online* r);
/** Forgets every node (keeps the memory). */
dr_status dr_online_reset(dr_online* r, uint32_t num_engines, const dr_filter* filter);
/** Adds the next node; it becomes the open node. \p successors: how many later
 *  nodes will name it as a WAIT source, or DR_UNKNOWN_SUCCESSORS.
 *  As OnlineReducer::add_node(). */
dr_status dr_online_add_node(dr_online* r, const dr_node* node, uint32_t successors, uint32_t* id);
/** Writes 1 to \p *out if an edge p -> c of kinds \p kinds is implied by what
 *  was added so far, else 0. As OnlineReducer::implied(). */
dr_status dr_online_implied(dr_online* r, uint32_t p, uint32_t c, uint8_t kinds, int* out);
/** Adds the open node \p c's incoming edges and finishes it; the edges the
 *  exact reduction removes for it go to \p *removed / \p *count (owned by the
 *  handle, valid until the next call; `edge` = index in \p edges).
 *  As OnlineReducer::add_edges(). */
dr_status dr_online_add_edges(dr_online* r, uint32_t c, const dr_in_edge* edges, size_t n,
                              const dr_removed_edge** removed, size_t* count);
/** Releases node \p v's closure: no more WAIT edges from it. As OnlineReducer::retire(). */
dr_status dr_online_retire(dr_online* r, uint32_t v);
const char* dr_online_last_error(const dr_online* r);

/*===--------------------------------------------------------------------===*
 * Bounded-window WAIT reducer (depreduce::window_reducer<BL>)
 *===--------------------------------------------------------------------===*/
typedef struct dr_window dr_window;

typedef struct dr_window_options {
  uint32_t window_bits;    /**< BL: 64, 128 or 256 */
  uint32_t rings;          /**< >= 1 */
  uint32_t slots_per_ring; /**< >= 1; rings * slots_per_ring <= 2^24 */
  uint32_t seq_width;      /**< 32 or 64 (0 = 64) */
  uint64_t initial_seq;    /**< first submit sequence */
  uint8_t same_ring;       /**< non-zero: only same-ring candidates read bitmaps */
} dr_window_options;

/** A dependency candidate. Task ids are (ring << 32) | slot. */
typedef struct dr_candidate {
  uint64_t producer;
  uint32_t generation;
  uint8_t flags;  /**< DR_FLAG_* */
  uint8_t source; /**< 1 creator, 2 tensor map, 4 explicit */
} dr_candidate;

/** A reducer. \returns DR_BAD_ARGUMENT for a window other than 64/128/256 or
 *  options out of range (the message says which), DR_OUT_OF_MEMORY. */
dr_status dr_window_create(const dr_window_options* options, dr_window** out);
void dr_window_destroy(dr_window* w);
/** Submits task \p task (slot generation \p generation) with \p k candidates;
 *  writes each candidate's effective flags (its flags, minus WAIT if the
 *  window proves it redundant) to \p effective[0..k) and the count that lost
 *  WAIT to \p *removed (may be NULL). window_reducer::try_submit_flags().
 *  \returns DR_NODE_OUT_OF_RANGE (task or producer outside the rings/slots),
 *  DR_BAD_STATE (the task's slot and generation were submitted already),
 *  DR_BAD_ARGUMENT (null arrays with k > 0). */
dr_status dr_window_submit(dr_window* w, uint64_t task, uint32_t generation, const dr_candidate* candidates,
                           size_t k, uint8_t* effective, size_t* removed);
const char* dr_window_last_error(const dr_window* w);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DEPREDUCE_C_API_H */
