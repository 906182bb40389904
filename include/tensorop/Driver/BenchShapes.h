//===- BenchShapes.h - Shape classes of the CPU GEMM benchmark --*- C++ -*-===//
//
// `tensorop bench` reports its GEMM results per shape class, because the
// libraries win in different places: libxsmm on small shapes, oneDNN on
// skinny ones, OpenBLAS/oneDNN on large square ones.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_BENCHSHAPES_H
#define TENSOROP_DRIVER_BENCHSHAPES_H

#include <cstdint>
#include <string>
#include <vector>

namespace tensorop {

/// "small" (every dimension <= 128), "skinny" (M or N <= 16), "square"
/// (M = N = K), "tall" (M at least 4x N, or N at least 4x M; K may differ)
/// or "irregular" (everything else), tested in that order.
std::string gemmShapeClass(int64_t m, int64_t n, int64_t k);

/// The default shapes of `tensorop bench --classes`: each class several
/// times, including shapes nobody tuned on.
std::vector<std::string> gemmClassShapes();

/// Geometric mean of `ratios` (0 when empty).
double geomean(const std::vector<double> &ratios);

} // namespace tensorop

#endif // TENSOROP_DRIVER_BENCHSHAPES_H
