//===- BenchShapes.cpp - Shape classes of the CPU GEMM benchmark ----------===//

#include "tensorop/Driver/BenchShapes.h"

#include <algorithm>
#include <cmath>

using namespace tensorop;

std::string tensorop::gemmShapeClass(int64_t m, int64_t n, int64_t k) {
  if (std::max({m, n, k}) <= 128)
    return "small";
  if (std::min(m, n) <= 16)
    return "skinny";
  if (m == n && n == k)
    return "square";
  if (m >= 4 * n || n >= 4 * m)
    return "tall";
  return "irregular";
}

std::vector<std::string> tensorop::gemmClassShapes() {
  return {// small
          "16", "32", "64", "100", "128", "37x53x71", "24x120x96",
          "80x48x112",
          // skinny
          "8x4096x4096", "4096x8x4096", "16x2048x2048", "1x4096x4096",
          "2048x16x2048", "4x1024x4096",
          // irregular
          "200x300x100", "333x777x555", "127x1000x513", "600x500x700",
          // square
          "256", "512", "1024", "2048",
          // tall
          "4096x1024x1024", "2048x256x2048", "8192x128x512", "33x777x1027"};
}

double tensorop::geomean(const std::vector<double> &ratios) {
  if (ratios.empty())
    return 0;
  double logSum = 0;
  for (double r : ratios)
    logSum += std::log(r);
  return std::exp(logSum / double(ratios.size()));
}
