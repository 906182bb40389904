//===- ProgressSvg.cpp - tensorop tune's best-so-far plot -----------------===//

#include "tensorop/Driver/TuneDriver.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

std::string tensorop::progressSvg(const std::vector<double> &bestSoFar,
                                  const std::string &title,
                                  const std::string &unit) {
  const double w = 640, h = 360, left = 60, right = 20, top = 40,
               bottom = 50;
  double maxY = 1;
  for (double v : bestSoFar)
    maxY = std::max(maxY, v);
  maxY *= 1.1;
  size_t n = std::max<size_t>(bestSoFar.size(), 2);
  auto x = [&](size_t i) { return left + (w - left - right) * i / (n - 1); };
  auto y = [&](double v) { return top + (h - top - bottom) * (1 - v / maxY); };
  std::string s;
  raw_string_ostream os(s);
  os << formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
                "height=\"{1}\" font-family=\"sans-serif\" font-size=\"12\">\n",
                w, h);
  os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  os << formatv("<text x=\"{0}\" y=\"20\" font-size=\"14\">{1}</text>\n",
                left, title);
  os << formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" "
                "stroke=\"black\"/>\n",
                left, h - bottom, w - right);
  os << formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" "
                "stroke=\"black\"/>\n",
                left, top, h - bottom);
  for (int t = 0; t <= 4; ++t) {
    double v = maxY * t / 4;
    os << formatv("<text x=\"5\" y=\"{0}\">{1:F0}</text>\n", y(v) + 4, v);
  }
  os << formatv("<text x=\"{0}\" y=\"{1}\">candidates tried ({2})</text>\n",
                w / 2 - 60, h - 15, bestSoFar.size());
  os << formatv("<text x=\"5\" y=\"{0}\">{1}</text>\n", top - 8, unit);
  os << "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" "
        "points=\"";
  for (size_t i = 0; i < bestSoFar.size(); ++i)
    os << formatv("{0:F1},{1:F1} ", x(i), y(bestSoFar[i]));
  os << "\"/>\n</svg>\n";
  return s;
}