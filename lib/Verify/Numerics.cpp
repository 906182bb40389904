//===- Numerics.cpp - Element types and their rounding --------------------===//

#include "tensorop/Verify/Numerics.h"

#include <cmath>
#include <cstring>

using namespace tensorop;

bool tensorop::parseElementType(const std::string &name, ElementType &type) {
  if (name == "f32" || name == "fp32")
    type = ElementType::F32;
  else if (name == "tf32")
    type = ElementType::TF32;
  else if (name == "f16" || name == "fp16")
    type = ElementType::F16;
  else if (name == "bf16")
    type = ElementType::BF16;
  else
    return false;
  return true;
}

const char *tensorop::elementTypeName(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return "f32";
  case ElementType::TF32:
    return "tf32";
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  }
  return "?";
}

size_t tensorop::storageBytes(ElementType type) {
  return type == ElementType::F16 || type == ElementType::BF16 ? 2 : 4;
}

double tensorop::unitRoundoff(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return 6e-8;
  case ElementType::TF32:
  case ElementType::F16:
    return 4.9e-4;
  case ElementType::BF16:
    return 3.9e-3;
  }
  return 0;
}

uint16_t tensorop::floatToBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return 0x7fc0;
  u += 0x7fffu + ((u >> 16) & 1u); // round to nearest even
  return uint16_t(u >> 16);
}

float tensorop::bf16ToFloat(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint16_t tensorop::floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t absx = x & 0x7fffffffu;
  if (absx > 0x7f800000u)
    return uint16_t(sign | 0x7e00u);
  if (absx >= 0x477ff000u) // rounds to >= 65520: infinity
    return uint16_t(sign | 0x7c00u);
  if (absx < 0x38800000u) { // subnormal half (or zero)
    float a;
    std::memcpy(&a, &absx, 4);
    // Scale to units of 2^-24 and round to nearest even.
    float scaled = a * 16777216.0f;
    uint32_t q = uint32_t(std::nearbyint(scaled));
    return uint16_t(sign | q);
  }
  uint32_t exp = ((absx >> 23) - 127 + 15) << 10;
  uint32_t mant = absx & 0x7fffffu;
  uint32_t h = exp | (mant >> 13);
  uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
    ++h;
  return uint16_t(sign | h);
}

float tensorop::halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  float f;
  if (exp == 0) {
    f = std::ldexp(float(mant), -24);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u |= sign;
    std::memcpy(&f, &u, 4);
    return f;
  }
  uint32_t u;
  if (exp == 31)
    u = sign | 0x7f800000u | (mant << 13);
  else
    u = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  std::memcpy(&f, &u, 4);
  return f;
}

double tensorop::roundToStorage(ElementType type, double x) {
  float f = float(x);
  switch (type) {
  case ElementType::BF16:
    return bf16ToFloat(floatToBf16(f));
  case ElementType::F16:
    return halfToFloat(floatToHalf(f));
  case ElementType::F32:
  case ElementType::TF32:
    return f;
  }
  return f;
}

uint32_t tensorop::quietNaNBits(ElementType type) {
  switch (type) {
  case ElementType::BF16:
    return 0x7fc0u;
  case ElementType::F16:
    return 0x7e00u;
  case ElementType::F32:
  case ElementType::TF32:
    return 0x7fc00000u;
  }
  return 0x7fc00000u;
}
