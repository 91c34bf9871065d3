//===- proofs/obligation.hpp - Proof obligations and their runner -*- C++ -*-===//
///
/// \file
/// An obligation is a claim about production code (instantiated with the
/// symbolic words of sym.hpp) that must hold on every path: `proved` means
/// Z3 found "not (implementation == SPEC / docs formula)" unsatisfiable on
/// every path. A *teeth* obligation is a deliberately wrong variant of one
/// (the same template with a mutation parameter, or one argument changed):
/// it must be refuted, with a counterexample, or the proof it shadows could
/// not fail.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_PROOFS_OBLIGATION_HPP
#define DEPREDUCE_PROOFS_OBLIGATION_HPP

#include <functional>
#include <string>
#include <vector>

#include "sym.hpp"

namespace depreduce::proofs {

struct obligation {
  std::string id;    ///< "1a", "1a'" for its teeth, ...
  std::string title; ///< what is claimed, one line
  bool teeth;        ///< true: a wrong variant, must be refuted
  std::function<void(explorer&)> body; ///< builds inputs, runs the code, checks claims
};

/// Adds an obligation (at static initialisation, one file per subject).
bool add_obligation(obligation o);
/// Every registered obligation, in registration order per file.
std::vector<obligation>& obligations();

/// Z3 helpers for the SPEC side (written directly in Z3, never through the
/// production templates).
inline z3::expr bv(std::uint64_t v, unsigned n) { return ctx().bv_val(v, n); }
inline z3::expr lo32(const z3::expr& x) { return x.extract(31, 0); }
inline z3::expr hi32(const z3::expr& x) { return x.extract(63, 32); }
inline z3::expr zx(const z3::expr& x, unsigned to) { return sym_detail::resize(x, to); }
/// Words w[0] (low) .. w[k-1] (high) as one 64k-bit vector.
template <class W>
z3::expr concat_words(const W* w, unsigned k) {
  z3::expr r = w[k - 1].e;
  for (unsigned i = k - 1; i-- > 0;) r = z3::concat(r, w[i].e);
  return r;
}

} // namespace depreduce::proofs

#endif // DEPREDUCE_PROOFS_OBLIGATION_HPP
