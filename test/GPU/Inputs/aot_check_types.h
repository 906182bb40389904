/* Element types of the generated-kernel checks (aot_gemm_check.c,
 * aot_conv_check.c): bf16/f16/f32 by id, conversions of small integers, and
 * element stores and loads by type. */
#ifndef TENSOROP_TEST_AOT_CHECK_TYPES_H
#define TENSOROP_TEST_AOT_CHECK_TYPES_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

#define is_bf16 1
#define is_f16 2
#define is_f32 3
#define TYPE_ID(t) CAT(is_, t)

static uint16_t to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
static float from_bf16(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
/* Small integers only: exact in binary16. */
static uint16_t to_f16(float f) {
  if (f == 0)
    return 0;
  uint16_t sign = f < 0 ? 0x8000 : 0;
  float a = fabsf(f);
  int e = 0;
  while (a >= 2) { a /= 2; ++e; }
  uint16_t mant = (uint16_t)((a - 1) * 1024);
  return (uint16_t)(sign | ((e + 15) << 10) | mant);
}
static float from_f16(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? ldexpf((float)m, -24) : ldexpf(1 + m / 1024.0f, e - 15);
  return h & 0x8000 ? -v : v;
}

static size_t esize(int t) { return t == is_f32 ? 4 : 2; }
static void store(void *p, size_t i, int t, float v) {
  if (t == is_f32) ((float *)p)[i] = v;
  else ((uint16_t *)p)[i] = t == is_bf16 ? to_bf16(v) : to_f16(v);
}
static float load(const void *p, size_t i, int t) {
  if (t == is_f32) return ((const float *)p)[i];
  uint16_t h = ((const uint16_t *)p)[i];
  return t == is_bf16 ? from_bf16(h) : from_f16(h);
}

#endif
