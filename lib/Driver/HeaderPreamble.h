//===- HeaderPreamble.h - Text every generated header shares ----*- C++ -*-===//
//
// The CPU and NVIDIA backends' generated headers declare the 16-bit element
// types alike, guarded so that two headers can be included together: written
// here once.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_DRIVER_HEADERPREAMBLE_H
#define TENSOROP_LIB_DRIVER_HEADERPREAMBLE_H

namespace tensorop {

/// The `TENSOROP_HALF_TYPES`-guarded typedefs of tensorop_bf16 and
/// tensorop_f16 (uint16_t bits), ending in a newline. The including header
/// must have included <stdint.h> first.
const char *halfTypesPreamble();

} // namespace tensorop

#endif // TENSOROP_LIB_DRIVER_HEADERPREAMBLE_H
