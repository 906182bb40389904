// The few-rows path (at most 64 rows of C, B read in place and swept along
// N) takes as few row blocks as hold M, each as wide as registers allow: at
// 10-14 rows a block is two vectors wide, so an N of three or four vectors
// was two column tiles, and each row of A was broadcast once per tile for
// the same FMAs. Where B is in cache and N takes at most four vectors, the
// block is N's width, one column tile, its rows those of the fewest FMA
// slots (an edge tile of fewer accumulators than the target's
// fma.independent_accumulators_for_peak counted at that many), then of the
// fewest tiles, then the shortest; K unrolled by 4; the column prefetch as
// the path sets it (two tiles ahead at most 16 rows: in one tile that is
// B's rows ahead, which a B in L3 needs, 12x50x50000 0.78x -> 1.03x). Zen
// 5, 1 thread, quiet, gen's objects against the build before: 18 shapes
// new/base 1.069 (64x43x131 0.91x -> 0.99x the best library), 11 more
// with the prefetch kept 1.107; 2 threads, 10 shapes, 1.196
// (docs/benchmarks/cpu-gemm-classes.md, "Zen 5: few rows, N in one
// column tile").
// DEFINE: %{sketch} = tensorop-opt --tensorop-annotate-sketch="target=x86-avx512"

// Three vectors: 64 rows in 8 x 48 (13 x 32 before); 58 rows in 9 x 48
// (7 tiles, the last of 4 rows and 12 accumulators: as many slots as 8 x
// 48's 8 tiles, one tile fewer).
// RUN: %gen_matmul 64 43 131 | %{sketch} | FileCheck %s --check-prefix=SIXTYFOUR
// SIXTYFOUR: mc = 64, nc = 48, kc = 131, mr = 8, nr = 48, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>,
// RUN: %gen_matmul 58 40 384 | %{sketch} | FileCheck %s --check-prefix=FIFTYEIGHT
// FIFTYEIGHT: mr = 9, nr = 48, {{.*}}k_unroll = 4, broadcast = "explicit", prefetch_b = 0>,

// At most 16 rows the path prefetches two tiles ahead, in one tile B's
// rows ahead. 12 rows: two tiles of 6 rather than 8 and an edge of 4.
// RUN: %gen_matmul 12 40 1000 | %{sketch} | FileCheck %s --check-prefix=TWELVE
// TWELVE: mc = 12, nc = 48, kc = 334, mr = 6, nr = 48, {{.*}}k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 96>,
// RUN: %gen_matmul 12 50 50000 | %{sketch} | FileCheck %s --check-prefix=INL3
// INL3: mr = 6, nr = 64, {{.*}}prefetch_b_cols = 128>,

// More than 16 rows: the file's blocking.few_rows_prefetch_tiles_in_cache
// (0) where B stays in L2; a B past L2 keeps two tiles ahead, B's rows
// ahead in one tile (30x64x100000, 25.6 MB: 0.59x -> 1.13x oneDNN).
// RUN: %gen_matmul 30 64 100000 | %{sketch} | FileCheck %s --check-prefix=PASTL2
// PASTL2: mr = 6, nr = 64, {{.*}}prefetch_b = 0, prefetch_b_cols = 128>,
// RUN: %gen_matmul 58 40 384 | %{sketch} | FileCheck %s --check-prefix=INL2
// INL2: mr = 9, nr = 48, {{.*}}prefetch_b = 0>,

// Four vectors: 6 x 64.
// RUN: %gen_matmul 40 60 300 | %{sketch} | FileCheck %s --check-prefix=FOUR
// FOUR: mr = 6, nr = 64, {{.*}}pack_b = "none",

// Not: five vectors (N = 70), a B from memory (200000 x 60 floats, 48 MB),
// a GEMV (two rows, its own bands), nor 9 rows, whose block is N's width
// already (and keeps the three-vector block's K unroll of 1).
// RUN: %gen_matmul 40 70 300 | %{sketch} | FileCheck %s --check-prefix=FIVE
// FIVE: mr = 14, nr = 32, {{.*}}pack_b = "none",
// RUN: %gen_matmul 40 60 200000 | %{sketch} | FileCheck %s --check-prefix=MEMORY
// MEMORY: mr = 14, nr = 32, {{.*}}prefetch_b_cols = 64>,
// RUN: %gen_matmul 2 40 1000 | %{sketch} | FileCheck %s --check-prefix=GEMV
// GEMV: mr = 2, nr = 48, {{.*}}prefetch_b = 32>,
// RUN: %gen_matmul 9 40 500 | %{sketch} | FileCheck %s --check-prefix=NINE
// NINE: mr = 9, nr = 48, {{.*}}k_unroll = 1, {{.*}}prefetch_b_cols = 96>,
