//===- Numerics.h - Element types and their rounding ------------*- C++ -*-===//
//
// The element types kernels read and write, their unit roundoff (the u of
// shared/MEASURE.md) and round-to-nearest-even conversions, so a reference is
// computed from exactly the rounded values a kernel sees. Plain C++ (no LLVM):
// tensorop-gpu-runner links it statically for the GPU machine.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_VERIFY_NUMERICS_H
#define TENSOROP_VERIFY_NUMERICS_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace tensorop {

enum class ElementType { F32, TF32, F16, BF16 };

/// "f32" (or "fp32"), "tf32", "f16" (or "fp16"), "bf16"; false if unknown.
bool parseElementType(const std::string &name, ElementType &type);
/// The canonical spelling: "f32", "tf32", "f16", "bf16".
const char *elementTypeName(ElementType type);
/// Bytes of one element in memory (tf32 is stored as fp32).
size_t storageBytes(ElementType type);
/// Unit roundoff of MEASURE.md: fp32 6e-8, tf32 and fp16 4.9e-4, bf16 3.9e-3.
double unitRoundoff(ElementType type);

uint16_t floatToBf16(float f); ///< round to nearest even; NaN stays NaN
float bf16ToFloat(uint16_t h);
uint16_t floatToHalf(float f); ///< round to nearest even, overflow to inf
float halfToFloat(uint16_t h);
/// `x` as it reads back after being stored in `type`. tf32 is stored as an
/// fp32 value: the tensor core drops the low mantissa bits when it reads, so
/// the reference uses the stored fp32 value and tf32's u covers the rest.
double roundToStorage(ElementType type, double x);

/// The bit pattern of a quiet NaN in `type`'s storage (low bits used for the
/// 16-bit types): what output buffers are pre-filled with.
uint32_t quietNaNBits(ElementType type);

} // namespace tensorop

#endif // TENSOROP_VERIFY_NUMERICS_H
