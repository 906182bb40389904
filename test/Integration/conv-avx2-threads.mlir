// Convolutions on AVX2 (16 registers, masked loads through a mask register)
// and split over threads (chunks of output rows, OpenMP).
// REQUIRES: host-avx2, libomp
// DEFINE: %{gen} = %python %tensorop_src/test/Integration/gen_conv_test.py
// DEFINE: %{avx2} = tensorop-opt --tensorop-pipeline="target=x86-avx2" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils
// DEFINE: %{threads} = tensorop-opt --tensorop-pipeline="target=x86-avx2 threads=3" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils,%libomp

// RUN: %{gen} --h 7 --w 9 --c 3 --f 17 --pad 1 | %{avx2} | FileCheck %s
// RUN: %{gen} --h 11 --w 13 --c 17 --f 33 --stride 2 --pad 1 | %{avx2} | FileCheck %s
// RUN: %{gen} --n 2 --h 9 --w 10 --c 33 --f 3 --r 7 --pad 3 --stride 2 | %{avx2} | FileCheck %s
// RUN: %{gen} --h 12 --w 12 --c 5 --f 16 --dilation 2 --pad 2 | %{avx2} | FileCheck %s
// RUN: %{gen} --n 2 --h 9 --w 10 --c 33 --f 19 --pad 1 | %{threads} | FileCheck %s
// RUN: %{gen} --h 5 --w 10 --c 8 --f 16 --pad 1 --stride 2 | %{threads} | FileCheck %s
// RUN: %{gen} --n 2 --h 15 --w 16 --c 3 --f 20 --r 7 --stride 2 --pad 3 | %{threads} | FileCheck %s
// Padded "window" layers fill their strip once per block of output rows
// (convStripBlockRows): blocks of 5 rows of a wide image (12 = 5 + 5 + 2),
// and of 13 rows (the image) with dilation 2 along H; the threads' chunks
// of 4 and 9 rows start inside blocks and (N = 2) inside the second image.
// RUN: %{gen} --h 12 --w 1400 --c 3 --f 5 --r 3 --pad 1 | %{threads} | FileCheck %s
// RUN: %{gen} --n 2 --h 13 --w 11 --c 3 --f 7 --r 3 --dilation 2 1 --pad 2 1 | %{threads} | FileCheck %s
// Loop order "fcp" (large filters) splits the filter panels over the
// threads, each packing its own.
// RUN: %{gen} --n 2 --h 5 --w 6 --c 300 --f 100 --pad 1 --stride 2 | %{threads} | FileCheck %s
// RUN: %{gen} --h 7 --w 7 --c 520 --f 20 --pad 1 | %{threads} | FileCheck %s
// The threaded loop runs in an OpenMP team of the chunks' count.
// RUN: %{gen} --n 2 --h 9 --w 10 --c 33 --f 19 --pad 1 | tensorop-opt --tensorop-pipeline="target=x86-avx2 threads=3" | FileCheck %s --check-prefix=OMP
// OMP: omp.parallel num_threads

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
