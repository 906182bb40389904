// The few-rows path (at most 64 rows of C, B read in place and swept along
// N) prefetches each of B's rows two tiles ahead. Where L3 holds B and C
// has more than 16 rows, the blocks do enough FMAs per element of B that
// the prefetch only adds load-port work: the file's (Zen 5)
// blocking.few_rows_prefetch_tiles_in_cache 0 leaves B to the hardware
// prefetchers there (33x777x1027 +11.5% through gen's objects,
// docs/benchmarks/cpu-gemm-classes.md, "Zen 5: the few-rows path's column
// prefetch with B in cache"). With 16 rows or fewer B's rows bind and
// keep the prefetch (16x2048x2048 ran 4x slower without it), as does a
// CPU that sets 2 (Zen 4: not measured there).
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen4 0:1:Data:32K:8:64:0 2:2:Unified:1024K:8:64:0 3:3:Unified:32768K:16:64:0-1
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen5 0:1:Data:48K:12:64:0 2:2:Unified:1024K:16:64:0 3:3:Unified:32768K:16:64:0-1
// DEFINE: %{zen4} = env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=znver4
// DEFINE: %{zen5} = env TENSOROP_HOST_SYSFS=%t/zen5 TENSOROP_HOST_CPU=znver5

// RUN: %gen_matmul 33 777 1027 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=FILE
// FILE: mr = 11, nr = 32, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>
// RUN: %gen_matmul 33 777 1027 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=FILE
// RUN: %gen_matmul 33 777 1027 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=ZEN4
// ZEN4: pack_b = "none", {{.*}}prefetch_b_cols = 64>
// RUN: %gen_matmul 16 2048 2048 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=SIXTEEN
// SIXTEEN: mr = 8, nr = 48, {{.*}}pack_b = "none", {{.*}}prefetch_b_cols = 96>

// The field is checked: 0 to 8 tiles.
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['few_rows_prefetch_tiles_in_cache'] = 9; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/x86-avx512.json
// RUN: %gen_matmul 33 777 1027 | not tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t" 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: field 'blocking.few_rows_prefetch_tiles_in_cache' is 9.00, outside [0.00, 8.00]
