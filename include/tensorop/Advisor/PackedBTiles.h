//===- PackedBTiles.h - How many row tiles make packing B pay ---*- C++ -*-===//
//
// A packed B block is read by the register-block rows (mr-row tiles) of one
// M block: the copy pays only when enough of them share it. The builtin
// advisor reads B in place below this count (whole M, one thread), and
// tensorop-apply-sketch splits the columns among threads where a split of
// the rows would leave each thread this few (a row split halves the tiles
// that share each of a thread's packed B blocks; a column split keeps them).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_ADVISOR_PACKEDBTILES_H
#define TENSOROP_ADVISOR_PACKEDBTILES_H

#include <cstdint>

namespace mlir::tensorop {

/// At most this many register-block rows (mr-row tiles) of one M block
/// would read each packed B block: packing B does not pay (AVX-512, fp32;
/// measured on Zen 4 against oneDNN, docs/benchmarks/cpu-gemm-classes.md,
/// "What oneDNN does on the packed rows": 10-20 tiles read B in place
/// +6-15%, 25 tiles +0-2%, 37-100 tiles no gain or a loss).
constexpr int64_t kFewTilesPerBBlock = 20;

} // namespace mlir::tensorop

#endif // TENSOROP_ADVISOR_PACKEDBTILES_H
