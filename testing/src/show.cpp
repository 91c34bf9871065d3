//===- show.cpp - Readable counterexamples --------------------------------===//
#include "depreduce/testing/show.hpp"

#include <ostream>

namespace depreduce {
namespace {
const char* relation_name(Relation r) { return r == Relation::CompletedBefore ? "C" : "S"; }
const char* hop_name(HopKind k) {
  switch (k) {
  case HopKind::ExplicitCompletion: return "edge C";
  case HopKind::ExplicitIssue: return "edge S";
  case HopKind::EngineIssue: return "engine S";
  case HopKind::EngineCompletion: return "engine C";
  }
  return "?";
}
} // namespace

void showValue(const KindFilter& f, std::ostream& os) {
  os << "filter{kinds=" << (f.kinds.empty() ? "none" : to_string(f.kinds))
     << (f.unlabelled ? " +unlabelled" : " -unlabelled") << "}";
}

void showValue(const ReduceOptions& o, std::ostream& os) {
  os << "options{";
  showValue(o.filter, os);
  os << (o.mode == ReductionMode::Exact ? " exact" : " shipped")
     << (o.cycles == CycleMode::Error ? " cycles=error" : " cycles=condense") << "}";
}

void showValue(const RemovedEdge& r, std::ostream& os) {
  os << r.src << " -> " << r.dst << " [kind=" << to_string(r.kinds) << " flags=" << to_string(r.flags)
     << (r.demoted_to_retain ? " demoted" : "") << " edge=" << r.edge << "]";
}

void showValue(const Reduction& r, std::ostream& os) {
  os << "reduction removing " << r.removed.size() << " edge(s)\n";
  for (const RemovedEdge& x : r.removed) {
    os << "  ";
    showValue(x, os);
    os << "\n";
  }
}

void showValue(const Hop& h, std::ostream& os) { os << h.from << " -> " << h.to << " [" << hop_name(h.kind) << "]"; }

void showValue(const Witness& w, std::ostream& os) {
  os << "witness:";
  for (const Hop& h : w.hops) {
    os << " ";
    showValue(h, os);
  }
}

void showValue(const HappensBeforeQuery& q, std::ostream& os) {
  os << q.before << " " << relation_name(q.relation) << " " << q.after << "?";
}

void showValue(const EquivalenceOptions& o, std::ostream& os) {
  os << "equivalence options{";
  showValue(o.filter, os);
  os << "}";
}

void showValue(const RelationDifference& d, std::ostream& os) {
  os << d.src << " " << relation_name(d.relation) << " " << d.dst << " only in " << (d.in_first ? "a" : "b");
}

void showValue(const Equivalence& e, std::ostream& os) {
  os << (e.equivalent ? "equivalent" : "not equivalent") << ", " << e.differences.size() << " difference(s)\n";
  for (const RelationDifference& d : e.differences) {
    os << "  ";
    showValue(d, os);
    os << "\n";
  }
}

void showValue(const InputReduction& r, std::ostream& os) {
  showValue(r.graph, os);
  os << r.cyclic_components << " cyclic component(s); components:";
  for (std::uint32_t c : r.component) os << " " << c;
  os << "\n";
  showValue(r.reduction, os);
}

void PrintTo(const KindFilter& f, std::ostream* os) { showValue(f, *os); }
void PrintTo(const ReduceOptions& o, std::ostream* os) { showValue(o, *os); }
void PrintTo(const RemovedEdge& r, std::ostream* os) { showValue(r, *os); }
void PrintTo(const Reduction& r, std::ostream* os) { showValue(r, *os); }
void PrintTo(const Witness& w, std::ostream* os) { showValue(w, *os); }
void PrintTo(const RelationDifference& d, std::ostream* os) { showValue(d, *os); }
void PrintTo(const Equivalence& e, std::ostream* os) { showValue(e, *os); }

} // namespace depreduce
