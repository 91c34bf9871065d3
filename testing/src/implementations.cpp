//===- implementations.cpp - The twins behind one interface ------------===//
#include "depreduce/testing/implementations.hpp"

#include "depreduce/reference/transitive_reduction.hpp"

namespace depreduce::testing {

const std::vector<ReductionImpl>& reduction_impls() {
  static const std::vector<ReductionImpl> impls = {
      {"optimized", &depreduce::reduce, &depreduce::find_witness},
      {"reference", &depreduce::reference::reduce, &depreduce::reference::find_witness},
  };
  return impls;
}
const ReductionImpl& optimized_reduction() { return reduction_impls()[0]; }
const ReductionImpl& reference_reduction() { return reduction_impls()[1]; }

} // namespace depreduce::testing
