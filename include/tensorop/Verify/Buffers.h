//===- Buffers.h - Host buffers of a verification, checked ------*- C++ -*-===//
//
// Buffers are sized from user input (a GEMM's M, N, K), so every allocation
// here can fail and says so (ok() is false) instead of handing back a null
// pointer. Before allocating, a driver asks checkBufferBudget() whether the
// request fits TENSOROP_MAX_BUFFER_MB and refuses it up front with the
// numbers. Also here: NaN pre-fill, seeded inputs, and a buffer with canaries
// before it and a PROT_NONE page right after it for kernels that may write
// out of bounds.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_VERIFY_BUFFERS_H
#define TENSOROP_VERIFY_BUFFERS_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace tensorop {

/// The most bytes of host buffers one verification may use:
/// TENSOROP_MAX_BUFFER_MB (MiB) if set, else half of the physical memory.
/// `error` is set (and 0 returned) when the variable is not a positive
/// whole number.
uint64_t maxBufferBytes(std::string &error);

/// "" when `bytes` (UINT64_MAX: more than 64 bits can count) fits the limit;
/// otherwise why not, with the numbers, naming `what` needs them.
std::string checkBufferBudget(uint64_t bytes, const std::string &what);

/// a * b (+ c) in bytes, saturating at UINT64_MAX (sizes of user requests
/// must not wrap around into small numbers).
uint64_t saturatingMul(uint64_t a, uint64_t b);
uint64_t saturatingAdd(uint64_t a, uint64_t b);

/// 64-byte aligned float buffer; data is null (and ok() false) when the
/// memory is not there or n * 4 bytes overflow.
struct AlignedBuffer {
  explicit AlignedBuffer(size_t n);
  ~AlignedBuffer();
  AlignedBuffer(const AlignedBuffer &) = delete;
  AlignedBuffer &operator=(const AlignedBuffer &) = delete;
  bool ok() const { return data != nullptr; }
  float *data = nullptr;
  size_t size = 0;
};

/// A checked array of doubles (for references).
class DoubleArray {
public:
  DoubleArray() = default;
  ~DoubleArray();
  DoubleArray(DoubleArray &&other) noexcept;
  DoubleArray &operator=(DoubleArray &&other) noexcept;
  DoubleArray(const DoubleArray &) = delete;
  DoubleArray &operator=(const DoubleArray &) = delete;
  /// n zeros; false (and empty) when the memory is not there.
  bool assignZeros(size_t n);
  bool ok() const { return ptr != nullptr; }
  size_t size() const { return count; }
  double *data() { return ptr; }
  const double *data() const { return ptr; }
  double &operator[](size_t i) { return ptr[i]; }
  double operator[](size_t i) const { return ptr[i]; }

private:
  double *ptr = nullptr;
  size_t count = 0;
};

void fillNaN(float *x, size_t n);

/// Seeded pseudo-random values in [-1, 1) (negative included).
void fillRandom(float *x, size_t n, uint64_t seed);

/// Small integers in [-4, 4] (x[i] = (i * stride + offset) mod 9 - 4): every
/// product and partial sum of a contraction is exact in fp32.
void fillSmallIntegers(float *x, size_t n, uint64_t stride, uint64_t offset);

/// An fp32 output buffer with canary cells before it and a PROT_NONE page
/// right after it: a kernel that writes past the end faults, one that writes
/// before the start is seen by canariesIntact().
class GuardedBuffer {
public:
  explicit GuardedBuffer(size_t n);
  ~GuardedBuffer();
  GuardedBuffer(const GuardedBuffer &) = delete;
  GuardedBuffer &operator=(const GuardedBuffer &) = delete;
  bool ok() const { return base != nullptr; }
  bool canariesIntact() const;
  void fillNaN();
  float *data() { return c; }
  size_t size() const { return n; }

private:
  size_t n = 0, mappedBytes = 0;
  char *base = nullptr;
  float *c = nullptr;
  uint32_t *canaries = nullptr;
};

} // namespace tensorop

#endif // TENSOROP_VERIFY_BUFFERS_H
