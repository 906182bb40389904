//===- Check.cpp - Output against an fp64 reference under the bound -------===//

#include "tensorop/Verify/Check.h"

#include <cstdio>

using namespace tensorop;

std::string BoundSpec::describe() const {
  char text[160];
  std::snprintf(text, sizeof(text),
                "|C - R| <= %g*K*%g*(|A||B|) + %g*|R|, K=%lld", c, uAccumulate,
                uOutput, static_cast<long long>(contractionLength));
  return text;
}

Check tensorop::checkOutput(const float *c, const ContractionReference &ref,
                            const BoundSpec &bound) {
  Check check;
  for (size_t i = 0, e = ref.size(); i < e; ++i)
    check.add(judgeElement(c[i], ref.value[i],
                           bound(ref.magnitude[i], ref.value[i])));
  return check;
}

int64_t tensorop::countExactMismatches(const float *c,
                                       const ContractionReference &ref,
                                       ElementType output) {
  int64_t mismatches = 0;
  for (size_t i = 0, e = ref.size(); i < e; ++i)
    if (!(double(c[i]) == roundToStorage(output, ref.value[i])))
      ++mismatches;
  return mismatches;
}
