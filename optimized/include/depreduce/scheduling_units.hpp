//===- depreduce/scheduling_units.hpp - Flatten scheduling units -*- C++ -*-===//
///
/// \file
/// Scheduling-unit expansion of SPEC §8: walrus `expand_scheduling_units`,
/// which splices the constituents of every coarse unit (the pre-scheduler's
/// atoms, possibly nested) into the parent block, renames each so it stays
/// unique there, deletes the wrapper, and touches no dependency edge.
///
/// In our model a unit is a DOT cluster: a `Subgraph` whose name starts with
/// `cluster` (the Graphviz 2.42 rule, case-sensitive). Its **unit name** is the
/// subgraph name without the leading `cluster_` (or `cluster` when no `_`
/// follows); when nothing is left, the whole subgraph name. Other subgraphs
/// (`{rank=same; ...}`, named non-cluster blocks) are layout, not units: they
/// are transparent for membership and survive expansion.
///
/// **Program order of a unit's body.** A Graph has one program order (node
/// ids); the subgraph tree does not record how a unit's leaves and child units
/// interleave. So a body's items (its direct leaves and its child units) are
/// ordered by their first leaf in program order, and a unit sits in its
/// parent's body at the position of its first leaf. The **depth-first order**
/// lists the leaves of each item in turn, recursively. When every unit's
/// leaves are contiguous in program order (as the walrus pre-scheduler emits
/// them), the depth-first order *is* the program order.
///
/// Core library, no Boost. Twin: depreduce/reference/scheduling_units.hpp.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_SCHEDULING_UNITS_HPP
#define DEPREDUCE_SCHEDULING_UNITS_HPP

#include <string>
#include <vector>

#include "depreduce/graph.hpp"

namespace depreduce {

/// True iff \p s is a scheduling unit: its name starts with "cluster".
bool is_scheduling_unit(const Subgraph& s) noexcept;

/// The unit name of a cluster (see the file comment): "cluster_attn" ->
/// "attn", "clusterB" -> "B", "cluster_" -> "cluster_". Cost: O(name).
std::string unit_name(const Subgraph& s);

/// Expands every scheduling unit of \p g (SPEC §8).
///
/// Returns a Graph in which
///  - every leaf of a unit (a node whose innermost enclosing cluster is that
///    unit) is renamed `u1/u2/.../leaf` with the unit names of the path from
///    the outermost unit down; nodes outside every unit keep their names. If
///    the generated name is already taken (by a node outside the units, or by
///    an earlier leaf in depth-first order, e.g. unit names containing '/'),
///    the smallest suffix `#k`, k = 2, 3, ..., that makes it unique is
///    appended;
///  - `input_index` of node i is its position in the depth-first order, and
///    program order (node ids) is the topological order of the edges that at
///    each step takes the ready node first in depth-first order (as
///    make_program_order() does with input order) - the depth-first order
///    itself whenever it respects the edges;
///  - engine positions are recomputed for that order; every other node field
///    is unchanged;
///  - edges and self-loops are the same edges, field for field, only `src` and
///    `dst` renumbered (edges re-sorted by (src, dst));
///  - the cluster wrappers are gone: the direct leaves of a removed cluster
///    become members of the nearest surviving enclosing subgraph (none at top
///    level), its non-cluster child subgraphs take its place in that parent's
///    children; each surviving subgraph lists its members by new node id.
///
/// When the depth-first order does not respect the edges, one warning
/// naming the first such edge (in (src, dst) order of \p g) is appended to
/// \p warnings, if given.
///
/// \throws InputError(g.file, node line, ...) if a node belongs to two units
///   neither of which encloses the other (DOT lets a node sit in two sibling
///   clusters; an instruction belongs to one block).
/// Cost: O(n log n * depth + m log m + subgraph tree size), depth = unit
/// nesting depth.
Graph expand_scheduling_units(const Graph& g, std::vector<std::string>* warnings = nullptr);

} // namespace depreduce

#endif // DEPREDUCE_SCHEDULING_UNITS_HPP
