//===- depreduce/reference/window_reducer.hpp - Oracle ---------*- C++ -*-===//
///
/// \file
/// TEST ORACLE. NOT FOR PRODUCTION. The deliberately simple twin of
/// depreduce/window_reducer.hpp: same `run_window` signature, same input
/// (TaskStream) and result (WindowRun) types, same contract (SPEC §6), but no
/// bitmap, no shift and no side storage.
///
/// It replays the whole stream once to resolve every candidate (which task
/// does (slot, generation) name *now*? what is its submit-sequence distance?),
/// builds the WAIT graph of the entire stream in Boost.Graph, and decides each
/// candidate by exact reachability:
///
///   a candidate p of task t loses WAIT iff it carries WAIT, is valid and
///   tracked (1 <= d <= BL), and is redundant: some *other* direct WAIT
///   predecessor q of t is reachable from p, i.e. p -> ... -> q -> t.
///
/// The graph holds one WAIT edge per valid candidate (stale candidates name no
/// task the runtime can still see, so they are no edge). In same-ring mode it
/// holds only the edges whose two tasks share a ring: cross-ring witnesses are
/// invisible there by design.
///
/// Limits: O(n) reverse breadth-first searches of O(n + m) each, so
/// O(n * (n + m)) time and O(n + m) memory; meant for streams of a few
/// thousand tasks.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_REFERENCE_WINDOW_REDUCER_HPP
#define DEPREDUCE_REFERENCE_WINDOW_REDUCER_HPP

#include "depreduce/window_reducer.hpp"

namespace depreduce::reference {

/// Same contract as depreduce::run_window<BL>(): per task its verdicts in
/// canonical order, plus counters. BL is any positive multiple of 64 here;
/// instantiated for 64, 128 and 256.
/// \throws InputError for the same streams and options as the optimized twin.
template <unsigned BL>
WindowRun run_window(const TaskStream& stream, const WindowOptions& options);

/// The oracle's own check of \p options, the rules of depreduce::
/// validate_window_options() stated again: at least one ring and one slot
/// per ring, at most kMaxWindowSlots slots in all, a 32- or 64-bit submit
/// sequence, and a first sequence number that fits in it.
/// \throws InputError(file "window_reducer", line 0) with the same message
///   as validate_window_options() for the first rule broken, in that order
///   (props/window_reducer_props.cpp holds the two to it). Cost: O(1).
void check_window_options(const WindowOptions& options);

/// The oracle's own canonical order of one task's edges (the order of
/// depreduce::canonical_before()): resolved edges before stale ones; resolved
/// edges by ascending producer submit sequence, i.e. by descending distance;
/// stale edges (distance 0) by producer id, then generation. Ties left
/// (equal producer and generation) compare equal. Cost: O(1).
bool in_canonical_order(const WindowEdge& a, const WindowEdge& b);

} // namespace depreduce::reference

#endif // DEPREDUCE_REFERENCE_WINDOW_REDUCER_HPP
