//===- Buffers.cpp - Host buffers of a verification, checked --------------===//

#include "tensorop/Verify/Buffers.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sys/mman.h>
#include <unistd.h>

using namespace tensorop;

uint64_t tensorop::saturatingMul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

uint64_t tensorop::saturatingAdd(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

uint64_t tensorop::maxBufferBytes(std::string &error) {
  error.clear();
  if (const char *env = std::getenv("TENSOROP_MAX_BUFFER_MB")) {
    char *end = nullptr;
    errno = 0;
    unsigned long long mb = std::strtoull(env, &end, 10);
    if (!*env || *env == '-' || *end || errno || mb == 0) {
      error = std::string("TENSOROP_MAX_BUFFER_MB='") + env +
              "' is not a positive whole number of MiB";
      return 0;
    }
    return saturatingMul(mb, 1ull << 20);
  }
  long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0)
    return 8ull << 30; // Unknown: 8 GiB.
  return saturatingMul(uint64_t(pages), uint64_t(page)) / 2;
}

static std::string mib(uint64_t bytes) {
  if (bytes == UINT64_MAX)
    return "more than 2^64 bytes";
  return std::to_string((bytes + (1ull << 20) - 1) >> 20) + " MiB";
}

std::string tensorop::checkBufferBudget(uint64_t bytes,
                                        const std::string &what) {
  std::string error;
  uint64_t limit = maxBufferBytes(error);
  if (!error.empty())
    return error;
  if (bytes <= limit)
    return "";
  return what + " needs " + mib(bytes) + " of host buffers, over the limit of " +
         mib(limit) +
         (std::getenv("TENSOROP_MAX_BUFFER_MB")
              ? std::string(" (TENSOROP_MAX_BUFFER_MB)")
              : std::string(" (half of this machine's memory; set "
                            "TENSOROP_MAX_BUFFER_MB to change it)"));
}

AlignedBuffer::AlignedBuffer(size_t n) : size(n) {
  uint64_t bytes = saturatingMul(n, sizeof(float));
  if (bytes > std::numeric_limits<size_t>::max() - 64) {
    size = 0;
    return;
  }
  bytes = (bytes + 63) / 64 * 64;
  data = static_cast<float *>(std::aligned_alloc(64, bytes ? bytes : 64));
  if (!data)
    size = 0;
}

AlignedBuffer::~AlignedBuffer() { std::free(data); }

DoubleArray::~DoubleArray() { std::free(ptr); }

DoubleArray::DoubleArray(DoubleArray &&other) noexcept
    : ptr(other.ptr), count(other.count) {
  other.ptr = nullptr;
  other.count = 0;
}

DoubleArray &DoubleArray::operator=(DoubleArray &&other) noexcept {
  std::swap(ptr, other.ptr);
  std::swap(count, other.count);
  return *this;
}

bool DoubleArray::assignZeros(size_t n) {
  std::free(ptr);
  count = 0;
  ptr = static_cast<double *>(std::calloc(n ? n : 1, sizeof(double)));
  if (!ptr)
    return false;
  count = n;
  return true;
}

void tensorop::fillNaN(float *x, size_t n) {
  std::fill(x, x + n, std::numeric_limits<float>::quiet_NaN());
}

void tensorop::fillRandom(float *x, size_t n, uint64_t seed) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (size_t i = 0; i < n; ++i) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    x[i] = static_cast<float>((s >> 40) * (1.0 / (1ull << 24)) * 2.0 - 1.0);
  }
}

void tensorop::fillSmallIntegers(float *x, size_t n, uint64_t stride,
                                 uint64_t offset) {
  for (size_t i = 0; i < n; ++i)
    x[i] = float(int((i * stride + offset) % 9) - 4);
}

namespace {
constexpr uint32_t kCanary = 0x7fc0dead; // a quiet NaN no kernel computes
constexpr size_t kCanaryCells = 64;
} // namespace

GuardedBuffer::GuardedBuffer(size_t n) : n(n) {
  size_t page = ::sysconf(_SC_PAGESIZE);
  uint64_t bytes = saturatingMul(saturatingAdd(kCanaryCells, n), sizeof(float));
  if (bytes > std::numeric_limits<size_t>::max() / 2)
    return;
  size_t dataBytes = (bytes + page - 1) / page * page;
  void *p = ::mmap(nullptr, dataBytes + page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return;
  base = static_cast<char *>(p);
  mappedBytes = dataBytes + page;
  if (::mprotect(base + dataBytes, page, PROT_NONE) != 0) {
    ::munmap(base, mappedBytes);
    base = nullptr;
    return;
  }
  c = reinterpret_cast<float *>(base + dataBytes) - n;
  canaries = reinterpret_cast<uint32_t *>(c) - kCanaryCells;
  for (size_t i = 0; i < kCanaryCells; ++i)
    canaries[i] = kCanary;
}

GuardedBuffer::~GuardedBuffer() {
  if (base)
    ::munmap(base, mappedBytes);
}

bool GuardedBuffer::canariesIntact() const {
  for (size_t i = 0; i < kCanaryCells; ++i)
    if (canaries[i] != kCanary)
      return false;
  return true;
}

void GuardedBuffer::fillNaN() { tensorop::fillNaN(c, n); }
